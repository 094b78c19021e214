"""What the shell turns Textual events (keys, clicks, a command's result) into: UI Msgs.

Plain data with `at`, like every Msg of the core (`mrsmith_tui.msgs`): frozen records like
them, never serialised (no `type` tag of their own); `update` folds both kinds. Always made with
keyword arguments.
"""

from __future__ import annotations

from typing import Literal

from mrsmith_tui.core.custom_commands import CommandSet
from mrsmith_tui.msgs import Msg

__all__ = [
    "AcceptCompletion",
    "AgentSwitched",
    "Answer",
    "CancelKey",
    "Cleared",
    "CloseAgent",
    "CopyBlock",
    "CustomCommandsLoaded",
    "CycleMode",
    "DraftChanged",
    "EffortChanged",
    "FocusBlock",
    "FocusMove",
    "HistoryMove",
    "InterruptKey",
    "JumpToEnd",
    "KeyIgnored",
    "KeyboardElsewhere",
    "ModelsKnown",
    "MoveToRequest",
    "Note",
    "OpenAgent",
    "PanelKey",
    "QuitKey",
    "RequestShown",
    "Resized",
    "ResumeLast",
    "Scrolled",
    "SendPrompt",
    "SessionSwitched",
    "StopAgentKey",
    "Submit",
    "Tick",
    "ToggleFold",
    "ToggleReview",
    "ToggleSidebar",
    "TypedIntoPrompt",
    "Welcomed",
    "WorkerDone",
]


class Submit(Msg):
    text: str


class DraftChanged(Msg):
    text: str


class HistoryMove(Msg):
    step: int  # -1 older, +1 newer


class AcceptCompletion(Msg):
    """Tab in the input: accept the first completion."""


class CancelKey(Msg):
    """Esc."""


class InterruptKey(Msg):
    """Ctrl-C: cancels a run; twice quits."""


class QuitKey(Msg):
    """Ctrl-D: quits on an empty prompt; in a draft it deletes the character under the cursor (readline)."""

    typed: str = ""  # the prompt widget's text as the key came (the model's draft can be a key behind)
    after_cursor: bool = False  # the focused prompt has text after its cursor


class FocusMove(Msg):
    step: int  # -1 up, +1 down; 0 leaves the blocks


class FocusBlock(Msg):
    key: str | None


class ToggleFold(Msg):
    key: str | None = None  # None: the focused block


class CopyBlock(Msg):
    key: str | None = None  # None: the focused block


class Scrolled(Msg):
    at_bottom: bool


class JumpToEnd(Msg):
    """End (from the prompt, while new output waits below): follow the conversation's end again."""


class Resized(Msg):
    width: int
    height: int


class ToggleSidebar(Msg):
    pass


class CycleMode(Msg):
    """Shift-Tab: the next permission mode."""


class ToggleReview(Msg):
    open: bool | None = None  # None: flip


class MoveToRequest(Msg):
    """Tab (no completion offered) or F2: move to the request waiting behind the typed prompt."""


class TypedIntoPrompt(Msg):
    """A printable key typed into a request's modal that answers nothing: the shell put it in the
    prompt, whose text is now `text`."""

    text: str


class RequestShown(Msg):
    """The request's modal was painted (`at`): its grace starts now, not when the request arrived."""

    request_id: str


class KeyboardElsewhere(Msg):
    """Another screen (review, palette, a dialog) has the keyboard: the armed request waits, held."""


class KeyIgnored(Msg):
    """A key reached a request's modal within its grace and was dropped (`at`: when it was pressed)."""


class Answer(Msg):
    """The person answered the head request (key y / n / a, Esc, or a question's text); `at` is when
    the key was pressed."""

    request_id: str
    answer: str


class Tick(Msg):
    """Time passes (spinner frames, arming an approval). Sent only while something waits."""


class WorkerDone(Msg):
    """The run's worker thread returned (after the run's RunEnded)."""

    crashed: str | None = None


class Note(Msg):
    """A line of information from the shell (a command's result)."""

    text: str
    kind: Literal["notice", "warning", "error"] = "notice"


class Cleared(Msg):
    """The session was reset: a fresh conversation."""


class AgentSwitched(Msg):
    agent: str
    model: str
    effort: str | None = None
    context_limit: int = 0


class EffortChanged(Msg):
    effort: str | None


class ModelsKnown(Msg):
    """Model names /model may complete (the provider's list, or the configured ones)."""

    models: tuple[str, ...]


class PanelKey(Msg):
    """A key on the focused sub-agent panel."""

    action: Literal["up", "down", "open", "stop", "leave", "focus", "blur"]


class OpenAgent(Msg):
    agent_id: str


class CloseAgent(Msg):
    """Back from an agent's screen to the main conversation."""


class StopAgentKey(Msg):
    """Stop the agent whose screen is open (or the panel's selected one)."""


class SessionSwitched(Msg):
    """Another recorded session replaces this one on screen (its replay follows)."""

    session_id: str
    agent: str
    model: str
    effort: str | None = None
    context_limit: int = 0


class Welcomed(Msg):
    """What the welcome shows, gathered by the shell (tui/shell/welcome.py)."""

    version: str = ""
    endpoint: str = ""
    folder: str = ""
    last_id: str = ""
    last_when: str = ""
    last_prompt: str = ""
    last_turns: int = 0
    can_resume: bool = False


class ResumeLast(Msg):
    """Ctrl-T on the welcome: go on with this folder's last session."""


class CustomCommandsLoaded(Msg):
    """The custom /commands the shell found on disk (tui/shell/custom_loader.py)."""

    found: CommandSet


class SendPrompt(Msg):
    """A prompt a command made (/init): sent to the model literally, as the person's turn."""

    text: str
