"""The screen's right of way over the threads that feed it (issue #26).

A run's worker thread, the Markdown worker and the screen take turns on one interpreter lock. While
a model streams faster than the screen draws, every frame and every key waited for the feeders'
turns: a key took 106 ms (p95) to reach the screen during a 20k-token stream, idle 11 ms.

So the feeders keep the screen's pace. From the moment a batch of Msgs is posted to the app, or
the painter has a frame to draw (a key typed, a spinner's tick), until that frame is on screen, a
feeding thread waits: a run's worker when its delta posted a batch (`PacedSink`: at most once a
frame) or after any Msg while a key is on its way to the screen, the Markdown worker before its next
chunk. What the model sends meanwhile waits in the socket and
comes with the next batch: nothing is lost, and the stream goes as fast as the screen shows it
(well above the 10,000 tokens/s the bench asks). A wait is bounded (`MAX_WAIT`, once per frame
that never comes), the screen's own thread never waits, and once the app is gone nothing does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from mrsmith_tui import msgs as m
from mrsmith_tui.coalesce import FRAME_SECONDS, CoalescingSink, PostMany

MAX_WAIT = 0.2  # seconds a feeder waits for one frame at most (a screen that stopped drawing never stops a run)


class Pace:
    """Held while the screen has a frame to draw; feeders `wait` until it is drawn (thread-safe)."""

    def __init__(self, max_wait: float = MAX_WAIT) -> None:
        self._max_wait = max_wait
        self._lock = threading.Lock()
        self._open = threading.Event()
        self._open.set()
        self._holds = 0  # how many times it was held: a release answers the holds it saw, not a later one
        self._gave_up = -1  # the hold a feeder already waited MAX_WAIT for: it is not waited for again
        self._screen = threading.get_ident()  # the screen's thread (the app is made on it; `mark` confirms it)
        self._stopped = False
        self.urgent = False  # a key is on its way to the screen: feeders wait after any Msg, not once a frame

    def key(self) -> None:
        """A key arrived (the screen's thread): until a frame is drawn after it, the feeders wait at once."""
        self.hold()
        if not self._stopped:
            self.urgent = True

    def hold(self) -> None:
        """A frame is to be drawn (a batch posted, the painter asked): feeders wait for it."""
        with self._lock:
            if self._stopped:
                return
            self._holds += 1
            self._open.clear()

    def mark(self) -> int:
        """On the screen's thread, when it starts a frame: what `release` will answer."""
        self._screen = threading.get_ident()
        return self._holds

    def release(self, mark: int) -> None:
        """The frame begun at `mark` is on screen: feeders go on, unless it was held again since."""
        with self._lock:
            if mark >= self._holds:
                self.urgent = False
                self._open.set()

    def stop(self) -> None:
        """The app is gone: nothing waits any more."""
        with self._lock:
            self._stopped = True
            self.urgent = False
            self._open.set()

    @property
    def held(self) -> bool:
        return not self._open.is_set()

    def wait(self) -> None:
        """A feeder's turn: back at once when no frame is pending, or on the screen's own thread."""
        if self._open.is_set() or threading.get_ident() == self._screen:
            return
        holds = self._holds
        if holds == self._gave_up:
            return
        if not self._open.wait(self._max_wait):
            self._gave_up = holds


class PacedSink(CoalescingSink):
    """The app's sink: a CoalescingSink whose feeders wait for the screen (`Pace`) each time one of
    their deltas posts a batch, so at most once a frame: the other Msgs, and a burst of them (a
    replay, a fleet's starts), go at once as before."""

    def __init__(self, post_many: PostMany, pace: Pace, interval: float = FRAME_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(interval=interval, clock=clock, post_many=post_many)
        self._pace = pace

    def __call__(self, msg: m.Msg) -> None:
        flushed = self._last_flush
        super().__call__(msg)
        if self._pace.urgent or (self._last_flush != flushed and _is_delta(msg)):
            self._pace.wait()


def _is_delta(msg: m.Msg) -> bool:
    while isinstance(msg, m.FromAgent):
        msg = msg.msg
    return type(msg) in (m.TextDelta, m.ReasoningDelta, m.ToolOutput)
