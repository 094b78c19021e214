"""What a /command may touch, over the app: the CommandContext of tui/commands/registry.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mrsmith_tui import msgs as m
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands.registry import NoteKind
from mrsmith_tui.tui.shell.effect_runner import refuse_requests
from mrsmith_tui.tui.shell.theme_file import save_theme

if TYPE_CHECKING:
    from textual.screen import Screen

    from mrsmith_tui.config.schema import Config
    from mrsmith_tui.core.session_api import Session
    from mrsmith_tui.tui.shell.host import AppHost

Answer = TypeVar("Answer")


class ShellCommandContext:
    def __init__(self, app: AppHost, config: Config, sessions_root: Path | None) -> None:
        self._app = app
        self._config = config
        self._sessions_root = sessions_root

    @property
    def session(self) -> Session | None:
        return self._app.session

    @property
    def config(self) -> Config:
        return self._config

    @property
    def model(self) -> ui.Model:
        return self._app.model

    @property
    def themes(self) -> frozenset[str]:
        return frozenset(self._app.available_themes)

    @property
    def theme(self) -> str:
        return self._app.theme

    @property
    def sessions_root(self) -> Path | None:
        return self._sessions_root if self._app.link.resume is not None else None

    def emit(self, msg_type: type[m.Msg], **fields: Any) -> None:
        self._app.ui(msg_type, **fields)

    def emit_later(self, msg_type: type[m.Msg], **fields: Any) -> None:
        self._app.sink(msg_type(at=self._app.clock(), **fields))

    def note(self, text: str, kind: NoteKind = "notice") -> None:
        self._app.ui(ui.Note, text=text, kind=kind)

    def run_in_worker(self, job: Callable[[CancelToken], str | None]) -> None:
        self._app.worker.run_job(job)

    def cancel_requests(self) -> None:
        refuse_requests(self._app, main_only=False)

    def ask(self, screen: Screen[Answer], answered: Callable[[Answer | None], None]) -> None:
        self._app.push_screen(screen, answered)

    def set_theme(self, name: str) -> None:
        self._app.theme = name
        save_theme(self._app.theme_path, name)

    def switch_session(self, session_id: str) -> None:
        self._app.link.switch(session_id)
