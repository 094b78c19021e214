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
