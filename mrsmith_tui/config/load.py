"""Loading the config: file, environment and command line, in that order of strength.

    load_config()  ~/.config/mrsmith/config.toml or config.json (or --config PATH), then the
                   environment (MRSMITH_SESSIONS_DIR, MRSMITH_CONTEXT_BUILDER,
                   MRSMITH_CONTEXT_WINDOW_RATIO, MRSMITH_<PROVIDER>_API_KEY). With no file,
                   OPENAI_API_KEY / OPENAI_BASE_URL / MODEL make an implicit provider + agent.
    apply_cli()    the command-line flags, strongest of all.

Every problem is a `ConfigError` whose message is one line naming the file (or the
variable, or the flag), the field path and what is wrong.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from mrsmith_tui import paths
from mrsmith_tui.config.fields import Invalid, Record, to_camel
from mrsmith_tui.config.schema import AgentConfig, Config, Loc, ProviderConfig
from mrsmith_tui.errors import EXIT_USAGE, MrSmithError

IMPLICIT_PROVIDER = "openai"
IMPLICIT_AGENT = "default"
DEFAULT_BASE_URL = "https://api.openai.com/v1"

# Top-level fields the environment may override, by variable.
ENV_OVERRIDES = {
    "MRSMITH_SESSIONS_DIR": "sessions_dir",
    "MRSMITH_CONTEXT_BUILDER": "context_builder",
    "MRSMITH_CONTEXT_WINDOW_RATIO": "context_window_ratio",
}


class ConfigError(MrSmithError):
    """A config problem, as one line fit to print after `mrsmith: `."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --------------------------------------------------------------------------- loading


def default_config_paths() -> list[Path]:
    folder = paths.config_dir()
    return [folder / "config.toml", folder / "config.json"]


def load_config(path: Path | None = None, *, env: Mapping[str, str] = os.environ) -> Config:
    """The config from `path` (or the default location), with the environment applied."""
    if path is not None:
        path = Path(path).expanduser()
        if not path.is_file():
            what = "a folder, not a config file" if path.is_dir() else "not a regular file" if path.exists() else "no such file"
            raise ConfigError(f"--config: {path}: {what}")
        config = _read_file(path)
    else:
        found = next((p for p in default_config_paths() if p.is_file()), None)
        config = _read_file(found) if found else _implicit_config(env)
    config = _apply_env(config, env)
    return config


