"""Ids unique within a session: blocks ("r1", "t2"), runs ("run1"). Shared by every agent
of a session so the frontends can key widgets by id alone."""

from __future__ import annotations

import itertools
import threading


class IdSource:
    def __init__(self) -> None:
        self._counters: dict[str, itertools.count[int]] = {}
        self._lock = threading.Lock()

    def next(self, prefix: str) -> str:
        with self._lock:
            counter = self._counters.setdefault(prefix, itertools.count(1))
            return f"{prefix}{next(counter)}"
