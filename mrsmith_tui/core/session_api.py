"""The seams around a session: what each of its users may rely on, as protocols.

`core.session.AgentSession` is the one implementation; the compositions that build it
(core.session, agents.compose) name it, its users do not: each depends on the narrowest
protocol that covers what it calls:

    Session         the frontends (TUI, headless, the CLI): run a turn, cancel it (through
                    the token), compact, reset, switch agent, effort; the gauges (ledger),
                    the permissions (gate), the transcript path and the services
    Compactable     core.compact: the history, the provider, the ledger and the transcript
    ServiceHost     the services built for a session (agents: the fleet, sub-agents, skills):
                    what every agent context of the session shares with it

`SessionAddOns` is what the composition adds to a session as it is built (agents.compose):
the services, their tools and system-prompt sections, and what they do on /reset, an
agent switch and close. An `AddOnFactory` receives the session it serves (as a
ServiceHost) while that session is being built: the fleet follows the session's agent,
provider and transcript as they change, so it holds the session, not a copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig, Config
from mrsmith_tui.history import HistoryEntry
from mrsmith_tui.tools.services import Services

if TYPE_CHECKING:  # names for the annotations only: the core's own modules import this one
    from mrsmith_tui.core.budget import ToolCallBudget
    from mrsmith_tui.core.conversation import Conversation, RunResult
    from mrsmith_tui.core.run_ids import IdSource
    from mrsmith_tui.core.usage import UsageLedger
    from mrsmith_tui.provider.types import Provider
    from mrsmith_tui.session.transcript import TranscriptWriter
    from mrsmith_tui.tools.approval import ApprovalGate
    from mrsmith_tui.tools.base import Tool
    from mrsmith_tui.tools.ledger import FileLedger
    from mrsmith_tui.tools.registry import ToolRegistry, ToolSource

__all__ = ["AddOnFactory", "Compactable", "ServiceHost", "Session", "SessionAddOns", "Sink"]

Sink = Callable[[msgs.Msg], None]
History = list[HistoryEntry]  # the person's agent's history, typed and wire-neutral (mrsmith_tui.history)


class Session(Protocol):
    """A person's conversation with one (switchable) agent, as a frontend drives it.

    `run` and `compact` block: call them from a worker thread; cancelling the token stops them.
    """

    @property
    def agent(self) -> AgentConfig: ...
    @property
    def session_id(self) -> str: ...
    @property
    def cwd(self) -> Path: ...
    @property
    def transcript_path(self) -> Path | None: ...
    @property
    def gate(self) -> ApprovalGate: ...
    @property
    def ledger(self) -> UsageLedger: ...
    @property
    def services(self) -> Services: ...
    @property
    def config(self) -> Config: ...

    def run(self, prompt: str, cancel: CancelToken, *, attachments: Sequence[tuple[str, str]] = ()) -> RunResult: ...

    def add_context(self, added: msgs.ContextAdded | str) -> None:
        """Text into the context before the next prompt (a `!command`'s output); posted and recorded."""
        ...

    def compact(self, cancel: CancelToken) -> str:
        """/compact: the summary, or "" when nothing changed (the sink says why)."""
        ...

    def reset(self) -> None: ...

    def switch_agent(self, name: str) -> None:
        """Raises a MrSmithError (ConfigError) for an agent that is not configured; nothing changes then."""
        ...

    def set_reasoning_effort(self, value: str | None) -> None:
        """Raises a MrSmithError (ConfigError) for an effort the protocol refuses; nothing changes then."""
        ...

    def set_model(self, model: str) -> None:
        """The current agent goes on with `model` from the next request. Raises ConfigError."""
        ...

    def list_models(self) -> list[str]:
        """The models the agent's provider offers (blocking: asks the server where it can say)."""
        ...

    def close(self) -> None: ...


class Compactable(Protocol):
    """What /compact reads and changes (core.compact)."""

    @property
    def agent(self) -> AgentConfig: ...
    @property
    def config(self) -> Config: ...
    @property
    def provider(self) -> Provider: ...
    @property
    def provider_name(self) -> str: ...
    @property
    def history(self) -> History: ...
    @property
    def sink(self) -> Sink: ...
    @property
    def ledger(self) -> UsageLedger: ...
    @property
    def transcript(self) -> TranscriptWriter | None: ...
    @property
    def conversation(self) -> Conversation: ...
    def system_prompt(self) -> str: ...


class ServiceHost(Protocol):
    """The session as its services see it: what a sub-agent or background agent shares with it
    (folder, gate, file ledger, budget, ids, usage totals, transcript folder) and what follows the
    person's agent (config, agent, provider, tools)."""

    @property
    def config(self) -> Config: ...
    @property
    def agent(self) -> AgentConfig: ...
    @property
    def provider(self) -> Provider: ...
    @property
    def cwd(self) -> Path: ...
    @property
    def sink(self) -> Sink: ...
    @property
    def gate(self) -> ApprovalGate: ...
    @property
    def file_ledger(self) -> FileLedger | None: ...
    @property
    def ledger(self) -> UsageLedger: ...
    @property
    def budget(self) -> ToolCallBudget: ...
    @property
    def ids(self) -> IdSource: ...
    @property
    def services(self) -> Services: ...
    @property
    def session_id(self) -> str: ...
    @property
    def transcript_path(self) -> Path | None: ...
    @property
    def history(self) -> History: ...

    def secrets(self) -> list[str]: ...

    def tools_for(self, agent: AgentConfig) -> ToolRegistry:
        """The tools `agent` gets in this session."""
        ...

    def add_context(self, added: msgs.ContextAdded | str) -> None:
        """Text into the person's agent's context (a loaded skill body); the Msg is posted and recorded."""
        ...


Hook = Callable[[], None]


@dataclass(frozen=True)
class SessionAddOns:
    """What the composition adds to a session while it is built (see the module doc)."""

    services: Services = field(default_factory=Services)  # the session adds its approval gate
    tools: tuple[Tool, ...] = ()
    tool_sources: tuple[ToolSource, ...] = ()  # tools that come and go (MCP servers'), read before each request
    system_sections: tuple[str, ...] = ()
    on_reset: tuple[Hook, ...] = ()  # before the history is cleared
    on_switch: tuple[Hook, ...] = ()  # after a successful agent switch
    on_close: tuple[Hook, ...] = ()


AddOnFactory = Callable[[ServiceHost], SessionAddOns]
