"""A drop-in tool as a Tool of the registry.

Every call asks unless the person allowed it: its spec is the tool's name (`--allow shout`, an
"always" answer, the config's allow list). Before each call the file is read again, bounded and
without following a link (files.read_file): if its bytes are not those that were loaded (and, for a
project tool, trusted), the call is refused and `/tools reload` loads it again (a project tool asks
again). The code run is the code read then, handed to the child, never a path to read later.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mrsmith_tui.security.environment import child_environment
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.dropin.contract import Contract
from mrsmith_tui.tools.dropin.files import FileProblem, ToolFile, read_file
from mrsmith_tui.tools.dropin.runner import run_code

__all__ = ["DEFAULT_TIMEOUT", "DropInTool", "Origin", "RunSettings", "ToolPlace"]

Origin = Literal["user", "project"]
DEFAULT_TIMEOUT = 60.0


@dataclass(frozen=True)
class RunSettings:
    timeout: float = DEFAULT_TIMEOUT  # dropInToolTimeout
    passthrough: Callable[[], tuple[str, ...]] = tuple  # the agent's shellEnvPassthrough


@dataclass(frozen=True)
class ToolPlace:
    """Where a tool file lives: base/parts…/file (parts opened without following links)."""

    origin: Origin
    base: Path
    parts: tuple[str, ...]
    shown: str  # the folder as the person reads it: ~/.config/mrsmith/tools, .mrsmith/tools

    def shown_file(self, name: str) -> str:
        return f"{self.shown}/{name}"


class DropInTool(BaseTool):
    read_only = False

    def __init__(self, contract: Contract, tool_file: ToolFile, place: ToolPlace, settings: RunSettings) -> None:
        self.name = contract.name
        self.description = contract.description
        self.parameters = contract.parameters
        self.origin: Origin = place.origin
        self.place = place
        self.file_name = tool_file.path.name
        self.digest = tool_file.digest
        self.settings = settings

    @property
    def shown_path(self) -> str:
        return self.place.shown_file(self.file_name)

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        return ApprovalNeed(reason=f"the {self.origin} tool {self.name} runs its Python code ({self.shown_path})",
                            spec=self.name, rule="runs")

    def summary(self, args: dict[str, Any]) -> str:
        try:
            text = json.dumps(args, ensure_ascii=False)
        except (TypeError, ValueError):
            text = ""
        return clean(text[:200])

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            now = read_file(self.place.base, self.place.parts, self.file_name)
        except FileProblem as e:
            return ToolResult.error(f"{self.name}: {e}")
        if now.digest != self.digest:
            again = " (a project tool asks to be trusted again)" if self.origin == "project" else ""
            return ToolResult.error(f"{self.name}: {self.shown_path} changed on disk since it was loaded; "
                                    f"ask the person for /tools reload{again}")
        try:
            code = now.data.decode("utf-8")
        except UnicodeDecodeError:
            return ToolResult.error(f"{self.name}: {self.shown_path} is not UTF-8 text")
        from mrsmith_tui.tools.jobs import JOBS  # mrsmith's exit kills a call still running

        env = child_environment(self.settings.passthrough(), root=ctx.root)
        outcome = run_code(self.name, now.path, code, args, cwd=ctx.root, env=env, timeout=self.settings.timeout,
                           on_cancel=ctx.cancel.on_cancel, track=JOBS.track)
        text = clean(outcome.text)  # the tool's text is data: no terminal control reaches a screen through it
        return ToolResult(content=text if outcome.ok else f"Error: {text}", ok=outcome.ok)
