"""The config schema: one set of records for TOML and JSON alike.

Field names are snake_case in Python; every field also accepts its camelCase alias (the
reference tool's config works unchanged). The records are frozen dataclasses checked by
`config.fields` (no pydantic: start-up time, #26). Loading, precedence and error messages live
in `config.load`. No `from __future__ import annotations` here, on purpose: the annotations are
the checker's, read as objects (evaluating them from strings cost ~1.5 ms of every start).
"""

import re
from typing import Any, Literal

from mrsmith_tui.config.fields import Invalid, Loc, LocatedError, Record, limits
from mrsmith_tui.config.vendors import VENDORS

ContextBuilderName = Literal["full", "sliding"]
Thinking = Literal["strip", "preserve"]
ProtocolName = Literal["openai", "anthropic", "minimax", "zai", "deepseek"]  # config.vendors has each one's rules
Effort = Literal["low", "medium", "high", "max"]
CacheMode = Literal["auto", "active"]
# tools.permission_mode: what runs without asking. "auto" is never a default: only --permission-mode auto or --yes.
PermissionModeName = Literal["ask", "accept-edits", "plan", "auto"]

__all__ = ["AgentConfig", "Config", "Invalid", "Loc", "LocatedError", "ProviderConfig", "allow_spec_problem"]


