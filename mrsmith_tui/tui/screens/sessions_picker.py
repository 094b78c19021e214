"""`/sessions`: this folder's sessions, newest first, in Textual's OptionList; Enter resumes one."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.session.store import SessionInfo, format_sessions
from mrsmith_tui.tui.screens.screen_css import ScreensCss

CURRENT = "  (this session)"


class SessionPicker(ScreensCss, ModalScreen[str | None]):
    """Dismisses with the chosen session's id, or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "back", show=False)]

    def __init__(self, sessions: list[SessionInfo], current: str | None) -> None:
        super().__init__(id="sessions")
        self.sessions = sessions
        self.current = current

    def compose(self) -> ComposeResult:
        # The --list table, one row an option, so the picker and the CLI read the same.
        prompt_width, say_current = self._prompt_width()
        header, *rows = format_sessions(self.sessions, prompt_width=prompt_width, headless_mark="[h]",
                                        narrow=self._narrow).splitlines()
        options = []
        for info, row in zip(self.sessions, rows, strict=False):  # one row a session
            mark = "● " if info.id == self.current else "  "
            row = clean(PROCESS.redact(row))  # first prompts from transcripts: text, never markup
            options.append(Option(Content(mark + row + (CURRENT if say_current and info.id == self.current else "")),
                                  id=info.id))
        with Vertical(classes="dialog"):
            headless = " · [h] headless run" if any(s.frontend == "headless" for s in self.sessions) else ""
            yield Static(Content(f"Sessions in this folder · Enter resume · Esc back{headless}\n  {header}"),
                         classes="title")  # Content: "[h]" is text, not markup
            yield OptionList(*options, id="session-list")

    @property
    def _narrow(self) -> bool:
        """Under 90 columns the rows leave out the agent/model and the year (at 60 they wrapped)."""
        return (self.app.size.width or 120) < 90

    def _prompt_width(self) -> tuple[int, bool]:
        """The first prompt's column takes what the others leave in the dialog, so no row wraps (at 80
        columns it did): the dialog's border and padding, the list's padding and scrollbar and the mark
        are taken off first, and "(this session)" when there is room for it (the mark says it too)."""
        width = self.app.size.width or 120
        room = min(140, int(width * 0.95)) - 6 - 4 - 2
        room -= format_sessions(self.sessions, headless_mark="[h]", narrow=self._narrow).splitlines()[0].index("FIRST PROMPT")
        say_current = bool(self.current) and room - len(CURRENT) >= 24
        return max(12, min(48, room - (len(CURRENT) if say_current else 0))), say_current

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
