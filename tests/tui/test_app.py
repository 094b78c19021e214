"""Pilot tests of the shell: the flows of the issue against a scripted session."""

from __future__ import annotations

import json
import threading

import pytest
from textual import events
from textual.command import CommandList

from mrsmith_tui import msgs as m
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.modals import ApprovalModal, QuestionModal
from mrsmith_tui.tui.screens.review import ReviewScreen
from mrsmith_tui.tui.shell.history_file import load_history
from mrsmith_tui.tui.view.prompt_box import PromptArea
from mrsmith_tui.tui.view.status import StatusBar
from tests.tui.fakes import AT, CONFIG, Clock, approve, factory, hold_until, wait_cancel
from tests.tui.pilot import painted, until


def palette_highlights(app, word: str) -> bool:
    options = app.screen.query_one(CommandList)
    i = options.highlighted
    return i is not None and word in str(options.get_option_at_index(i).prompt)

DIFF = "--- a/a.py\n+++ b/a.py\n@@ -0,0 +1 @@\n+print(1)\n"


def make_app(script=None, made=None, tmp_path=None, **kw) -> MrSmithApp:
    history = (tmp_path / "history") if tmp_path is not None else None
    return MrSmithApp(factory(script, made), config=CONFIG, history_path=history, **kw)


async def send(pilot, text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")


async def test_a_prompt_streams_an_answer_and_is_saved_in_history(tmp_path):
    made: list = []
    app = make_app([[m.ReasoningDelta(block_id="r", text="hmm", at=AT),
                     m.BlockEnded(block_id="r", kind="reasoning", text="hmm\nmore", at=AT),
                     m.TextDelta(block_id="t", text="# Hi", at=AT),
                     m.BlockEnded(block_id="t", kind="text", text="# Hi\n\nthere", at=AT)]], made, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "hello")
        await until(pilot, lambda: not app.model.run.running and app.model.conv.blocks)
        kinds = [b.kind for b in app.model.conv.blocks]
        assert kinds == ["user", "reasoning", "text"]
        assert made[0].prompts == ["hello"]
        views = list(app.query('.block'))
        assert len(views) == 3 and "thought" in views[1].text_shown()
    assert load_history(tmp_path / "history") == ("hello",)
    assert json.loads((tmp_path / "history").read_text().splitlines()[0]) == "hello"
    assert made[0].closed


async def test_approval_modal_answers_yes_and_always(tmp_path):
    made: list = []
    clock = Clock()
    app = make_app([[approve(diff=DIFF), approve("shell")]], made, tmp_path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "write it")
        await until(pilot, lambda: painted(app, ApprovalModal) and app.screen.query(".diff"))
        assert "+print(1)" in str(app.screen.query_one(".diff").render())
        clock.later(10)  # past the grace
        await pilot.press("y")
        await until(pilot, lambda: painted(app, ApprovalModal) and app.screen.req.tool == "shell")
        clock.later(10)
        await pilot.press("a", "a")  # "always" takes a second press
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["yes", "always"]


def _notice_shown(app) -> bool:
    return any(b.kind == "notice" and "waits for your approval" in b.text for b in app.model.conv.blocks)


@pytest.mark.parametrize("pause", [0, 3])
async def test_typing_while_an_approval_arrives_answers_nothing_and_keeps_the_text(tmp_path, pause):
    made: list = []
    clock = Clock()
    arrive = threading.Event()
    app = make_app([[hold_until(arrive), approve()]], made, tmp_path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "go")
        await until(pilot, lambda: app.model.run.running)
        await pilot.press(*"I think ")
        arrive.set()  # the approval arrives while the prompt holds unsent text
        await until(pilot, lambda: app.model.pending.queue and _notice_shown(app))
        clock.later(pause)  # a pause to think (the time the old rule waited for)
        await pilot.press(*"yes, and a bit more")
        await until(pilot, lambda: app.model.input.draft == "I think yes, and a bit more")
        assert not isinstance(app.screen, ApprovalModal) and made[0].answers == []
        assert app.query_one(PromptArea).text == "I think yes, and a bit more"
        assert "approval waiting: Tab or F2 to answer" in str(app.query_one(StatusBar).render())
        await pilot.press("tab")  # moves to it
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(-60)  # a key pressed as it appeared
        await pilot.press("escape")
        assert isinstance(app.screen, ApprovalModal) and made[0].answers == []
        assert "key ignored" in app.model.screen.note
        clock.later(61)
        await pilot.press("n")
        await until(pilot, lambda: not app.model.run.running)
        assert app.query_one(PromptArea).text == "I think yes, and a bit more"
        assert app.model.input.draft == "I think yes, and a bit more"
    assert made[0].answers == ["no"]


async def test_keys_typed_into_a_fresh_modal_go_to_the_prompt_and_the_request_waits(tmp_path):
    made: list = []
    clock = Clock()
    app = make_app([[approve()]], made, tmp_path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "go")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(-60)  # keys pressed as the modal appeared: the person was typing
        await pilot.press("y", "a")
        await until(pilot, lambda: not isinstance(app.screen, ApprovalModal) and app.model.input.draft == "ya")
        assert made[0].answers == [] and app.query_one(PromptArea).text == "ya" and _notice_shown(app)
        await pilot.press("tab")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(-60)  # pressed as it appeared (a loaded machine may take longer than the grace to get here)
        await pilot.press("escape")  # within the grace and not typing: dropped
        assert isinstance(app.screen, ApprovalModal) and "key ignored" in app.model.screen.note
        clock.later(120)
        await pilot.press("y")
        await until(pilot, lambda: not app.model.run.running)
        assert app.model.input.draft == "ya"
    assert made[0].answers == ["yes"]


async def test_a_key_that_answers_nothing_gives_the_keyboard_back_to_the_prompt(tmp_path):
    made: list = []
    clock = Clock()
    app = make_app([[approve()]], made, tmp_path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "go")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)  # long after it appeared, the person starts the next prompt, in one burst
        for ch in "fix ya":  # queued together: the modal is still closing when the later keys arrive
            app.post_message(events.Key(ch, ch))
        await until(pilot, lambda: app.model.input.draft == "fix ya")
        assert not isinstance(app.screen, ApprovalModal) and made[0].answers == []
        assert app.model.pending.queue and not app.model.pending.armed
        await pilot.press("f2")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        await pilot.press("n")
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["no"]