def _read_file(path: Path) -> Config:
    label = _label(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{label}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    data = _parse_json(text, label) if path.suffix.lower() == ".json" else _parse_toml(text, label)
    try:
        return Config.model_validate(data)
    except Invalid as e:
        raise ConfigError(f"{label}: {describe_validation_error(e)}") from None


def _label(path: Path) -> str:
    """How a config file is named in messages: `~/...` under the home folder."""
    try:
        return "~/" + str(path.resolve().relative_to(Path.home().resolve()))
    except ValueError:
        return str(path)


def _parse_toml(text: str, label: str) -> dict[str, Any]:
    import tomllib  # only when there is a config file (start-up time)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # tomllib says "... (at line 3, column 7)"; put the place first, like a compiler.
        message = str(e)
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", message)
        if m:
            message = f"line {m.group(1)}, column {m.group(2)}: {message[: m.start()]}"
        raise ConfigError(f"{label}: TOML syntax error: {message}") from None


def _parse_json(text: str, label: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{label}: JSON syntax error: line {e.lineno}, column {e.colno}: {e.msg}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{label}: the top level must be an object, not {type(data).__name__}")
    return data


def _implicit_config(env: Mapping[str, str]) -> Config:
    """No config file: OPENAI_API_KEY, OPENAI_BASE_URL and MODEL are enough to run."""
    key, base_url, model = env.get("OPENAI_API_KEY"), env.get("OPENAI_BASE_URL"), env.get("MODEL")
    if not (key or base_url or model):
        return Config()
    return _with_implicit(Config(), base_url=base_url, model=model, api_key=key, source="OPENAI_BASE_URL")


def _apply_env(config: Config, env: Mapping[str, str]) -> Config:
    updates = {field: (var, env[var]) for var, field in ENV_OVERRIDES.items() if env.get(var)}
    config = _override(config, updates)
    providers = []
    for pc in config.providers:
        key = env.get(api_key_variable(pc.name))
        providers.append(pc.model_copy(update={"api_key": key}) if key else pc)
    return config.model_copy(update={"providers": providers})


def api_key_variable(provider_name: str) -> str:
    """`MRSMITH_<NAME>_API_KEY`, the name upper-cased with `-` (and other non-word characters) as `_`."""
    return "MRSMITH_" + re.sub(r"\W", "_", provider_name.upper()) + "_API_KEY"


# --------------------------------------------------------------------------- command line


def apply_cli(
    config: Config,
    *,
    agent: str | None = None,
    sessions_dir: str | os.PathLike[str] | None = None,
    context_builder: str | None = None,
    context_window_ratio: float | str | None = None,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
) -> Config:
    """The config with the command-line flags applied (they beat the environment and the file).

    --base-url/--model/--api-key make the implicit provider and agent when the config has
    no agent, and otherwise override the chosen agent (and its provider).
    """
    updates: dict[str, tuple[str, Any]] = {}
    if sessions_dir is not None:
        updates["sessions_dir"] = ("--sessions-dir", str(sessions_dir))
    if context_builder is not None:
        updates["context_builder"] = ("--context-builder", context_builder)
    if context_window_ratio is not None:
        updates["context_window_ratio"] = ("--context-window-ratio", context_window_ratio)
    config = _override(config, updates)

    if agent is not None:
        try:
            config.agent(agent)
        except KeyError:
            raise ConfigError(f"--agent: {_unknown_agent(config, agent)}") from None
        config = config.model_copy(update={"default_agent": agent})

    if base_url is None and model is None and api_key is None:
        return config
    if not config.agents:
        return _with_implicit(config, base_url=base_url, model=model, api_key=api_key, source="--base-url")
    return _override_agent(config, resolve_agent(config, agent), base_url=base_url, model=model, api_key=api_key)


def _with_implicit(config: Config, *, base_url: str | None, model: str | None, api_key: str | None, source: str) -> Config:
    """Add (or update) the implicit `openai` provider, and the `default` agent when a model is known."""
    try:
        existing = config.provider(IMPLICIT_PROVIDER)
    except KeyError:
        existing = None
    fields: dict[str, Any] = {"name": IMPLICIT_PROVIDER, "base_url": existing.base_url if existing else DEFAULT_BASE_URL}
    if existing and existing.api_key:
        fields["api_key"] = existing.api_key
    if base_url:
        fields["base_url"] = base_url
    if api_key:
        fields["api_key"] = api_key
    provider = _validated(ProviderConfig, fields, source)
    providers = [p for p in config.providers if p.name != IMPLICIT_PROVIDER] + [provider]
    agents = list(config.agents)
    if model and not agents:
        agents.append(_validated(AgentConfig, {"name": IMPLICIT_AGENT, "provider": IMPLICIT_PROVIDER, "model": model}, "--model"))
    return config.model_copy(update={"providers": providers, "agents": agents})


def _override_agent(config: Config, chosen: AgentConfig, *, base_url: str | None, model: str | None, api_key: str | None) -> Config:
    agents = list(config.agents)
    if model:
        agents = [a.model_copy(update={"model": model}) if a.name == chosen.name else a for a in agents]
    providers = list(config.providers)
    if base_url or api_key:
        old = config.provider(chosen.provider)
        fields = old.model_dump()
        if base_url:
            fields["base_url"] = base_url
        if api_key:
            fields["api_key"] = api_key
        new = _validated(ProviderConfig, fields, "--base-url")
        providers = [new if p.name == old.name else p for p in providers]
    return config.model_copy(update={"providers": providers, "agents": agents})


Model = TypeVar("Model", bound=Record)


def _validated(model_cls: type[Model], fields: dict[str, Any], source: str) -> Model:
    try:
        return model_cls.model_validate(fields)
    except Invalid as e:
        raise ConfigError(f"{source}: {describe_validation_error(e, with_path=False)}") from None


def _override(config: Config, updates: dict[str, tuple[str, Any]]) -> Config:
    """Top-level fields replaced and re-validated; an error names the variable or flag."""
    if not updates:
        return config
    data = config.model_dump()
    data.update({field: value for field, (_, value) in updates.items()})
    try:
        return Config.model_validate(data)
    except Invalid as e:
        field = e.loc[0] if e.loc else None
        source = next((src for f, (src, _) in updates.items() if to_camel(f) == field), "config")
        raise ConfigError(f"{source}: {describe_validation_error(e, with_path=False)}") from None


# --------------------------------------------------------------------------- the chosen agent, keys, folders


def resolve_agent(config: Config, name: str | None, *, config_file: Path | None = None) -> AgentConfig:
    """The agent called `name`, else the default agent, else the first one. `config_file`: the file the
    config was read from (--config), else the default file when there is one, named when it has no agent."""
    name = name or config.default_agent
    if name is None:
        if not config.agents:
            raise ConfigError(_no_agent(config_file))
        return config.agents[0]
    try:
        return config.agent(name)
    except KeyError:
        raise ConfigError(_unknown_agent(config, name)) from None


def _no_agent(config_file: Path | None) -> str:
    found = Path(config_file).expanduser() if config_file else next((p for p in default_config_paths() if p.is_file()), None)
    if found is None:
        return ("no agent configured: set MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY), pass --model, "
                f"or write {_label(default_config_paths()[0])}")
    # With a file, MODEL and OPENAI_BASE_URL are not read (they stand in for a missing file): name the file.
    try:
        what = "is empty" if not found.read_bytes().strip() else "configures no agent"
    except OSError:
        what = "configures no agent"
    entry = '"agents": [{"name", "provider", "model"}]' if found.suffix.lower() == ".json" else "[[agents]] name, provider, model"
    return f"{_label(found)} {what}: add an agent ({entry}), or pass --model"


def _unknown_agent(config: Config, name: str) -> str:
    known = ", ".join(a.name for a in config.agents) or "none"
    return f"{name!r} is not a configured agent (configured: {known})"


def api_key_for(config: Config, provider_name: str, env: Mapping[str, str] = os.environ) -> str | None:
    """The API key for a provider.

    `load_config` has already put MRSMITH_<NAME>_API_KEY over the file's key and
    `apply_cli` put --api-key over that, so the config's key comes first; the environment
    is the fallback for a config built in code (and OPENAI_API_KEY for `openai`).
    """
    try:
        pc = config.provider(provider_name)
    except KeyError:
        pc = None
    if pc is not None and pc.api_key:
        return pc.api_key
    from_env = env.get(api_key_variable(provider_name))
    if from_env:
        return from_env
    if provider_name == IMPLICIT_PROVIDER and (pc is None or pc.protocol == "openai"):  # OpenAI's key goes to no other protocol
        return env.get("OPENAI_API_KEY") or None
    return None


KEY_COMMAND_TIMEOUT = 30.0


def run_key_command(provider: ProviderConfig, env: Mapping[str, str] | None = None) -> str:
    """The key `apiKeyCommand` prints (its first line), or ConfigError naming the provider.

    The command is the person's own (from their config file), so it runs with the whole
    environment: a password manager or a cloud CLI needs its own variables. The caller passes
    that environment without what points a program at the working tree (`env`, #21).
    """
    command = provider.api_key_command or ""
    where = f"providers.{provider.name}.apiKeyCommand"
    try:
        done = subprocess.run(["sh", "-c", command], stdin=subprocess.DEVNULL, capture_output=True, timeout=KEY_COMMAND_TIMEOUT,
                              env=None if env is None else dict(env))
    except subprocess.TimeoutExpired:
        raise ConfigError(f"{where}: {command!r} did not finish within {KEY_COMMAND_TIMEOUT:g} s") from None
    except OSError as e:
        raise ConfigError(f"{where}: cannot run {command!r}: {e.strerror or e}") from None
    lines = done.stdout.decode("utf-8", "replace").strip().splitlines()
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = f": {said[0][:200]!r}" if said else ""
        raise ConfigError(f"{where}: {command!r} exited with {done.returncode}{detail}")
    if not lines or not lines[0].strip():
        raise ConfigError(f"{where}: {command!r} printed no key")
    return lines[0].strip()


def sessions_dir(config: Config) -> Path:
    """Where transcripts go: sessionsDir (`~` expanded) or ~/.local/share/mrsmith/sessions."""
    if config.sessions_dir:
        return Path(config.sessions_dir).expanduser()
    return paths.default_sessions_dir()


# --------------------------------------------------------------------------- a record's problem as one line


def describe_validation_error(error: Invalid, *, with_path: bool = True) -> str:
    """The problem as `agents[1].maxToolRounds: input should be greater than 0 (got 0)`."""
    if error.kind == "extra_forbidden":
        message = "unknown field"
    elif error.kind == "missing":
        message = "required field is missing"
    else:
        message = error.message[:1].lower() + error.message[1:]
        if error.kind != "value_error":
            message += f" (got {error.input!r})"
    path = format_loc(error.loc)
    if with_path or error.kind in ("extra_forbidden", "missing"):
        return f"{path}: {message}" if path else message
    return message


def format_loc(loc: Loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
