"""Sub-agents handle their streamed events one at a time (issue #26), and a turn always goes back."""

from __future__ import annotations

import threading

import pytest

from mrsmith_tui.agents import taking_turns
from mrsmith_tui.agents.taking_turns import TakingTurns
from mrsmith_tui.cancel import CancelToken


class Scripted:
    name = "scripted"
    base_url = "http://127.0.0.1:9/v1"

    def __init__(self, events, fail_after: int | None = None):
        self.events, self.fail_after, self.closed = events, fail_after, False

    def stream(self, request, cancel):
        try:
            for i, event in enumerate(self.events):
                if self.fail_after is not None and i == self.fail_after:
                    raise RuntimeError("cut")
                yield event
        finally:
            self.closed = True


def test_each_event_is_handled_holding_the_turn_and_it_goes_back_between_events():
    p = TakingTurns(Scripted(["a", "b", "c"]))
    seen = []
    for event in p.stream(None, CancelToken()):
        seen.append((event, taking_turns._TURN.locked()))
    assert seen == [("a", True), ("b", True), ("c", True)]
    assert not taking_turns._TURN.locked()
    assert p.name == "scripted" and p.base_url == "http://127.0.0.1:9/v1"  # the rest passes through


@pytest.mark.parametrize("how", ["break", "raise", "provider error"])
def test_the_turn_goes_back_however_the_reading_ends(how):
    inner = Scripted(["a", "b", "c"], fail_after=1 if how == "provider error" else None)

    def read():
        for event in TakingTurns(inner).stream(None, CancelToken()):
            if how == "break":
                break
            if how == "raise":
                raise ValueError(event)

    if how == "break":
        read()
    else:
        with pytest.raises((ValueError, RuntimeError)):
            read()
    assert not taking_turns._TURN.locked() and inner.closed


def test_two_agents_never_handle_an_event_at_the_same_time():
    inside = 0
    most = 0
    lock = threading.Lock()

    def agent():
        nonlocal inside, most
        for _ in TakingTurns(Scripted(list(range(300)))).stream(None, CancelToken()):
            with lock:
                inside += 1
                most = max(most, inside)
            with lock:
                inside -= 1

    threads = [threading.Thread(target=agent) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert most == 1 and not taking_turns._TURN.locked()
