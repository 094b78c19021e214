"""A widget removed from the screen leaves no rendered lines behind (issue #26, memory): Textual's
colour cache kept the last 1,024 StylesCaches alive, each with the Strips its widget drew, so a long
conversation (its window of live blocks moving on) held tens of MB of dead lines."""

from __future__ import annotations

import gc
import weakref

from textual.widgets import Static

from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.shell.textual_memory import keep_no_dead_widgets
from tests.tui.fakes import CONFIG, factory
from tests.tui.pilot import until


async def test_a_removed_widget_and_its_drawn_lines_are_freed():
    app = MrSmithApp(factory(), config=CONFIG, history_path=None, welcome=False)
    async with app.run_test(size=(80, 24)) as pilot:
        caches = []
        for i in range(20):
            static = Static("\n".join(f"line {i}.{n}" for n in range(12)))
            await app.screen.mount(static)
            await until(pilot, lambda s=static: bool(s._styles_cache._cache))  # drawn: it holds Strips
            caches.append(weakref.ref(static._styles_cache))
            await static.remove()
            del static
        last = Static("the screen drawn again without them")
        await app.screen.mount(last)
        await until(pilot, lambda: bool(last._styles_cache._cache))
        gc.unfreeze()  # the session's settle may have frozen one while it was on screen: not this test's point
        # Textual keeps a container's last 4 arrangements (a FIFO cache): which of them still holds the
        # last removed widget depends on when its layouts ran (under load, one did). Bounded, so not
        # what this test is about.
        app.screen._arrangement_cache.clear()
        gc.collect()
        assert [ref for ref in caches if ref() is not None] == []


def test_keeping_no_dead_widgets_is_idempotent():
    from textual._styles_cache import StylesCache

    keep_no_dead_widgets()
    patched = StylesCache.__dict__["get_inner_outer"]
    keep_no_dead_widgets()
    assert StylesCache.__dict__["get_inner_outer"] is patched


async def test_an_answer_that_leaves_the_window_drops_its_rendered_lines(tmp_path):
    from mrsmith_tui import msgs as m
    from mrsmith_tui.tui.view.answer_view import AnswerView
    from mrsmith_tui.tui.view.chat_view import LIVE_BLOCKS
    from tests.tui.fakes import AT

    app = MrSmithApp(factory(), config=CONFIG, history_path=None, welcome=False)
    async with app.run_test(size=(100, 30)) as pilot:
        text = "## An answer\n\n" + "\n\n".join(f"Paragraph {i} with `code` and **bold**." for i in range(40))
        app.sink(m.TextDelta(block_id="a1", text=text, at=AT))
        app.sink(m.BlockEnded(block_id="a1", kind="text", text=text, at=AT))
        await until(pilot, lambda: any(v.settled for v in app.query(AnswerView)))
        first = next(v for v in app.query(AnswerView) if v.settled)
        assert first._lines.lines and first._answer._done  # drawn: its Markdown lines are held
        for i in range(2 * LIVE_BLOCKS):  # the window moves past it (blocks leave it a few at a time)
            app.sink(m.Notice(text=f"n{i}", at=AT))
        await until(pilot, lambda: not first.is_attached)
        assert first._lines.lines == [] and first._answer._done == [] and first.block is None


def test_a_colour_cache_whose_body_reads_self_is_left_as_it_is():
    from functools import lru_cache

    class ReadsSelf:
        shade = 1

        @lru_cache(8)  # noqa: B019 (Textual's own form, which the patch is for)
        def get_inner_outer(self, base, background):
            return (base, background, self.shade)

    class Pure:
        @lru_cache(8)  # noqa: B019
        def get_inner_outer(self, base, background):
            return (base, background)

    kept = ReadsSelf.__dict__["get_inner_outer"]
    keep_no_dead_widgets(ReadsSelf)
    assert ReadsSelf.__dict__["get_inner_outer"] is kept
    keep_no_dead_widgets(Pure)
    assert not hasattr(Pure.__dict__["get_inner_outer"], "cache_clear") and Pure().get_inner_outer(1, 2) == (1, 2)


def test_textual_s_own_colour_cache_is_the_one_patched():
    from textual._styles_cache import StylesCache

    keep_no_dead_widgets()
    assert not hasattr(StylesCache.__dict__["get_inner_outer"], "cache_clear")  # a Textual upgrade that reads self fails here
