"""`/sessions` in the TUI: the picker lists this folder's sessions; Enter resumes one on screen."""

from __future__ import annotations

import json

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


def test_switching_sessions_clears_the_screen_but_keeps_input_history():
    model = initial_model(agent="a", model="m1", history=("earlier prompt",))
    model, _ = update(model, m.UserPrompt(run_id="r", text="old session", at=1))
    model, _ = update(model, m.AgentSpawned(agent_id="agent-1", label="x", task="t", at=1))
    model, _ = update(model, m.UsageReported(usage=m.UsageInfo(prompt_tokens=100, completion_tokens=10, cached_tokens=0, cache_reported=True), context_tokens=110, at=1))
    model, _ = update(model, ui.SessionSwitched(session_id="s2", agent="b", model="m2", context_limit=9000, at=2))
    assert model.conv.blocks == () and model.sidebar.agents == () and model.agent_convs == {}
    assert (model.ledger.agent, model.ledger.model, model.ledger.tokens_in, model.ledger.context_limit) == ("b", "m2", 0, 9000)
    assert model.input.history == ("earlier prompt",)


async def test_sessions_picker_resumes_another_session_on_screen(loopback, tmp_path):
    srv = loopback([text_turn("answer one", reasoning="thinking about one"), text_turn("answer two"),
                    text_turn("the follow-up answer")])
    config = Config(providers=[ProviderConfig(name="loop", base_url=srv.base_url)],
                    agents=[AgentConfig(name="default", provider="loop", model="m1", max_context_tokens=8000)],
                    sessions_dir=str(tmp_path / "sessions"))
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
        await pilot.press(*"a prompt in the new session", "enter")
        await until(pilot, lambda: not app.model.run.running and any(b.text == "answer two" for b in app.model.conv.blocks))
        current = app.session
        await pilot.press(*"/sessions", "enter")
        await until(pilot, lambda: isinstance(app.screen, SessionPicker))
        options = app.screen.query_one(OptionList)
        assert options.option_count == 2
        first = str(options.get_option_at_index(0).prompt)
        assert "(this session)" in first and "a prompt in the new session" in first
        assert "the first session's prompt" in str(options.get_option_at_index(1).prompt)
        await pilot.press("down", "enter")
        await until(pilot, lambda: not isinstance(app.screen, SessionPicker) and app.session is not current)
        await until(pilot, lambda: any(b.text.startswith("resumed session") for b in app.model.conv.blocks))
        kinds = [b.kind for b in app.model.conv.blocks]
        texts = [b.text for b in app.model.conv.blocks]
        assert "the first session's prompt" in texts and "answer one" in texts and "answer two" not in texts
        reasoning = next(b for b in app.model.conv.blocks if b.kind == "reasoning")
        assert reasoning.folded and reasoning.text == "thinking about one" and "user" in kinds
        assert app.session.session_id == recorded.session_id and current._closed
        await pilot.press(*"and a follow-up", "enter")
        await until(pilot, lambda: not app.model.run.running and any(
            b.text == "the follow-up answer" for b in app.model.conv.blocks))
    lines = [json.loads(x) for x in recorded.transcript_path.read_text().splitlines()]
    assert [r["text"] for r in lines if r["type"] == "UserPrompt"] == ["the first session's prompt", "and a follow-up"]
    assert sum(1 for r in lines if r["type"] == "TranscriptHeader") == 1
    sent = srv.requests[-1]["messages"]
    assert [x["content"] for x in sent if x["role"] == "user"] == ["the first session's prompt", "and a follow-up"]
