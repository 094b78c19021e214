"""What a tool is given: the context it runs in (ToolContext), the Approver port, and the services
a session offers its tools and frontends, typed by what they are used for.

A session's services are built once, by the composition that builds the session
(agents.compose), and never patched on afterwards. The tools layer cannot import the agents
or skills that implement them, so each service is a protocol here: what a tool, the TUI or
a test may call on it. `ToolContext.services` holds them; every agent context of a session
shares the same `Services`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.msgs import Msg, Question, Todo
from mrsmith_tui.tools.ledger import FileLedger
from mrsmith_tui.tools.outcome import ApprovalNeed, ApprovalQuery, Decision, ToolResult

if TYPE_CHECKING:
    from mrsmith_tui.tools.checkpoints import Checkpoints

__all__ = [
    "AgentSummary", "ApprovalAsker", "Approver", "FleetService", "McpService", "McpSummary", "Services",
    "SkillSummary", "SkillsService", "SubagentService", "ToolContext", "ToolsService",
]


class ApprovalAsker(Protocol):
    """Asking mid-run (web_fetch's redirects) through the session's gate, so "always" answers count."""

    def confirm(self, tool_name: str, need: ApprovalNeed, raw_args: str, ctx: ToolContext) -> str | None:
        """None when approved; otherwise why not, one line."""
        ...


class AgentSummary(Protocol):
    """One background agent or sub-agent as a list shows it (agents.book.AgentRecord)."""

    @property
    def agent_id(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def state(self) -> str: ...
    @property
    def tool_calls(self) -> int: ...
    def elapsed(self, now: float | None = None) -> float: ...


class FleetService(Protocol):
    """The background agents of a session (agents.fleet.Fleet)."""

    def list(self) -> Sequence[AgentSummary]: ...

    def stop(self, agent_id: str, *, join_seconds: float = ...) -> AgentSummary:
        """Stop one agent and what it started; raises a MrSmithError (FleetError) for an unknown id."""
        ...

    def stop_all(self, *, join_seconds: float = ...) -> None: ...


class SkillSummary(Protocol):
    """One skill as /skills lists it (skills.skill.Skill)."""

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def folder(self) -> Path: ...


class SkillsService(Protocol):
    """The skills catalogue of the person's agent (skills.catalog.SkillCatalog)."""

    def list(self) -> Sequence[SkillSummary]: ...
    def names(self) -> Sequence[str]: ...
    def is_loaded(self, name: str) -> bool: ...

    def load(self, name: str) -> SkillSummary:
        """Load a skill into the context (once); raises a MrSmithError (SkillError) for an unknown one."""
        ...


class SubagentService(Protocol):
    """The `task` tool's runner (agents.subagent.SubagentRunner)."""

    def run(self, *, description: str, prompt: str, agent: str | None = None, task_id: str | None = None,
            parent_cancel: CancelToken | None = None, parent_id: str | None = None) -> ToolResult: ...

    def stop_all(self) -> None: ...


class McpSummary(Protocol):
    """One MCP server as /mcp lists it (mcp.hub.ServerStatus)."""

    @property
    def name(self) -> str: ...
    @property
    def state(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def transport(self) -> str: ...
    @property
    def shown(self) -> str: ...
    @property
    def tools(self) -> tuple[str, ...]: ...
    @property
    def error(self) -> str: ...
    @property
    def note(self) -> str: ...
    @property
    def log(self) -> str: ...
    @property
    def spec_prefix(self) -> str: ...


class McpService(Protocol):
    """The session's MCP servers (mcp.service.McpServers): none of its methods waits for a server."""

    def statuses(self) -> Sequence[McpSummary]: ...
    def names(self) -> Sequence[str]: ...
    def log_tail(self, name: str, lines: int = ...) -> list[str]: ...

    def apply(self, verb: str, name: str) -> str:
        """enable | disable | reconnect | disconnect NAME; the line to show. Raises a MrSmithError."""
        ...


class ToolsService(Protocol):
    """Every tool of the person's agent with its origin, and the drop-in tools (tools.dropin.service.DropInTools)."""

    def listing(self) -> Sequence[tuple[str, str, str]]:
        """(name, origin, description): origin is built-in, MCP server NAME, user or project. May ask for trust:
        call it from a worker thread."""
        ...

    def reload(self) -> str:
        """Read the drop-in tool folders again; the line to show."""
        ...


@dataclass(frozen=True)
class Services:
    """What a session offers beyond its tools. A service a build leaves out is None."""

    approval_gate: ApprovalAsker | None = None
    fleet: FleetService | None = None
    skills: SkillsService | None = None
    subagents: SubagentService | None = None
    mcp: McpService | None = None
    tools: ToolsService | None = None  # /tools: every tool's origin; the drop-in tools (reload)


class Approver(Protocol):
    """The port through which a run reaches the person. Methods block until answered."""

    def approve(self, query: ApprovalQuery) -> Decision: ...

    def confirm_continue(self, rounds: int, agent_id: str | None = None) -> bool: ...

    def ask(self, questions: tuple[Question, ...], agent_id: str | None = None) -> str | None:
        """The person's answers as text, or None when no person is available."""
        ...


def _no_output(_: str) -> None:
    pass


def _no_msg(_: Msg) -> None:
    pass


@dataclass
class ToolContext:
    """What a tool may use. One per agent; `cancel` is the current run's token."""

    root: Path  # the working directory; nothing outside it is touched
    cancel: CancelToken
    approver: Approver
    emit: Callable[[Msg], None] = _no_msg  # post a Msg (e.g. TasksChanged)
    output: Callable[[str], None] = _no_output  # live output of the running call
    ledger: FileLedger | None = None  # shared by every agent of a session
    agent_id: str | None = None
    # The session's services (approval gate, skills catalogue, sub-agent runner, fleet), shared by its agents.
    services: Services = field(default_factory=Services)
    tasks: list[Todo] = field(default_factory=list)  # this agent's task list, as todowrite last set it
    checkpoints: Checkpoints | None = None  # /undo: the prior bytes of what the file tools write (the person's agent)
