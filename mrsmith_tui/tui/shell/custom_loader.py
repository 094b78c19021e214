"""Finds the custom /commands (core/command_files.py) in a thread at start, since it reads files, and
folds them in as one `CustomCommandsLoaded` Msg. Their warnings become a toast, so the welcome stays."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import events

from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui import model as ui

if TYPE_CHECKING:
    from textual.app import SystemCommand

    from mrsmith_tui.core.custom_commands import CommandSet
    from mrsmith_tui.tui.shell.host import AppHost


def builtin_names() -> frozenset[str]:
    from mrsmith_tui.tui.commands import REGISTRY

    return frozenset(n for c in REGISTRY for n in (c.name, *c.aliases))


def find_commands(root: Path, user_dir: Path | None = None) -> CommandSet:
    from mrsmith_tui.core.command_files import load_commands

    return load_commands(root, builtin=builtin_names(), user_dir=user_dir)


def start_custom_commands(app: AppHost, root: Path | None = None) -> None:
    """Look for the commands off the UI thread; they arrive as one Msg (a read-only view has none)."""
    if app.link.read_only:
        return
    where = Path.cwd() if root is None else root

    def work() -> None:
        try:
            found = find_commands(where)
        except Exception:  # a convenience: never break the start for it
            return
        # post_message is thread-safe and does nothing once the app has ended (call_from_thread raised,
        # leaving a coroutine never awaited, and held the thread until the UI ran it)
        app.post_message(events.Callback(callback=partial(app.dispatch, ui.CustomCommandsLoaded(at=app.clock(), found=found))))

    threading.Thread(target=work, name="mrsmith-commands", daemon=True).start()


def completion_label(model: ui.Model, draft: str) -> str:
    """A completion as the note line shows it: a custom command says whose it is."""
    command = model.custom.find(draft)
    return f"{draft} ({command.label})" if command is not None else draft


def palette_commands(model: ui.Model, submit: Callable[[str], None]) -> Iterator[SystemCommand]:
    """Each custom command for the command palette, saying whose it is. Its help is Content, never markup:
    a file's text is data, and Textual's markup parser raises on `[a='` even escaped (the palette crashed)."""
    from textual.app import SystemCommand
    from textual.content import Content

    for command in model.custom.commands:
        shown = cast(str, Content(clean(command.help_line())))  # Content.from_markup returns a Content as it is
        yield SystemCommand(command.name, shown, lambda name=command.name: submit(name))