class ProviderConfig(Record):
    name: str = limits(min_length=1)
    api_key: str | None = None
    # A command whose first line of output is the key (`pass show groq`), run once at start.
    api_key_command: str | None = None
    base_url: str = "https://api.openai.com/v1"  # without one, the protocol's documented endpoint
    protocol: ProtocolName = "openai"
    # Seconds. A slow reasoning model may think for minutes between bytes.
    connect_timeout: float = limits(15.0, gt=0)
    read_timeout: float = limits(600.0, gt=0)

    @staticmethod
    def check_base_url(v: str) -> str:
        if not v.startswith(("http://", "https://")):
            raise ValueError(f"{v!r} is not an http(s) URL")
        return v.rstrip("/")

    @classmethod
    def before(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A vendor protocol without a base URL gets the endpoint its vendor documents."""
        if not data.get("base_url") and not data.get("baseUrl"):
            protocol = data.get("protocol")
            if isinstance(protocol, str) and protocol in VENDORS and protocol != "openai":
                return {**data, "base_url": VENDORS[protocol].base_url}
        return data


class AgentConfig(Record):
    name: str = limits(min_length=1)
    provider: str = limits(min_length=1)
    model: str = limits(min_length=1)
    system_prompt: str = "You are mrsmith, a careful, capable coding agent working in the person's repository."
    max_context_tokens: int = limits(128_000, gt=0)
    max_tool_rounds: int = limits(32, gt=0)
    max_tool_calls_per_turn: int = limits(32, gt=0)  # of one model answer; the rest are not run
    max_tool_calls_per_session: int | None = limits(None, gt=0)
    reasoning_effort: str | None = None  # low, medium, high or max (another value is refused on a vendor protocol)
    thinking: Thinking | None = None  # None: the protocol's default (config.vendors)
    max_tokens: int | None = limits(None, gt=0)  # the answer's cap (None: the server's, or the vendor's on Messages)
    cache: CacheMode = "auto"  # "active": cache_control breakpoints (Messages protocols)
    thinking_style: Literal["budget", "adaptive"] | None = None  # Messages effort: a token budget or adaptive (None: by model)
    context_builder: ContextBuilderName | None = None  # None: the top-level setting
    tools: list[str] | None = None  # opt-in tools; None offers every tool
    shell_harmless_commands: list[str] = limits(factory=list)
    shell_dangerous_commands: list[str] = limits(factory=list)
    auto_compact: bool = False
    # Environment variables that look like secrets but this agent's commands may see (names or
    # shell-style patterns: "GITHUB_TOKEN", "NPM_*").
    shell_env_passthrough: list[str] = limits(factory=list)


class Config(Record):
    providers: list[ProviderConfig] = limits(factory=list)
    agents: list[AgentConfig] = limits(factory=list)
    default_agent: str | None = None
    include_usage: bool = True
    context_builder: ContextBuilderName = "full"
    context_window_ratio: float = limits(0.75, gt=0, le=1)
    sessions_dir: str | None = None
    project_skills_dir: str = "./skills"
    global_skills_dir: str | None = None  # None: ~/.config/mrsmith/skills
    theme: str | None = None
    # Specs allowed without asking in every session ("write_file", "shell:git commit", "shell"),
    # like `--allow`; listed by /permissions with their origin, and revocable there.
    allow: list[str] = limits(factory=list)
    # gitignore-style patterns added to the built-in secret-looking paths (`!pattern` takes one out)
    sensitive_paths: list[str] = limits(factory=list)
    # hosts web_fetch may reach without asking ("docs.python.org", "*.readthedocs.io")
    web_fetch_allowed_hosts: list[str] = limits(factory=list)
    # the permission mode a session starts in (--permission-mode beats it; Shift-Tab cycles in the UI)
    default_mode: PermissionModeName = "ask"
    # ring the bell (and send a desktop notification where the terminal takes one) when a run of more than
    # notify_after_seconds ends, or an approval or a question waits, while the terminal does not have the focus
    notify: bool = True
    notify_after_seconds: float = limits(10.0, ge=0)
    # seconds a drop-in tool's call may run before its process group is killed (docs/drop-in-tools.md)
    drop_in_tool_timeout: float = limits(60.0, gt=0, le=3600)

    @staticmethod
    def check_allow(v: list[str]) -> list[str]:
        for spec in v:
            problem = allow_spec_problem(spec)
            if problem:
                raise ValueError(problem)
        return [spec.strip() for spec in v]

    @staticmethod
    def check_default_mode(v: str) -> str:
        if v == "auto":  # the command line alone starts one (cli.mode_flags puts it here)
            raise ValueError("auto is never a default: start with --permission-mode auto (or --yes) when you mean it")
        return v

    def check(self) -> None:
        # Error locations name the list index so the message reads `agents[1].provider`.
        names = [p.name for p in self.providers]
        seen: set[str] = set()
        for i, name in enumerate(names):
            if name in seen:
                raise _located(("providers", i, "name"), f"{name!r} is defined twice")
            seen.add(name)
        agent_names: set[str] = set()
        for i, agent in enumerate(self.agents):
            if agent.provider not in seen:
                raise _located(("agents", i, "provider"), f"{agent.provider!r} is not a configured provider")
            if agent.name in agent_names:
                raise _located(("agents", i, "name"), f"{agent.name!r} is defined twice")
            agent_names.add(agent.name)
        if self.default_agent is not None and self.default_agent not in agent_names:
            raise _located(("defaultAgent",), f"{self.default_agent!r} is not a configured agent")

    def provider(self, name: str) -> ProviderConfig:
        for p in self.providers:
            if p.name == name:
                return p
        raise KeyError(name)

    def agent(self, name: str) -> AgentConfig:
        for a in self.agents:
            if a.name == name:
                return a
        raise KeyError(name)


def _located(loc: Loc, message: str) -> LocatedError:
    return LocatedError(loc, message)


_TOOL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def allow_spec_problem(spec: str) -> str | None:
    """Why an allow spec (config `allow`, `--allow`) could never match a call, or None. A spec is a
    tool's name, or `tool:target` with a target; there are no wildcards."""
    example = "write a spec such as write_file or 'shell:git commit'"
    s = spec.strip()
    if not s:
        return f"an allow entry is empty ({example})"
    tool, colon, target = s.partition(":")
    if not _TOOL_NAME.fullmatch(tool):
        return f"allow entry {s!r} names no tool ({example}; there are no wildcards)"
    if colon and not target.strip():
        return f"allow entry {s!r} has nothing after the ':' ({example}, or just {tool} for every {tool} call)"
    return None
