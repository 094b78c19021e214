"""MCP server configuration: `~/.config/mrsmith/mcp.json` (every workspace) and `<root>/.mcp.json`
(this project), in the shape every MCP client writes:

    {"mcpServers": {
        "demo": {"command": "uvx", "args": ["demo-server"], "env": {"TOKEN": "${DEMO_TOKEN}"}, "cwd": "."},
        "web":  {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${WEB_TOKEN}"}}}}

A name in both files is the project's. Optional per server: `"disabled": true` (listed, not
started), `"startupTimeoutSec"` (default 30) and `"toolTimeoutSec"` (default 120). `type` may say
`stdio` or `http` (`streamable-http`); `sse` is not supported. A problem with one server (a missing
variable, a wrong field) is that server's error, shown by /mcp; the others start.
"""

from __future__ import annotations

import json
import math
import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mrsmith_tui.mcp.expand import Expander, ExpandError
from mrsmith_tui.paths import config_dir
from mrsmith_tui.security.private_files import read_regular
from mrsmith_tui.security.trust_store import trust_digest

__all__ = ["PROJECT_FILE", "ServerSpec", "load_specs", "user_config_path"]

PROJECT_FILE = ".mcp.json"
MAX_CONFIG_BYTES = 1024 * 1024
MAX_SERVERS = 50
STARTUP_TIMEOUT = 30.0
CALL_TIMEOUT = 120.0
Source = Literal["user", "project"]


def user_config_path() -> Path:
    return config_dir() / "mcp.json"


@dataclass(frozen=True)
class ServerSpec:
    """One configured server, its strings expanded (`error` set instead when that failed)."""

    name: str
    source: Source
    origin: str  # the file it came from
    transport: Literal["stdio", "http"] = "stdio"
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    cwd: str | None = None
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    disabled: bool = False
    startup_timeout: float = STARTUP_TIMEOUT
    call_timeout: float = CALL_TIMEOUT
    variables: tuple[str, ...] = ()  # the variables its config expands
    digest: str = ""  # of what would run, as written (security.trust_store)
    error: str = ""
    written: str = ""  # the command line or URL as the file writes it: ${VAR} unexpanded
    # Values expanded from the environment that look secret: redacted once the server is started (never
    # at load, so an untrusted file changes nothing); literal values the file writes are never secrets.
    secrets: tuple[str, ...] = ()

    def shown(self) -> str:
        """The command line or URL as the file writes it, for the trust prompt and /mcp: a variable is
        shown as ${NAME}, never its value (and no header or env value at all)."""
        return self.written


def load_specs(root: Path, user_path: Path | None = None) -> tuple[list[ServerSpec], list[str]]:
    """The servers of the user file and the project file (the project's win on a name), and a warning
    for each file that could not be read as a whole."""
    warnings: list[str] = []
    by_name: dict[str, ServerSpec] = {}
    for path, source in ((user_path or user_config_path(), "user"), (Path(root) / PROJECT_FILE, "project")):
        raw, problem = _read(path)
        if problem:
            warnings.append(f"{path}: {problem}")
        for name, entry in raw.items():
            if name in by_name and source == "user":
                continue
            by_name.pop(name, None)
            by_name[name] = _spec(name, entry, source, path, Path(root))  # type: ignore[arg-type]
    specs = list(by_name.values())
    if len(specs) > MAX_SERVERS:
        warnings.append(f"{len(specs)} MCP servers configured; the first {MAX_SERVERS} are used")
    return specs[:MAX_SERVERS], warnings


