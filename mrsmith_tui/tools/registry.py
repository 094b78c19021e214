"""The tool registry: every known tool by name, and the per-agent selection.

Opt-in tools are offered to an agent only when its `tools` allowlist names them; the
always-on tools are offered to every agent. `None` as the allowlist means the agent did
not restrict itself: every registered tool is offered.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from mrsmith_tui.tools.base import Tool, openai_spec

OPT_IN = frozenset({"shell", "read_file", "write_file", "list_dir", "glob", "web_fetch"})


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name!r} registered twice")
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return sorted(self._tools)

    def select(self, allowlist: Iterable[str] | None, *, exclude: Iterable[str] = ()) -> ToolRegistry:
        """The tools one agent may use: its allowlisted opt-in tools plus the always-on ones."""
        excluded = set(exclude)
        allowed = None if allowlist is None else set(allowlist)
        chosen = [
            t
            for name, t in self._tools.items()
            if name not in excluded and (allowed is None or name not in OPT_IN or name in allowed)
        ]
        return ToolRegistry(chosen)

    def specs(self) -> list[dict[str, Any]]:
        return [openai_spec(t) for t in self._tools.values()]

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)
