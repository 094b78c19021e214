"""A CommandContext that records what a command did: notes, Msgs, jobs, modals, theme, session switches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mrsmith_tui import msgs as m
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import Config
from mrsmith_tui.core.session_api import Session
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands.registry import NoteKind
from mrsmith_tui.tui.update import initial_model
from tests.tui.fakes import CONFIG


@dataclass
class FakeContext:
    session: Session | None = None
    config: Config = CONFIG
    model: ui.Model = field(default_factory=initial_model)
    themes: frozenset[str] = frozenset({"mrsmith", "nord"})
    sessions_root: Path | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)
    emitted: list[tuple[type, dict[str, Any]]] = field(default_factory=list)
    emitted_later: list[tuple[type, dict[str, Any]]] = field(default_factory=list)
    jobs: list[Callable[[CancelToken], str | None]] = field(default_factory=list)
    asked: list[tuple[Any, Callable[[Any], None]]] = field(default_factory=list)
    cancelled_requests: int = 0
    theme: str = ""
    switched_to: list[str] = field(default_factory=list)

    def emit(self, msg_type: type[m.Msg], **fields: Any) -> None:
        self.emitted.append((msg_type, fields))

    def emit_later(self, msg_type: type[m.Msg], **fields: Any) -> None:
        self.emitted_later.append((msg_type, fields))

    def note(self, text: str, kind: NoteKind = "notice") -> None:
        self.notes.append((text, kind))

    def run_in_worker(self, job: Callable[[CancelToken], str | None]) -> None:
        self.jobs.append(job)

    def run_jobs(self) -> list[str | None]:
        """What a worker would do with each job, here and now."""
        return [job(CancelToken()) for job in self.jobs]

    def cancel_requests(self) -> None:
        self.cancelled_requests += 1

    def ask(self, screen: Any, answered: Callable[[Any], None]) -> None:
        self.asked.append((screen, answered))

    def set_theme(self, name: str) -> None:
        self.theme = name

    def switch_session(self, session_id: str) -> None:
        self.switched_to.append(session_id)

    @property
    def last_note(self) -> tuple[str, str]:
        return self.notes[-1]
