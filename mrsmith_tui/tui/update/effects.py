"""What `update` asks the shell to do: plain data, returned beside the new model. The shell
(shell/effect_runner.py) carries them out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mrsmith_tui.records import Value

if TYPE_CHECKING:
    from mrsmith_tui.tui.model import Model


class Effect(Value):
    pass


class StartRun(Effect):
    prompt: str
    literal: bool = False  # a custom command's text: sent as it is (no !command, no @path; core.prompt_run)


class CancelRun(Effect):
    pass


class Resolve(Effect):
    """Answer the worker waiting on `request_id`."""

    request_id: str
    answer: str  # "yes" | "no" | "always" | question text | "" (no answer)


class Copy(Effect):
    text: str
    what: str  # shown in the note: "answer", "command", ...


class SaveHistory(Effect):
    entry: str


class Exit(Effect):
    pass


class Command(Effect):
    """A slash command the shell carries out against the session (reset, agent, export, ...)."""

    name: str
    arg: str = ""


class WakeAt(Effect):
    """Send a Tick at (about) this time: arming an approval, clearing a note."""

    at: float


class StopAgent(Effect):
    """Stop one agent (and what it started) through the session's fleet."""

    agent_id: str


class Focus(Effect):
    """Move the keyboard focus: "prompt", "panel" or "conversation"."""

    target: str


class SwitchSession(Effect):
    """Put this recorded session on screen in place of the current one (the welcome's Ctrl-T)."""

    session_id: str


class SetPermissionMode(Effect):
    """Put the session's gate in this permission mode (tools.permission_mode)."""

    mode: str


class Notify(Effect):
    """A passing notification (a toast), for news that arrives while the person is elsewhere."""

    text: str


class IndexFiles(Effect):
    """Read the root's names for `@path` completion off the UI thread (a FilesIndexed comes back)."""


class OpenEditor(Effect):
    """Ctrl-G: the person's $VISUAL/$EDITOR on `text`; an EditorClosed comes back."""

    text: str


class DeleteRight(Effect):
    """Ctrl-D in a draft: the prompt deletes the character under its cursor."""


Effects = tuple[Effect, ...]
Handler = Callable[["Model", Any], "tuple[Model, Effects]"]  # every handler of update: (model, msg) -> (model, effects)