async def test_f2_moves_to_a_waiting_question_whose_keys_wait_for_the_grace(tmp_path):
    made: list = []
    clock = Clock()
    arrive = threading.Event()

    def ask(session, cancel):
        session.answers.append(session.approver.ask((m.Question(question="Which?", options=(m.QuestionOption(label="red"),
                                                                                     m.QuestionOption(label="blue"))),)))

    app = make_app([[hold_until(arrive), ask]], made, tmp_path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "go")
        await until(pilot, lambda: app.model.run.running)
        await pilot.press(*"draft")
        arrive.set()
        await until(pilot, lambda: app.model.pending.queue)
        assert not isinstance(app.screen, QuestionModal)
        await pilot.press("f2")
        await until(pilot, lambda: painted(app, QuestionModal))
        clock.later(-60)
        await pilot.press("enter")  # within the grace: not a pick
        assert isinstance(app.screen, QuestionModal) and made[0].answers == []
        clock.later(61)
        await pilot.press("2")
        await until(pilot, lambda: not app.model.run.running)
        assert app.model.input.draft == "draft"
    assert made[0].answers == ["blue"]


async def test_at_60x20_a_long_diff_scrolls_and_the_choices_stay_visible(tmp_path):
    long_diff = "--- a/a.py\n+++ b/a.py\n@@ -0,0 +1,120 @@\n" + "".join(f"+line {i}\n" for i in range(120))
    made: list = []
    clock = Clock()
    app = make_app([[approve(diff=long_diff)]], made, tmp_path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "go")
        await until(pilot, lambda: painted(app, ApprovalModal) and app.screen.query(".diff"))
        await pilot.resize_terminal(60, 20)
        modal = app.screen

        def fits() -> bool:
            keys, body = modal.query_one(".keys"), modal.query_one(".body")
            return keys.region.bottom <= 20 and body.region.bottom <= modal.query_one(".footer").region.y

        await until(pilot, fits)
        screen_region = modal.region
        for sel in (".keys", ".reason", ".remember"):
            widget = modal.query_one(sel)
            assert screen_region.contains_region(widget.region) and widget.region.height > 0
            assert modal.get_widget_at(widget.region.x, widget.region.y)[0] is widget  # drawn, not covered
        assert "y yes" in str(modal.query_one(".keys").render())
        assert "this call writes a file" in str(modal.query_one(".reason").render())
        assert "Always remembers: write_file" in str(modal.query_one(".remember").render())
        body = modal.query_one(".body")
        assert body.max_scroll_y > 0  # the diff scrolls inside the modal
        clock.later(10)
        await pilot.press("y")
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["yes"]


