"""No cyclic garbage collection while mrsmith starts (start-up time, issue #26).

Start-up imports httpx (the TUI: Textual) and a hundred of mrsmith's modules, and builds the config and the
session: hundreds of thousands of objects that all live on, and next to no cycles to free. CPython's
collector still walks them again and again as they are allocated (some 80 young and 7 older
collections, 20-40 ms of a one-shot's CPU). The program's own run (`python -m mrsmith_tui`,
`mrsmith`) pauses the collector from its first line until the session is built (headless) or the
UI's first frame is on screen; `ready()` then freezes what exists (moved out of the collector's way
for good: it is the program's long-lived state) and turns collection back on for what the run allocates.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Collection off until `ready()` (the program's own run only: a host's collector is its own)."""
    global _paused
    gc.disable()
    _paused = True


def ready() -> None:
    """What start-up built is frozen; collection is on again. Does nothing unless `pause` was called."""
    global _paused
    if not _paused:
        return
    _paused = False
    gc.freeze()
    gc.enable()
