"""Turning one provider stream into block Msgs: ReasoningDelta / TextDelta, then BlockEnded.

Every provider delta becomes one delta Msg at once: the core never holds text back or looks
at a clock. How often text reaches a screen is the frontend's choice (the TUI coalesces per
frame in tui/shell/bridge.py). What a block streamed is kept here, once, for its BlockEnded and for
the partial answer a cancel leaves behind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from mrsmith_tui import msgs
from mrsmith_tui.core.run_ids import IdSource

Kind = Literal["reasoning", "text"]


class BlockStream:
    """Not thread-safe: one stream, fed and ended by the thread that reads the provider."""

    def __init__(self, sink: Callable[[msgs.Msg], None], ids: IdSource) -> None:
        self._sink = sink
        self._ids = ids
        self._kind: Kind | None = None
        self._block_id = ""
        self._block_start = 0  # where the open block begins in its kind's pieces
        self._delta: type[msgs.TextDelta | msgs.ReasoningDelta] = msgs.TextDelta  # the open block's delta Msg
        self._pieces: dict[Kind, list[str]] = {"reasoning": [], "text": []}  # the whole answer so far
        self.started = 0.0  # when the first block began (its first delta's `at`)
        self.block_ids: dict[Kind, str] = {}  # the last block of each kind (AnswerRecorded names them)

    @property
    def reasoning(self) -> str:
        """Every reasoning block of this stream, joined."""
        return "".join(self._pieces["reasoning"])

    @property
    def content(self) -> str:
        return "".join(self._pieces["text"])

    def add(self, kind: Kind, text: str) -> None:
        if not text:
            return
        if self._kind != kind:
            self.end()
            self._kind = kind
            self._block_id = self._ids.next("r" if kind == "reasoning" else "t")
            self._block_start = len(self._pieces[kind])
            self._delta = msgs.ReasoningDelta if kind == "reasoning" else msgs.TextDelta
        self._pieces[kind].append(text)
        delta = self._delta(block_id=self._block_id, text=text)
        if not self.started:
            self.started = delta.at
        self._sink(delta)

    def end(self) -> None:
        """End the open block (if any) with its whole text."""
        if self._kind is None:
            return
        text = "".join(self._pieces[self._kind][self._block_start :])
        self._sink(msgs.BlockEnded(block_id=self._block_id, kind=self._kind, text=text))
        self.block_ids[self._kind] = self._block_id
        self._kind = None