async def test_escape_cancels_a_running_turn(tmp_path):
    made: list = []
    app = make_app([[m.TextDelta(block_id="t", text="partial", at=AT), wait_cancel]], made, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "long job")
        await until(pilot, lambda: app.model.conv.blocks and app.model.conv.blocks[-1].kind == "text")
        await pilot.press("escape")
        await until(pilot, lambda: not app.model.run.running)
        assert [b.text for b in app.model.conv.blocks][-1] == "cancelled"
        assert all(b.done for b in app.model.conv.blocks)


async def test_a_prompt_sent_during_a_run_is_queued_then_sent(tmp_path):
    made: list = []
    gate = []

    def hold(session, cancel):
        while not gate and not cancel.cancelled:
            cancel.wait(0.01)

    app = make_app([[hold], []], made, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "first")
        await until(pilot, lambda: made and made[0].prompts == ["first"])
        await send(pilot, "second")
        assert app.model.run.queued == ("second",)
        gate.append(1)
        await until(pilot, lambda: made[0].prompts == ["first", "second"] and not app.model.run.running)


async def test_ctrl_c_twice_quits_and_ctrl_d_quits(tmp_path):
    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+c")
        assert app.is_running and "again" in app.model.screen.note
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not app.is_running)
    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+d")
        await until(pilot, lambda: not app.is_running)


async def test_ctrl_o_opens_the_review_with_everything_and_finds(tmp_path):
    lines = "\n".join(f"line {i}" for i in range(300)) + "\nneedle here\n"
    app = make_app([[m.ToolCallStarted(call_id="c", name="shell", arguments="{}", summary="seq 300", at=AT),
                     m.ToolCallFinished(call_id="c", name="shell", ok=True, result=lines, exit_code=0, at=AT)]],
                   tmp_path=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "run")
        await until(pilot, lambda: not app.model.run.running and len(app.model.conv.blocks) >= 2)
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        assert "line 299" in app.screen.text and "needle here" in app.screen.text
        await pilot.press("slash", *"needle", "enter")
        area = app.screen.query_one("#review-text")
        await until(pilot, lambda: area.selected_text.lower() == "needle")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ReviewScreen) and not app.model.screen.review)


async def test_a_find_typed_in_one_burst_after_slash_in_the_review_finds_then_n_goes_on():
    """"/gam⏎n" from a terminal arrives before the find box has the focus: every key counts, in order."""
    from textual import events
    from textual.app import App

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ReviewScreen("alpha\nbeta\ngamma\n" * 3))

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        for key, char in (("slash", "/"), ("g", "g"), ("a", "a"), ("m", "m"), ("enter", None), ("n", "n")):
            event = events.Key(key, char)
            event.set_sender(app)
            app._driver.send_message(event)  # all queued before any is handled, as from a terminal
        area = app.screen.query_one("#review-text")
        await until(pilot, lambda: app.screen.needle == "gam" and area.cursor_location[0] == 5)
        assert area.selected_text == "gam" and app.focused is area


async def test_history_recall_with_up_at_the_first_line(tmp_path):
    (tmp_path / "history").write_text(json.dumps("older prompt") + "\n")
    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up")
        await until(pilot, lambda: app.model.input.draft == "older prompt")
        assert app.query_one("#prompt").text == "older prompt"
        await pilot.press("down")
        await until(pilot, lambda: app.query_one("#prompt").text == "")


