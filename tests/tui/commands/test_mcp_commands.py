"""/mcp parses its verbs, completes them and the servers' names, says how to configure servers when there
are none, and turns every refusal into one line; the sidebar's rows follow McpServerChanged."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.commands.registry import CommandError
from mrsmith_tui.tui.update import initial_model, update
from tests.tui.commands.fake_context import FakeContext

MCP = REGISTRY.find("/mcp")


@dataclass
class FakeServers:
    applied: list[tuple[str, str]] = field(default_factory=list)

    def statuses(self):
        return [SimpleNamespace(name="demo", state="ready", source="project", transport="stdio", shown="python s.py",
                                tools=("mcp__demo__echo", "mcp__demo__add"), error="", note="", log="", spec_prefix="mcp__demo"),
                SimpleNamespace(name="broken", state="failed", source="user", transport="stdio", shown="nope",
                                tools=(), error="cannot start: no such program nope", note="", log="/l/broken.log",
                                spec_prefix="mcp__broken")]

    def names(self):
        return ["demo", "broken"]

    def log_tail(self, name, lines=5):
        return ["Traceback: bad token"]

    def apply(self, verb, name):
        self.applied.append((verb, name))
        return f"mcp server {name}: {verb}d"


def _ctx(servers) -> FakeContext:
    return FakeContext(session=SimpleNamespace(services=SimpleNamespace(mcp=servers)))  # type: ignore[arg-type]


def test_parse_refuses_what_it_cannot_do_in_one_line():
    for arg, text in [("frob demo", "unknown /mcp frob"), ("disable", "/mcp disable needs one server name"),
                      ("list demo", "/mcp list takes no name"), ("enable a b", "/mcp enable needs one server name")]:
        with pytest.raises(CommandError, match=text):
            MCP.parse(arg)
    assert MCP.parse("reconnect demo").name == "demo" and MCP.parse("").verb == ""


def test_the_overview_the_list_and_a_verb():
    servers = FakeServers()
    ctx = _ctx(servers)
    run_command(REGISTRY, ctx, "/mcp", "")
    assert "demo (mcp__demo): echo, add" in ctx.notes[-1][0]
    assert "broken (mcp__broken): (failed: cannot start: no such program nope)" in ctx.notes[-1][0]
    run_command(REGISTRY, ctx, "/mcp", "list")
    text = ctx.notes[-1][0]
    assert "demo  ready  2 tools  project · stdio  python s.py" in text
    assert "  last error: cannot start" in text and "  stderr: Traceback: bad token" in text and "log: /l/broken.log" in text
    run_command(REGISTRY, ctx, "/mcp", "disable demo")
    assert servers.applied == [("disable", "demo")] and ctx.notes[-1] == ("mcp server demo: disabled", "notice")


def test_without_servers_it_says_where_they_are_configured():
    ctx = _ctx(None)
    run_command(REGISTRY, ctx, "/mcp", "list")
    assert ".mcp.json" in ctx.notes[-1][0]


def test_completion_offers_verbs_then_the_servers_in_the_sidebar():
    model, _ = update(initial_model(), m.McpServerChanged(name="demo", state="ready", tools=2))
    model, _ = update(model, m.McpServerChanged(name="docs", state="failed", error="timed out"))
    assert MCP.complete(model, "dis") == ("/mcp disable", "/mcp disconnect")
    assert MCP.complete(model, "disable d") == ("/mcp disable demo", "/mcp disable docs")
    assert [(r.name, r.state, r.tools, r.error) for r in model.sidebar.mcp] == [("demo", "ready", 2, ""), ("docs", "failed", 0, "timed out")]
    same, _ = update(model, m.McpServerChanged(name="demo", state="ready", tools=2))
    assert same.sidebar is model.sidebar  # nothing changed: the panel is not redrawn