def _read(path: Path) -> tuple[dict[str, Any], str]:
    try:
        data = read_regular(path, MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return {}, ""
    except OSError as e:
        return {}, f"cannot be read ({e.strerror or e})"
    if len(data) > MAX_CONFIG_BYTES:
        return {}, f"larger than {MAX_CONFIG_BYTES // 1024} KiB; not read"
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        return {}, f"not valid JSON ({str(e).splitlines()[0][:120]})"
    servers = doc.get("mcpServers") if isinstance(doc, dict) else None
    if servers is None:
        return {}, "" if isinstance(doc, dict) else "not a JSON object"
    if not isinstance(servers, dict):
        return {}, '"mcpServers" is not an object of servers'
    return servers, ""


def _spec(name: str, entry: Any, source: Source, path: Path, root: Path) -> ServerSpec:
    base = ServerSpec(name=name, source=source, origin=str(path))
    if not isinstance(entry, dict):
        return _failed(base, "its entry is not an object", entry)
    # A user server's relative command, args and cwd are the user's config folder's, never the repository's.
    home = Path(root) if source == "project" else Path(os.path.abspath(path)).parent
    try:
        return _parse(base, entry, home)
    except (ExpandError, ValueError, TypeError) as e:
        return _failed(base, str(e), entry)


def _failed(base: ServerSpec, error: str, entry: Any) -> ServerSpec:
    from dataclasses import replace

    digest = trust_digest(name=base.name, raw=json.dumps(entry, sort_keys=True, default=str))
    written = entry.get("url") or entry.get("command") if isinstance(entry, dict) else None
    transport: Literal["stdio", "http"] = "http" if isinstance(entry, dict) and entry.get("url") is not None else "stdio"
    return replace(base, error=f"config: {error}", digest=digest, transport=transport,
                   written=written if isinstance(written, str) else "")


def _strings(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f'"{what}" must be a list of strings')
    return value


def _mapping(value: Any, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ValueError(f'"{what}" must be an object of strings')
    return value


def _seconds(value: Any, what: str, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or not 0 < value <= 3600:
        raise ValueError(f'"{what}" must be a number of seconds from 0 to 3600')
    return float(value)


def _parse(base: ServerSpec, entry: dict[str, Any], root: Path) -> ServerSpec:
    from dataclasses import replace

    kind = entry.get("type")
    command, url = entry.get("command"), entry.get("url")
    if kind not in (None, "stdio", "http", "streamable-http", "streamableHttp"):
        raise ValueError(f'type {kind!r} is not supported (stdio or http)' if kind != "sse" else
                         "the SSE transport is not supported; use the server's streamable HTTP endpoint")
    if (command is None) == (url is None):
        raise ValueError('give either "command" (stdio) or "url" (streamable HTTP)')
    if command is not None and (not isinstance(command, str) or not command.strip()):
        raise ValueError('"command" must be a non-empty string')
    if url is not None and not isinstance(url, str):
        raise ValueError('"url" must be a string')
    args, env, headers = _strings(entry.get("args"), "args"), _mapping(entry.get("env"), "env"), _mapping(entry.get("headers"), "headers")
    cwd = entry.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise ValueError('"cwd" must be a string')
    # Everything as written, values too (unexpanded): an edited env or header value is an edit. The store
    # keeps only the digest, never a value.
    digest = trust_digest(name=base.name, command=command, args=args, cwd=cwd, url=url,
                          env=[f"{k}={v}" for k, v in sorted(env.items())],
                          headers=sorted(f"{h.lower()}: {v}" for h, v in headers.items()))
    spec = replace(
        base, digest=digest, written=url if url is not None else " ".join(shlex.quote(str(p)) for p in (command, *args)), disabled=entry.get("disabled") is True,
        startup_timeout=_seconds(entry.get("startupTimeoutSec"), "startupTimeoutSec", STARTUP_TIMEOUT),
        call_timeout=_seconds(entry.get("toolTimeoutSec"), "toolTimeoutSec", CALL_TIMEOUT),
    )
    expand = Expander()
    if url is not None:
        expanded_url = expand(url).strip()
        if not expanded_url.startswith(("http://", "https://")):
            raise ValueError('"url" must start with http:// or https://')
        spec = replace(spec, transport="http", url=expanded_url,
                       headers=tuple((k, expand(v)) for k, v in headers.items()))
    else:
        work = os.path.expanduser(expand(cwd)) if cwd else "."
        work = os.path.normpath(os.path.join(root, work))
        assert isinstance(command, str)
        spec = replace(spec, transport="stdio", command=expand(command), args=tuple(expand(a) for a in args),
                       env=tuple((k, expand(v)) for k, v in env.items()), cwd=work)
    return replace(spec, variables=tuple(expand.names), secrets=tuple(expand.secrets))
