"""The prompt's helpers as data: the root's file names for `@path` completion, the Ctrl-R search of
the prompt history, and the Msgs the shell makes for them (the index it read, a search key, the
text an editor gave back)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from mrsmith_tui.msgs import Msg
from mrsmith_tui.records import Value

__all__ = ["FILES_STALE_SECONDS", "MENTION_CHOICES", "EditPrompt", "EditorClosed", "FilesIndexed", "HistorySearch",
           "SearchKey", "completion_note", "search_note"]

FILES_STALE_SECONDS = 30.0  # an index older than this is read again when a new mention starts
MENTION_CHOICES = 50  # completions offered for one mention
NOTE_CHOICES = 8  # completions the line above the prompt names at once


class HistorySearch(Value):
    """Ctrl-R: the query typed so far, the history entry it found (None: nothing yet) and whether the
    last key found nothing (the previous hit stays shown)."""

    query: str = ""
    hit: int | None = None
    failed: bool = False


class FilesIndexed(Msg):
    """The root's files and folders (tools.file_index), read off the UI thread."""

    paths: tuple[str, ...]


class SearchKey(Msg):
    """A key of the Ctrl-R search: start (or the next older match), a character, erase, take it, leave."""

    action: Literal["start", "type", "erase", "accept", "cancel"]
    text: str = ""


class EditorClosed(Msg):
    """Ctrl-G's editor returned: the prompt's new text, or one line saying why it is unchanged."""

    text: str | None = None
    problem: str = ""


class EditPrompt(Msg):
    """Ctrl-G in the prompt: open the person's editor on `text` (the prompt as it is in the widget)."""

    text: str


def search_note(search: HistorySearch, history: tuple[str, ...]) -> str:
    """The line above the prompt while Ctrl-R searches."""
    keys = "Ctrl-R older · Enter take · Esc back"
    if search.failed:
        return f"search: no older “{search.query}” · {keys}"
    if search.hit is None:
        return f"search past prompts: type · {keys}" if not search.query else \
            f"search: nothing has “{search.query}” · Esc back"
    return f"search: “{search.query}” {len(history) - search.hit} back · {keys}"


def completion_note(completions: tuple[str, ...], chosen: int | None, label: Callable[[str], str] = str) -> str:
    """The line above the prompt while completions are offered: up to NOTE_CHOICES of them, the one
    the draft holds while Tab cycles in brackets (the window moves on so that one is always named)."""
    start = 0 if chosen is None else max(0, chosen - NOTE_CHOICES + 1)
    shown = [f"[{label(c)}]" if i == chosen else label(c)
             for i, c in enumerate(completions[start:start + NOTE_CHOICES], start)]
    more = " …" if len(completions) > start + NOTE_CHOICES else ""
    return f"Tab ⇥ {'  '.join(shown)}{more}"
