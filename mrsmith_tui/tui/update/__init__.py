"""`update(model, msg) -> (model, effects)`: every UI rule, as pure functions. One module per concern:

    stream.py     a run's Msgs: deltas, blocks, usage, its end (resume replays through these too)
    tools.py      a tool call's block
    requests.py   approvals, go-on requests and questions: when they take the keyboard, their answers
    agents.py     the task list, the agents' panel and each agent's own conversation
    mcp.py        the MCP servers' rows in the sidebar
    modes.py      the permission mode: Shift-Tab, and the badge's mode
    input.py      the prompt: typing, completion, history, sending
    commands.py   a /command: what the screen answers at once, what goes to the shell
    custom.py     custom /commands: found, listed, completed, expanded into a prompt
    keys.py       keys and the screen: cancel, quit, focus, fold, copy, scroll, sidebar, review, tick
    sessions.py   the first model, reset, another agent or session, notes
    prompt_extras.py  what a typed prompt's `@path` mentions attached or refused, `@path` completion
    prompt_keys.py    Ctrl-R's history search and Ctrl-G's editor
    blocks.py     the small steps they share; effects.py what update asks the shell to do

No widgets, no clock, no I/O: time comes from `msg.at`. Unchanged slices of the model stay the same
objects, so a view can tell by identity whether its region needs drawing.
"""

from __future__ import annotations

from mrsmith_tui.tui.update import (
    agents,
    custom,
    keys,
    mcp,
    modes,
    prompt_extras,
    prompt_keys,
    requests,
    sessions,
    stream,
    tools,
)
from mrsmith_tui.tui.update import input as prompt_input
from mrsmith_tui.tui.update.input import completions
from mrsmith_tui.tui.update.requests import GRACE, answer_for, key_route
from mrsmith_tui.tui.update.routing import ROUTES, update
from mrsmith_tui.tui.update.sessions import initial_model

for _concern in (stream, tools, requests, agents, mcp, modes, prompt_input, keys, sessions, custom, prompt_extras, prompt_keys):
    ROUTES.update(_concern.HANDLERS)

__all__ = ["GRACE", "answer_for", "completions", "initial_model", "key_route", "update"]
