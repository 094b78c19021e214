"""The agent state table: one pure function.

    running  --needs_person-->  waiting  --answered-->  running
    running / waiting  --stop-->  stopping  --ended / finished / failed-->  stopped
    running / waiting  --finished-->  done      --failed-->  failed     --ended-->  stopped
    stopped / done / failed  --resumed-->  running    (a sub-agent resumed by task_id)

A stop that has begun cannot be undone: once `stopping`, the task finishing or failing
still ends in `stopped`. `ended` means the run ended cancelled (a stop, or a cancel that
cascaded from the parent). An event that does not apply leaves the state as it is.
"""

from __future__ import annotations

from typing import Literal, get_args

from mrsmith_tui.msgs import AgentState

AgentEvent = Literal["needs_person", "answered", "stop", "finished", "failed", "ended", "resumed"]

STATES: tuple[AgentState, ...] = get_args(AgentState)
EVENTS: tuple[AgentEvent, ...] = get_args(AgentEvent)
FINAL: frozenset[AgentState] = frozenset({"stopped", "done", "failed"})


def next_state(state: AgentState, event: AgentEvent) -> AgentState:
    if state in FINAL:
        return "running" if event == "resumed" else state
    if state == "stopping":
        return "stopped" if event in ("ended", "finished", "failed") else "stopping"
    # running or waiting: the agent is live
    if event == "stop":
        return "stopping"
    if event == "finished":
        return "done"
    if event == "failed":
        return "failed"
    if event == "ended":
        return "stopped"
    if event == "needs_person":
        return "waiting"
    if event == "answered":
        return "running"
    return state
