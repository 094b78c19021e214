"""The permission mode across `/sessions`: the badge and the gate of the session switched to agree, and the
mode the person chose stays (a switch never turns a plan-mode screen into an unnoticed auto or ask gate)."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from loopback import text_turn
from mrsmith_tui import msgs as m
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.resume import resume_session
from mrsmith_tui.core.session import build_session
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.sessions_picker import SessionPicker
from mrsmith_tui.tui.update import initial_model, update
from tests.tui.pilot import until


@pytest.mark.parametrize("mode", ["ask", "accept-edits", "plan", "auto"])
def test_a_switch_keeps_the_mode_on_screen(mode: str) -> None:
    model = initial_model(agent="a", model="m1", mode=mode)
    model, _ = update(model, ui.SessionSwitched(session_id="s2", agent="b", model="m2", context_limit=9000, at=2))
    assert (model.ledger.mode, model.ledger.mode_auto) == (mode, mode == "auto")


@pytest.mark.parametrize(("start", "presses", "shown"), [
    ("ask", 2, "plan"), ("ask", 1, "accept-edits"), ("auto", 1, "ask"), ("auto", 3, "plan"), ("plan", 0, "plan"),
    ("auto", 0, "auto"),
])
async def test_after_a_switch_the_gate_is_in_the_mode_the_badge_shows(start, presses, shown, loopback, tmp_path):
    srv = loopback([text_turn("answer one")])
    config = Config(providers=[ProviderConfig(name="loop", base_url=srv.base_url)],
                    agents=[AgentConfig(name="default", provider="loop", model="m1", max_context_tokens=8000)],
                    sessions_dir=str(tmp_path / "sessions")).model_copy(update={"default_mode": start})
    work = tmp_path / "project"
    work.mkdir()
    recorded = build_session(config=config, agent_name=None, cwd=work, sink=m.ListSink(), approver=None)
    recorded.run("the first session's prompt", CancelToken())
    recorded.close()

    def make(sink, approver):
        return build_session(config=config, agent_name=None, cwd=work, sink=sink, approver=approver)

    def resume(session_id, sink, approver):
        return resume_session(config=config, cwd=work, sink=sink, approver=approver, target=session_id, replay=True)

    app = MrSmithApp(make, config=config, history_path=None, resume=resume, sessions_root=tmp_path / "sessions")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        for _ in range(presses):
            before = app.model.ledger.mode
            await pilot.press("shift+tab")
            await until(pilot, lambda before=before: app.model.ledger.mode != before)
        assert app.model.ledger.mode == shown and app.session.gate.mode.current == shown
        current = app.session
        await pilot.press(*"/sessions", "enter")
        await until(pilot, lambda: isinstance(app.screen, SessionPicker))
        options = app.screen.query_one(OptionList)
        at = next(i for i in range(options.option_count)
                  if "the first session's prompt" in str(options.get_option_at_index(i).prompt))
        await pilot.press(*["down"] * at, "enter")
        await until(pilot, lambda: app.session is not current and any(
            b.text.startswith("resumed session") for b in app.model.conv.blocks))
        assert app.session.session_id == recorded.session_id
        assert app.model.ledger.mode == shown
        assert app.session.gate.mode.current == shown
