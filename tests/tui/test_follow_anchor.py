"""A followed conversation keeps its end in view in the layout that moves it (chat_view's `arrange`,
Textual's anchor): a scroll to the end after each layout was a frame of its own, 7-20 ms at 5,000
blocks, that a key typed meanwhile waited behind (issue #26). A conversation shorter than the
screen stays at its top, and one the person scrolled up in stays where they left it."""

from __future__ import annotations

from textual.app import App

from mrsmith_tui.records import replace
from mrsmith_tui.tui.model.state import Block, ChatLog
from mrsmith_tui.tui.view.chat_view import ConversationView
from tests.tui.pilot import settled, until


class Host(App[None]):
    CSS = "#conversation { layout: stream; height: 1fr; } .block { height: auto; margin: 0 0 1 0; }"

    def compose(self):
        yield ConversationView(id="conversation")


def _log(n: int, **fields) -> ChatLog:
    return ChatLog(blocks=tuple(Block(key=f"b{i}", kind="notice", text=f"line {i}\nmore {i}", done=True)
                                for i in range(n)), **fields)


def _ticks(app) -> list[tuple[bool, bool]]:
    """(layout, scroll) pending at each of the screen's update ticks from now on."""
    seen: list[tuple[bool, bool]] = []
    screen = app.screen
    real = screen._on_timer_update

    def tick() -> None:
        seen.append((screen._layout_required, screen._scroll_required))
        real()

    screen._on_timer_update = tick
    screen._update_timer._callback = tick
    return seen


async def test_a_followed_conversation_that_grows_is_at_its_end_after_the_layout_with_no_scroll_frame():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        conv = app.query_one(ConversationView)
        conv.sync(_log(30), 0.0)
        await settled(pilot)
        assert conv.max_scroll_y > 0 and conv.scroll_y == conv.max_scroll_y
        ticks = _ticks(app)
        before = conv.max_scroll_y
        conv.sync(_log(34), 0.0)
        await until(pilot, lambda: conv.max_scroll_y > before)
        await settled(pilot)
        assert conv.scroll_y == conv.max_scroll_y
        assert (False, True) not in ticks, ticks  # no frame that only scrolled


async def test_a_conversation_shorter_than_the_screen_stays_at_its_top():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        conv = app.query_one(ConversationView)
        conv.sync(_log(2), 0.0)
        await settled(pilot)
        assert conv.scroll_y == 0
        assert conv._views["b0"].region.y == conv.region.y


async def test_a_conversation_scrolled_up_is_not_taken_back_to_its_end():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        conv = app.query_one(ConversationView)
        conv.sync(_log(30), 0.0)
        await settled(pilot)
        conv.scroll_to(y=3, animate=False)
        conv.sync(replace(_log(30), follow=False), 0.0)
        await settled(pilot)
        conv.sync(replace(_log(34), follow=False), 0.0)
        await settled(pilot)
        assert conv.scroll_y == 3
        conv.sync(_log(35), 0.0)  # End: following again
        await settled(pilot)
        assert conv.scroll_y == conv.max_scroll_y
