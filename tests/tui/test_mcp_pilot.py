"""The TUI with a real session, the loopback model and a real SDK server in the project's .mcp.json: the
trust prompt, the sidebar's live states, and /mcp list, disable, enable and reconnect changing the
next request's tools."""

from __future__ import annotations

import asyncio
import json
import sys

from loopback import text_turn, tool_turn
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.modals import ApprovalModal
from mrsmith_tui.tui.view.sidebar import SidebarView
from tests.mcp_client.servers import FIXTURE
from tests.tui.pilot import painted, until


def _state(app) -> str:
    return next((r.state for r in app.model.sidebar.mcp if r.name == "demo"), "")


def _mcp_tools(request) -> list[str]:
    return [t["function"]["name"] for t in request.get("tools", []) if t["function"]["name"].startswith("mcp__")]


def _notes(app) -> str:
    return "\n".join(b.text for b in app.model.conv.blocks)


async def test_trust_prompt_then_mcp_commands_change_the_next_request(loopback, tmp_path):
    turns = [text_turn("ok"), text_turn("ok"), text_turn("ok"), tool_turn("mcp__demo__slow", {"seconds": 60}, call_id="slow"),
             text_turn("ok")]
    srv = loopback(turns)
    work = tmp_path / "project"
    work.mkdir()
    entry = {"command": sys.executable, "args": [str(FIXTURE), "stdio"]}
    (work / ".mcp.json").write_text(json.dumps({"mcpServers": {"demo": entry}}))
    config = Config(providers=[ProviderConfig(name="loop", base_url=srv.base_url)],
                    agents=[AgentConfig(name="default", provider="loop", model="m1", max_context_tokens=64000)],
                    sessions_dir=str(tmp_path / "sessions"))

    def make(sink, approver):
        return compose_session(config=config, cwd=work, sink=sink, approver=approver)

    app = MrSmithApp(make, config=config, history_path=None)
    async with app.run_test(size=(120, 40)) as pilot:
        # The prompt is pushed while the app is still settling its first screens: Pilot's pause waits on
        # the screen it started with, so poll with the event loop's own sleep until the modal is painted.
        for _ in range(9000):  # painted, and its grace over (a key within it is dropped, not an answer)
            if painted(app, ApprovalModal) and app.clock() > app.model.pending.keys_from:
                break
            await asyncio.sleep(0.01)
        assert app.screen.req.tool == "project MCP server demo" and str(FIXTURE) in app.screen.req.arguments
        assert _state(app) == "untrusted"
        await pilot.press("y")
        await until(pilot, lambda: _state(app) == "ready")
        sidebar = app.query_one(SidebarView)
        assert sidebar.display and "demo" in str(sidebar.render())

        await pilot.press(*"/mcp list", "enter")
        await until(pilot, lambda: "demo  ready  11 tools  project · stdio" in _notes(app))
        await pilot.press(*"hello", "enter")
        await until(pilot, lambda: len(srv.requests) == 1 and not app.model.run.running)
        assert "mcp__demo__echo" in _mcp_tools(srv.requests[0])

        await pilot.press(*"/mcp disable demo", "enter")
        await until(pilot, lambda: _state(app) == "disabled")
        await pilot.press(*"again", "enter")
        await until(pilot, lambda: len(srv.requests) == 2 and not app.model.run.running)
        assert _mcp_tools(srv.requests[1]) == []

        await pilot.press(*"/mcp enable demo", "enter")
        await until(pilot, lambda: _state(app) == "ready")
        await pilot.press(*"/mcp reconnect demo", "enter")
        await until(pilot, lambda: "mcp server demo: reconnecting" in _notes(app))
        await until(pilot, lambda: _state(app) == "ready")
        await pilot.press(*"third", "enter")
        await until(pilot, lambda: len(srv.requests) == 3 and not app.model.run.running)
        assert "mcp__demo__echo" in _mcp_tools(srv.requests[2])

        # Esc during a call that would take a minute: the pending request is cancelled, the run ends now
        await pilot.press(*"be slow", "enter")
        await until(pilot, lambda: any(b.kind == "tool" and b.name == "mcp__demo__slow" for b in app.model.conv.blocks)
                    and app.model.run.running)
        await pilot.press("escape")
        await until(pilot, lambda: not app.model.run.running, timeout=30)
        await pilot.press(*"after", "enter")
        await until(pilot, lambda: len(srv.requests) == 5 and not app.model.run.running)
        results = [m["content"] for m in srv.requests[4]["messages"] if m["role"] == "tool"]
        assert results and "cancelled by the person" in results[-1]

        await pilot.press(*"/mcp disable nosuch", "enter")
        await until(pilot, lambda: "/mcp: no MCP server 'nosuch' (the servers: demo)" in _notes(app))
