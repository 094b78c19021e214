"""An answer block drawn as Markdown at any length (markdown_chunks.py cuts it).

Each closed chunk is rendered once at a width and kept, one a call: while the answer streams the
view shows its end as plain text and calls this each frame, so when the answer ends most of its
Markdown is ready. A line too long for Rich to wrap cheaply is shown cut, as plain text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.content import Content

from mrsmith_tui.tui.view.blocks import LINE_CAP, MUTED, _cut
from mrsmith_tui.tui.view.markdown_chunks import chunks

LIVE_TAIL_LINES = 200  # of the open tail (one long code block, say), the last ones are shown

Flatten = Callable[[Any, int], Content]  # (Rich renderable, width) -> Content


def _plain(text: str) -> Content:
    return Content("\n").join([Content(_cut(line)) for line in text.rstrip("\n").split("\n")])


def _markdown(text: str) -> Any:
    from rich.markdown import Markdown

    return Markdown(text, code_theme="ansi_dark", hyperlinks=False)


class AnswerRenderer:
    """The rendered chunks of one answer block, kept across frames."""

    def __init__(self, flatten: Flatten) -> None:
        self._flatten = flatten
        self._width = 0
        self._done: list[tuple[str, Content]] = []  # (chunk text, its rendering) in order

    def forget(self) -> None:
        """Render again (the theme changed)."""
        self._done = []

    def render(self, text: str, *, streaming: bool, width: int) -> tuple[list[Content], Content | None, bool]:
        """The closed chunks' renderings (the same objects as last time for the chunks that did not
        change), the open tail's (None: no tail), and whether closed chunks wait for a later call.

        One chunk is rendered a call (Markdown with highlighted code costs milliseconds): those not yet
        rendered are shown as plain text with the tail until their turn, so no frame stalls for long."""
        if width != self._width:
            self._width, self._done = width, []
        closed, tail = chunks(text, streaming=streaming)
        kept = 0
        while kept < min(len(closed), len(self._done)) and self._done[kept][0] == closed[kept]:
            kept += 1
        del self._done[kept:]
        waiting = closed[kept:]
        if waiting:
            self._done.append((waiting[0], self._chunk(waiting[0], width)))
            tail = "".join(waiting[1:]) + tail
        shown = [content for chunk, content in self._done if chunk.strip()]
        return shown, self._tail(tail) if tail.strip() else None, len(waiting) > 1

    def _chunk(self, chunk: str, width: int) -> Content:
        if not chunk.strip():
            return Content("")
        if max(len(line) for line in chunk.split("\n")) > LINE_CAP:
            return _plain(chunk)
        return self._flatten(_markdown(chunk), width)

    @staticmethod
    def _tail(tail: str) -> Content:
        lines = tail.rstrip("\n").split("\n")
        if len(lines) <= LIVE_TAIL_LINES:
            return _plain(tail)
        hidden = len(lines) - LIVE_TAIL_LINES
        note = Content.styled(f"… {hidden} lines (drawn as Markdown when this part ends)", f"{MUTED} italic")
        return Content("\n").join([note, _plain("\n".join(lines[-LIVE_TAIL_LINES:]))])
