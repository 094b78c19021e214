"""The first frame shows a stand-in for the prompt's editor, which is mounted right after it (start-up
time, issue #26): the keys and pastes that come in between are kept and reach the editor in order,
the priority keys act at once, and the stand-in looks exactly like the empty editor."""

from __future__ import annotations

import re

import pytest
from textual import events

import mrsmith_tui.tui.app as app_module
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.view.prompt_box import PromptArea
from mrsmith_tui.tui.view.prompt_stand_in import PLACEHOLDER, PromptStandIn
from tests.tui.fakes import CONFIG, factory
from tests.tui.pilot import settled, until


@pytest.fixture
def editor_later(monkeypatch):
    """The editor is not mounted after the first frame: the test mounts it (`await mount(app)`) once it
    has typed, so the keys certainly come before it."""
    original = app_module.mount_editor

    async def not_yet(app) -> None:
        return None

    monkeypatch.setattr(app_module, "mount_editor", not_yet)
    return original


def make_app(made=None, **kw) -> MrSmithApp:
    return MrSmithApp(factory(None, made), config=CONFIG, history_path=None, welcome=False, **kw)


async def test_keys_typed_before_the_editor_reach_it_in_order_and_later_keys_follow(editor_later):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h", "i", "backspace", "y", "ctrl+j", "!")
        assert app.prompt_area is None and not app.query(PromptArea)
        assert app.query_one(PromptStandIn).typed == "hy\n!"  # echoed while they wait
        await editor_later(app)
        await pilot.press("?")
        await until(pilot, lambda: app.model.input.draft == "hy\n!?")
        assert app.prompt_area is app.query_one(PromptArea) and app.prompt_area.text == "hy\n!?"
        assert app.focused is app.prompt_area and not app.query(PromptStandIn)


async def test_enter_before_the_editor_sends_what_was_typed(editor_later):
    made: list = []
    app = make_app(made)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h", "i", "enter", "n", "e", "x", "t")
        await editor_later(app)
        await until(pilot, lambda: bool(made) and made[0].prompts == ["hi"])
        await until(pilot, lambda: app.model.input.draft == "next")


async def test_a_paste_before_the_editor_is_kept_with_its_line_breaks(editor_later):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(events.Paste("first\rsecond\x1b[31m"))
        await until(pilot, lambda: app.query_one(PromptStandIn).typed.startswith("first\nsecond"))
        assert "\x1b" not in app.query_one(PromptStandIn).typed  # the echo shows a control as text
        await editor_later(app)
        await until(pilot, lambda: app.model.input.draft.startswith("first\nsecond"))


async def test_ctrl_d_before_the_editor_quits_an_empty_prompt(editor_later):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+d")
        await until(pilot, lambda: not app.is_running)


async def test_ctrl_d_before_the_editor_keeps_a_typed_prompt(editor_later):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a", "ctrl+d")
        assert app.is_running
        await editor_later(app)
        await until(pilot, lambda: app.model.input.draft == "a")
        assert app.is_running


async def test_the_editor_is_mounted_after_the_first_frame_without_help():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.prompt_area is not None)
        assert app.focused is app.prompt_area and not app.query(PromptStandIn)


def _normalised(svg: str) -> str:
    return re.sub(r"terminal-\d+", "terminal", svg)


@pytest.mark.parametrize(("theme", "width"), [("mrsmith", 80), ("mrsmith", 40), ("no-color", 80),
                                              ("textual-light", 60)])
async def test_the_stand_in_looks_like_the_empty_editor(editor_later, theme, width):
    app = make_app(theme=theme)
    async with app.run_test(size=(width, 12)) as pilot:
        await settled(pilot)
        stand_in = _normalised(app.export_screenshot())
        await editor_later(app)
        await settled(pilot)
        assert PLACEHOLDER[1:12] in stand_in.replace("&#160;", " ")  # its first cell is the cursor's
        assert _normalised(app.export_screenshot()) == stand_in


async def test_a_key_that_comes_while_the_stand_in_is_removed_is_the_editors(monkeypatch):
    """The editor is mounted in the screen's task while the app goes on taking keys: a key that comes
    after the kept ones were handed over, while the stand-in is being removed, still reaches it."""
    app = make_app()
    original_remove = PromptStandIn.remove

    def remove_with_a_key_meanwhile(self):
        app.post_message(events.Key("x", "x"))  # the app handles it before the removal is done
        return original_remove(self)

    monkeypatch.setattr(PromptStandIn, "remove", remove_with_a_key_meanwhile)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.model.input.draft == "x")


async def test_a_click_before_the_editor_leaves_the_keys_and_the_focus_to_it(editor_later):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#conversation")
        await pilot.press("a", "b")
        await editor_later(app)
        await pilot.press("c")
        await until(pilot, lambda: app.model.input.draft == "abc")
        assert app.focused is app.prompt_area


async def test_ctrl_d_waits_for_the_keys_typed_before_the_editor(editor_later):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a", "b", "c", "left", "ctrl+d")  # at the editor: delete right of the cursor
        await editor_later(app)
        await until(pilot, lambda: app.model.input.draft == "ab")
        assert app.is_running


async def test_ctrl_d_after_the_early_keys_emptied_the_prompt_quits(editor_later):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a", "b", "backspace", "backspace", "ctrl+d")
        await editor_later(app)
        await until(pilot, lambda: not app.is_running)


async def test_the_echo_clears_a_sent_prompt_and_shows_only_the_last_rows(editor_later):
    app = make_app()
    async with app.run_test(size=(40, 24)) as pilot:
        await pilot.press("h", "i", "enter", "n", "e", "x", "t")
        stand_in = app.query_one(PromptStandIn)
        assert stand_in.typed == "next"
        app.post_message(events.Paste("\n".join(f"line {i}" for i in range(500))))
        await until(pilot, lambda: stand_in.typed.endswith("line 499"))
        await settled(pilot)
        assert stand_in.size.height == 10 and "line 499" in stand_in.render().plain
        assert len(stand_in.typed) < 5_000  # a tail, not the whole paste, is drawn


async def test_up_and_enter_in_one_burst_send_the_recalled_prompt(tmp_path):
    made: list = []
    history = tmp_path / "history"
    history.write_text('"older prompt"\n', encoding="utf-8")
    app = MrSmithApp(factory(None, made), config=CONFIG, history_path=history, welcome=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.prompt_area is not None and app.session is not None)
        for key in ("up", "enter"):
            event = events.Key(key, None)
            event.set_sender(app)
            app._driver.send_message(event)  # both queued before either is handled, as from a terminal
        await until(pilot, lambda: bool(made) and made[0].prompts == ["older prompt"])
