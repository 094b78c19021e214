"""What the CLI says about the session around a run: `-c` with nothing to continue (a new session, and
one line saying so, as Claude Code does), and on leaving the full-screen UI how to go on with the session
(as Codex does)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mrsmith_tui.config.load import sessions_dir
from mrsmith_tui.config.schema import Config

if TYPE_CHECKING:
    from mrsmith_tui.core.session_api import Session

__all__ = ["continue_line", "nothing_to_continue"]


def nothing_to_continue(config: Config, cwd: Path) -> str | None:
    """`-c` where no session was started: the line that says a new one starts (None: there is one to continue)."""
    from mrsmith_tui.session.store import list_sessions

    if list_sessions(sessions_dir(config), cwd=cwd):
        return None
    return f"no session was started in {cwd.resolve()} to continue: this is a new one (mrsmith --list --all shows every folder's)"


def continue_line(session: Session | None, cwd: Path) -> str | None:
    """After the UI: the session's id and how to go on with it; None when it recorded no turn (nothing to
    go on with), was not recorded (--no-session) or was never built."""
    from mrsmith_tui.session.store import read_info, typed_id

    path = session.transcript_path if session is not None else None
    info = read_info(path) if path is not None else None
    if session is None or info is None or info.turns < 1:
        return None
    short = typed_id(session.session_id)
    try:
        here = session.cwd.resolve() == cwd.resolve()
    except OSError:
        here = False
    how = f"mrsmith -c (or mrsmith --resume {short})" if here else f"mrsmith --resume {short} --other-folder"
    return f"session {short} · continue it with {how}"
