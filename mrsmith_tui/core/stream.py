"""Turning one provider stream into block Msgs: ReasoningDelta / TextDelta, then BlockEnded.

Deltas are coalesced: at most one delta Msg per block per `interval` seconds (the frontend
draws ~30 frames a second), so a fast provider cannot flood the sink. Text held back is
posted by one flusher thread (started with the first held text, asleep on a condition while
nothing is held, gone when the stream ends) when no more arrives within the interval (a model
that pauses mid-answer must not hide its last words), and before the block ends.
"""

from __future__ import annotations

import threading
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
        self._last_post = float("-inf")  # monotonic() is the uptime: 0.0 held back a first delta on a fresh machine
        self._cond = threading.Condition()  # the flusher posts too: one lock keeps the posts in order
        self._flusher: threading.Thread | None = None
        self._ended = False
        self._reasoning: list[str] = []
        self._content: list[str] = []

    @property
    def reasoning(self) -> str:
        """Every reasoning block of this stream, joined."""
        return "".join(self._reasoning)

    @property
    def content(self) -> str:
        return "".join(self._content)

    def add(self, kind: Kind, text: str) -> None:
        if not text:
            return
        with self._cond:
            self._ended = False
            if self._kind != kind:
                self._end_locked()
                self._kind = kind
                self._block_id = self._ids.next("r" if kind == "reasoning" else "t")
                self._last_post = float("-inf")  # a new block posts its first piece at once
            self._text.append(text)
            self._pending.append(text)
            (self._reasoning if kind == "reasoning" else self._content).append(text)
            now = self._clock()
            if now - self._last_post >= self._interval:
                self._flush()
                self._last_post = now
            elif self._flusher is None:
                self._flusher = threading.Thread(target=self._flush_late, name="mrsmith-stream-flush", daemon=True)
                self._flusher.start()
            else:
                self._cond.notify()

    def _flush_late(self) -> None:
        """Post held text once the interval since the last post has passed and nothing newer came."""
        with self._cond:
            while not self._ended:
                if not self._pending:
                    self._cond.wait()
                    continue
                wait = self._last_post + self._interval - self._clock()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                self._flush()
                self._last_post = self._clock()
            self._flusher = None

    def _flush(self) -> None:
        if not self._pending:
            return
        text = "".join(self._pending)
        self._pending = []
        cls = msgs.ReasoningDelta if self._kind == "reasoning" else msgs.TextDelta
        self._sink(cls(block_id=self._block_id, text=text))

    def end(self) -> None:
        """End the open block (if any) with its whole text."""
        with self._cond:
            self._end_locked()
            self._ended = True  # the flusher, if any, wakes and goes
            self._cond.notify()

    def _end_locked(self) -> None:
        if self._kind is None:
            return
        self._flush()
        self._sink(msgs.BlockEnded(block_id=self._block_id, kind=self._kind, text="".join(self._text)))
        self._kind = None
        self._text = []
