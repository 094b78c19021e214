"""An answer that grows in the same frame as a block below it asks for a layout takes its new height
(view/stream_layout.py): it kept the old one, and the lines past it were never painted."""

from __future__ import annotations

from textual.app import App

from mrsmith_tui.tui.model.state import Block, ChatLog
from mrsmith_tui.tui.view.answer_view import AnswerView
from mrsmith_tui.tui.view.chat_view import ConversationView
from tests.tui.pilot import settled, until


class Host(App[None]):
    CSS = "#conversation { layout: stream; } .block { height: auto; margin: 0 0 1 0; }"

    def compose(self):
        yield ConversationView(id="conversation")


def _answer_then_notice(answer_lines: int, notice_lines: int) -> ChatLog:
    answer = "\n".join(f"answer {i}" for i in range(answer_lines))
    notice = "\n".join(f"notice {i}" for i in range(notice_lines))
    return ChatLog(blocks=(Block(key="b1", kind="text", text=answer),
                           Block(key="b2", kind="notice", text=notice, done=True)))


async def test_an_answer_that_grows_with_a_block_below_it_takes_its_new_height():
    app = Host()
    async with app.run_test(size=(80, 60)) as pilot:
        conv = app.query_one(ConversationView)
        conv.sync(_answer_then_notice(1, 1), 0.0)
        answer = app.query_one(AnswerView)
        await until(pilot, lambda: answer.region.height > 0)
        await settled(pilot)
        conv.sync(_answer_then_notice(20, 3), 0.0)  # both in one frame: the notice asks for a layout
        await until(pilot, lambda: answer._lines.region.height >= 20)
        await settled(pilot)
        assert answer.region.height == answer._lines.region.height
        assert conv._views["b2"].region.y > answer._lines.region.bottom
