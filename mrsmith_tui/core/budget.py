"""The tool-call budget of a session (maxToolCallsPerSession), shared with its sub-agents."""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class Spend:
    """What one `try_use` did: whether the call may run, and which warning it crossed."""

    allowed: bool
    used: int
    limit: int | None
    warn_80: bool = False  # this call crossed 80 % (reported once per budget)
    spent: bool = False  # this call used the last one (reported once per budget)


class ToolCallBudget:
    """Thread-safe counter of tool calls against an optional limit."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self._used = 0
        self._warned = False
        self._lock = threading.Lock()

    @property
    def used(self) -> int:
        return self._used

    @property
    def exhausted(self) -> bool:
        with self._lock:
            return self.limit is not None and self._used >= self.limit

    def try_use(self) -> Spend:
        with self._lock:
            if self.limit is not None and self._used >= self.limit:
                return Spend(False, self._used, self.limit)
            self._used += 1
            warn = False
            if self.limit is not None and not self._warned and self._used >= 0.8 * self.limit:
                self._warned = warn = True
            spent = self.limit is not None and self._used == self.limit
            return Spend(True, self._used, self.limit, warn_80=warn, spent=spent)

    def refill(self) -> None:
        """A fresh allotment (the person sent `continue`, or /reset)."""
        with self._lock:
            self._used = 0
            self._warned = False
