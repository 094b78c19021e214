"""The review overlay: the whole conversation unfolded in one read-only TextArea (line-based,
so a 100,000-line output scrolls as well as a short one). `/` finds, `n` goes to the next match."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, Static, TextArea
from textual.widgets.text_area import Selection

from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui.screens.screen_css import ScreensCss
from mrsmith_tui.tui.view.clean_input import CleanInput


class ReviewText(TextArea):
    """The conversation, read-only. `/` opens the find box here, in key order, and the keys that reach
    the text while the box is open are the box's: typed fast after `/`, they came before the box had the
    focus (a binding acts once the key has gone round, after the rest of the burst: "/gam⏎" found nothing)."""

    async def _on_key(self, event: events.Key) -> None:
        screen = self.screen
        if isinstance(screen, ReviewScreen) and screen.take_key(event):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)


class ReviewScreen(ScreensCss, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,ctrl+o", "close", "back", show=False, priority=True),
        Binding("n", "next", "next match", show=False),
        Binding("N", "previous", "previous match", show=False),
    ]

    def __init__(self, text: str) -> None:
        super().__init__(id="review")
        self.text = text
        self.needle = ""

    def compose(self) -> ComposeResult:
        yield Static(" Review · / find · n next · N previous · Esc or Ctrl-O back", id="review-title")
        area = ReviewText(self.text, read_only=True, soft_wrap=True, show_line_numbers=False, id="review-text")
        area.cursor_blink = False
        yield area
        find = CleanInput(placeholder="find…", id="review-find")
        find.cursor_blink = False
        find.display = False
        yield find

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    def action_close(self) -> None:
        find = self.query_one(Input)
        if find.display and self.focused is find:
            find.display = False
            self.query_one(TextArea).focus()
            return
        self.dismiss(None)

    def action_find(self) -> None:
        find = self.query_one(Input)
        find.display = True
        find.value = self.needle
        find.cursor_position = len(find.value)
        self.set_focus(find)

    def take_key(self, event: events.Key) -> bool:
        """A key that reached the text: True when it was for the find box (or opened it)."""
        find = self.query_one(Input)
        if not find.display:
            if event.key != "slash":
                return False
            self.action_find()
        elif event.is_printable and event.character:
            find.insert_text_at_cursor(event.character)
        elif event.key == "backspace":
            find.action_delete_left()
        elif event.key == "enter":
            self._search(find.value)
        else:
            return False
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._search(event.value)

    def _search(self, needle: str) -> None:
        self.needle = needle
        self.query_one(Input).display = False
        self.set_focus(self.query_one(TextArea))
        self._go(+1, from_start=True)

    def action_next(self) -> None:
        self._go(+1)

    def action_previous(self) -> None:
        self._go(-1)

    def _go(self, step: int, from_start: bool = False) -> None:
        status = self.query_one("#review-title", Static)
        if not self.needle:
            return
        area = self.query_one(TextArea)
        text_lower, needle = self.text.lower(), self.needle.lower()
        offset = self._offset(area)
        if from_start:
            hit = text_lower.find(needle)
        elif step > 0:
            hit = text_lower.find(needle, offset + 1)
            if hit < 0:
                hit = text_lower.find(needle)
        else:
            hit = text_lower.rfind(needle, 0, max(0, offset))
            if hit < 0:
                hit = text_lower.rfind(needle)
        if hit < 0:
            status.update(Content(clean(f" Review · no match for {self.needle!r} · Esc back")))
            return
        start = self._location(hit)
        end = self._location(hit + len(needle))
        area.selection = Selection(start, end)
        area.scroll_cursor_visible(center=True)
        count = text_lower.count(needle)
        status.update(Content(clean(f" Review · {count} match{'es' if count != 1 else ''} for {self.needle!r} · n next · N previous · Esc back")))

    def _offset(self, area: TextArea) -> int:
        row, col = area.selection.start
        lines = self.text.split("\n")[:row]
        return sum(len(line) + 1 for line in lines) + col

    def _location(self, offset: int) -> tuple[int, int]:
        row = self.text.count("\n", 0, offset)
        line_start = self.text.rfind("\n", 0, offset) + 1
        return row, offset - line_start
