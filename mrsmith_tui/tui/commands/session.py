"""The session family: /help, /exit, /reset, /compact, /sessions."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands.permissions import short
from mrsmith_tui.tui.commands.registry import CommandContext, NoArgCommand, SlashCommand, session_of


class HelpCommand(SlashCommand[str]):
    name = "/help"
    summary = "this list"
    rank = 10
    needs_session = False
    answered_on_screen = True  # the commands from this registry, the keys (update/commands.py)


class ExitCommand(SlashCommand[str]):
    name = "/exit"
    summary = "quit"
    aliases = ("/quit",)
    rank = 20
    needs_session = False
    answered_on_screen = True


class ResetCommand(NoArgCommand):
    """A fresh conversation; first asks whether to keep the permissions "always" answers gave."""

    name = "/reset"
    summary = "start a fresh conversation"
    aliases = ("/clear", "/new")
    rank = 30
    waits_for_run = True
    in_worker = True  # stopping the session's agents waits for their threads

    def run(self, ctx: CommandContext, args: None) -> None:
        answered = [p.spec for p in session_of(ctx).gate.permissions() if p.origin == "answer"]
        if not answered:
            _reset(ctx, keep=True)
            return
        from mrsmith_tui.tui.screens.keep_permissions import KeepPermissionsModal

        def chosen(keep: bool | None) -> None:
            if keep is None:
                ctx.note("/reset cancelled: the conversation goes on")
                ctx.emit_later(ui.WorkerDone)
                return
            _reset(ctx, keep)

        ctx.ask(KeepPermissionsModal(answered), chosen)


def _reset(ctx: CommandContext, keep: bool) -> None:
    """The old conversation's requests are refused at once (their modals leave); the reset itself
    runs in a worker, since stopping the session's agents waits for their threads."""
    ctx.cancel_requests()
    session, emit_later = session_of(ctx), ctx.emit_later

    def job(token: CancelToken) -> str | None:
        gone = [] if keep else session.gate.revoke_all("answer")
        session.reset()
        emit_later(ui.Cleared)
        return f"forgot {', '.join(short(p.spec) for p in gone)}: such calls ask again" if gone else None

    ctx.run_in_worker(job)


class CompactCommand(NoArgCommand):
    name = "/compact"
    summary = "summarise older turns to free context"
    rank = 140
    waits_for_run = True
    in_worker = True

    def run(self, ctx: CommandContext, args: None) -> None:
        session = session_of(ctx)
        # The core says what came of it ("compacted N messages … (was …)", "nothing to compact", a failure);
        # the summary is shown when there is one, never a "compacted" after nothing was (it followed a failure).
        ctx.run_in_worker(lambda token: session.compact(token) or None)


class SessionsCommand(NoArgCommand):
    name = "/sessions"
    summary = "this folder's sessions: pick one to resume"
    aliases = ("/resume",)
    rank = 150
    waits_for_run = True

    def run(self, ctx: CommandContext, args: None) -> None:
        root = ctx.sessions_root
        if root is None:
            ctx.note("/sessions: this screen cannot switch sessions", "warning")
            return
        from mrsmith_tui.session.store import list_sessions
        from mrsmith_tui.tui.screens.sessions_picker import SessionPicker

        session = session_of(ctx)
        sessions = list_sessions(root, cwd=session.cwd)
        if not sessions:
            ctx.note(f"no sessions of this folder under {root}")
            return
        current = session.session_id or None

        def picked(session_id: str | None) -> None:
            if session_id is not None:
                ctx.switch_session(session_id)

        ctx.ask(SessionPicker(sessions, current), picked)


COMMANDS: tuple[SlashCommand[Any], ...] = (HelpCommand(), ExitCommand(), ResetCommand(), CompactCommand(),
                                           SessionsCommand())
