"""A cancel token shared by a run, its provider stream and its running tools."""

from __future__ import annotations

import threading
from collections.abc import Callable

from mrsmith_tui.errors import MrSmithError


class Cancelled(MrSmithError):
    """Raised inside a run when its token is cancelled."""


class CancelToken:
    """Thread-safe, one-way flag. Callbacks run once, on the thread that cancels.

    The stream reader closes its HTTP response from a callback and the shell tool kills
    its process group, so a blocked read or a long command ends within a second.
    A child token (for a sub-agent) is cancelled when its parent is.
    """

    def __init__(self, parent: CancelToken | None = None) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        if parent is not None:
            parent.on_cancel(self.cancel)

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            try:
                cb()
            except Exception:  # a failing cleanup must not stop the others
                pass

    def on_cancel(self, cb: Callable[[], None]) -> Callable[[], None]:
        """Run `cb` when cancelled (at once if already). Returns a function that unregisters it."""
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(cb)

                def remove() -> None:
                    with self._lock:
                        if cb in self._callbacks:
                            self._callbacks.remove(cb)

                return remove
        cb()
        return lambda: None

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled()

    def wait(self, timeout: float | None = None) -> bool:
        """Sleep up to `timeout` seconds; True if cancelled meanwhile."""
        return self._event.wait(timeout)