async def test_ctrl_j_breaks_the_line_and_enter_sends_both_lines(tmp_path):
    made: list = []
    app = make_app(made=made, tmp_path=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a", "ctrl+j", "b", "enter")
        await until(pilot, lambda: made and made[0].prompts)
    assert made[0].prompts == ["a\nb"]


async def test_block_focus_fold_and_copy(tmp_path):
    app = make_app([[m.BlockEnded(block_id="r", kind="reasoning", text="one\ntwo\nthree", at=AT)]], tmp_path=tmp_path)
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "think")
        await until(pilot, lambda: not app.model.run.running and len(app.model.conv.blocks) == 2)
        await pilot.press("alt+up")
        await until(pilot, lambda: app.model.conv.focused == app.model.conv.blocks[-1].key)
        await pilot.press("enter")
        await until(pilot, lambda: not app.model.conv.blocks[-1].folded)
        await pilot.press("c")
        await until(pilot, lambda: copied)
        assert copied == ["one\ntwo\nthree"] and "copied the reasoning" in app.model.screen.note
        await pilot.press("escape")
        await until(pilot, lambda: app.model.conv.focused is None and app.focused.id == "prompt")


async def test_commands_reach_the_session(tmp_path):
    made: list = []
    app = make_app(made=made, tmp_path=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "/agent fast")  # typed once; the rest are submitted directly
        await until(pilot, lambda: app.model.ledger.model == "qwen3-mini")
        assert made[0].resets == 1  # a new session on the other agent
        app.ui(ui.Submit, text="/agent default --keep")
        await until(pilot, lambda: app.model.ledger.model != "qwen3-mini")
        assert made[0].resets == 1 and made[0].agent.name == "default"  # --keep: the same conversation
        app.ui(ui.Submit, text="/reasoning high")
        await until(pilot, lambda: app.model.ledger.effort == "high")
        assert made[0].effort == "high"
        app.ui(ui.Submit, text="/reset")
        await until(pilot, lambda: made[0].resets == 2)
        app.ui(ui.Submit, text="/skills")
        await until(pilot, lambda: "skills are not available" in app.model.conv.blocks[-1].text)
        app.ui(ui.Submit, text="/theme nope")
        await until(pilot, lambda: app.model.conv.blocks[-1].kind == "error")
        app.ui(ui.Submit, text="/export " + str(tmp_path / "out.md"))
        await until(pilot, lambda: (tmp_path / "out.md").exists())


async def test_a_failing_session_factory_is_one_error_line(tmp_path):
    def broken(sink, approver):
        raise RuntimeError("agents[0].provider: 'x' is not a configured provider")

    app = MrSmithApp(broken, config=CONFIG, history_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.model.conv.blocks)
        assert app.model.conv.blocks[-1].kind == "error" and "not a configured" in app.model.conv.blocks[-1].text


async def test_many_blocks_keep_a_bounded_widget_count(tmp_path):
    from mrsmith_tui.tui.view.chat_view import LIVE_BLOCKS

    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        for i in range(LIVE_BLOCKS + 50):
            app.sink(m.Notice(text=f"n{i}", at=AT))
        await until(pilot, lambda: len(app.model.conv.blocks) == LIVE_BLOCKS + 50)
        await until(pilot, lambda: len(app.query('.block')) == LIVE_BLOCKS and app.query(".earlier")
                    and "50 earlier blocks" in str(app.query_one(".earlier").render()))


async def test_sidebar_shows_tasks_and_agents(tmp_path):
    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        assert not app.query_one("#sidebar").display
        app.sink(m.TasksChanged(todos=(m.Todo(content="write tests", status="in_progress", priority="high"),), at=AT))
        app.sink(m.AgentSpawned(agent_id="agent-1", label="docs", task="write the docs", at=AT))
        await until(pilot, lambda: app.query_one("#sidebar").display)
        await until(pilot, lambda: "write tests" in str(app.query_one("#sidebar").render())
                    and "agent-1" in str(app.query_one("#sidebar").render()))
        await pilot.press("ctrl+b")
        await until(pilot, lambda: not app.query_one("#sidebar").display)


async def test_idle_app_runs_no_timers(tmp_path):
    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await send(pilot, "hi")
        await until(pilot, lambda: not app.model.run.running)
        await until(pilot, lambda: app.painter.spinner is None)


