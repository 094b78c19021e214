"""Toasts in bursts (issue #26): a toast shows at once, and those that follow it within TOAST_GATHER
seconds are gathered into one more toast at the end of that time.

A fleet of 100 agents finishing while the person is idle asked for 100 toasts, each a widget
mounted and laid out on the UI thread, stacked over the screen. Now a burst is its first toast,
then one a TOAST_GATHER that reads as the first line it gathered and how many more came with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean

if TYPE_CHECKING:
    from mrsmith_tui.tui.shell.host import AppHost

TOAST_GATHER = 1.0  # seconds after a toast in which the next ones are gathered into one
TOAST_SECONDS = 6


class _Burst:
    def __init__(self) -> None:
        self.open = False  # a toast was shown less than TOAST_GATHER ago
        self.held: list[str] = []


_BURSTS: WeakKeyDictionary[object, _Burst] = WeakKeyDictionary()


def toast(app: AppHost, text: str) -> None:
    burst = _BURSTS.get(app)
    if burst is None:
        burst = _BURSTS[app] = _Burst()
    text = clean(PROCESS.redact(text))
    if burst.open:
        burst.held.append(text)
        return
    _show(app, burst, [text])


def burst_text(texts: list[str]) -> str:
    """One toast for several: the first text, and how many more came with it."""
    if len(texts) == 1:
        return texts[0]
    return f"{texts[0]}\n… and {len(texts) - 1} more like it"


def _show(app: AppHost, burst: _Burst, texts: list[str]) -> None:
    app.notify(burst_text(texts), timeout=TOAST_SECONDS, markup=False)
    burst.open = True
    app.set_timer(TOAST_GATHER, lambda: _window_ends(app, burst))


def _window_ends(app: AppHost, burst: _Burst) -> None:
    burst.open = False
    if burst.held:
        held, burst.held = burst.held, []
        _show(app, burst, held)
