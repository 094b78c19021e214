"""The tool registry: every known tool by name, and the per-agent selection.

Opt-in tools are offered to an agent only when its `tools` allowlist names them; the
always-on tools are offered to every agent. `None` as the allowlist means the agent did
not restrict itself: every registered tool is offered.

A ToolSource adds tools that come and go while the session lives (an MCP server's): the registry
asks it each time it is read, so a tool gone from its source is gone from the next request. A
source's tool never shadows a registered one of the same name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

from mrsmith_tui.tools.base import Tool, openai_spec

OPT_IN = frozenset({"shell", "read_file", "write_file", "list_dir", "glob", "web_fetch"})


class ToolSource(Protocol):
    def current_tools(self) -> Sequence[Tool]: ...


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool] = (), *, sources: Iterable[ToolSource] = (),
                 exclude: Iterable[str] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        self.sources: tuple[ToolSource, ...] = tuple(sources)
        self._excluded = frozenset(exclude)
        for tool in tools:
            self.add(tool)

    def _live(self) -> dict[str, Tool]:
        """The registered tools, then the sources' tools of now."""
        if not self.sources:
            return self._tools
        out = dict(self._tools)
        for source in self.sources:
            for tool in source.current_tools():
                if tool.name not in out and tool.name not in self._excluded:
                    out[tool.name] = tool
        return out

    def add(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name!r} registered twice")
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        tool = self._tools.get(name) or (self._live().get(name) if self.sources else None)
        if tool is None and name not in self._excluded:
            for source in self.sources:  # a source may say why a tool it had is gone (an MCP server died)
                gone = getattr(source, "gone_tool", None)
                if gone is not None and (tool := gone(name)) is not None:
                    break
        return tool

    def registered(self) -> list[Tool]:
        """The registered tools only, without the sources' tools of the moment."""
        return list(self._tools.values())

    def names(self) -> list[str]:
        return sorted(self._live())

    def select(self, allowlist: Iterable[str] | None, *, exclude: Iterable[str] = ()) -> ToolRegistry:
        """The tools one agent may use: its allowlisted opt-in tools plus the always-on ones."""
        excluded = set(exclude)
        allowed = None if allowlist is None else set(allowlist)
        chosen = [
            t
            for name, t in self._tools.items()
            if name not in excluded and (allowed is None or name not in OPT_IN or name in allowed)
        ]
        return ToolRegistry(chosen, sources=self.sources, exclude=excluded | self._excluded)

    def plus(self, tools: Iterable[Tool]) -> ToolRegistry:
        """This registry with `tools` added (its sources kept)."""
        return ToolRegistry([*self._tools.values(), *tools], sources=self.sources, exclude=self._excluded)

    def specs(self) -> list[dict[str, Any]]:
        return [openai_spec(t) for t in self._live().values()]

    def __contains__(self, name: object) -> bool:
        return name in self._live()

    def __iter__(self) -> Iterator[Tool]:
        return iter(list(self._live().values()))

    def __len__(self) -> int:
        return len(self._live())
