"""A server's life: killed mid-session, reconnected, disabled and enabled (the later command stands),
one that never answers initialize, one whose command does not exist, and a graceful close."""

from __future__ import annotations

import sys
import time

from mrsmith_tui import msgs
from mrsmith_tui.tools.registry import ToolRegistry

from .servers import call, hub_for, stdio_entry


def test_killed_mid_session_then_reconnected(tmp_path):
    with hub_for(tmp_path / "p", {"demo": stdio_entry()}) as hub:
        registry = ToolRegistry(sources=[hub])
        assert "mcp__demo__echo" in registry
        died = call(hub, "mcp__demo__die", {})
        assert died.content == "error: mcp server demo is not connected; /mcp reconnect demo"
        assert hub.statuses()[0].state == "failed"
        assert "mcp__demo__echo" not in registry  # gone from the next request
        # but a call the model still makes to it says how to bring it back, not "unknown tool" (adversary 9)
        gone = registry.get("mcp__demo__echo")
        assert gone is not None and gone.approval({}, None) is None  # type: ignore[arg-type]
        assert gone.run({"text": "x"}, None).content == died.content  # type: ignore[arg-type]
        assert registry.get("mcp__other__echo") is None
        assert any(isinstance(m, msgs.Warning) and "mcp server demo failed" in m.text for m in hub.sink.msgs)
        assert hub.apply("reconnect", "demo") == "mcp server demo: reconnecting"
        assert hub.wait_settled(90) and hub.statuses()[0].state == "ready"
        assert call(hub, "mcp__demo__echo", {"text": "back"}).content == "echo: back"


def test_disable_and_enable_change_the_registry_at_once_and_the_later_command_stands(tmp_path):
    with hub_for(tmp_path / "p", {"demo": stdio_entry()}) as hub:
        registry = ToolRegistry(sources=[hub])
        held = next(t for t in hub.current_tools() if t.name == "mcp__demo__echo")
        assert "tools are gone from the next request" in hub.apply("disable", "demo")
        assert not [n for n in registry.names() if n.startswith("mcp__")]
        # a tool an agent still holds answers with the reconnect hint, never a traceback
        assert "not connected; /mcp reconnect demo" in call_held(held, hub)
        # enable then at once disable: the disable stands, whatever the start does later
        hub.apply("enable", "demo")
        hub.apply("disable", "demo")
        hub.apply("enable", "demo")
        assert hub.wait_settled(90)
        assert hub.statuses()[0].state == "ready" and "mcp__demo__echo" in registry
        states = [m.state for m in hub.sink.msgs if isinstance(m, msgs.McpServerChanged)]
        assert states[-1] == "ready" and "disabled" in states


def call_held(tool, hub) -> str:
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.tools.base import ToolContext

    from .servers import ScriptedApprover

    return tool.run({"text": "x"}, ToolContext(root=hub.hub.root, cancel=CancelToken(), approver=ScriptedApprover())).content


def test_a_server_that_never_answers_initialize_fails_at_its_startup_timeout(tmp_path, monkeypatch):
    monkeypatch.setenv("FIXTURE_HANG_INIT", "1")
    began = time.monotonic()
    with hub_for(tmp_path / "p", {"mute": stdio_entry(startupTimeoutSec=1)}, wait=10) as hub:
        [status] = hub.statuses()
        assert status.state == "failed" and status.error.startswith("timed out")
        assert hub.current_tools() == []
    assert time.monotonic() - began < 9  # the close did not wait on it either


def test_a_broken_command_costs_its_tools_only_and_says_why(tmp_path):
    servers = {"broken": {"command": str(tmp_path / "no-such-server")},
               "quits": {"command": sys.executable, "args": ["-c", "import sys; sys.stderr.write('bad token\\n'); sys.exit(2)"]}}
    with hub_for(tmp_path / "p", servers) as hub:
        by_name = {s.name: s for s in hub.statuses()}
        assert by_name["broken"].state == "failed"
        assert by_name["broken"].error == f"cannot start: no such program {tmp_path / 'no-such-server'}"
        assert by_name["quits"].state == "failed" and "bad token" in by_name["quits"].error
        assert hub.log_tail("quits") == ["bad token"]


def test_the_server_runs_in_its_own_session_and_close_stops_it(tmp_path):
    import os

    import pytest

    with hub_for(tmp_path / "p", {"demo": stdio_entry()}) as hub:
        pid, sid = map(int, call(hub, "mcp__demo__whoami", {}).content.split())
        assert sid == pid != os.getsid(0)  # a Ctrl-C for the run (the terminal's process group) does not reach it
        os.kill(pid, 0)
    with pytest.raises(ProcessLookupError):  # closed gracefully and reaped, not left behind
        os.kill(pid, 0)
