"""A key is painted before a layout the conversation asked for (shell/key_first.py, issue #26): the
widgets outside the containers the layout can change are painted in a frame of their own, and the
layout follows at the next tick; a widget the layout might move waits for it. Frames and layouts
are recorded in order; the screen's update is held (a batch) while both are made pending, so the
order does not depend on timing."""

from __future__ import annotations

from textual.app import App
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from mrsmith_tui.tui.shell.key_first import KeyFirstScreen
from tests.tui.pilot import settled, until


class Host(App[None]):
    CSS = """
    #main { height: 1fr; }
    #conversation { width: 1fr; height: 1fr; }
    #block { height: auto; }
    #prompt { height: auto; }
    """

    def get_default_screen(self) -> KeyFirstScreen:
        return KeyFirstScreen(id="_default")

    def compose(self):
        with Horizontal(id="main"), VerticalScroll(id="conversation"):
            yield Static("one line", id="block")
        yield Static("prompt", id="prompt")


def record(app: App) -> list[str]:
    """What reached the screen, in order: each frame's text, and "LAYOUT" for each layout."""
    seen: list[str] = []
    display = app._display

    def frame(screen, renderable) -> None:
        display(screen, renderable)
        if renderable is not None:
            seen.append(renderable.render_segments(app.console))

    app._display = frame  # type: ignore[method-assign]
    screen = app.screen
    layout = screen._refresh_layout

    def laid_out(*args, **kwargs):
        seen.append("LAYOUT")
        return layout(*args, **kwargs)

    screen._refresh_layout = laid_out  # type: ignore[method-assign]
    return seen


async def _key_and_layout(pilot, prompt_text: str, *, prompt_asks: bool) -> list[str]:
    app = pilot.app
    await settled(pilot)
    seen = record(app)
    with app.batch_update():  # nothing is painted until both are pending
        app.query_one("#block", Static).update("first line\nsecond line\nthird line")  # asks for a layout
        app.query_one("#prompt", Static).update(prompt_text, layout=prompt_asks)
        app.screen.key_waiting = True
        await pilot.pause()
    app.screen.check_idle()
    await until(pilot, lambda: "LAYOUT" in seen and any("third line" in s for s in seen))
    await settled(pilot)
    return seen


def _first(seen: list[str], text: str) -> int:
    return next(i for i, s in enumerate(seen) if text in s)


async def test_a_key_is_painted_before_the_layout_the_conversation_asked_for():
    async with Host().run_test(size=(60, 12)) as pilot:
        seen = await _key_and_layout(pilot, "typed", prompt_asks=False)  # as a key typed in the prompt
        assert _first(seen, "typed") < seen.index("LAYOUT")
        assert "third line" in pilot.app.screen._compositor.render_update(full=True).render_segments(pilot.app.console)


async def test_a_widget_the_layout_might_move_waits_for_it():
    async with Host().run_test(size=(60, 12)) as pilot:
        seen = await _key_and_layout(pilot, "typed\non two lines", prompt_asks=True)  # it grows: it asks too
        assert _first(seen, "typed") > seen.index("LAYOUT")