async def test_ctrl_p_palette_offers_the_slash_commands_and_runs_one(tmp_path):
    from textual.command import CommandPalette

    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"/tasks")
        await until(pilot, lambda: palette_highlights(app, "/tasks"))  # the search has answered
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, CommandPalette))
        await until(pilot, lambda: app.model.conv.blocks and "no tasks yet" in app.model.conv.blocks[-1].text)
        names = [c.title for c in app.get_system_commands(app.screen)]
        assert {"/help", "/usage", "/sessions", "/agents", "Review", "Toggle sidebar"} <= set(names)
        assert "/agent" not in names  # it needs an argument: typed in the prompt
        assert "/theme" in names and "Theme" not in names  # #23: /theme alone is the picker (and it keeps the choice)


async def test_a_burst_of_keys_is_edited_in_order(tmp_path):
    """Keys queued behind a busy moment: the backspace must act before the key after it."""
    from textual import events

    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.focused is not None and app.focused.id == "prompt")
        for key, char in (("a", "a"), ("b", "b"), ("backspace", None), ("c", "c"), ("left", None), ("x", "x")):
            event = events.Key(key, char)
            event.set_sender(app)
            app._driver.send_message(event)  # all queued before any is handled, as from a terminal
        await until(pilot, lambda: app.model.input.draft == "axc")


async def test_tab_in_the_same_burst_as_the_letters_takes_the_completion(tmp_path):
    """"/per" and Tab typed fast: the Tab is handled before the completions are painted on the prompt."""
    from textual import events

    app = make_app(tmp_path=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.focused is not None and app.focused.id == "prompt")
        for key, char in (("slash", "/"), ("p", "p"), ("e", "e"), ("r", "r"), ("tab", None)):
            event = events.Key(key, char)
            event.set_sender(app)
            app._driver.send_message(event)  # all queued before any is handled, as from a terminal
        await until(pilot, lambda: app.model.input.draft == "/permissions ")


async def test_a_key_not_yet_seen_by_update_keeps_the_request_waiting(tmp_path):
    made: list = []
    clock = Clock()
    app = make_app([[approve()]], made, tmp_path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        app.query_one(PromptArea).insert("n")  # typed; its DraftChanged not yet folded in
        app.dispatch(m.ApprovalRequested(request_id="x1", tool="write_file", arguments="{}", reason="r",
                                         spec="write_file", rule="writes", at=clock()))
        await until(pilot, lambda: app.model.pending.queue and not app.model.pending.armed and _notice_shown(app))
        assert not isinstance(app.screen, ApprovalModal) and app.model.input.draft == "n"


async def test_the_channel_hands_the_app_one_dispatch_a_flush_and_every_character_lands():
    import time

    from mrsmith_tui.coalesce import FRAME_SECONDS
    from mrsmith_tui.tui.shell.link import Dispatch

    app = MrSmithApp(None, config=CONFIG, history_path=None)
    async with app.run_test(size=(100, 30)) as pilot:
        dispatches: list[int] = []
        post = app.post_message

        def counting(message):
            if isinstance(message, Dispatch):
                dispatches.append(len(message.msgs))
            return post(message)

        app.post_message = counting  # type: ignore[method-assign]
        sink, n = app.link.sink, 3000
        started = time.monotonic()

        def stream() -> None:  # a worker thread, as the core's
            sink(m.RunStarted(run_id="r1", agent="default", model="m"))
            for i in range(n):
                sink(m.TextDelta(block_id="t1", text=str(i % 10)))
                sink(m.FromAgent(agent_id=f"agent-{i % 50}", msg=m.ReasoningDelta(block_id="r", text="x")))
            sink(m.BlockEnded(block_id="t1", kind="text", text=""))

        worker = threading.Thread(target=stream)
        worker.start()
        await until(pilot, lambda: not worker.is_alive())
        elapsed = time.monotonic() - started
        text = "".join(str(i % 10) for i in range(n))
        await until(pilot, lambda: any(b.kind == "text" and b.text == text for b in app.model.conv.blocks))
        # 2n + 2 Msgs: the deltas of a frame, and the Msg that ends it, come in one Dispatch.
        assert sum(dispatches) < 2 * n
        assert len(dispatches) <= 2 + 2 * (elapsed / FRAME_SECONDS + 1)
