"""A streaming answer longer than LIVE_ROWS shows its end in exactly that many rows (issue #26): its
height holds while it streams, so a frame repaints the block without laying out the conversation.
The rows shown are whole lines, the newest at the bottom, and the note above counts what is cut."""

from __future__ import annotations

import random

from textual.app import App
from textual.containers import VerticalScroll

from mrsmith_tui.tui.model.state import Block
from mrsmith_tui.tui.view.answer_view import LIVE_ROWS, ROW_STEP, _last_rows
from mrsmith_tui.tui.view.chat_view import AnswerView
from tests.tui.pilot import until


def _case(rng: random.Random) -> tuple[list[list], list[int], int]:
    rows_per_text = [rng.choice((1, 1, 1, 2, 3, 5, 9)) for _ in range(rng.randint(1, 90))]
    lines = [[("text", t, r)] for t, rows in enumerate(rows_per_text) for r in range(rows)]
    return lines, rows_per_text, rng.choice((0, 0, 1, 7, 500))


def test_the_last_rows_are_whole_lines_at_the_bottom_in_exactly_live_rows():
    rng = random.Random(26)
    for _ in range(600):
        lines, rows_per_text, hidden = _case(rng)
        shown, above = _last_rows(lines, rows_per_text, hidden)
        assert len(shown) == LIVE_ROWS
        kept = [row for row in shown if row]
        blank = LIVE_ROWS - len(kept)
        assert all(not row for row in shown[:blank])  # the padding is on top: the end stays at the bottom
        assert kept == lines[len(lines) - len(kept):]  # the newest rows, in order
        dropped = len(rows_per_text) - len({row[0][1] for row in kept})
        assert above == hidden + dropped
        if kept:
            assert kept[0][0][2] == 0  # the first row shown starts its line: no line is shown cut
        if dropped:  # as many whole lines as fit: one more would not
            assert len(kept) + rows_per_text[dropped - 1] > LIVE_ROWS


class Host(App[None]):
    def compose(self):
        yield VerticalScroll(id="conversation")


async def test_a_long_streaming_answer_keeps_its_height():
    app = Host()
    text = "".join(f"line {i}: " + "word " * (i % 37) + "\n" for i in range(400))
    async with app.run_test(size=(100, 30)) as pilot:
        first = Block(key="b1", kind="text", text=text[:200])
        view = AnswerView(first)
        await app.query_one("#conversation").mount(view)
        view.show(first, 0.0, 80)
        await until(pilot, lambda: bool(view._lines.lines))
        heights = []
        for end in range(200, len(text), 173):
            view.show(Block(key="b1", kind="text", text=text[:end]), 0.0, 80)
            heights.append(len(view._lines.lines))
        assert all(h % ROW_STEP == 0 for h in heights)
        grown = heights.index(LIVE_ROWS)
        assert heights[grown:] == [LIVE_ROWS] * (len(heights) - grown)  # once long, the height holds
        assert heights[:grown] == sorted(heights[:grown])  # before that it only grew
        shown = view.text_shown()
        assert "lines above" in shown and shown.rstrip().endswith(text[:end].rstrip().split("\n")[-1].rstrip())
