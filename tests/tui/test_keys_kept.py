"""#23: keys never vanish and never merge: a burst typed right after Enter starts the next prompt."""

from __future__ import annotations

from textual import events

from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.view.prompt_box import PromptArea
from tests.tui.fakes import CONFIG, factory
from tests.tui.pilot import until


def queue_keys(app, keys) -> None:
    """Keys queued all at once, as a fast typist's burst (or a paste without brackets) reaches the app."""
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else " " if key == "space" else None)
        event.set_sender(app)
        app._driver.send_message(event)


async def test_keys_typed_right_after_enter_are_the_next_prompt_not_glued_to_the_sent_one():
    made: list = []
    app = MrSmithApp(factory(None, made), config=CONFIG, history_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.session is not None)
        queue_keys(app, [*"first", "enter", *"second"])
        await until(pilot, lambda: made[0].prompts == ["first"] and app.model.input.draft.endswith("second")
                    and not app.model.run.running)
        assert app.model.input.draft == "second" and app.query_one(PromptArea).text == "second"
        queue_keys(app, ["enter", *"third", "enter"])
        await until(pilot, lambda: made[0].prompts == ["first", "second", "third"] and not app.model.run.running)
        assert app.query_one(PromptArea).text == "" and app.model.input.draft == ""


async def test_enter_on_a_blank_prompt_keeps_what_is_there():
    made: list = []
    app = MrSmithApp(factory(None, made), config=CONFIG, history_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.session is not None)
        queue_keys(app, ["space", "enter"])
        await until(pilot, lambda: app.model.input.draft == " ")
        assert made[0].prompts == [] and app.query_one(PromptArea).text == " "


async def test_a_burst_on_the_options_ticks_where_the_cursor_went():
    from mrsmith_tui import msgs as m
    from mrsmith_tui.tui.screens.modals import QuestionModal
    from tests.tui.fakes import Clock
    from tests.tui.pilot import painted

    def _ask(multiple: bool):
        def ask(session, cancel):
            session.answers.append(session.approver.ask((m.Question(question="which?", multiple=multiple, options=(
                m.QuestionOption(label="red"), m.QuestionOption(label="blue"), m.QuestionOption(label="green"))),)))
        return ask

    made: list = []
    clock = Clock()
    app = MrSmithApp(factory([[_ask(True)], [_ask(True)]], made), config=CONFIG, history_path=None, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, QuestionModal))
        clock.later(10)
        queue_keys(app, ["space", "down", "down", "space", "enter"])  # as tmux sends `Space Down Down Space Enter`
        await until(pilot, lambda: not app.model.run.running)
        await pilot.press(*"again", "enter")
        await until(pilot, lambda: painted(app, QuestionModal))
        clock.later(10)
        queue_keys(app, ["down", "enter", "up"])  # Enter on the cursor's option, a key after it changes nothing
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["red, green", "blue"]


async def test_typing_on_a_focused_block_goes_to_the_prompt_and_enter_sends_it():
    made: list = []
    app = MrSmithApp(factory(None, made), config=CONFIG, history_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"first", "enter")
        await until(pilot, lambda: made[0].prompts == ["first"] and not app.model.run.running)
        await pilot.press("alt+up")  # a block takes the focus
        await until(pilot, lambda: app.model.conv.focused is not None)
        queue_keys(app, [*"abc", "space", *"def", "enter"])  # c and Space are block keys, but typed after "a"
        await until(pilot, lambda: len(made[0].prompts) == 2 and not app.model.run.running)
        assert made[0].prompts[1] == "abc def" and app.model.conv.focused is None
        assert app.query_one(PromptArea).has_focus


async def test_the_block_keys_still_act_on_a_focused_block():
    made: list = []
    app = MrSmithApp(factory(None, made), config=CONFIG, history_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"first", "enter")
        await until(pilot, lambda: made[0].prompts == ["first"] and not app.model.run.running)
        await pilot.press("alt+up")
        await until(pilot, lambda: app.model.conv.focused is not None)
        focused = app.model.conv.focused
        await pilot.press("k")
        await until(pilot, lambda: app.model.conv.focused != focused)
        assert app.model.input.draft == "" and app.query_one(PromptArea).text == ""
