"""Waiting in Pilot tests: poll a model predicate (never sleep for a fixed time; see TEXTUAL-NOTES).

The timeout is only a safety net for a broken test, never a budget: a loaded machine may take
many seconds for what takes milliseconds alone."""

from __future__ import annotations


async def until(pilot, predicate, timeout: float = 90.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await pilot.pause(0.01)
    raise AssertionError("condition not reached")


def painted(app, cls=None) -> bool:
    """A request's modal is on screen and painted (its grace has started: keys_from is set)."""
    from mrsmith_tui.tui.screens.modals import RequestModal

    return isinstance(app.screen, cls or RequestModal) and app.model.pending.keys_from is not None


async def settled(pilot, timeout: float = 90.0) -> None:
    """Until the screen has stopped changing: every queued message handled, no draw of the model
    queued, and two screenshots a handled round apart alike. A layout, or a scroll to the end that
    waits for one, takes a few rounds of the screen's update; a fixed pause guessed how long those
    take (too short on a loaded machine: the screenshot showed the conversation before its scroll)."""
    import re
    import time

    app = pilot.app
    last = None
    deadline = time.monotonic() + timeout  # a safety net, not a budget
    while time.monotonic() < deadline:
        await pilot.pause()
        painter = getattr(app, "painter", None)
        if painter is not None and painter.queued:
            continue
        shot = re.sub(r"terminal-\d+", "terminal-N", app.export_screenshot())  # its CSS ids are random
        if shot == last:
            return
        last = shot
    raise AssertionError("the screen never settled")
