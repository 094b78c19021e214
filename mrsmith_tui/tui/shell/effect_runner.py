"""Carries out what `update` asked for (update/effects.py): start or cancel a run, answer a waiting
worker, copy, save the prompt history, quit, wake up later, run a /command, stop an agent, move the
focus, show a toast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mrsmith_tui import msgs as m
from mrsmith_tui.errors import message_of
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.shell.editor import open_editor
from mrsmith_tui.tui.shell.file_index_job import index_in_background
from mrsmith_tui.tui.shell.history_file import append_history
from mrsmith_tui.tui.shell.toasts import toast
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.view.sidebar import SidebarView

if TYPE_CHECKING:
    from mrsmith_tui.tui.shell.host import AppHost


def carry_out(app: AppHost, effect: fx.Effect) -> None:
    if isinstance(effect, fx.StartRun):
        app.worker.start_run(effect.prompt, literal=effect.literal)
    elif isinstance(effect, fx.CancelRun):
        cancel_run(app)
    elif isinstance(effect, fx.Resolve):
        app.approver.resolve(effect.request_id, effect.answer)
    elif isinstance(effect, fx.Copy):
        app.copy_to_clipboard(effect.text)
    elif isinstance(effect, fx.SaveHistory):
        append_history(app.history_path, effect.entry, app.model.input.history)
    elif isinstance(effect, fx.Exit):
        app.quit()
    elif isinstance(effect, fx.WakeAt):
        app.painter.wake_up_at(effect.at)
    elif isinstance(effect, fx.Command):
        run_command(REGISTRY, app.command_context, effect.name, effect.arg)
    elif isinstance(effect, fx.StopAgent):
        _stop_agent(app, effect.agent_id)
    elif isinstance(effect, fx.Focus):
        _focus(app, effect.target)
    elif isinstance(effect, fx.SwitchSession):
        app.link.switch(effect.session_id)
    elif isinstance(effect, fx.SetPermissionMode):
        set_mode(app, effect.mode)
    elif isinstance(effect, fx.OpenEditor):
        open_editor(app, effect.text)
    elif isinstance(effect, fx.IndexFiles):
        index_in_background(app)
    elif isinstance(effect, fx.DeleteRight):
        if app.prompt_area is not None:
            app.prompt_area.action_delete_right()
    elif isinstance(effect, fx.Notify):
        toast(app, effect.text)  # a burst of them (a fleet finishing) is one toast


def set_mode(app: AppHost, mode: str) -> None:
    """The session's gate takes the mode the model shows (before the session is composed, the link gives it
    the model's mode when it is: SessionLink._adopt)."""
    if app.session is not None:
        try:
            app.session.gate.mode.set(mode)
        except ValueError as e:
            app.ui(ui.Note, text=str(e), kind="error")


def cancel_run(app: AppHost) -> None:
    """The running turn or job stops; requests of the main run are refused (their modals leave)."""
    app.worker.cancel()
    refuse_requests(app, main_only=True)


def refuse_requests(app: AppHost, *, main_only: bool) -> None:
    """The waiting requests (the main run's, or every agent's too) are refused; their modals leave."""
    for rid in app.approver.cancel(main_only=main_only):
        app.ui(m.RequestResolved, request_id=rid, answer="cancelled")


def _stop_agent(app: AppHost, agent_id: str) -> None:
    fleet = app.session.services.fleet if app.session is not None else None
    if fleet is None:
        app.ui(ui.Note, text=f"cannot stop {agent_id}: no fleet in this session", kind="error")
        return
    try:
        # join_seconds=0: the event loop never waits; AgentStateChanged reports the stop.
        fleet.stop(agent_id, join_seconds=0)
    except Exception as e:
        app.ui(ui.Note, text=message_of(e), kind="error")


def _focus(app: AppHost, target: str) -> None:
    if target == "panel":
        sidebar = app.query_one(SidebarView)
        sidebar.can_focus = True
        app.call_after_refresh(sidebar.focus)  # once the sync above has shown it
    elif target == "prompt" and app.screen is app.screen_stack[0] and app.prompt_area is not None:
        app.prompt_area.focus()
