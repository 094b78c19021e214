"""Gathers what the welcome shows (version, endpoint, folder, this folder's last session) in a thread,
since listing sessions reads files, and folds it in as one `Welcomed` Msg."""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events

from mrsmith_tui.config.load import resolve_agent
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui import model as ui

if TYPE_CHECKING:
    from mrsmith_tui.config.schema import Config
    from mrsmith_tui.tui.shell.host import AppHost


def _version() -> str:
    """The package's own (importlib.metadata would read every installed package's metadata while
    the first frame is drawn: ~15 ms of start-up's CPU, #26)."""
    from mrsmith_tui import __version__

    return __version__


def _endpoint(config: Config) -> str:
    if not config.agents:
        return ""
    agent = resolve_agent(config, None)
    provider = next((p for p in config.providers if p.name == agent.provider), None)
    return provider.base_url if provider is not None else ""


def _last_session(root: Path | None, cwd: Path) -> dict[str, Any]:
    if root is None:
        return {}
    from mrsmith_tui.session.store import list_sessions, local_minute

    try:
        sessions = [s for s in list_sessions(root, cwd=cwd) if s.turns]
    except OSError:
        return {}
    if not sessions:
        return {}
    last = sessions[0]  # the one used last, as -c picks it
    return {"last_id": last.id, "last_when": local_minute(last.used), "last_prompt": last.first_prompt,
            "last_turns": last.turns}


def gather(config: Config, sessions_root: Path | None, cwd: Path, *, can_resume: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {"version": _version(), "endpoint": _endpoint(config), "folder": str(cwd),
                              "can_resume": can_resume, **_last_session(sessions_root, cwd)}
    # a path, a URL or a first prompt from a transcript: shown as text, secrets redacted
    return {k: clean(PROCESS.redact(v)) if isinstance(v, str) else v for k, v in fields.items()}


def start_welcome(app: AppHost, config: Config, sessions_root: Path | None) -> None:
    """Gather off the UI thread; the welcome appears when it is ready (the conversation is empty till then)."""
    cwd = Path.cwd()
    can_resume = app.link.resume is not None

    def work() -> None:
        try:
            fields = gather(config, sessions_root, cwd, can_resume=can_resume)
        except Exception:  # a convenience: never break the start for it
            fields = {"folder": clean(str(cwd))}
        # post_message is thread-safe and does nothing once the app has ended (call_from_thread raised,
        # leaving a coroutine never awaited, and held the thread until the UI ran it)
        app.post_message(events.Callback(callback=partial(app.dispatch, ui.Welcomed(at=app.clock(), **fields))))

    threading.Thread(target=work, name="mrsmith-welcome", daemon=True).start()
