"""The one thread that renders answers' Markdown while the screen's thread stays free (issue #26).

Each answer that wants rendering (view/answer.py's AnswerRenderer) is queued once; the thread renders
one chunk of one answer at a time, taking the answers in turn, and drops an answer when it has
nothing left to do. It starts with the first answer that asks and sleeps on a condition while
nothing is wanted (idle costs nothing). A daemon: it never holds up the process's exit.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Protocol


class Steps(Protocol):
    def step(self) -> bool:
        """Do one piece of work; True when there is more."""


class MarkdownWorker:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._queue: deque[Steps] = deque()
        self._queued: set[int] = set()
        self._thread: threading.Thread | None = None
        self.pace: Callable[[], None] = lambda: None  # the screen's turn first (the shell's pacing.py)

    def want(self, owner: Steps) -> None:
        """`owner` has work (thread-safe; queued once however often it asks)."""
        with self._cond:
            if id(owner) in self._queued:
                return
            self._queued.add(id(owner))
            self._queue.append(owner)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="mrsmith-markdown", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._cond.wait()
                owner = self._queue.popleft()
                self._queued.discard(id(owner))
            self.pace()  # a frame still to be drawn goes first: a chunk of Markdown can wait for it
            try:
                more = owner.step()
            except Exception:  # a rendering that failed is not shown; the worker goes on with the others
                more = False
            if more:
                self.want(owner)


WORKER = MarkdownWorker()
