"""/tools lists every tool with its origin in a worker, /tools reload reads the folders first; a wrong word
is one line."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.commands.registry import CommandError
from tests.tui.commands.fake_context import FakeContext

TOOLS = REGISTRY.find("/tools")


class FakeTools:
    def __init__(self) -> None:
        self.reloads = 0

    def listing(self):
        return [("shell", "built-in", "Run a shell command.\nMore."), ("mcp__demo__echo", "MCP server demo", "Echo."),
                ("shout", "user", "S" * 200), ("lint", "project", "")]

    def reload(self):
        self.reloads += 1
        return "drop-in tools reloaded: shout (user), lint (project)"


def _ctx(service) -> FakeContext:
    return FakeContext(session=SimpleNamespace(services=SimpleNamespace(tools=service)))


def test_tools_lists_every_tool_with_its_origin_in_a_worker():
    service = FakeTools()
    ctx = _ctx(service)
    run_command(REGISTRY, ctx, "/tools", "")
    assert ctx.notes == [] and TOOLS.in_worker and TOOLS.waits_for_run
    [text] = ctx.run_jobs()
    lines = text.splitlines()
    assert lines[0] == "Tools · 4 · /tools reload picks up new drop-in tools"
    assert lines[1].split() == ["shell", "built-in", "Run", "a", "shell", "command."]
    assert lines[2].startswith("mcp__demo__echo  MCP server demo  Echo.")
    assert lines[3].endswith("S" * 69 + "…") and "user" in lines[3]
    assert service.reloads == 0


def test_tools_reload_reads_again_first():
    service = FakeTools()
    ctx = _ctx(service)
    run_command(REGISTRY, ctx, "/tools", "reload")
    [text] = ctx.run_jobs()
    assert service.reloads == 1 and text.splitlines()[0] == "drop-in tools reloaded: shout (user), lint (project)"


def test_a_wrong_word_is_one_line():
    with pytest.raises(CommandError, match="say /tools or /tools reload"):
        TOOLS.parse("relaod now")
    ctx = _ctx(FakeTools())
    run_command(REGISTRY, ctx, "/tools", "nope")
    assert ctx.notes == [("/tools: unknown /tools nope: say /tools or /tools reload", "error")]


def test_completion_offers_reload():
    from mrsmith_tui.tui.update import initial_model

    assert TOOLS.complete(initial_model(), "re") == ("/tools reload",)
