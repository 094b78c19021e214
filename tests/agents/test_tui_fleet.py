"""The TUI with the real session, fleet and loopback server: three background agents on screen,
one opened and watched, one stopped from the panel, the third's report collected on the next turn."""

from __future__ import annotations

import json
import threading

from loopback import held, text_turn, tool_calls_turn, tool_turn
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.history import UserEntry
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.agent_screen import AgentScreen
from mrsmith_tui.tui.view.sidebar import SidebarView
from tests.tui.pilot import until

from .helpers import Router


def state(app: MrSmithApp, agent_id: str) -> str:
    return next((r.state for r in app.model.sidebar.agents if r.agent_id == agent_id), "")


async def test_three_agents_watched_stopped_and_collected(loopback, tmp_path):
    # Each worker's stream is held on an Event this test sets, so which agents are still running
    # at each step is decided here, never by how fast the machine is.
    w1_finish, w2_never, w3_go = threading.Event(), threading.Event(), threading.Event()
    w1 = text_turn("report 1 " + "words " * 40, reasoning="plan\nthen write", pieces=40)
    w2 = text_turn("never finished " * 50, pieces=300)
    router = Router({
        "main": [
            tool_calls_turn([("spawn_agent", {"task": f"W{i}: part {i}", "label": f"part {i}"}) for i in (1, 2, 3)]),
            text_turn("the main answer, while they work", pieces=10),
            tool_turn("wait_agents", {"timeout_ms": 20000}),
            text_turn("collected"),
        ],
        "W1": [held(w1, w1_finish, at=len(w1.events) - 2)],  # all its text, then waits before finishing
        "W2": [held(w2, w2_never, at=5)],  # a few pieces, then stays mid-stream until stopped
        "W3": [held(text_turn("report 3", pieces=60), w3_go)],
    })
    srv = loopback(responder=router)
    config = Config(providers=[ProviderConfig(name="loop", base_url=srv.base_url)],
                    agents=[AgentConfig(name="default", provider="loop", model="m1", max_context_tokens=8000)],
                    sessions_dir=str(tmp_path / "sessions"))
    work = tmp_path / "project"
    work.mkdir()

    def make(sink, approver):
        return compose_session(config=config, cwd=work, sink=sink, approver=approver, max_agents=4, agent_wait_ms=20000)

    app = MrSmithApp(make, config=config, history_path=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"split the work", "enter")
        await until(pilot, lambda: len(app.model.sidebar.agents) == 3)
        assert app.query_one(SidebarView).display
        # /agents puts the cursor on the first running row: all three are running (held), so agent-1
        await pilot.press(*"/agents", "enter")
        await until(pilot, lambda: app.focused is app.query_one(SidebarView))
        assert [state(app, f"agent-{i}") for i in (1, 2, 3)] == ["running"] * 3
        assert app.model.sidebar.selected == "agent-1"
        # open agent-1 from the panel and watch it stream
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, AgentScreen))
        screen = app.screen
        assert screen.agent_id == "agent-1"
        await until(pilot, lambda: any("report 1" in v.text_shown() for v in screen.query('.block')))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, AgentScreen) and app.focused is app.query_one(SidebarView))
        assert app.model.sidebar.selected == "agent-1"  # the cursor stayed on the row that was opened
        # stop agent-2 from the panel, mid-stream (its stream is held open)
        await pilot.press("down")
        assert app.model.sidebar.selected == "agent-2"
        await pilot.press("x")
        await until(pilot, lambda: state(app, "agent-2") == "stopped")
        await pilot.press("escape")
        # the main run ends; agents 1 and 3 finish when let go, and the next turn collects them
        w1_finish.set()
        w3_go.set()
        await until(pilot, lambda: not app.model.run.running)
        await until(pilot, lambda: state(app, "agent-3") == "done" and state(app, "agent-1") == "done")
        await pilot.press(*"collect the reports", "enter")
        await until(pilot, lambda: not app.model.run.running and any(
            b.kind == "text" and b.text == "collected" for b in app.model.conv.blocks))
        folder = next((tmp_path / "sessions").iterdir())
    collected = [m for m in router.requests("main")[-1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "report 3" in collected and "report 1" in collected and "stopped before it finished" in collected
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["agent-1.jsonl", "agent-2.jsonl", "agent-3.jsonl", "transcript.jsonl"]
    for i in (1, 2, 3):
        records = [json.loads(x) for x in (folder / f"agent-{i}.jsonl").read_text().splitlines()]
        assert records[0]["type"] == "TranscriptHeader" and records[-1]["type"] == "RunEnded"


async def test_skills_command_lists_and_loads_a_skill_once(tmp_path, loopback):
    srv = loopback([text_turn("planned")])
    config = Config(providers=[ProviderConfig(name="loop", base_url=srv.base_url)],
                    agents=[AgentConfig(name="default", provider="loop", model="m1")],
                    sessions_dir=str(tmp_path / "sessions"))
    work = tmp_path / "project"
    work.mkdir()

    def make(sink, approver):
        return compose_session(config=config, cwd=work, sink=sink, approver=approver)

    app = MrSmithApp(make, config=config, history_path=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await pilot.press(*"/skills plan", "enter")
        await until(pilot, lambda: any(b.text == "skill plan loaded" for b in app.model.conv.blocks))
        await pilot.press(*"/skills plan", "enter")
        await until(pilot, lambda: any(b.text == "skill plan was already loaded" for b in app.model.conv.blocks))
        await pilot.press(*"/skills", "enter")
        await until(pilot, lambda: app.model.conv.blocks[-1].text.startswith("Skills"))
        listing = app.model.conv.blocks[-1].text.splitlines()
        assert any(line.startswith("* plan ") for line in listing) and any(line.startswith("  tdd ") for line in listing)
        contexts = [e for e in app.session.history if isinstance(e, UserEntry) and e.kind == "context"]
        assert len(contexts) == 1 and "plan" in contexts[0].text
        transcript = app.session.transcript_path
        assert not transcript.exists()  # #23: a session's file is made at its first prompt
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: any(b.text == "planned" for b in app.model.conv.blocks) and not app.model.run.running)
    records = [json.loads(x) for x in transcript.read_text().splitlines()]
    (skill,) = [r for r in records if r["type"] == "ContextAdded"]
    assert skill["entry"]["text"] == contexts[0].text and skill["skill"] == "plan"
    assert [r["type"] for r in records][:3] == ["TranscriptHeader", "ContextAdded", "UserPrompt"]
