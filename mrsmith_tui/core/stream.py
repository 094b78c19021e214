"""Turning one provider stream into block Msgs: ReasoningDelta / TextDelta, then BlockEnded.

Deltas are coalesced: at most one delta Msg per block per `interval` seconds (the frontend
draws ~30 frames a second), so a fast provider cannot flood the sink. Whatever is buffered
is flushed before the block ends.
"""

from __future__ import annotations

import time
from typing import Callable, Literal

from mrsmith_tui import msgs
from mrsmith_tui.core.ids import IdSource

Kind = Literal["reasoning", "text"]


class BlockStream:
    def __init__(self, sink: Callable[[msgs.Msg], None], ids: IdSource, *, interval: float = 1 / 30,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._sink = sink
        self._ids = ids
        self._interval = interval
        self._clock = clock
        self._kind: Kind | None = None
        self._block_id = ""
        self._text: list[str] = []  # the whole block so far
        self._pending: list[str] = []  # not yet posted
        self._last_post = 0.0
        self.reasoning = ""  # every reasoning block of this stream, joined
        self.content = ""

    def add(self, kind: Kind, text: str) -> None:
        if not text:
            return
        if self._kind != kind:
            self.end()
            self._kind = kind
            self._block_id = self._ids.next("r" if kind == "reasoning" else "t")
            self._last_post = 0.0
        self._text.append(text)
        self._pending.append(text)
        if kind == "reasoning":
            self.reasoning += text
        else:
            self.content += text
        now = self._clock()
        if now - self._last_post >= self._interval:
            self._flush()
            self._last_post = now

    def _flush(self) -> None:
        if not self._pending:
            return
        text = "".join(self._pending)
        self._pending = []
        cls = msgs.ReasoningDelta if self._kind == "reasoning" else msgs.TextDelta
        self._sink(cls(block_id=self._block_id, text=text))

    def end(self) -> None:
        """End the open block (if any) with its whole text."""
        if self._kind is None:
            return
        self._flush()
        self._sink(msgs.BlockEnded(block_id=self._block_id, kind=self._kind, text="".join(self._text)))
        self._kind = None
        self._text = []
