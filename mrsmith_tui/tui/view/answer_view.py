"""An answer block on screen: while it streams, its end as plain lines (one Static, the cheapest
frame); once it ends, its Markdown as lines rendered off the UI thread (view/answer.py), drawn by a
widget that only hands Textual the lines it asks for, so a frame's work is bounded by what is
visible, not by the answer's length (issue #26)."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions
from rich.style import Style
from rich.text import Text
from textual import events
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from mrsmith_tui.tui.model import Block
from mrsmith_tui.tui.view.answer import AnswerRenderer, Lines
from mrsmith_tui.tui.view.blocks import lines_above, live_tail, render_block
from mrsmith_tui.tui.view.no_echo import NoEchoLayout

ROW_STEP = 8  # a streaming answer grows its block this many rows at a time ...
LIVE_ROWS = 48  # ... up to this many: then it shows the end of the answer in exactly these rows


def reserve_rows(content: Content, rules: Any, width: int) -> tuple[Content, int]:
    """Pad a streaming answer to a multiple of ROW_STEP rows; (the padded content, its rows).

    Each time a block's height changes Textual lays out the conversation and repaints the
    whole screen (everything shifts under the followed tail); inside the reserved rows only
    the block repaints. The blank rows go when the answer ends.
    """
    rows = content.get_height(rules, width)
    spare = -rows % ROW_STEP
    return (Content.assemble(content, "\n" * spare) if spare else content), rows + spare


class Row(NoEchoLayout, Static):
    """A Static laid out by its block (the lines above a streaming answer's end, a folded answer)."""


class AnswerLines(NoEchoLayout, Widget):
    """Lines rendered beforehand (a finished answer's Markdown): its height is their count, and a
    frame draws only the lines Textual asks for (those on screen)."""

    DEFAULT_CSS = "AnswerLines { height: auto; }"

    def __init__(self) -> None:
        super().__init__(classes="lines")
        self.lines: Lines = []
        self._line_style = Style()

    def set_lines(self, lines: Lines, *, layout: bool = True) -> None:
        """`layout=False` when the count of lines is the same: only this widget repaints."""
        self.lines = lines
        self.refresh(layout=layout)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The style walks every ancestor's rules: once a paint, not once a line (a tenth of a frame's
        # work at 5,000 blocks while an answer streamed, issue #26).
        self._line_style = self.rich_style
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        style = self._line_style
        if y < len(self.lines):
            return Strip(self.lines[y]).apply_style(style)
        return Strip.blank(self.size.width, style)

    def text(self) -> str:
        return "\n".join("".join(segment.text for segment in line).rstrip() for line in self.lines)


class LiveWrap:
    """A streaming answer's last lines wrapped at a width as lines, each text line wrapped once: a
    frame wraps only the lines that are new since the last one (the end of the answer)."""

    def __init__(self) -> None:
        self._width = 0
        self._wrapped: dict[str, Lines] = {}
        self.rows: list[int] = []  # the rows each text took in the last wrap

    def wrap(self, texts: list[str], width: int, console: Console, options: ConsoleOptions) -> Lines:
        if width != self._width:
            self._width, self._wrapped = width, {}
        options = options.update_width(max(1, width))
        kept: dict[str, Lines] = {}
        out: Lines = []
        self.rows = []
        for text in texts:
            lines = kept.get(text) or self._wrapped.get(text)
            if lines is None:
                rendered = console.render_lines(Text(text), options, pad=False) if text else [[]]
                lines = [[s for s in line if not s.control] for line in rendered]
            kept[text] = lines
            self.rows.append(len(lines))
            out.extend(lines)
        self._wrapped = kept  # only what is on screen now is kept
        return out


class AnswerView(NoEchoLayout, Vertical):
    """An answer block: the open tail (the only part a streamed delta redraws), then, once it ends,
    its Markdown lines; folded, one Static of its first lines."""

    DEFAULT_CSS = """
    AnswerView { height: auto; }
    AnswerView > .lines { height: auto; margin: 0 0 1 0; }
    AnswerView.-open > .lines { margin: 0; }
    AnswerView > .tail { height: auto; }
    AnswerView > .above { height: 1; }
    """

    class Ready(Message):
        """From the Markdown worker: the finished answer's lines are all rendered."""

    def __init__(self, block: Block) -> None:
        super().__init__(classes=f"block -{block.kind}")
        self.key = block.key
        self.block: Block | None = None
        self.width = 0
        self._above = Row("", classes="above")  # "… N lines above", over the live lines
        self._above.display = False
        self._lines = AnswerLines()
        self._lines.display = False
        self._tail = Row("", classes="tail")
        self._tail.display = False
        self._live = LiveWrap()
        self._live_rows = -1  # the live lines' rows (padded), to redraw them without a layout while they hold
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
        yield self._above
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
            self._show(tail=True)
            self._tail.update(render_block(block, now, width))
            return
        if not block.done:
            # Streaming: its end, as plain lines; the Markdown of its closed chunks is rendered
            # meanwhile by the worker, so it is ready when the answer ends.
            self.settled = False
            self._answer.want(block.text, streaming=True, width=width)
            self._show_live(block)
            return
        lines = self._answer.lines(block.text, width)
        if lines is None:  # still rendered by the worker: the end stays in view until `Ready`
            self.settled = False
            self._answer.want(block.text, streaming=False, width=width)
            self._show_live(block)
            return
        self.settled = True
        self._show(lines=True)
        self._lines.set_lines(lines)
        self._live_rows = -1

    def _show(self, *, above: bool = False, lines: bool = False, tail: bool = False) -> None:
        for widget, shown in ((self._above, above), (self._lines, lines), (self._tail, tail)):
            if widget.display != shown:
                widget.display = shown

    def _show_live(self, block: Block) -> None:
        """The end of the answer as plain lines, padded to a multiple of ROW_STEP rows, and once it is
        longer than LIVE_ROWS in exactly that many: while the rows hold, a frame repaints this block
        only (no layout of the conversation, issue #26) and wraps only its new lines."""
        texts, hidden = live_tail(block)
        console, options = self._console_and_options()
        lines = self._live.wrap(texts, self.width, console, options)
        if hidden or len(lines) > LIVE_ROWS:
            lines, hidden = _last_rows(lines, self._live.rows, hidden)
        rows = len(lines) + (-len(lines) % ROW_STEP)
        was_above = self._above.display
        self._show(above=bool(hidden), lines=True)
        if hidden:
            self._above.update(lines_above(hidden), layout=not was_above)
        self._lines.set_lines(lines + [[] for _ in range(rows - len(lines))], layout=rows != self._live_rows)
        self._live_rows = rows

    def restyle(self) -> None:
        self.block = None
        self._answer.forget()

    def release(self) -> None:
        """Leaving the window (removed): drop the answer's rendered lines and every cache. A view that
        was on screen when settle_memory froze the collector's survivors is never collected once removed
        (its widgets are cycles): what it held must not stay with it (issue #26, memory)."""
        self.block, self._early = None, None
        self._answer.release()
        self._lines.lines = []
        self._live = LiveWrap()
        for widget in (self, self._above, self._lines, self._tail):
            widget._styles_cache.clear()

    def text_shown(self) -> str:
        if self._tail.display:
            return str(self._tail.render())
        above = str(self._above.render()) + "\n" if self._above.display else ""
        return above + self._lines.text()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(BlockClicked(self.key))


def _last_rows(lines: Lines, rows_per_text: list[int], hidden: int) -> tuple[Lines, int]:
    """The whole lines that fit in LIVE_ROWS rows, at the bottom (blank rows on top), and how many
    lines are above them."""
    cut, drop = len(lines) - LIVE_ROWS, 0
    for rows in rows_per_text:
        if cut <= 0:
            break
        cut -= rows
        drop += rows
        hidden += 1
    shown = lines[drop:]
    return [[] for _ in range(LIVE_ROWS - len(shown))] + shown, hidden


class BlockClicked(Message):
    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key
