"""Pilot tests of approvals nobody gave by accident: keys, pastes and screens around a request.

Time is the test's `Clock`; every wait is on a model or screen predicate, never a sleep.
"""

from __future__ import annotations

import json
import threading

from textual import events
from textual.command import CommandPalette

from mrsmith_tui import msgs as m
from mrsmith_tui.tools.base import ApprovalQuery
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.modals import ApprovalModal, QuestionModal
from mrsmith_tui.tui.screens.review import ReviewScreen
from mrsmith_tui.tui.update import GRACE
from mrsmith_tui.tui.view.prompt_box import PromptArea
from mrsmith_tui.tui.view.status import StatusBar
from tests.tui.fakes import AT, CONFIG, Clock, FakeSession, approve, factory, hold_until
from tests.tui.pilot import painted, until


def make_app(script=None, made=None, **kw) -> MrSmithApp:
    return MrSmithApp(factory(script, made), config=CONFIG, history_path=None, **kw)


def request(rid="x1", at=0.0, agent_id=None, spec="write_file", arguments='{"path": "a.py"}', tool="write_file"):
    return m.ApprovalRequested(request_id=rid, tool=tool, arguments=arguments, reason="r", spec=spec,
                               rule="writes", agent_id=agent_id, at=at)


def queue_keys(app, keys) -> None:
    """Keys queued all at once, as a fast typist's burst reaches the app from the terminal."""
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app._driver.send_message(event)


def waiting(app) -> bool:
    return bool(app.model.pending.queue) and not app.model.pending.armed


