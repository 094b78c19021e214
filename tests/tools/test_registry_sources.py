"""A ToolSource's tools come and go: the registry (and every selection made from it, as a sub-agent's is)
asks the source each time it is read; a source never shadows a registered tool; exclusions hold for both."""

from __future__ import annotations

from mrsmith_tui.tools.base import BaseTool
from mrsmith_tui.tools.registry import ToolRegistry


class Named(BaseTool):
    def __init__(self, name: str) -> None:
        self.name = name
        self.description = name


class Source:
    def __init__(self) -> None:
        self.tools: list[Named] = []

    def current_tools(self):
        return list(self.tools)


def test_a_selection_follows_its_source_live():
    source = Source()
    registry = ToolRegistry([Named("read_file"), Named("task")], sources=[source])
    agent = registry.select(None, exclude=["task"]).plus([Named("skill")])
    assert agent.names() == ["read_file", "skill"]
    source.tools = [Named("mcp__demo__echo"), Named("read_file"), Named("task")]
    assert agent.names() == ["mcp__demo__echo", "read_file", "skill"]  # no shadowing, "task" still excluded
    assert agent.get("read_file").description == "read_file" and "mcp__demo__echo" in agent
    assert [s["function"]["name"] for s in agent.specs()] == ["read_file", "skill", "mcp__demo__echo"]
    source.tools = []  # /mcp disable: gone from the next request
    assert "mcp__demo__echo" not in agent and agent.get("mcp__demo__echo") is None and len(agent) == 2
    assert [t.name for t in agent.registered()] == ["read_file", "skill"]
