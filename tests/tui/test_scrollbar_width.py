"""#23: blocks are drawn at the width they are shown at, also once the conversation's scrollbar appears.

Seen in tmux at 60x20: /reset, then /skills: the skills' rows were wrapped for the width without a
scrollbar, so when the listing made the conversation scroll, their last words wrapped to the left edge."""

from __future__ import annotations

from textual.widgets import Static

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.view.chat_view import ConversationView
from tests.tui.fakes import CONFIG, factory
from tests.tui.pilot import until

ROW = "a table row whose description is long enough to wrap more than once at sixty columns, twice over"


async def test_a_listing_that_makes_the_conversation_scroll_is_drawn_at_the_narrower_width():
    app = MrSmithApp(factory(), config=CONFIG, history_path=None)
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: app.session is not None)
        conv = app.query_one(ConversationView)
        assert not conv.show_vertical_scrollbar
        app.dispatch(m.Notice(text="\n".join(f"{i}. {ROW}" for i in range(12))))
        await until(pilot, lambda: conv.show_vertical_scrollbar and app.model.conv.blocks)
        await until(pilot, lambda: all(v.width == conv.block_width() for v in conv.query(".block")))
        for view in conv.query(".block"):
            lines = str(view.render()).splitlines() if isinstance(view, Static) else []
            # the rows under the head were wrapped by mrsmith: each fits the width the block is shown at
            assert all(len(line) <= conv.block_width() for line in lines[1:]), (conv.block_width(), lines)
