"""What the shell turns Textual events (keys, clicks, a command's result) into: UI Msgs.

Plain data with `at`, like every Msg of the core (`mrsmith_tui.msgs`); `update` folds both kinds.
Always made with keyword arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mrsmith_tui.msgs import Msg

__all__ = [
    "AcceptCompletion",
    "AgentSwitched",
    "Answer",
    "CancelKey",
    "Cleared",
    "CloseAgent",
    "CopyBlock",
    "DraftChanged",
    "EffortChanged",
    "FocusBlock",
    "FocusMove",
    "HistoryMove",
    "InterruptKey",
    "KeyIgnored",
    "KeyboardElsewhere",
    "MoveToRequest",
    "Note",
    "OpenAgent",
    "PanelKey",
    "QuitKey",
    "RequestShown",
    "Resized",
    "Scrolled",
    "SessionSwitched",
    "StopAgentKey",
    "Submit",
    "Tick",
    "ToggleFold",
    "ToggleReview",
    "ToggleSidebar",
    "TypedIntoPrompt",
    "WorkerDone",
]


@dataclass(frozen=True)
class Submit(Msg):
    text: str


@dataclass(frozen=True)
class DraftChanged(Msg):
    text: str


@dataclass(frozen=True)
class HistoryMove(Msg):
    step: int  # -1 older, +1 newer


@dataclass(frozen=True)
class AcceptCompletion(Msg):
    """Tab in the input: accept the first completion."""


@dataclass(frozen=True)
class CancelKey(Msg):
    """Esc."""


@dataclass(frozen=True)
class InterruptKey(Msg):
    """Ctrl-C: cancels a run; twice quits."""


@dataclass(frozen=True)
class QuitKey(Msg):
    """Ctrl-D."""


@dataclass(frozen=True)
class FocusMove(Msg):
    step: int  # -1 up, +1 down; 0 leaves the blocks


@dataclass(frozen=True)
class FocusBlock(Msg):
    key: str | None


@dataclass(frozen=True)
class ToggleFold(Msg):
    key: str | None = None  # None: the focused block


@dataclass(frozen=True)
class CopyBlock(Msg):
    key: str | None = None  # None: the focused block


@dataclass(frozen=True)
class Scrolled(Msg):
    at_bottom: bool


@dataclass(frozen=True)
class Resized(Msg):
    width: int
    height: int


@dataclass(frozen=True)
class ToggleSidebar(Msg):
    pass


@dataclass(frozen=True)
class ToggleReview(Msg):
    open: bool | None = None  # None: flip


@dataclass(frozen=True)
class MoveToRequest(Msg):
    """Tab (no completion offered) or F2: move to the request waiting behind the typed prompt."""


@dataclass(frozen=True)
class TypedIntoPrompt(Msg):
    """A printable key typed into a request's modal that answers nothing: the shell put it in the
    prompt, whose text is now `text`."""

    text: str


@dataclass(frozen=True)
class RequestShown(Msg):
    """The request's modal was painted (`at`): its grace starts now, not when the request arrived."""

    request_id: str


@dataclass(frozen=True)
class KeyboardElsewhere(Msg):
    """Another screen (review, palette, a dialog) has the keyboard: the armed request waits, held."""


@dataclass(frozen=True)
class KeyIgnored(Msg):
    """A key reached a request's modal within its grace and was dropped (`at`: when it was pressed)."""


@dataclass(frozen=True)
class Answer(Msg):
    """The person answered the head request (key y / n / a, Esc, or a question's text); `at` is when
    the key was pressed."""

    request_id: str
    answer: str


@dataclass(frozen=True)
class Tick(Msg):
    """Time passes (spinner frames, arming an approval). Sent only while something waits."""


@dataclass(frozen=True)
class WorkerDone(Msg):
    """The run's worker thread returned (after the run's RunEnded)."""

    crashed: str | None = None


@dataclass(frozen=True)
class Note(Msg):
    """A line of information from the shell (a command's result)."""

    text: str
    kind: Literal["notice", "warning", "error"] = "notice"


@dataclass(frozen=True)
class Cleared(Msg):
    """The session was reset: a fresh conversation."""


@dataclass(frozen=True)
class AgentSwitched(Msg):
    agent: str
    model: str
    effort: str | None = None
    context_limit: int = 0


@dataclass(frozen=True)
class EffortChanged(Msg):
    effort: str | None


@dataclass(frozen=True)
class PanelKey(Msg):
    """A key on the focused sub-agent panel."""

    action: Literal["up", "down", "open", "stop", "leave", "focus", "blur"]


@dataclass(frozen=True)
class OpenAgent(Msg):
    agent_id: str


@dataclass(frozen=True)
class CloseAgent(Msg):
    """Back from an agent's screen to the main conversation."""


@dataclass(frozen=True)
class StopAgentKey(Msg):
    """Stop the agent whose screen is open (or the panel's selected one)."""


@dataclass(frozen=True)
class SessionSwitched(Msg):
    """Another recorded session replaces this one on screen (its replay follows)."""

    session_id: str
    agent: str
    model: str
    effort: str | None = None
    context_limit: int = 0
