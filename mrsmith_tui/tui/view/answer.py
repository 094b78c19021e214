"""An answer block's Markdown, rendered off the UI thread (issue #26).

The text is cut into chunks (markdown_chunks.py); each closed chunk is rendered once at a width into
lines (Rich segments; a Strip is made only for a line on screen) by the Markdown worker thread (markdown_worker.py), while the answer streams, so when
it ends most of its Markdown is ready. The UI thread only asks (`want`) and reads (`lines`): a
Markdown render with highlighted code costs milliseconds a chunk, and a long answer's whole render
stalled the screen (and every key) for a quarter of a second. What is left when the answer ends and
is small (`INLINE_CHARS`) is rendered on the UI thread at once, so a short answer is Markdown in its
first frame. A line too long for Rich to wrap cheaply is shown cut, as plain text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rich.console import Console, ConsoleOptions
from rich.segment import Segment
from rich.text import Text

from mrsmith_tui.tui.view.blocks import LINE_CAP, _cut
from mrsmith_tui.tui.view.markdown_chunks import chunks
from mrsmith_tui.tui.view.markdown_worker import WORKER

INLINE_CHARS = 2_000  # what a finished answer may still need rendered on the UI thread (a few ms at most)

Lines = list[list[Segment]]  # Textual's Strip carries caches of its own: made per line drawn, not kept


def render_chunk(chunk: str, console: Console, options: ConsoleOptions) -> Lines:
    """One chunk as lines at `options`' width (any thread: it reads the console's theme only)."""
    if not chunk.strip():
        return []
    plain = Text("\n".join(_cut(line) for line in chunk.rstrip("\n").split("\n")))
    renderable: Any = plain
    if max(len(line) for line in chunk.split("\n")) <= LINE_CAP:
        from rich.markdown import Markdown

        renderable = Markdown(chunk, code_theme="ansi_dark", hyperlinks=False)
    try:
        lines = console.render_lines(renderable, options, pad=False)
    except Exception:  # Markdown that Rich cannot draw is shown as the plain text it is
        lines = console.render_lines(plain, options, pad=False)
    return [[s for s in line if not s.control] for line in lines]


class AnswerRenderer:
    """The rendered chunks of one answer, kept across frames and made by the worker.

    `console_of()` gives the console and its options (on the UI thread, when asked); `ready()` is
    called from the worker when a finished answer's lines are all there (the view shows them)."""

    def __init__(self, console_of: Callable[[], tuple[Console, ConsoleOptions]], ready: Callable[[], None]) -> None:
        self._console_of = console_of
        self._ready = ready
        self._lock = threading.Lock()
        self._generation = 0  # a theme change or a new width makes every rendering stale
        self._width = 0
        self._done: list[tuple[str, Lines]] = []  # (chunk text, its lines) in order, at _width
        self._cut = 0  # where the text after the last closed chunk starts (never inside a code fence)
        self._cut_prefix = ""  # the text up to _cut, to know the next text continues it
        self._closed: list[str] = []
        self._wish: tuple[str, bool, int, int, Console, ConsoleOptions] | None = None  # text, streaming, width, gen

    def forget(self) -> None:
        """Render again (the theme changed)."""
        with self._lock:
            self._generation += 1
            self._done = []

    def release(self) -> None:
        """Nothing kept: the view left the conversation's window (the worker's pending wish is dropped)."""
        with self._lock:
            self._generation += 1
            self._done, self._closed, self._wish = [], [], None
            self._cut, self._cut_prefix = 0, ""

    def want(self, text: str, *, streaming: bool, width: int) -> None:
        """The UI thread's latest wish: this text at this width (the worker renders what it lacks)."""
        console, options = self._console_of()
        with self._lock:
            if width != self._width:
                self._width, self._done = width, []
                self._generation += 1
            self._wish = (text, streaming, width, self._generation, console, options.update_width(max(1, width)))
        WORKER.want(self)

    def lines(self, text: str, width: int) -> Lines | None:
        """The finished answer's lines at `width` (blank lines between chunks), or None while the
        worker still renders them; what is left and small is rendered here and now."""
        with self._lock:
            if width != self._width:
                self._width, self._done = width, []
                self._generation += 1
            closed = self._chunks(text, streaming=False)
            kept = self._kept(closed)
            missing = closed[kept:]
            generation = self._generation
        if sum(map(len, missing)) > INLINE_CHARS:
            return None
        console, options = self._console_of()
        options = options.update_width(max(1, width))
        rendered = [(chunk, render_chunk(chunk, console, options)) for chunk in missing]
        with self._lock:
            if generation != self._generation:
                return None
            del self._done[kept:]
            self._done.extend(rendered)
            out: Lines = []
            for _chunk, lines in self._done:
                if lines:
                    if out:
                        out.append([])
                    out.extend(lines)
            return out

    # ------------------------------------------------------------------ the worker's side

    def step(self) -> bool:
        """Render the next chunk the latest wish lacks (on the worker thread); True: more to do."""
        with self._lock:
            wish = self._wish
            if wish is None:
                return False
            text, streaming, _width, generation, console, options = wish
            if generation != self._generation:
                self._wish = None
                return False
            closed = self._chunks(text, streaming=streaming)
            kept = self._kept(closed)
            if kept == len(closed):
                self._wish = None
                done = not streaming
            else:
                done = False
        if kept == len(closed):
            if done:
                self._ready()
            return False
        chunk = closed[kept]
        lines = render_chunk(chunk, console, options)
        with self._lock:
            if generation == self._generation and len(self._done) == kept:
                self._done.append((chunk, lines))
        return True

    def _kept(self, closed: list[str]) -> int:
        kept = 0
        done = self._done
        while kept < min(len(closed), len(done)) and done[kept][0] == closed[kept]:
            kept += 1
        del done[kept:]
        return kept

    def _chunks(self, text: str, *, streaming: bool) -> list[str]:
        """The closed chunks of `text`: a streamed text grows at its end, so the scan goes on from
        the last cut instead of from the start (a cut is never inside a code fence)."""
        if not text.startswith(self._cut_prefix):
            self._cut, self._cut_prefix, self._closed = 0, "", []
        closed, _tail = chunks(text[self._cut:], streaming=True)
        if closed:
            self._closed = self._closed + closed
            self._cut += sum(map(len, closed))
            self._cut_prefix = text[:self._cut]
        if streaming:
            return self._closed
        rest = text[self._cut:]
        return self._closed + [rest] if rest else self._closed
