"""What `update` asks the shell to do: plain data, returned beside the new model. The shell
(shell/effect_runner.py) carries them out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mrsmith_tui.tui.model import Model


@dataclass(frozen=True)
class Effect:
    pass


@dataclass(frozen=True)
class StartRun(Effect):
    prompt: str
    literal: bool = False  # a custom command's text: sent as it is (no !command, no @path; core.prompt_run)


@dataclass(frozen=True)
class CancelRun(Effect):
    pass


@dataclass(frozen=True)
class Resolve(Effect):
    """Answer the worker waiting on `request_id`."""

    request_id: str
    answer: str  # "yes" | "no" | "always" | question text | "" (no answer)


@dataclass(frozen=True)
class Copy(Effect):
    text: str
    what: str  # shown in the note: "answer", "command", ...


@dataclass(frozen=True)
class SaveHistory(Effect):
    entry: str


@dataclass(frozen=True)
class Exit(Effect):
    pass


@dataclass(frozen=True)
class Command(Effect):
    """A slash command the shell carries out against the session (reset, agent, export, ...)."""

    name: str
    arg: str = ""


@dataclass(frozen=True)
class WakeAt(Effect):
    """Send a Tick at (about) this time: arming an approval, clearing a note."""

    at: float


@dataclass(frozen=True)
class StopAgent(Effect):
    """Stop one agent (and what it started) through the session's fleet."""

    agent_id: str


@dataclass(frozen=True)
class Focus(Effect):
    """Move the keyboard focus: "prompt", "panel" or "conversation"."""

    target: str


@dataclass(frozen=True)
class SwitchSession(Effect):
    """Put this recorded session on screen in place of the current one (the welcome's Ctrl-T)."""

    session_id: str


@dataclass(frozen=True)
class SetPermissionMode(Effect):
    """Put the session's gate in this permission mode (tools.permission_mode)."""

    mode: str


@dataclass(frozen=True)
class Notify(Effect):
    """A passing notification (a toast), for news that arrives while the person is elsewhere."""

    text: str


@dataclass(frozen=True)
class IndexFiles(Effect):
    """Read the root's names for `@path` completion off the UI thread (a FilesIndexed comes back)."""


@dataclass(frozen=True)
class OpenEditor(Effect):
    """Ctrl-G: the person's $VISUAL/$EDITOR on `text`; an EditorClosed comes back."""

    text: str


Effects = tuple[Effect, ...]
Handler = Callable[["Model", Any], "tuple[Model, Effects]"]  # every handler of update: (model, msg) -> (model, effects)
