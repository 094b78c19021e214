"""Ids unique within a session for its runs ("run1") and their blocks ("r1", "t2"). Shared by
every agent of a session so the frontends can key widgets by id alone. (The session's own id is
session.session_ids.)"""

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
