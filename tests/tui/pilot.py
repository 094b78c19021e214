"""Waiting in Pilot tests: poll a model predicate (never sleep for a fixed time; see TEXTUAL-NOTES)."""

from __future__ import annotations


async def until(pilot, predicate, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await pilot.pause(0.01)
    raise AssertionError("condition not reached")
