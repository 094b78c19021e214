"""The UI rules, as pure tests of `update` (no terminal)."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import fit_status, sidebar_visible, status_fields
from mrsmith_tui.tui.update import GRACE, completions, initial_model, key_route
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.requests import takes_keys
from tests.tui.fakes import fold


def fresh(**kw):
    return initial_model(agent="default", model="gpt-x", context_limit=1000, agents=("default", "fast"),
                         themes=("mrsmith", "dusk"), **kw)


def running(model=None):
    model, _ = fold(model or fresh(), ui.Submit(text="hi", at=1.0), m.RunStarted(run_id="r1", at=1.0))
    return model


# --------------------------------------------------------------------------- streaming and folding


def test_deltas_of_one_block_build_one_block_and_reasoning_folds_when_it_ends():
    model, _ = fold(running(),
                    m.ReasoningDelta(block_id="r1", text="first line\n", at=2.0),
                    m.ReasoningDelta(block_id="r1", text="second", at=3.0))
    [thought] = model.conv.blocks  # the user block comes from the session's UserPrompt, not from Submit
    assert thought.text == "first line\nsecond" and not thought.done
    model, _ = fold(model, m.BlockEnded(block_id="r1", kind="reasoning", text="first line\nsecond", at=14.0))
    thought = model.conv.blocks[-1]
    assert thought.done and thought.folded and thought.ended == 14.0


def test_text_block_stays_unfolded_and_toggle_folds_it():
    model, _ = fold(running(), m.TextDelta(block_id="t1", text="hello", at=2), m.BlockEnded(block_id="t1", kind="text",
                                                                                           text="hello", at=3))
    block = model.conv.blocks[-1]
    assert block.done and not block.folded
    model, _ = fold(model, ui.ToggleFold(key=block.key, at=4))
    assert model.conv.blocks[-1].folded and model.conv.focused == block.key


def test_unchanged_slices_keep_their_identity_while_a_block_streams():
    model = running()
    model, _ = fold(model, m.TasksChanged(todos=(m.Todo(content="a"),), at=1.5))
    sidebar, ledger = model.sidebar, model.ledger
    model, _ = fold(model, m.TextDelta(block_id="t1", text="a", at=2), m.TextDelta(block_id="t1", text="b", at=2.1))
    assert model.sidebar is sidebar  # the sidebar region will not redraw
    first = model.conv.blocks
    model, _ = fold(model, m.TextDelta(block_id="t1", text="c", at=2.2))
    assert model.conv.blocks[:-1] == first[:-1] and all(a is b for a, b in zip(model.conv.blocks[:-1], first[:-1], strict=True))
    assert ledger.state == "thinking" and model.ledger.state == "streaming"


def test_tool_block_live_output_is_capped_then_replaced_by_the_result():
    model, _ = fold(running(), m.ToolCallStarted(call_id="c1", name="shell", arguments="{}", summary="yes", at=2))
    big = "y\n" * (ui.TOOL_OUTPUT_CAP // 2 + 100)
    model, _ = fold(model, m.ToolOutput(call_id="c1", text=big, at=2.5))
    tool = model.conv.blocks[-1]
    assert len(tool.text) == ui.TOOL_OUTPUT_CAP and tool.dropped == 200
    model, _ = fold(model, m.ToolCallFinished(call_id="c1", name="shell", ok=False, result="boom", exit_code=2,
                                              elapsed=1.0, at=3))
    tool = model.conv.blocks[-1]
    assert (tool.done, tool.ok, tool.exit_code, tool.text, tool.folded) == (True, False, 2, "boom", True)
    assert tool.started == 2.0


def test_run_end_adds_turn_usage_and_error_blocks_and_closes_open_blocks():
    model, _ = fold(running(),
                    m.TextDelta(block_id="t1", text="partial", at=2),
                    m.UsageReported(usage=m.UsageInfo(prompt_tokens=1000, completion_tokens=200, cached_tokens=500, cache_reported=True), context_tokens=900, context_limit=1000, at=3),
                    m.RunEnded(run_id="r1", error="provider 'x' answered 401: bad key", at=5))
    kinds = [b.kind for b in model.conv.blocks]
    assert kinds[-2:] == ["usage", "error"]
    assert "1000 in" in model.conv.blocks[-2].text or "1.0k in" in model.conv.blocks[-2].text
    assert "cache 50%" in model.conv.blocks[-2].text
    assert all(b.done for b in model.conv.blocks)
    assert model.ledger.state == "idle" and model.ledger.cache_pct == 50


# --------------------------------------------------------------------------- follow the tail


def test_scrolling_up_stops_following_and_new_output_is_marked_unseen():
    model, _ = fold(running(), ui.Scrolled(at_bottom=False, at=2))
    assert not model.conv.follow and not model.conv.unseen
    model, _ = fold(model, m.TextDelta(block_id="t1", text="x", at=3))
    assert model.conv.unseen
    model, _ = fold(model, ui.Scrolled(at_bottom=True, at=4))
    assert model.conv.follow and not model.conv.unseen


# --------------------------------------------------------------------------- queueing and runs


def test_prompt_sent_during_a_run_is_queued_and_started_when_the_worker_is_done():
    model = running()
    model, effects = fold(model, ui.Submit(text="second", at=2))
    assert effects == [fx.SaveHistory("second")] and model.run.queued == ("second",)
    model, effects = fold(model, m.RunEnded(run_id="r1", at=3), ui.WorkerDone(at=3))
    assert effects == [fx.StartRun("second")] and model.run.running and model.run.queued == ()


def test_first_prompt_starts_a_run_and_is_remembered():
    model, effects = fold(fresh(), ui.Submit(text="  do it  ", at=1))
    assert effects == [fx.SaveHistory("do it"), fx.StartRun("do it")]
    assert model.run.running and model.input.history[-1] == "do it" and model.input.draft == ""


def test_esc_cancels_a_run_once_and_drops_the_queue():
    model, _ = fold(running(), ui.Submit(text="later", at=2))
    model, effects = fold(model, ui.CancelKey(at=3), ui.CancelKey(at=3.1))
    assert effects == [fx.CancelRun()] and model.run.queued == ()


def test_ctrl_c_cancels_then_quits_when_pressed_again():
    model, effects = fold(running(), ui.InterruptKey(at=10))
    assert fx.CancelRun() in effects and fx.Exit() not in effects
    model, effects = fold(model, ui.InterruptKey(at=11))
    assert fx.Exit() in effects


def test_ctrl_c_in_a_draft_clears_it_into_the_history_and_never_quits():
    model, _ = fold(fresh(), ui.DraftChanged(text="important long draft", at=9))
    model, effects = fold(model, ui.InterruptKey(at=10), ui.InterruptKey(at=10.5))
    assert model.input.draft == "" and model.input.history[-1] == "important long draft"
    assert not any(isinstance(e, fx.SaveHistory) for e in effects) and fx.Exit() not in effects  # not on disk
    assert "Ctrl-C again to quit" in model.screen.note  # the second one, on the empty prompt, armed it
    model, _ = fold(model, ui.HistoryMove(step=-1, at=10.6))
    assert model.input.draft == "important long draft"  # Up brings it back
    _, effects = fold(model, ui.DraftChanged(text="", at=10.7), ui.InterruptKey(at=10.8), ui.InterruptKey(at=10.9))
    assert fx.Exit() in effects


def test_ctrl_c_twice_far_apart_does_not_quit():
    model, _ = fold(fresh(), ui.InterruptKey(at=10))
    model, effects = fold(model, ui.InterruptKey(at=20))
    assert fx.Exit() not in effects


# --------------------------------------------------------------------------- approvals


def approval(rid="q1", at=5.0, agent_id=None, rule="writes"):
    return m.ApprovalRequested(request_id=rid, tool="write_file", arguments="{}", reason="writes", spec="write_file",
                               at=at, agent_id=agent_id, rule=rule)


def shown(rid="q1", at=5.0):
    return ui.RequestShown(request_id=rid, at=at)


def test_the_grace_starts_when_the_modal_is_painted_not_when_the_request_arrived():
    model, effects = fold(running(), approval(at=5.0))
    assert model.pending.armed and model.pending.keys_from is None and effects == []
    assert model.ledger.state == "waiting"
    # a big diff takes its time to draw: a key pressed a second later, before the paint, is no answer
    assert not takes_keys(model, 6.0) and key_route(model, 6.0, "y", True) == "prompt"
    assert key_route(model, 6.0, "escape", False) == "drop"
    model, effects = fold(model, ui.Answer(request_id="q1", answer="yes", at=6.0))
    assert effects == [] and model.pending.head.request_id == "q1"
    model, _ = fold(model, shown(at=6.2))
    assert model.pending.keys_from == 6.2 + GRACE and not takes_keys(model, 6.5)
    model, effects = fold(model, ui.Answer(request_id="q1", answer="yes", at=6.5))
    assert effects == [] and model.pending.head.request_id == "q1"  # a key within the grace is no answer
    model, effects = fold(model, ui.Answer(request_id="q1", answer="yes", at=7))
    assert effects == [fx.Resolve("q1", "yes")] and model.pending.queue == ()


def test_a_request_under_an_id_already_queued_takes_its_place_and_is_painted_before_keys_count():
    stale = m.ContinueRequested(request_id="q1", rounds=50, at=4.0)
    model, _ = fold(running(), stale, shown(at=4.0))
    assert takes_keys(model, 5.0) and model.pending.head.kind == "continue"
    model, effects = fold(model, approval(at=5.0))  # the live request: it is the one shown, and answered
    assert [r.kind for r in model.pending.queue] == ["approval"] and effects == []
    assert model.pending.armed and model.pending.keys_from is None and not takes_keys(model, 9.0)
    model, effects = fold(model, ui.Answer(request_id="q1", answer="yes", at=9.0))
    assert effects == [] and model.pending.head.kind == "approval"  # not painted yet: no answer
    model, _ = fold(model, shown(at=10.0))
    model, effects = fold(model, ui.Answer(request_id="q1", answer="no", at=11.0))
    assert effects == [fx.Resolve("q1", "no")] and model.pending.queue == ()


def test_a_replaced_request_behind_the_head_keeps_its_place():
    model, _ = fold(running(), approval("q1", at=4.0), shown(at=4.0), approval("q2", at=4.5))
    model, _ = fold(model, m.ContinueRequested(request_id="q2", rounds=9, at=5.0))
    assert [(r.request_id, r.kind) for r in model.pending.queue] == [("q1", "approval"), ("q2", "continue")]
    assert takes_keys(model, 5.0)  # the head on screen is untouched


def test_always_needs_a_second_press():
    model, _ = fold(running(), approval(at=5.0), shown(at=5.0))
    model, effects = fold(model, ui.Answer(request_id="q1", answer="always", at=6))
    assert effects == [] and model.pending.confirm_always and model.pending.head.request_id == "q1"
    from mrsmith_tui.tui.update import answer_for
    assert answer_for(model, "enter") == "always" and answer_for(fresh(), "enter") is None
    model, effects = fold(model, ui.Answer(request_id="q1", answer="always", at=6.5))
    assert effects == [fx.Resolve("q1", "always")]
    model, _ = fold(running(), approval(at=5.0), shown(at=5.0))
    model, effects = fold(model, ui.Answer(request_id="q1", answer="always", at=6),
                          ui.Answer(request_id="q1", answer="no", at=6.1))
    assert effects == [fx.Resolve("q1", "no")]  # changing one's mind after the first "a"


def test_keys_in_the_grace_are_dropped_and_push_the_grace_on():
    model, _ = fold(running(), approval(at=5.0), shown(at=5.0))
    model, effects = fold(model, ui.KeyIgnored(at=5.3))
    assert effects == [] and model.pending.keys_from == 5.3 + GRACE
    assert "ignored" in model.screen.note
    model, effects = fold(model, ui.Answer(request_id="q1", answer="yes", at=5.5))  # 0.5 s after it appeared
    assert effects == [] and model.pending.keys_from == 5.5 + GRACE
    model, effects = fold(model, ui.Answer(request_id="q1", answer="no", at=5.5 + GRACE))
    assert effects == [fx.Resolve("q1", "no")]


def test_behind_typed_text_the_approval_waits_with_a_notice_and_the_draft_is_untouched():
    model, _ = fold(running(), ui.DraftChanged(text="half a thou", at=4.9), approval(at=5.0))
    assert not model.pending.armed
    notice = model.conv.blocks[-1]
    assert notice.kind == "notice" and "write_file waits for your approval (writes a file)" in notice.text
    assert "Tab or F2" in notice.text
    state = status_fields(model)[0][1]
    assert "approval waiting: Tab or F2 to answer" in state
    # typing on, pausing (time passes), typing y and a: nothing is answered, nothing arms
    model, effects = fold(model, ui.DraftChanged(text="half a thought", at=5.5), ui.Tick(at=9.0),
                          ui.DraftChanged(text="half a thought, yes and a", at=9.1),
                          ui.Answer(request_id="q1", answer="yes", at=9.2))
    assert not model.pending.armed and effects == [] and model.pending.head.request_id == "q1"
    assert model.input.draft == "half a thought, yes and a"
    assert sum(b.kind == "notice" for b in model.conv.blocks) == 1  # one notice per request


def test_moving_to_the_waiting_request_arms_it_with_a_grace_and_keeps_the_draft():
    model, _ = fold(running(), ui.DraftChanged(text="draft", at=4.9), approval(at=5.0))
    model, _ = fold(model, ui.MoveToRequest(at=7.0), shown(at=7.0))
    assert model.pending.armed and model.pending.keys_from == 7.0 + GRACE
    model, effects = fold(model, ui.Answer(request_id="q1", answer="yes", at=7.1))
    assert effects == []
    model, effects = fold(model, ui.Answer(request_id="q1", answer="yes", at=7.5))
    assert effects == [fx.Resolve("q1", "yes")] and model.input.draft == "draft"
    assert model.conv.blocks[-1].text.endswith("· allowed once")  # the notice says how it ended
    assert "to answer" not in model.conv.blocks[-1].text


def test_a_prompt_emptied_by_editing_does_not_arm_but_sending_it_does():
    model, _ = fold(running(), ui.DraftChanged(text="fix the bug", at=4.9), approval(at=5.0))
    model, _ = fold(model, ui.DraftChanged(text="", at=6.0), ui.DraftChanged(text="a", at=6.1))
    assert not model.pending.armed and model.input.draft == "a"  # still typing: "add a test"
    model, _ = fold(model, ui.DraftChanged(text="", at=7.0), ui.Tick(at=20.0))
    assert not model.pending.armed
    model, _ = fold(running(), ui.DraftChanged(text="next question", at=4.9), approval(at=5.0))
    model, _ = fold(model, ui.Submit(text="next question", at=6.0))
    assert model.pending.armed and model.run.queued == ("next question",)


def test_a_request_waits_while_the_review_or_another_screen_has_the_keyboard():
    model, _ = fold(running(), ui.ToggleReview(open=True, at=4.0), approval(at=5.0))
    assert not model.pending.armed and model.pending.held and "waits for your approval" in model.conv.blocks[-1].text
    model, _ = fold(running(), approval(at=5.0), ui.KeyboardElsewhere(at=5.1))  # the palette was open
    assert not model.pending.armed and model.pending.held
    assert "approval waiting" in status_fields(model)[0][1]
    model, _ = fold(model, ui.MoveToRequest(at=6.0))
    assert model.pending.armed


def test_open_request_with_nothing_waiting_says_so():
    model, _ = fold(fresh(), ui.MoveToRequest(at=1.0))
    assert model.screen.note == "nothing is waiting for an answer"


def test_several_approvals_queue_and_the_next_gets_its_own_grace_from_its_paint():
    model, _ = fold(running(), approval("q1", 5.0), approval("q2", 5.1, agent_id="agent-1"), shown("q1", 5.2))
    assert [r.request_id for r in model.pending.queue] == ["q1", "q2"] and model.pending.armed
    model, effects = fold(model, ui.Answer(request_id="q1", answer="no", at=7))
    assert model.pending.head.request_id == "q2" and model.pending.armed and model.pending.keys_from is None
    model, effects = fold(model, ui.Answer(request_id="q2", answer="no", at=7.1))  # a double press
    assert effects == []
    model, _ = fold(model, shown("q1", 8.0))  # a late paint of the old modal changes nothing
    assert model.pending.keys_from is None
    model, _ = fold(model, shown("q2", 8.0))
    assert model.pending.keys_from == 8.0 + GRACE


def test_the_next_request_behind_typed_text_waits_with_its_own_notice():
    model, _ = fold(running(), approval("q1", 5.0), approval("q2", 5.1, agent_id="agent-1"), shown("q1", 5.0))
    model, _ = fold(model, ui.Answer(request_id="q1", answer="yes", at=6), ui.DraftChanged(text="t", at=6.1),
                    ui.Answer(request_id="q2", answer="yes", at=6.2))
    assert model.pending.head.request_id == "q2"  # armed at 6 (prompt empty), not painted yet at 6.2
    model, _ = fold(running(), ui.DraftChanged(text="t", at=4), approval("q1", 5.0), approval("q2", 5.1, agent_id="agent-1"))
    model, _ = fold(model, ui.MoveToRequest(at=6), shown("q1", 6), ui.Answer(request_id="q1", answer="yes", at=7))
    assert model.pending.head.request_id == "q2" and not model.pending.armed
    assert model.conv.blocks[-1].text.startswith("agent-1: write_file waits")


def test_keys_in_a_modal_pass_drop_or_go_to_the_prompt():
    model, _ = fold(running(), approval(at=5.0), shown(at=5.0))
    assert key_route(model, 5.1, "y", True) == "prompt"  # typing as it appeared: not an answer
    assert key_route(model, 5.1, "escape", False) == "drop"
    assert key_route(model, 6.0, "y", True) == "pass" and key_route(model, 6.0, "escape", False) == "pass"
    assert key_route(model, 6.0, "t", True) == "prompt"  # answers nothing: the person is typing
    # keys queued behind the one that sent the request back, while its modal closes: typing too
    assert key_route(fresh(), 6.0, "t", True) == "prompt" and key_route(fresh(), 6.0, "escape", False) == "drop"
    model, _ = fold(running(), m.QuestionRequested(request_id="q2", questions=(m.Question(question="Which?"),), at=5.0),
                    shown("q2", 5.0))
    assert key_route(model, 6.0, "t", True) == "pass"  # a question takes free text


def test_typed_away_takes_the_keyboard_back_and_the_request_waits_with_a_notice():
    model, _ = fold(running(), approval(at=5.0))
    model, effects = fold(model, ui.TypedIntoPrompt(text="y", at=5.1))
    assert not model.pending.armed and model.input.draft == "y" and effects == []
    assert "waits for your approval" in model.conv.blocks[-1].text
    model, effects = fold(model, ui.Answer(request_id="q1", answer="yes", at=9))
    assert effects == []  # not on screen: no answer


def test_cancelling_the_run_refuses_its_requests_and_a_sub_agents_but_not_a_background_agents():
    model, _ = fold(running(), m.AgentSpawned(agent_id="sub-1", label="s", task="t", background=False, at=2),
                    m.AgentSpawned(agent_id="agent-2", label="b", task="t", background=True, at=2),
                    approval("q1", 5.0, agent_id="sub-1"), approval("q2", 5.1, agent_id="agent-2"),
                    approval("q3", 5.2))
    model, effects = fold(model, ui.InterruptKey(at=6))
    assert fx.Resolve("q1", "") in effects and fx.Resolve("q3", "") in effects
    assert [r.request_id for r in model.pending.queue] == ["q2"]
    model, effects = fold(model, ui.Submit(text="/agents stop agent-2", at=7))
    assert fx.Resolve("q2", "") in effects and fx.StopAgent("agent-2") in effects and model.pending.queue == ()


def test_a_stopped_agents_request_leaves_and_reset_refuses_the_rest():
    model, _ = fold(fresh(), m.AgentSpawned(agent_id="agent-2", label="b", task="t", at=2),
                    approval("q2", 5.1, agent_id="agent-2"))
    model, effects = fold(model, m.AgentStateChanged(agent_id="agent-2", state="stopped", at=6))
    assert effects[0] == fx.Resolve("q2", "") and model.pending.queue == () and model.ledger.state != "waiting"
    model, _ = fold(fresh(), approval("q4", 5.0, agent_id="agent-3"))
    model, effects = fold(model, ui.Cleared(at=6))
    assert effects == [fx.Resolve("q4", "")] and model.pending.queue == ()


def test_permissions_completes_revoke():
    assert completions(fresh(), "/perm") == ("/permissions",)
    assert completions(fresh(), "/permissions r") == ("/permissions revoke",)


def test_the_rule_reaches_the_request():
    model, _ = fold(running(), approval(at=5.0, rule="secret"))
    assert model.pending.head.rule == "secret"


def test_a_request_resolved_elsewhere_leaves_the_queue():
    model, _ = fold(running(), approval("q1"), m.RequestResolved(request_id="q1", answer="cancelled", at=6))
    assert model.pending.queue == () and model.ledger.state != "waiting"


# --------------------------------------------------------------------------- commands and completion


def test_commands_parse_into_effects_or_blocks():
    model, effects = fold(fresh(), ui.Submit(text="/agent fast", at=1))
    assert fx.Command("/agent", "fast") in effects
    _, effects = fold(fresh(), ui.Submit(text="/exit", at=1))
    assert fx.Exit() in effects
    model, effects = fold(fresh(), ui.Submit(text="/hepl", at=1))
    assert model.conv.blocks[-1].kind == "warning" and "did you mean /help" in model.conv.blocks[-1].text
    model, _ = fold(fresh(), ui.Submit(text="/help", at=1))
    assert "/reasoning" in model.conv.blocks[-1].text and "Ctrl-O" in model.conv.blocks[-1].text


def test_reset_waits_for_the_run():
    model, effects = fold(running(), ui.Submit(text="/reset", at=2))
    assert not any(isinstance(e, fx.Command) for e in effects) and model.conv.blocks[-1].kind == "warning"


def test_copy_command_copies_the_last_answer_source():
    model, _ = fold(running(), m.BlockEnded(block_id="t1", kind="text", text="**bold** answer", at=2))
    model, effects = fold(model, ui.Submit(text="/copy", at=3))
    assert fx.Copy("**bold** answer", "answer") in effects and "copied" in model.screen.note


def test_slash_completion_offers_commands_then_arguments():
    model = fresh()
    assert completions(model, "/re") == ("/reset", "/reasoning")
    assert completions(model, "/agent f") == ("/agent fast",)
    assert completions(model, "hello") == ()
    model, _ = fold(model, ui.DraftChanged(text="/ag", at=1), ui.AcceptCompletion(at=1.1))
    assert model.input.draft in ("/agent ", "/agents ")


# --------------------------------------------------------------------------- history recall


def test_history_recall_walks_back_and_returns_to_the_draft():
    model = fresh(history=("one", "two"))
    model, _ = fold(model, ui.DraftChanged(text="draft", at=1), ui.HistoryMove(step=-1, at=2))
    assert model.input.draft == "two"
    model, _ = fold(model, ui.HistoryMove(step=-1, at=3), ui.HistoryMove(step=-1, at=4))
    assert model.input.draft == "one"
    model, _ = fold(model, ui.HistoryMove(step=1, at=5), ui.HistoryMove(step=1, at=6))
    assert model.input.draft == "draft" and model.input.recall is None


def test_history_is_capped():
    model = fresh(history=tuple(str(i) for i in range(ui.HISTORY_CAP + 50)))
    assert len(model.input.history) == ui.HISTORY_CAP
    model, _ = fold(model, ui.Submit(text="new", at=1))
    assert len(model.input.history) == ui.HISTORY_CAP and model.input.history[-1] == "new"


# --------------------------------------------------------------------------- status bar


def test_status_fields_shed_in_order_and_keep_state_and_context():
    model, _ = fold(running(), m.UsageReported(usage=m.UsageInfo(prompt_tokens=900, completion_tokens=100, cached_tokens=450, cache_reported=True), context_tokens=900,
                                               context_limit=1000, at=2),
                    m.ToolBudget(used=3, limit=50, at=2), m.AgentSpawned(agent_id="agent-1", label="x", task="t", at=2))
    wide = [t for t, _ in fit_status(status_fields(model), 200)]
    assert any("tools 3/50" in t for t in wide) and any("1 agent running" in t for t in wide)
    narrow = [t for t, _ in fit_status(status_fields(model), 40)]
    assert narrow[0].endswith("thinking") and any("90%" in t for t in narrow)
    assert not any("tools" in t for t in narrow)
    tiny = fit_status(status_fields(model), 10)
    assert len(tiny) >= 1 and "thinking" in tiny[0][0]


def test_context_gauge_warns_at_85_and_errors_at_100():
    base = running()
    for tokens, style in ((800, "ctx-ok"), (860, "ctx-warning"), (1000, "ctx-error")):
        model, _ = fold(base, m.UsageReported(usage=m.UsageInfo(prompt_tokens=1, completion_tokens=1), context_tokens=tokens, context_limit=1000, at=2))
        assert any(s == style for _, _, s in status_fields(model))


# --------------------------------------------------------------------------- sidebar and agents


def test_agent_table_from_spawn_state_and_wrapped_msgs():
    model, _ = fold(fresh(), m.AgentSpawned(agent_id="agent-1", label="tests", task="run the tests", at=1))
    assert model.sidebar.agents[0].tokens is None  # no usage reported yet: no figure, not 0
    model, _ = fold(fresh(),
                    m.AgentSpawned(agent_id="agent-1", label="tests", task="run the tests", at=1),
                    m.FromAgent(agent_id="agent-1", msg=m.ToolCallStarted(call_id="c", name="shell", arguments="{}",
                                                                        summary="pytest", at=2), at=2),
                    m.FromAgent(agent_id="agent-1", msg=m.UsageReported(usage=m.UsageInfo(prompt_tokens=100, completion_tokens=20), at=3), at=3))
    [row] = model.sidebar.agents
    assert (row.tool_calls, row.tokens, row.last_action, row.state) == (1, 120, "shell pytest", "running")
    assert model.ledger.background == 1 and model.conv.blocks == ()  # agent usage never enters the conversation
    model, _ = fold(model, m.AgentStateChanged(agent_id="agent-1", state="done", at=9))
    assert model.sidebar.agents[0].ended == 9 and model.ledger.background == 0


def test_agent_approval_inside_from_agent_queues_like_any_other():
    model, _ = fold(fresh(), m.FromAgent(agent_id="agent-1", msg=approval("q9", agent_id="agent-1"), at=5))
    assert model.pending.head.request_id == "q9"


def test_sidebar_shows_itself_on_wide_screens_with_content_and_obeys_the_toggle():
    model, _ = fold(fresh(width=120), m.TasksChanged(todos=(m.Todo(content="x"),), at=1))
    assert sidebar_visible(model)
    model, _ = fold(model, ui.Resized(width=80, height=24, at=2))
    assert not sidebar_visible(model)
    model, _ = fold(model, ui.ToggleSidebar(at=3))
    assert sidebar_visible(model)
    empty, _ = fold(fresh(width=120), ui.Tick(at=1))
    assert not sidebar_visible(empty)


def test_focus_moves_between_blocks_and_copy_gives_the_source():
    model, _ = fold(running(), m.ToolCallStarted(call_id="c", name="shell", arguments='{"command":"ls"}',
                                                 summary="git status", at=2),
                    m.ToolCallFinished(call_id="c", name="shell", ok=True, result="clean", at=3),
                    m.BlockEnded(block_id="t1", kind="text", text="# Title\n\nbody", at=4))
    model, _ = fold(model, ui.FocusMove(step=-1, at=5))
    assert model.conv.focused == model.conv.blocks[-1].key
    model, effects = fold(model, ui.CopyBlock(at=6))
    assert effects == [fx.Copy("# Title\n\nbody", "answer")]
    model, effects = fold(model, ui.FocusMove(step=-1, at=7), ui.CopyBlock(at=8))
    assert effects == [fx.Copy("git status", "command")]
    model, _ = fold(model, m.RunEnded(run_id="r1", at=8.5), ui.WorkerDone(at=8.5), ui.CancelKey(at=9))
    assert model.conv.focused is None and model.conv.follow


def test_reset_clears_the_conversation_and_tasks():
    model, _ = fold(running(), m.TasksChanged(todos=(m.Todo(content="x"),), at=1), m.RunEnded(run_id="r1", at=2),
                    ui.WorkerDone(at=2), ui.Cleared(at=3))
    assert [b.text for b in model.conv.blocks] == ["fresh conversation"] and model.sidebar.tasks == ()


def test_an_error_posted_before_run_ended_shows_once():
    error = "cannot reach provider 'openai' at http://127.0.0.1:9/v1: connection refused"
    model, _ = fold(running(), m.Error(text=error, at=2), m.RunEnded(run_id="r1", error=error, at=2))
    assert [b.text for b in model.conv.blocks if b.kind == "error"] == [error]


def test_the_live_tool_time_leaves_out_the_wait_for_an_answer():
    model, _ = fold(running(), m.ToolCallStarted(call_id="c", name="write_file", arguments="{}", summary="a.py", at=2),
                    approval(at=2.5), shown(at=2.5))
    model, _ = fold(model, ui.Answer(request_id="q1", answer="yes", at=62.5))
    tool = next(b for b in model.conv.blocks if b.kind == "tool")
    assert tool.started == 62.0  # half a second of the tool's own before it asked


def test_a_continue_request_is_not_called_a_question_in_the_status_bar():
    model, _ = fold(running(), ui.DraftChanged(text="x", at=4), m.ContinueRequested(request_id="c1", rounds=30, at=5))
    state = status_fields(model)[0][1]
    assert state.startswith("◆ go-on request waiting") and "question" not in state
