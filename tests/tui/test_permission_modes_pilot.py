"""Permission modes in the TUI: Shift-Tab cycles them, the badge is never shed, and each mode runs, asks or
refuses the model's calls through the real session and the scripted loopback model."""

from __future__ import annotations

import json

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui import msgs as m
from mrsmith_tui.core import session as session_mod
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.modals import ApprovalModal
from mrsmith_tui.tui.view.status import StatusBar
from tests.tui.fakes import Clock, factory
from tests.tui.pilot import painted, until
from tests.tui.test_e2e import config_for

pytest.importorskip("mrsmith_tui.tools.builtin")


def app_with(config, cwd, clock=None, allow=()) -> MrSmithApp:
    def make(sink, approver):
        return session_mod.build_session(config=config, agent_name=None, cwd=cwd, sink=sink, approver=approver,
                                         allow=allow)
    return MrSmithApp(make, config=config, history_path=None, **({"clock": clock} if clock else {}))


def status(app) -> str:
    return str(app.query_one(StatusBar).render())


def turn_over(app) -> bool:
    return not app.model.run.running and bool(app.model.conv.blocks) and app.model.conv.blocks[-1].kind == "usage"


def tool_blocks(app, name: str) -> list:
    return [b for b in app.model.conv.blocks if b.kind == "tool" and b.name == name]


async def test_shift_tab_cycles_the_modes_and_the_gate_follows(tmp_path):
    app = MrSmithApp(factory(), history_path=None)  # a fake session without a gate: the model is checked here
    async with app.run_test(size=(120, 40)) as pilot:
        seen = [app.model.ledger.mode]
        for _ in range(4):
            await pilot.press("shift+tab")
            await until(pilot, lambda: app.model.ledger.mode != seen[-1])
            seen.append(app.model.ledger.mode)
        assert seen == ["ask", "accept-edits", "plan", "ask", "accept-edits"]
        assert "accept edits" in status(app) and "Shift-Tab: next" in app.model.screen.note
        assert app.query_one("#prompt").has_focus  # the focus did not move: Shift-Tab is the mode's


async def test_a_session_started_in_auto_cycles_through_auto_with_a_red_badge(loopback, tmp_path):
    srv = loopback([])
    config = config_for(srv.base_url, tmp_path).model_copy(update={"default_mode": "auto"})
    app = app_with(config, tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: app.session is not None)
        assert status(app).lstrip().startswith("AUTO")
        spans = [s for s in app.query_one(StatusBar).render().spans if "on" in str(s.style)]
        assert spans, "the auto badge has a background"
        modes = []
        for _ in range(4):
            await pilot.press("shift+tab")
            await until(pilot, lambda: app.session.gate.mode.current == app.model.ledger.mode != (modes or ["auto"])[-1])
            modes.append(app.session.gate.mode.current)
        assert modes == ["ask", "accept-edits", "plan", "auto"]


@pytest.mark.parametrize("size", [(60, 20), (40, 12), (200, 50)])
async def test_the_badge_is_never_shed(size, tmp_path):
    app = MrSmithApp(factory(), history_path=None)
    async with app.run_test(size=size) as pilot:
        await pilot.press("shift+tab", "shift+tab")
        await until(pilot, lambda: app.model.ledger.mode == "plan")
        await pilot.pause()
        assert status(app).lstrip().startswith("plan")


async def test_plan_mode_refuses_writes_allowed_every_way_and_tells_the_model_to_plan(loopback, tmp_path):
    srv = loopback([
        tool_turn("write_file", {"path": "one.txt", "content": "1\n"}), text_turn("ok"),
        tool_turn("write_file", {"path": "two.txt", "content": "2\n"}, call_id="c2"), text_turn("plan: 1. write"),
        tool_turn("shell", {"command": "echo x > three.txt"}, call_id="c3"), text_turn("plan: 2. shell"),
        tool_turn("read_file", {"path": "one.txt"}, call_id="c4"), text_turn("read it"),
    ])
    clock = Clock()
    config = config_for(srv.base_url, tmp_path).model_copy(update={"allow": ["shell"]})
    app = app_with(config, tmp_path, clock, allow=["shell"])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"first", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        await pilot.press("a", "a")  # "always" for write_file
        await until(pilot, lambda: turn_over(app) and (tmp_path / "one.txt").exists())
        await pilot.press("shift+tab", "shift+tab")
        await until(pilot, lambda: app.session.gate.mode.current == "plan")
        for n, prompt in enumerate(("second", "third", "fourth"), 2):
            await pilot.press(*prompt, "enter")
            await until(pilot, lambda n=n: turn_over(app) and len(srv.requests) >= 2 * n)
        assert not isinstance(app.screen, ApprovalModal)
        refused = tool_blocks(app, "write_file")[-1]
        assert refused.denied and "plan mode: write_file was not run" in refused.text
        assert tool_blocks(app, "shell")[-1].denied
        assert tool_blocks(app, "read_file")[-1].ok
        assert status(app).lstrip().startswith("plan")
    assert not (tmp_path / "two.txt").exists() and not (tmp_path / "three.txt").exists()
    assert "# Plan mode" in json.dumps(srv.requests[2]) and "# Plan mode" not in json.dumps(srv.requests[0])


async def test_accept_edits_writes_without_asking_but_a_writing_command_asks(loopback, tmp_path):
    srv = loopback([
        tool_turn("write_file", {"path": "a.txt", "content": "a\n"}), text_turn("wrote"),
        tool_turn("shell", {"command": "echo x > b.txt"}, call_id="c2"), text_turn("asked"),
        tool_turn("write_file", {"path": ".mcp.json", "content": "{}"}, call_id="c3"), text_turn("asked again"),
    ])
    clock = Clock()
    app = app_with(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("shift+tab")
        await until(pilot, lambda: app.session is not None and app.session.gate.mode.current == "accept-edits")
        await pilot.press(*"one", "enter")
        await until(pilot, lambda: turn_over(app) and (tmp_path / "a.txt").exists())
        for prompt in ("two", "three"):
            await pilot.press(*prompt, "enter")
            await until(pilot, lambda: painted(app, ApprovalModal))
            clock.later(10)
            await pilot.press("n")
            await until(pilot, lambda: turn_over(app))
    assert not (tmp_path / "b.txt").exists() and not (tmp_path / ".mcp.json").exists()


async def test_permissions_shows_the_mode_and_sets_it(loopback, tmp_path):
    srv = loopback([])
    app = app_with(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await pilot.press(*"/permissions", "enter")
        await until(pilot, lambda: "Permission mode: ask" in app.model.conv.blocks[-2].text)
        await pilot.press(*"/permissions mode plan", "enter")
        await until(pilot, lambda: app.model.ledger.mode == "plan" and app.session.gate.mode.current == "plan")
        await pilot.press(*"/permissions mode auto", "enter")
        await until(pilot, lambda: "auto only when mrsmith starts in it" in app.model.conv.blocks[-1].text)
        assert app.session.gate.mode.current == "plan"


def test_the_mode_msg_is_not_a_transcript_record():
    from mrsmith_tui.session.records import TRANSCRIPT_TYPES

    assert "PermissionModeChanged" not in TRANSCRIPT_TYPES
    assert m.PermissionModeChanged(mode="plan").model_dump(mode="json")["mode"] == "plan"