async def test_a_key_pressed_before_a_slow_modal_is_painted_is_typing_not_an_answer():
    clock = Clock()
    app = make_app(clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        app.dispatch(request(at=clock()))
        clock.later(1.0)  # a big diff: the modal is drawn a second after the request arrived
        app.post_message(events.Key("y", "y"))  # reaches the modal before its first paint
        await until(pilot, lambda: app.model.input.draft == "y")
        assert waiting(app) and app.query_one(PromptArea).text == "y"
        await until(pilot, lambda: not isinstance(app.screen, ApprovalModal))


async def test_the_next_queued_request_starts_its_grace_at_its_own_paint():
    made: list = []
    clock = Clock()
    app = make_app([[approve(), approve("shell")]], made, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        answered_at = clock()
        await pilot.press("y")
        await until(pilot, lambda: painted(app) and app.screen.req.tool == "shell")
        # painted after the answer: its grace runs from then, not from the answer (or its arrival)
        assert app.model.pending.keys_from >= answered_at + GRACE
        clock.later(-60)  # a key pressed as it appeared
        await pilot.press("escape")  # within its grace: dropped
        assert isinstance(app.screen, ApprovalModal) and made[0].answers == ["yes"]
        clock.later(70)
        await pilot.press("n")
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["yes", "no"]


async def test_emptying_the_prompt_by_editing_does_not_give_the_request_the_keyboard():
    made: list = []
    clock = Clock()
    arrive = threading.Event()
    app = make_app([[hold_until(arrive), approve()]], made, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: app.model.run.running)
        await pilot.press(*"fix the bug")
        arrive.set()
        await until(pilot, lambda: app.model.pending.queue and app.model.pending.held)
        await pilot.press(*["backspace"] * len("fix the bug"))
        await until(pilot, lambda: app.query_one(PromptArea).text == "" and app.model.input.draft == "")
        clock.later(3)
        await pilot.press(*"add a test")
        await until(pilot, lambda: app.model.input.draft == "add a test")
        assert waiting(app) and not isinstance(app.screen, ApprovalModal) and made[0].answers == []
        assert app.query_one(PromptArea).text == "add a test"
        await pilot.press("enter")  # sending the prompt: now the request takes the keyboard
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        await pilot.press("n")
        await until(pilot, lambda: made[0].answers == ["no"])


async def test_a_request_waits_while_the_review_search_has_the_keyboard():
    clock = Clock()
    app = make_app(clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        await pilot.press("slash")
        await until(pilot, lambda: app.screen.focused is not None and app.screen.focused.id == "review-find")
        app.dispatch(request(at=clock(), agent_id="agent-1"))
        clock.later(5)
        await pilot.press(*"yaay")
        await until(pilot, lambda: app.screen.focused.value == "yaay")
        assert waiting(app) and isinstance(app.screen, ReviewScreen)
        assert any("agent-1: write_file waits" in b.text for b in app.model.conv.blocks)


async def test_a_request_waits_while_the_command_palette_has_the_keyboard():
    clock = Clock()
    app = make_app(clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        app.dispatch(request(at=clock(), agent_id="agent-1"))
        await until(pilot, lambda: app.model.pending.held)
        clock.later(5)
        await pilot.press(*"yaa")
        await pilot.pause()
        assert waiting(app) and isinstance(app.screen, CommandPalette)
        assert "approval waiting: Tab or F2 to answer" in str(app.query_one(StatusBar).render())
        await pilot.press("f2")  # asked for: it comes up over the palette
        await until(pilot, lambda: painted(app, ApprovalModal))


async def test_a_fast_yes_over_an_open_modal_answers_once_and_keeps_every_other_key():
    made: list = []
    clock = Clock()
    app = make_app([[approve()]], made, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        queue_keys(app, "yes")
        await until(pilot, lambda: app.model.input.draft == "es" and not app.model.run.running)
        assert app.query_one(PromptArea).text == "es"
    assert made[0].answers == ["yes"]


async def test_yyy_answers_one_request_and_the_other_keys_land_in_the_prompt():
    made: list = []
    clock = Clock()
    app = make_app([[approve(), approve("shell")]], made, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        queue_keys(app, "yyy")
        await until(pilot, lambda: app.model.input.draft == "yy")
        await until(pilot, lambda: app.model.pending.head is not None and app.model.pending.head.tool == "shell")
        assert made[0].answers == ["yes"] and app.model.pending.held  # the shell request waits behind "yy"


async def test_ctrl_c_refuses_a_sub_agents_approval_and_takes_it_off_the_screen():
    made: list = []
    clock = Clock()

    def sub_agent_asks(session: FakeSession, cancel) -> None:
        session.sink(m.AgentSpawned(agent_id="sub-1", label="helper", task="t", background=False, at=AT))
        session.answers.append(session.approver.approve(ApprovalQuery(
            tool="write_file", arguments="{}", reason="r", spec="write_file", agent_id="sub-1", rule="writes")))

    app = make_app([[sub_agent_asks]], made, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        await pilot.press("ctrl+c")
        await until(pilot, lambda: made[0].answers == ["no"])
        await until(pilot, lambda: not isinstance(app.screen, ApprovalModal) and not app.model.pending.queue)
        clock.later(10)
        await pilot.press("a", "a")  # nothing is there to grant "always" any more
        await until(pilot, lambda: app.model.input.draft == "aa")
    assert made[0].answers == ["no"]


async def test_reset_refuses_a_waiting_background_approval_and_never_blocks_the_screen():
    made: list = []
    clock = Clock()
    reset_may_end = threading.Event()
    answers: list = []

    class SlowReset(FakeSession):
        def reset(self) -> None:  # like fleet.stop_all joining an agent's thread
            reset_may_end.wait(90)  # a safety net: the test lets it end (10 s could pass first on a loaded machine)
            super().reset()

    def make(sink, approver):
        session = SlowReset(sink, approver)
        made.append(session)
        return session

    app = MrSmithApp(make, config=CONFIG, history_path=None, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        app.sink(m.AgentSpawned(agent_id="agent-1", label="bg", task="t", background=True, at=AT))
        asker = threading.Thread(target=lambda: answers.append(app.approver.approve(ApprovalQuery(
            tool="write_file", arguments="{}", reason="r", spec="write_file", agent_id="agent-1", rule="writes"))))
        asker.start()
        await until(pilot, lambda: painted(app, ApprovalModal))
        app.ui(ui.Submit, text="/reset")
        await until(pilot, lambda: answers == ["no"] and not isinstance(app.screen, ApprovalModal))
        await pilot.press("x")  # the screen answers while the reset waits for the agents' threads
        await until(pilot, lambda: app.model.input.draft == "x")
        assert made[0].resets == 0
        reset_may_end.set()
        await until(pilot, lambda: made[0].resets == 1 and not app.model.run.running)
        assert any(b.text == "fresh conversation" for b in app.model.conv.blocks)
        asker.join(5)


async def test_a_paste_over_a_modal_goes_to_the_prompt_and_the_request_waits():
    made: list = []
    clock = Clock()
    app = make_app([[approve()]], made, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        app.post_message(events.Paste("yes, always"))
        await until(pilot, lambda: app.model.input.draft == "yes, always")
        assert app.query_one(PromptArea).text == "yes, always" and app.model.pending.held
        await until(pilot, lambda: not isinstance(app.screen, ApprovalModal))
        assert made[0].answers == []


async def test_page_down_scrolls_the_modals_diff():
    long_diff = "--- a/a.py\n+++ b/a.py\n@@ -0,0 +1,120 @@\n" + "".join(f"+line {i}\n" for i in range(120))
    made: list = []
    clock = Clock()
    app = make_app([[approve(diff=long_diff)]], made, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal) and app.screen.query_one(".body").max_scroll_y > 0)
        body = app.screen.query_one(".body")
        await pilot.press("pagedown")
        await until(pilot, lambda: body.scroll_y > 0)
        await pilot.press("pageup")
        await until(pilot, lambda: body.scroll_y == 0)


def _visible(screen, widget) -> bool:
    return screen.region.contains_region(widget.region) and widget.region.height > 0 \
        and screen.get_widget_at(widget.region.x, widget.region.y)[0] is widget


async def test_a_long_heredoc_command_cannot_push_the_title_and_the_rule_off_a_60x20_screen():
    heredoc = "cat > notes.txt <<'EOF'\n" + "".join(f"line {i}\n" for i in range(80)) + \
        "◆ Allow read_file?\nWhy: this call is harmless\nEOF"
    clock = Clock()
    app = make_app(clock=clock)
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: app.session is not None)
        app.dispatch(m.ApprovalRequested(request_id="x1", tool="shell", arguments=json.dumps({"command": heredoc}),
                                         reason="a command that is not a plain program", spec=f"shell:{heredoc}",
                                         rule="runs", at=clock()))
        await until(pilot, lambda: painted(app, ApprovalModal))
        modal = app.screen

        def fits() -> bool:
            return all(_visible(modal, modal.query_one(s)) for s in (".title", ".reason", ".keys"))

        await until(pilot, fits)
        assert "Allow shell?" in str(modal.query_one(".title").render())
        assert "this call runs a program" in str(modal.query_one(".reason").render())
        assert modal.query_one(".reason").region.height <= 2 and _visible(modal, modal.query_one(".remember"))
        remember = str(modal.query_one(".remember").render())
        assert remember.startswith("Always remembers: shell:cat > notes.txt") and "\n" not in remember
        assert heredoc in str(modal.query_one(".spec").render())  # the whole spec, in the scrolling body


async def test_a_long_question_keeps_its_options_in_view_and_letters_go_to_the_free_answer():
    made: list = []
    clock = Clock()
    question = "Which of these should I do? " + "Context. " * 120

    def ask(session, cancel):
        session.answers.append(session.approver.ask((m.Question(question=question, options=(
            m.QuestionOption(label="red"), m.QuestionOption(label="blue"))),)))

    app = make_app([[ask]], made, clock=clock)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, QuestionModal))
        modal = app.screen

        def options_shown() -> bool:
            options = modal.query_one("#q-options")
            return modal.region.contains_region(options.region) and options.region.height >= 2

        await until(pilot, options_shown)
        assert _visible(modal, modal.query_one(".keys"))
        clock.later(10)
        await pilot.press(*"green")  # typed on the options: a free answer, not lost
        await until(pilot, lambda: modal.query_one("#q-free").value == "green")
        await pilot.press("enter")
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["green"]


async def test_a_paste_into_the_free_answer_shows_controls_as_text():
    from tests.tui.test_escapes import Frames

    made: list = []
    clock = Clock()

    def ask(session, cancel):
        session.answers.append(session.approver.ask((m.Question(question="which?", options=(m.QuestionOption(label="red"),)),)))

    app = make_app([[ask]], made, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, QuestionModal))
        modal = app.screen
        clock.later(10)
        modal.query_one("#q-free").focus()
        frames = Frames(app)
        modal.query_one("#q-free").post_message(events.Paste("x\x1b]0;PWNED\x07\x1b[2J"))
        await until(pilot, lambda: "PWNED" in modal.query_one("#q-free").value)
        await pilot.pause()
        assert modal.query_one("#q-free").value == "x␛]0;PWNED␇␛[2J"
        assert frames.foreign_controls() == set()
