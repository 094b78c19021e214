"""The task list and the agents: the panel's rows, each agent's own conversation, opening and stopping one.
"""

from __future__ import annotations

from collections.abc import Callable

from mrsmith_tui import msgs as m
from mrsmith_tui.agents.states import FINAL
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import SIDE_BY_SIDE, Model, one_line
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update import routing
from mrsmith_tui.tui.update.blocks import flash, note_block
from mrsmith_tui.tui.update.effects import Effects, Handler
from mrsmith_tui.tui.update.requests import drop_requests
from mrsmith_tui.tui.update.stream import end_run_blocks


def _tasks(model: Model, msg: m.TasksChanged) -> tuple[Model, Effects]:
    return replace(model, sidebar=replace(model.sidebar, tasks=tuple(msg.todos))), ()


def _count_background(rows: tuple[ui.AgentRow, ...]) -> int:
    return sum(1 for r in rows if r.background and r.state not in FINAL)


def _set_agents(model: Model, rows: tuple[ui.AgentRow, ...]) -> Model:
    led = replace(model.ledger, background=_count_background(rows))
    return replace(model, sidebar=replace(model.sidebar, agents=rows), ledger=led)


def _agent_spawned(model: Model, msg: m.AgentSpawned) -> tuple[Model, Effects]:
    rows = tuple(r for r in model.sidebar.agents if r.agent_id != msg.agent_id)
    row = ui.AgentRow(agent_id=msg.agent_id, label=msg.label, started=msg.at, background=msg.background,
                      last_action=one_line(msg.task, 60))
    return _set_agents(model, rows + (row,)), ()


_INDEX: list = [None, {}]  # the last rows tuple looked up in, and its agent ids' places (a memo)


def _agent_index(model: Model, agent_id: str) -> int | None:
    rows = model.sidebar.agents
    if _INDEX[0] is not rows:  # most Msgs leave the rows as they were: one dict a change, not a scan a Msg
        _INDEX[0], _INDEX[1] = rows, {r.agent_id: i for i, r in enumerate(rows)}
    return _INDEX[1].get(agent_id)


def _agent_state(model: Model, msg: m.AgentStateChanged) -> tuple[Model, Effects]:
    i = _agent_index(model, msg.agent_id)
    if i is None:
        model, _ = _agent_spawned(model, m.AgentSpawned(agent_id=msg.agent_id, label=msg.agent_id, task="", at=msg.at))
        i = len(model.sidebar.agents) - 1
    row = model.sidebar.agents[i]
    ended = msg.at if msg.state in FINAL else None
    news: Effects = ()
    if ended is not None and row.ended is None and row.background and not model.run.running \
            and model.ledger.state == "idle":
        word = {"done": "finished", "failed": "failed", "stopped": "stopped"}[msg.state]
        news = (fx.Notify(f"{row.agent_id} {word} · its report is collected on the next turn (wait_agents)"),)
    last = one_line(msg.detail, 60) or row.last_action
    if ended is not None and not msg.detail and last in ("writing", "thinking", ""):  # it no longer writes
        last = {"done": "finished", "failed": "failed", "stopped": "stopped"}.get(msg.state, msg.state)
    row = replace(row, state=msg.state, ended=ended, last_action=last)
    rows = model.sidebar.agents
    model = _set_agents(model, rows[:i] + (row,) + rows[i + 1:])
    if msg.state in FINAL or msg.state == "stopping":  # its questions can no longer be answered
        model, refused = drop_requests(model, lambda r: r.agent_id != msg.agent_id, msg.at)
        news = refused + news
    return model, news


