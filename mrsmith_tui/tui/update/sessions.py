"""The session on screen: the first model, a reset, another agent, another recorded session, notes.
"""

from __future__ import annotations

from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import Model
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.blocks import note_block
from mrsmith_tui.tui.update.effects import Effects, Handler
from mrsmith_tui.tui.update.requests import drop_requests


def initial_model(*, agent: str = "", model: str = "", effort: str | None = None, context_limit: int = 0,
                  history: tuple[str, ...] = (), agents: tuple[str, ...] = (), themes: tuple[str, ...] = (),
                  width: int = 120, height: int = 40, models: tuple[str, ...] = (), mode: str = "ask") -> Model:
    return Model(
        ledger=ui.StatusLedger(agent=agent, model=model, effort=effort, context_limit=context_limit, mode=mode,
                               mode_auto=mode == "auto"),
        input=ui.InputState(history=history[-ui.HISTORY_CAP:]),
        screen=ui.Screen(width=width, height=height),
        agents_known=agents,
        themes_known=themes,
        models_known=models,
    )


def _note(model: Model, msg: ui.Note) -> tuple[Model, Effects]:
    return note_block(model, msg.kind, msg.text, msg.at), ()


def _cleared(model: Model, msg: ui.Cleared) -> tuple[Model, Effects]:
    led = replace(model.ledger, context_tokens=0, turn_in=0, turn_out=0, turn_cached=0, turn_cache_known=False,
                  tool_used=0)
    agents = tuple(r for r in model.sidebar.agents if r.ended is None)
    kept = {r.agent_id for r in agents}
    sidebar = replace(model.sidebar, tasks=(), agents=agents,
                      selected=model.sidebar.selected if model.sidebar.selected in kept else None)
    conv = ui.ChatLog(next_key=model.conv.next_key)
    screen = model.screen if model.screen.agent_open in kept or model.screen.agent_open is None \
        else replace(model.screen, agent_open=None)
    model, refused = drop_requests(model, lambda r: False, msg.at)  # the old conversation's: nobody waits now
    model = replace(model, conv=conv, ledger=led, sidebar=sidebar, screen=screen,
                    agent_convs={k: v for k, v in model.agent_convs.items() if k in kept})
    return note_block(model, "notice", "fresh conversation", msg.at), refused


def _session_switched(model: Model, msg: ui.SessionSwitched) -> tuple[Model, Effects]:
    """A clean screen for the resumed session; its replayed Msgs draw the history and the ledger."""
    fresh = initial_model(agent=msg.agent, model=msg.model, effort=msg.effort, context_limit=msg.context_limit,
                          history=model.input.history, agents=model.agents_known, themes=model.themes_known,
                          models=model.models_known,
                          width=model.screen.width, height=model.screen.height)
    # the person's mode stays (the link puts the new session's gate in it): a switch never resets the badge
    fresh = replace(fresh, ledger=replace(fresh.ledger, mode=model.ledger.mode, mode_auto=model.ledger.mode_auto))
    model = replace(fresh, conv=ui.ChatLog(next_key=model.conv.next_key), input=model.input, now=model.now,
                    sidebar=replace(fresh.sidebar, wanted=model.sidebar.wanted), welcome=model.welcome,
                    startup_warnings=model.startup_warnings)
    return model, ()  # resume_session's own notice ("resumed session …") ends the replay


def _agent_switched(model: Model, msg: ui.AgentSwitched) -> tuple[Model, Effects]:
    led = replace(model.ledger, agent=msg.agent, model=msg.model, effort=msg.effort,
                  context_limit=msg.context_limit or model.ledger.context_limit)
    model = replace(model, ledger=led)
    return note_block(model, "notice", f"agent {msg.agent} · {msg.model}", msg.at), ()


def _effort(model: Model, msg: ui.EffortChanged) -> tuple[Model, Effects]:
    model = replace(model, ledger=replace(model.ledger, effort=msg.effort))
    return note_block(model, "notice", f"reasoning effort {msg.effort or 'off (model default)'}", msg.at), ()


def _models_known(model: Model, msg: ui.ModelsKnown) -> tuple[Model, Effects]:
    return replace(model, models_known=tuple(sorted(set(model.models_known) | set(msg.models)))), ()


def _welcomed(model: Model, msg: ui.Welcomed) -> tuple[Model, Effects]:
    fields = msg.model_dump(exclude={"type", "at"})
    return replace(model, welcome=ui.Welcome(**fields, warnings=len(model.startup_warnings))), ()


def _resume_last(model: Model, msg: ui.ResumeLast) -> tuple[Model, Effects]:
    w = model.welcome
    if model.conv.blocks or w is None or not w.last_id or not w.can_resume:
        return model, ()  # only from the welcome, where the key is shown
    return model, (fx.SwitchSession(w.last_id),)


HANDLERS: dict[type, Handler] = {
    ui.ModelsKnown: _models_known,
    ui.Welcomed: _welcomed,
    ui.ResumeLast: _resume_last,
    ui.Note: _note,
    ui.Cleared: _cleared,
    ui.AgentSwitched: _agent_switched,
    ui.SessionSwitched: _session_switched,
    ui.EffortChanged: _effort,
}
