"""Older blocks leave the screen ten at a time (chat_view.PRUNE_STEP, issue #26): each removal lays
out the whole conversation, so a stream that adds a block no longer pays a layout for the block it
pushes out. The count stays bounded: LIVE_BLOCKS, and fewer than PRUNE_STEP more."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.view.chat_view import LIVE_BLOCKS, PRUNE_STEP
from tests.tui.fakes import AT, CONFIG, factory
from tests.tui.pilot import until


def _earlier(app: MrSmithApp) -> str:
    earlier = app.query(".earlier")
    return str(earlier.first().render()) if earlier and earlier.first().display else ""


async def test_old_blocks_leave_in_steps_and_the_count_stays_bounded():
    app = MrSmithApp(factory([]), config=CONFIG, history_path=None)
    async with app.run_test(size=(100, 30)) as pilot:
        sent = 0
        for total in (LIVE_BLOCKS, LIVE_BLOCKS + PRUNE_STEP - 1, LIVE_BLOCKS + PRUNE_STEP,
                      LIVE_BLOCKS + 2 * PRUNE_STEP + 3):
            while sent < total:
                app.sink(m.Notice(text=f"n{sent}", at=AT))
                sent += 1
            gone = (total - LIVE_BLOCKS) - (total - LIVE_BLOCKS) % PRUNE_STEP
            await until(pilot, lambda total=total, gone=gone: len(app.model.conv.blocks) == total
                        and len(app.query(".block")) == total - gone)
            assert LIVE_BLOCKS <= len(app.query(".block")) < LIVE_BLOCKS + PRUNE_STEP
            assert (f"{gone} earlier block" in _earlier(app)) if gone else not _earlier(app)


async def test_the_earlier_line_is_drawn_again_only_when_its_count_changes():
    """An update marks the line for repainting, and off screen above the window that made Textual
    arrange every block to find it, each frame of a stream."""
    from textual.app import App

    from mrsmith_tui.tui.model.state import Block, ChatLog
    from mrsmith_tui.tui.view.chat_view import ConversationView

    class Host(App[None]):
        def compose(self):
            yield ConversationView()

    def log(n: int, last: str = "") -> ChatLog:
        blocks = [Block(key=f"b{i}", kind="notice", text=f"n{i}", done=True) for i in range(n)]
        blocks[-1] = Block(key=f"b{n - 1}", kind="notice", text=last or f"n{n - 1}", done=True)
        return ChatLog(blocks=tuple(blocks))

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        conv = app.query_one(ConversationView)
        conv.sync(log(LIVE_BLOCKS + 2 * PRUNE_STEP), 0.0)
        await until(pilot, lambda: len(app.query(".block")) == LIVE_BLOCKS)
        drawn: list[object] = []
        original = conv._earlier.update
        conv._earlier.update = lambda *args, **kwargs: (drawn.append(args), original(*args, **kwargs))  # type: ignore[method-assign]
        conv.sync(log(LIVE_BLOCKS + 2 * PRUNE_STEP, last="changed"), 0.0)
        assert drawn == []
        conv.sync(log(LIVE_BLOCKS + 3 * PRUNE_STEP), 0.0)
        assert len(drawn) == 1 and f"{3 * PRUNE_STEP} earlier blocks" in str(drawn[0][0])
