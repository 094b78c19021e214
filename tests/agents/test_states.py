"""The state table, every (state, event) pair."""

from __future__ import annotations

import itertools

import pytest

from mrsmith_tui.agents.states import EVENTS, FINAL, STATES, next_state

EXPECTED = {
    # state:     needs_person  answered   stop        finished   failed     ended      resumed
    "running":  ("waiting",    "running", "stopping", "done",    "failed",  "stopped", "running"),
    "waiting":  ("waiting",    "running", "stopping", "done",    "failed",  "stopped", "waiting"),
    "stopping": ("stopping",   "stopping", "stopping", "stopped", "stopped", "stopped", "stopping"),
    "stopped":  ("stopped",    "stopped", "stopped",  "stopped", "stopped", "stopped", "running"),
    "done":     ("done",       "done",    "done",     "done",    "done",    "done",    "running"),
    "failed":   ("failed",     "failed",  "failed",   "failed",  "failed",  "failed",  "running"),
}


def test_table_covers_every_state_and_event():
    assert set(EXPECTED) == set(STATES)
    assert EVENTS == ("needs_person", "answered", "stop", "finished", "failed", "ended", "resumed")


@pytest.mark.parametrize(("state", "event"), list(itertools.product(STATES, EVENTS)))
def test_every_pair(state, event):
    assert next_state(state, event) == EXPECTED[state][EVENTS.index(event)]


@pytest.mark.parametrize("late", ["finished", "failed", "needs_person", "answered", "stop"])
def test_a_begun_stop_is_never_undone(late):
    state = next_state(next_state("running", "stop"), late)
    assert state in ("stopping", "stopped")
    assert next_state(state, "ended") == "stopped"


def test_final_states_only_leave_by_resume():
    for state in FINAL:
        assert {next_state(state, e) for e in EVENTS if e != "resumed"} == {state}
