"""A one-line Input that takes pasted text with its terminal controls as visible stand-ins.

Textual's Input draws its value raw: a pasted `\\x1b]0;…` would reach the terminal."""

from __future__ import annotations

from textual.widgets import Input

from mrsmith_tui.security.terminal_text import clean


class CleanInput(Input):
    def replace(self, text: str, start: int, end: int) -> None:
        super().replace(clean(text), start, end)
