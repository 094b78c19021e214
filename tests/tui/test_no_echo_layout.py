"""A block that changes height lays the screen out once (view/no_echo.py, issue #26): Textual's
second layout, asked for by every widget whose virtual size the first one changed, found everything
where the first put it and cost a frame's worth of work during a stream. A followed conversation
still keeps its end in view when it grows."""

from __future__ import annotations

from textual.app import App

from mrsmith_tui.tui.model.state import Block, ChatLog
from mrsmith_tui.tui.view.chat_view import ConversationView
from tests.tui.pilot import settled, until


class Host(App[None]):
    def compose(self):
        yield ConversationView(id="conversation")


def _notice(lines: int) -> ChatLog:
    text = "\n".join(f"line {i}" for i in range(lines))
    return ChatLog(blocks=(Block(key="b1", kind="notice", text=text, done=True),))


async def _layouts_after(pilot, conv: ConversationView, log: ChatLog) -> int:
    screen = pilot.app.screen
    count = 0
    original = screen._refresh_layout

    def counted(*args, **kwargs):
        nonlocal count
        count += 1
        return original(*args, **kwargs)

    screen._refresh_layout = counted
    conv.sync(log, 0.0)
    await until(pilot, lambda: count > 0)
    await settled(pilot)  # a second layout, asked for by the first, would have run by now
    screen._refresh_layout = original
    return count


async def test_a_block_that_grows_lays_the_screen_out_once():
    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        conv = app.query_one(ConversationView)
        conv.sync(_notice(2), 0.0)
        await until(pilot, lambda: conv.virtual_size.height > 0)
        assert await _layouts_after(pilot, conv, _notice(6)) == 1
        assert conv.virtual_size.height >= 6


async def test_a_followed_conversation_that_grows_keeps_its_end_in_view():
    app = Host()
    async with app.run_test(size=(80, 20)) as pilot:
        conv = app.query_one(ConversationView)
        conv.sync(_notice(10), 0.0)
        await until(pilot, lambda: conv.virtual_size.height > 0)
        conv.sync(_notice(60), 0.0)
        await until(pilot, lambda: conv.max_scroll_y > 0 and conv.scroll_y == conv.max_scroll_y)
