"""What a session is made of, built in one place before the session itself.

`session_parts` builds the pieces every agent context of a session shares (approval gate,
tool-call budget, usage ledger, id source, file ledger) and the two factories the session
needs again later: the provider factory (an agent switch to another provider) and the
transcript opener (/reset opens a new transcript). `AgentSession` receives them; it builds
none of them itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mrsmith_tui import __version__
from mrsmith_tui.config.load import api_key_for, sessions_dir
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.budget import ToolCallBudget
from mrsmith_tui.core.run_ids import IdSource
from mrsmith_tui.core.session_api import Sink
from mrsmith_tui.core.usage import UsageLedger
from mrsmith_tui.provider.types import Provider
from mrsmith_tui.session import records
from mrsmith_tui.session.transcript import TranscriptWriter
from mrsmith_tui.tools.approval import ApprovalGate, Permission
from mrsmith_tui.tools.base import Approver
from mrsmith_tui.tools.permission_mode import PermissionMode

if TYPE_CHECKING:
    from mrsmith_tui.tools.ledger import FileLedger

__all__ = ["ProviderFactory", "SessionParts", "TranscriptOpener", "default_provider_factory", "session_parts",
           "session_secrets"]

ProviderFactory = Callable[[ProviderConfig], Provider]


def default_provider_factory(config: Config) -> ProviderFactory:
    from mrsmith_tui.provider.factory import make_provider

    return lambda pc: make_provider(pc, api_key_for(config, pc.name), config.include_usage)


def session_secrets(config: Config) -> list[str]:
    """Every provider key the config knows: redacted from the transcripts."""
    keys = {pc.api_key for pc in config.providers if pc.api_key}
    keys |= {k for pc in config.providers if (k := api_key_for(config, pc.name))}
    return sorted(keys)


@dataclass(frozen=True)
class TranscriptOpener:
    """Opens a session's transcripts: a new one (with its header) or a recorded one to go on with."""

    config: Config
    cwd: Path
    sink: Sink
    persist: bool = True  # False (--no-session): no transcript at all
    frontend: str = "tui"  # "headless" for -p and pipes: --list and the picker mark those

    def new(self, session_id: str, agent: AgentConfig) -> TranscriptWriter | None:
        if not self.persist:
            return None
        path = sessions_dir(self.config) / session_id / "transcript.jsonl"
        header = records.header(
            session_id=session_id, created=time.time(), cwd=str(self.cwd), agent=agent.name,
            model=agent.model, provider=agent.provider, protocol=_protocol(self.config, agent.provider),
            version=__version__, frontend=self.frontend,
        )
        # made at the first prompt: a start that never got one leaves no session behind
        return TranscriptWriter(path, sink=self.sink, secrets=session_secrets(self.config), header=header,
                                from_first_prompt=True)

    def append(self, path: Path) -> TranscriptWriter | None:
        """The recorded transcript at `path`, written on without a second header."""
        if not self.persist:
            return None
        return TranscriptWriter(path, sink=self.sink, secrets=session_secrets(self.config))


def _protocol(config: Config, provider: str) -> str:
    try:
        return config.provider(provider).protocol
    except KeyError:
        return "openai"


@dataclass(frozen=True)
class SessionParts:
    config: Config
    cwd: Path  # resolved
    sink: Sink
    approver: Approver  # the frontend's; the person's agent's tools ask it directly
    gate: ApprovalGate  # every agent's tool calls pass it; it asks `gate.approver`
    budget: ToolCallBudget
    ledger: UsageLedger
    ids: IdSource
    file_ledger: FileLedger | None
    provider_factory: ProviderFactory
    transcripts: TranscriptOpener


def session_parts(
    *,
    config: Config,
    agent: AgentConfig,
    cwd: Path,
    sink: Sink,
    approver: Approver,
    gate_approver: Approver | None = None,
    allow: Iterable[str] = (),
    persist: bool = True,
    provider_factory: ProviderFactory | None = None,
    frontend: str = "tui",
) -> SessionParts:
    """The parts of a session on `agent`. `gate_approver`: whom the gate asks (default `approver`;
    the agents wrap it so an agent waiting on the person shows as waiting). `allow`: specs granted
    for this run (--allow), after the config's."""
    cwd = Path(cwd).resolve()
    mode = PermissionMode(config.default_mode, sink)  # the CLI puts --permission-mode / --yes there (cli.mode_flags)
    gate = ApprovalGate(gate_approver or approver, [Permission(spec, "config") for spec in config.allow], mode)
    for spec in allow:
        gate.grant(spec, "--allow")
    budget = ToolCallBudget(agent.max_tool_calls_per_session)
    return SessionParts(
        config=config, cwd=cwd, sink=sink, approver=approver, gate=gate, budget=budget,
        ledger=UsageLedger(sink, max_context_tokens=agent.max_context_tokens, budget=budget), ids=IdSource(),
        file_ledger=_file_ledger(), provider_factory=provider_factory or default_provider_factory(config),
        transcripts=TranscriptOpener(config, cwd, sink, persist, frontend),
    )


def _file_ledger() -> FileLedger | None:
    try:
        from mrsmith_tui.tools.ledger import FileLedger
    except ModuleNotFoundError as e:
        if e.name != "mrsmith_tui.tools.ledger":
            raise
        return None
    return FileLedger()
