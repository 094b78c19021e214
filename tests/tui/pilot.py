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
