"""`/theme` without a name: the themes in an OptionList, the current one marked; Enter picks one."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from mrsmith_tui.tui.screens.screen_css import ScreensCss


class ThemePicker(ScreensCss, ModalScreen[str | None]):
    """Dismisses with the chosen theme's name, or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "back", show=False)]

    def __init__(self, themes: list[str], current: str) -> None:
        super().__init__(id="themes")
        self.themes = themes
        self.current = current

    def compose(self) -> ComposeResult:
        options = [Option(Content(("● " if name == self.current else "  ") + name), id=name) for name in self.themes]
        with Vertical(classes="dialog"):
            yield Static("Themes · Enter choose (kept for the next start) · Esc back", classes="title")
            yield OptionList(*options, id="theme-list")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        if self.current in self.themes:
            options.highlighted = self.themes.index(self.current)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
