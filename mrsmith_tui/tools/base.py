"""The Tool protocol and its defaults (the context a tool runs in and the Approver port live in
services.py, the values a call comes to in outcome.py; both are re-exported here).

A tool is a name, a description that teaches the model to use it, a JSON schema for its
arguments, a read-only flag, and `run(args, ctx) -> ToolResult`. A tool that changes the
filesystem says so through `approval(args, ctx)`, which returns what the person must
approve (or None); the tool loop asks the Approver before calling `run`.

Nothing here knows about frontends: the TUI answers the Approver with a modal, headless
with its `--yes` / `--allow` policy, tests with a script.
"""

from __future__ import annotations

from typing import Any, Protocol

from mrsmith_tui.tools.outcome import (
    PRIVATE_SUFFIX,
    RULE_TEXT,
    ApprovalNeed,
    ApprovalQuery,
    Decision,
    Rule,
    ToolResult,
)
from mrsmith_tui.tools.services import Approver, ToolContext

__all__ = [
    "PRIVATE_SUFFIX", "RULE_TEXT", "ApprovalNeed", "ApprovalQuery", "Approver", "BaseTool", "Decision", "Rule", "Tool",
    "ToolContext", "ToolResult", "openai_spec",
]

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