def _from_agent(model: Model, msg: m.FromAgent) -> tuple[Model, Effects]:
    inner = msg.msg
    if isinstance(inner, (m.ApprovalRequested, m.ContinueRequested, m.QuestionRequested, m.RequestResolved,
                          m.AgentSpawned, m.AgentStateChanged, m.FromAgent)):
        return routing.update(model, inner)
    i = _agent_index(model, msg.agent_id)
    if i is None:
        model, _ = _agent_spawned(model, m.AgentSpawned(agent_id=msg.agent_id, label=msg.agent_id, task="", at=msg.at))
        i = len(model.sidebar.agents) - 1
    model = _agent_blocks(model, msg.agent_id, inner)
    row = model.sidebar.agents[i]
    if isinstance(inner, m.ToolCallStarted):
        row = replace(row, tool_calls=row.tool_calls + 1, last_action=one_line(f"{inner.name} {inner.summary}", 60))
    elif isinstance(inner, m.UsageReported):
        row = replace(row, tokens=(row.tokens or 0) + inner.usage.prompt_tokens + inner.usage.completion_tokens)
    elif isinstance(inner, m.ReasoningDelta) and row.last_action != "thinking":
        row = replace(row, last_action="thinking")
    elif isinstance(inner, m.TextDelta) and row.last_action != "writing":
        row = replace(row, last_action="writing")
    elif isinstance(inner, m.Error):
        model = note_block(model, "error", f"{msg.agent_id}: {inner.text}", msg.at)
        row = replace(row, last_action=one_line(inner.text, 60))
    elif isinstance(inner, m.Warning):
        row = replace(row, last_action=one_line(inner.text, 60))
    else:
        return model, ()
    if row is model.sidebar.agents[i]:
        return model, ()
    rows = model.sidebar.agents
    return _set_agents(model, rows[:i] + (row,) + rows[i + 1:]), ()


# The rules that build the main conversation's blocks also build each agent's own: the same
# handler runs on a model whose `conv` is the agent's, and only that conversation is kept.
_AGENT_BLOCK_MSGS = (m.UserPrompt, m.ReasoningDelta, m.TextDelta, m.BlockEnded, m.ToolCallStarted, m.ToolOutput,
                     m.ToolCallFinished, m.Warning, m.Error, m.Notice)


def _agent_blocks(model: Model, agent_id: str, inner: m.Msg) -> Model:
    if isinstance(inner, m.RunEnded):
        if agent_id not in model.agent_convs:
            return model
        return _in_agent_conv(model, agent_id, lambda sub: end_run_blocks(sub, inner))
    if not isinstance(inner, _AGENT_BLOCK_MSGS):
        return model
    return _in_agent_conv(model, agent_id, lambda sub: routing.ROUTES[type(inner)](sub, inner)[0])


def _in_agent_conv(model: Model, agent_id: str, step: Callable[[Model], Model], *, keep_rest: bool = False) -> Model:
    """Run `step` on the model with `agent_id`'s conversation in place of the main one; keep what it did
    to that conversation (bounded) and, with keep_rest, to the rest of the model (notes, effects' state)."""
    conv = model.agent_convs.get(agent_id) or ui.ChatLog()
    after = step(replace(model, conv=conv))
    base = replace(after, conv=model.conv) if keep_rest else model
    if after.conv is conv:
        return base
    done = after.conv
    if len(done.blocks) > ui.AGENT_BLOCKS_CAP:
        done = replace(done, blocks=done.blocks[-ui.AGENT_BLOCKS_CAP:])
    return replace(base, agent_convs={**model.agent_convs, agent_id: done})


def on_shown_conv(handler: Callable) -> Callable:
    """Fold, focus, copy and scroll act on the conversation on screen: an open agent's, else the main one."""

    def handle(model: Model, msg) -> tuple[Model, Effects]:
        agent_id = model.screen.agent_open
        if agent_id is None:
            return handler(model, msg)
        effects: list[Effects] = []

        def step(sub: Model) -> Model:
            sub, out = handler(sub, msg)
            effects.append(out)
            return sub

        return _in_agent_conv(model, agent_id, step, keep_rest=True), effects[0]

    return handle


def open_agent(model: Model, msg: ui.OpenAgent) -> tuple[Model, Effects]:
    if _agent_index(model, msg.agent_id) is None:
        known = ", ".join(r.agent_id for r in model.sidebar.agents) or "none yet"
        return note_block(model, "warning", f"no agent {msg.agent_id!r} (agents: {known})", msg.at), ()
    if model.screen.agent_open == msg.agent_id:
        return model, ()
    return replace(model, screen=replace(model.screen, agent_open=msg.agent_id)), ()


