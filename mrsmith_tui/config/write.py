"""Writing the first config file (the setup screen's last step).

    write_config(path, provider_name="ollama", base_url="http://127.0.0.1:11434/v1",
                 api_key=None, model="qwen3:8b")

The file is TOML with the same camelCase keys the loader reads. It is validated with the
schema before anything touches the disk, created with mode 0600 (it may hold an API key),
written to a temporary file beside the target and moved into place, so a crash never
leaves a half-written config. An existing file is kept unless `overwrite=True`.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import tomli_w

from mrsmith_tui.config.load import ConfigError, describe_validation_error
from mrsmith_tui.config.schema import Config, Invalid


def config_document(*, provider_name: str, base_url: str, api_key: str | None, model: str,
                    agent_name: str = "default", protocol: str = "openai") -> dict[str, Any]:
    """The config as a camelCase dict, checked against the schema (raises ConfigError)."""
    provider: dict[str, Any] = {"name": provider_name, "baseUrl": base_url.strip().rstrip("/")}
    if protocol != "openai":
        provider["protocol"] = protocol
    if api_key:
        provider["apiKey"] = api_key
    doc = {
        "defaultAgent": agent_name,
        "providers": [provider],
        "agents": [{"name": agent_name, "provider": provider_name, "model": model}],
    }
    try:
        Config.model_validate(doc)
    except Invalid as e:
        raise ConfigError(f"new config: {describe_validation_error(e)}") from None
    return doc


def write_config(path: Path, *, provider_name: str, base_url: str, api_key: str | None, model: str,
                 agent_name: str = "default", overwrite: bool = False, protocol: str = "openai") -> Path:
    """Write config.toml at `path` (parent folders created); returns the path written."""
    path = Path(path).expanduser()
    doc = config_document(provider_name=provider_name, base_url=base_url, api_key=api_key,
                          model=model, agent_name=agent_name, protocol=protocol)
    if path.exists() and not overwrite:
        raise ConfigError(f"{path}: already exists (not overwritten)")
    data = tomli_w.dumps(doc).encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, data, overwrite=overwrite)
    except FileExistsError:
        raise ConfigError(f"{path}: already exists (not overwritten)") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot write: {e.strerror or e}") from None
    return path


def _atomic_write(path: Path, data: bytes, *, overwrite: bool) -> None:
    # mkstemp creates the file with mode 0600, so the key is never readable by others.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if overwrite:
            os.replace(tmp, path)
        else:
            # link() fails if the target appeared meanwhile: no silent clobbering.
            os.link(tmp, path)
            tmp.unlink()
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
