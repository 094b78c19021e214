"""How long the model has been silent: the gaps in a run's Msgs, timed for a frontend to show.

A hung endpoint (it took the request and never answers) looks just like a model that thinks for a
long time, and both can last the whole `readTimeout` (600 s by default). Someone watching needs to
know that the program is waiting, for whom, since when, and how to stop it. `SilenceWatch` is shown
every Msg of the run and remembers when the last one came; `due()` says when, past `after` seconds of
silence and then each time the silence doubles, to tell the person (`notice()`). A running tool is not the
model's silence (the tool has its own timeout), nor is the time after the run has ended. Knowing
only Msgs, it sits beside `coalesce` so either frontend can use it; the clock is given, so a test
drives it without waiting.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from mrsmith_tui import msgs as m

__all__ = ["QUIET_AFTER", "SilenceWatch"]

QUIET_AFTER = 20.0  # seconds: a model that says nothing for longer than this is worth a word


class SilenceWatch:
    """Thread-safe: Msgs come from the run's thread, `due()` is asked from the frontend's."""

    def __init__(self, after: float = QUIET_AFTER, clock: Callable[[], float] = time.monotonic) -> None:
        self.after = after
        self._clock = clock
        self._lock = threading.Lock()
        self._since = clock()
        self._heard = False  # the model has sent something since this request went out
        self._tools = 0  # tool calls running: their time is not the model's
        self._ended = False
        self._next = after  # the silence at which the next notice is due

    def saw(self, msg: m.Msg) -> None:
        with self._lock:
            self._saw(msg)

    def _saw(self, msg: m.Msg) -> None:
        self._since, self._next = self._clock(), self.after
        if isinstance(msg, (m.TextDelta, m.ReasoningDelta)):
            self._heard = True
        elif isinstance(msg, m.ToolCallStarted):
            self._heard, self._tools = True, self._tools + 1
        elif isinstance(msg, m.ToolCallFinished):
            self._tools = max(0, self._tools - 1)
            self._heard = self._tools > 0  # the results go back in a new request: nothing heard from it yet
        elif isinstance(msg, (m.RunStarted, m.RunEnded)):
            self._ended, self._heard, self._tools = isinstance(msg, m.RunEnded), False, 0

    def due(self) -> float | None:
        """The seconds of silence when a notice is due now (each one once), else None."""
        with self._lock:
            silent = self._clock() - self._since
            if self._ended or self._tools or silent < self._next:
                return None
            self._next = max(silent, self._next, 1.0) * 2
            return silent

    def notice(self, silent: float, provider: str, read_timeout: float | None = None) -> str:
        """The line that says so: who is awaited, for how long, until when, and how to stop."""
        what = " since it last sent anything" if self._heard else ", nothing received yet"
        limit = f"; gives up at {read_timeout:g} s (readTimeout)" if read_timeout else ""
        return f"waiting for {provider} ({silent:.0f} s{what}{limit}; Ctrl-C stops)"
