"""The Tool protocol, the context a tool runs in, and the Approver port.

A tool is a name, a description that teaches the model to use it, a JSON schema for its
arguments, a read-only flag, and `run(args, ctx) -> ToolResult`. A tool that changes the
filesystem says so through `approval(args, ctx)`, which returns what the person must
approve (or None); the tool loop asks the Approver before calling `run`.

Nothing here knows about frontends: the TUI answers the Approver with a modal, headless
with its `--yes` / `--allow` policy, tests with a script.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.msgs import Msg, Question, Todo
from mrsmith_tui.tools.ledger import FileLedger
from mrsmith_tui.tools.services import Services

Decision = Literal["yes", "no", "always"]

# Which trust rule made a call ask (DESIGN.md, "Trust boundaries"); the approval modal and the
# headless refusal name it in words (RULE_TEXT), next to the detail in ApprovalNeed.reason.
Rule = Literal["writes", "runs", "secret", "outside", "network", "other"]
# web_fetch's spec for a host whose address is loopback/private/link-local: `web_fetch:<host>@private`.
PRIVATE_SUFFIX = "@private"
RULE_TEXT: dict[str, str] = {
    "writes": "writes a file",
    "runs": "runs a program that is not read-only",
    "secret": "reads a secret",
    "outside": "reaches outside the working directory",
    "network": "talks to a new host",
    "other": "needs your approval",
}


@dataclass(frozen=True)
class ToolResult:
    content: str  # what goes back to the model
    ok: bool = True
    exit_code: int | None = None
    diff: str | None = None  # unified diff of a file change, for the frontend

    @staticmethod
    def error(text: str) -> ToolResult:
        return ToolResult(content=f"Error: {text}", ok=False)


@dataclass(frozen=True)
class ApprovalNeed:
    """Why a call needs the person, and what an "always" answer would allow from then on."""

    reason: str  # the detail, one line: "write_file creates notes.txt", "rm is not read-only"
    spec: str  # "write_file", "edit", "shell:git commit", "web_fetch:127.0.0.1"
    diff: str | None = None
    rule: Rule = "other"


@dataclass(frozen=True)
class ApprovalQuery:
    tool: str
    arguments: str
    reason: str
    spec: str
    diff: str | None = None
    agent_id: str | None = None
    rule: Rule = "other"


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


class Tool(Protocol):
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments object
    read_only: bool

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        """None when the call may run at once; otherwise what to ask the person."""
        ...

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult: ...

    def summary(self, args: dict[str, Any]) -> str:
        """One short line for the tool block's header (`git status`, `src/a.py`)."""
        ...


class BaseTool:
    """Defaults for the optional parts of the protocol."""

    name: str = ""
    description: str = ""
    parameters: dict[str, Any] = {"type": "object", "properties": {}}
    read_only: bool = True

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        if self.read_only:
            return None
        return ApprovalNeed(reason=f"{self.name} changes the filesystem", spec=self.name, rule="writes")

    def summary(self, args: dict[str, Any]) -> str:
        for key in ("path", "command", "pattern", "url", "name", "description"):
            if isinstance(args.get(key), str):
                return args[key].splitlines()[0][:200] if args[key] else ""
        return ""

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:  # pragma: no cover
        raise NotImplementedError


def openai_spec(tool: Tool) -> dict[str, Any]:
    """The tool as an OpenAI `tools[]` entry."""
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": tool.parameters},
    }
