"""An answer block on screen: while it streams, its end as plain lines (one Static, the cheapest
frame); once it ends, its Markdown as lines rendered off the UI thread (view/answer.py), drawn by a
widget that only hands Textual the lines it asks for, so a frame's work is bounded by what is
visible, not by the answer's length (issue #26)."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions
from textual import events
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from mrsmith_tui.tui.model import Block
from mrsmith_tui.tui.view.answer import AnswerRenderer, Lines
from mrsmith_tui.tui.view.blocks import render_block, render_text_live

ROW_STEP = 8  # a streaming answer grows its block this many rows at a time


def reserve_rows(content: Content, rules: Any, width: int) -> tuple[Content, int]:
    """Pad a streaming answer to a multiple of ROW_STEP rows; (the padded content, its rows).

    Each time a block's height changes Textual lays out the conversation and repaints the
    whole screen (everything shifts under the followed tail); inside the reserved rows only
    the block repaints. The blank rows go when the answer ends.
    """
    rows = content.get_height(rules, width)
    spare = -rows % ROW_STEP
    return (Content.assemble(content, "\n" * spare) if spare else content), rows + spare


class AnswerLines(Widget):
    """Lines rendered beforehand (a finished answer's Markdown): its height is their count, and a
    frame draws only the lines Textual asks for (those on screen)."""

    DEFAULT_CSS = "AnswerLines { height: auto; }"

    def __init__(self) -> None:
        super().__init__(classes="lines")
        self.lines: Lines = []

    def set_lines(self, lines: Lines) -> None:
        self.lines = lines
        self.refresh(layout=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines)

    def render_line(self, y: int) -> Strip:
        style = self.rich_style
        if y < len(self.lines):
            return self.lines[y].apply_style(style)
        return Strip.blank(self.size.width, style)

    def text(self) -> str:
        return "\n".join(line.text.rstrip() for line in self.lines)


class AnswerView(Vertical):
    """An answer block: the open tail (the only part a streamed delta redraws), then, once it ends,
    its Markdown lines; folded, one Static of its first lines."""

    DEFAULT_CSS = """
    AnswerView { height: auto; }
    AnswerView > .lines { height: auto; margin: 0 0 1 0; }
    AnswerView > .tail { height: auto; }
    """

    class Ready(Message):
        """From the Markdown worker: the finished answer's lines are all rendered."""

    def __init__(self, block: Block) -> None:
        super().__init__(classes=f"block -{block.kind}")
        self.key = block.key
        self.block: Block | None = None
        self.width = 0
        self._lines = AnswerLines()
        self._lines.display = False
        self._tail = Static("", classes="tail")
        self._tail_rows = -1  # the live tail's rows (padded), to redraw it without a layout while they hold
        self._answer = AnswerRenderer(self._console_and_options, self._post_ready)
        self._early: tuple[Block, float, int] | None = None  # shown before it was mounted
        self.settled = False

    def _console_and_options(self) -> tuple[Console, ConsoleOptions]:
        console = self.app.console
        return console, console.options

    def _post_ready(self) -> None:  # the worker's thread
        try:
            self.post_message(self.Ready())
        except Exception:  # the view is gone (the app quit, or it scrolled out of the window)
            pass

    def compose(self):
        yield self._lines
        yield self._tail

    def on_mount(self) -> None:
        if self._early is not None:
            early, self._early = self._early, None
            self.show(*early)

    def on_answer_view_ready(self, event: Ready) -> None:
        event.stop()
        block, self.block = self.block, None
        if block is not None:
            self.show(block, 0.0, self.width)

    def show(self, block: Block, now: float, width: int) -> None:
        if not self._tail.is_attached:  # mounted with the view: shown once it is there
            self._early = (block, now, width)
            return
        self._early = None  # a later block than the one kept for on_mount: that one is stale
        if block is self.block and width == self.width:
            return
        self.block, self.width = block, width
        self.set_class(not block.done, "-open")
        if block.done and block.folded:
            self._show_tail(render_block(block, now, width), live=False)
            return
        if not block.done:
            # Streaming: its end, as plain lines; the Markdown of its closed chunks is rendered
            # meanwhile by the worker, so it is ready when the answer ends.
            self.settled = False
            self._answer.want(block.text, streaming=True, width=width)
            self._show_tail(render_text_live(block), live=True)
            return
        lines = self._answer.lines(block.text, width)
        if lines is None:  # still rendered by the worker: the end stays in view until `Ready`
            self.settled = False
            self._answer.want(block.text, streaming=False, width=width)
            self._show_tail(render_text_live(block), live=True)
            return
        self.settled = True
        self._lines.set_lines(lines)
        if not self._lines.display:
            self._lines.display = True
        if self._tail.display:
            self._tail.display = False
        self._tail_rows = -1

    def _show_tail(self, content: Content, *, live: bool) -> None:
        if self._lines.display:
            self._lines.display = False
        if not self._tail.display:
            self._tail.display = True
        if not live:
            self._tail_rows = -1
            self._tail.update(content)
            return
        padded, rows = reserve_rows(content, self._tail.styles, self.width)
        self._tail.update(padded, layout=rows != self._tail_rows)  # same rows: only the block repaints
        self._tail_rows = rows

    def restyle(self) -> None:
        self.block = None
        self._answer.forget()

    def text_shown(self) -> str:
        if self._lines.display:
            return self._lines.text()
        return str(self._tail.render())

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(BlockClicked(self.key))


class BlockClicked(Message):
    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key