def _close_agent(model: Model, msg: ui.CloseAgent) -> tuple[Model, Effects]:
    if model.screen.agent_open is None:
        return model, ()
    back = "panel" if model.sidebar.selected else "prompt"
    return replace(model, screen=replace(model.screen, agent_open=None)), (fx.Focus(back),)


def stop_agent(model: Model, agent_id: str | None, at: float) -> tuple[Model, Effects]:
    i = _agent_index(model, agent_id) if agent_id else None
    if i is None:
        known = ", ".join(r.agent_id for r in model.sidebar.agents) or "none yet"
        return note_block(model, "warning", f"no agent {agent_id!r} to stop (agents: {known})", at), ()
    row = model.sidebar.agents[i]
    if row.ended is not None:
        return flash(model, f"{row.agent_id} is already {row.state}", at), ()
    model, refused = drop_requests(model, lambda r: r.agent_id != row.agent_id, at)
    return flash(model, f"stopping {row.agent_id}…", at), refused + (fx.StopAgent(row.agent_id),)


def _stop_agent_key(model: Model, msg: ui.StopAgentKey) -> tuple[Model, Effects]:
    return stop_agent(model, model.screen.agent_open or model.sidebar.selected, msg.at)


def select_first(model: Model) -> Model:
    rows = model.sidebar.agents
    if model.sidebar.selected is not None or not rows:
        return model
    first = next((r for r in rows if r.ended is None), rows[0])
    return replace(model, sidebar=replace(model.sidebar, selected=first.agent_id))


def _panel_key(model: Model, msg: ui.PanelKey) -> tuple[Model, Effects]:
    sb = model.sidebar
    if msg.action == "focus":
        return select_first(model), ()
    if msg.action == "blur":  # the cursor goes with the focus, unless it left for that agent's screen
        if sb.selected is None or model.screen.agent_open is not None:
            return model, ()
        return replace(model, sidebar=replace(sb, selected=None)), ()
    if msg.action == "leave" or not sb.agents:
        # On a narrow screen the panel covered the conversation: leaving it gives the screen back.
        wanted = None if model.screen.width < SIDE_BY_SIDE else sb.wanted
        return replace(model, sidebar=replace(sb, selected=None, wanted=wanted)), (fx.Focus("prompt"),)
    i = _agent_index(model, sb.selected or "")
    if msg.action in ("up", "down"):
        j = 0 if i is None else max(0, min(len(sb.agents) - 1, i + (1 if msg.action == "down" else -1)))
        return replace(model, sidebar=replace(sb, selected=sb.agents[j].agent_id)), ()
    if i is None:
        return select_first(model), ()
    if msg.action == "open":
        return open_agent(model, ui.OpenAgent(agent_id=sb.agents[i].agent_id, at=msg.at))
    return stop_agent(model, sb.agents[i].agent_id, msg.at)


def agents_command(model: Model, arg: str, at: float) -> tuple[Model, Effects]:
    """`/agents` lists and focuses the panel; `/agents stop ID` stops one; `/agents ID` opens its screen."""
    verb, _, rest = arg.partition(" ")
    if verb == "stop":
        return stop_agent(model, rest.strip() or None, at)
    if verb:
        return open_agent(model, ui.OpenAgent(agent_id=verb, at=at))
    effects: Effects = (fx.Command("/agents", ""),)
    if model.sidebar.agents:
        model = select_first(model)
        model = replace(model, sidebar=replace(model.sidebar, wanted=True))
        model = flash(model, "agents: ↑/↓ select · Enter open · x stop · Esc or typing: back to the prompt", at)
        effects += (fx.Focus("panel"),)
    return model, effects


HANDLERS: dict[type, Handler] = {
    m.TasksChanged: _tasks,
    m.AgentSpawned: _agent_spawned,
    m.AgentStateChanged: _agent_state,
    m.FromAgent: _from_agent,
    ui.PanelKey: _panel_key,
    ui.OpenAgent: open_agent,
    ui.CloseAgent: _close_agent,
    ui.StopAgentKey: _stop_agent_key,
}
