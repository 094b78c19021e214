"""The Msg vocabulary: the one port between the core and every frontend.

Everything a run does reaches the TUI, the headless printer, the transcript and the tests
as one of these frozen records (mrsmith_tui.records), posted through a `Sink`. Msgs are plain data (str,
int, float, bool, tuples, and the small records below); each carries its class name as its
`type` tag, so a Msg is printed as one JSON object (`to_json`: the `--json` stream, the
transcript's lines) and read back as the same Msg (`from_json`, through the discriminated
union `AnyMsg`). Construction is by keyword only.

Time enters the program only here: every Msg carries `at` (wall-clock seconds), set when
it is made. The TUI model never reads a clock; it reads `msg.at`.

The package: msg_base.py (Msg, the Sink port, the records Msgs carry), run.py (what a session posts
while it runs), recorded.py (the transcript's own: its header and the Recorded Msgs the history is
rebuilt from); this module puts them in one union and one namespace (`msgs.TextDelta`).
"""

from __future__ import annotations

import typing
from typing import Annotated, Any

from mrsmith_tui.history import HistoryModel
from mrsmith_tui.msgs import run as _run
from mrsmith_tui.msgs.msg_base import (
    AgentState,
    Allowed,
    ListSink,
    Msg,
    Question,
    QuestionOption,
    Sink,
    Todo,
    TodoPriority,
    TodoStatus,
    UsageInfo,
    _Record,
    build_models,
)
from mrsmith_tui.msgs.prompt_msgs import CommandRan, MentionsRead
from mrsmith_tui.msgs.recorded import (
    AgentChanged,
    AnswerRecorded,
    Compacted,
    ContextAdded,
    PromptRecorded,
    Recorded,
    TranscriptHeader,
)
from mrsmith_tui.msgs.run import (
    AgentSpawned,
    AgentStateChanged,
    ApprovalRequested,
    BlockEnded,
    ContinueRequested,
    Error,
    FromAgent,
    JobEnded,
    JobStarted,
    McpServerChanged,
    Notice,
    PermissionModeChanged,
    PermissionsInForce,
    QuestionRequested,
    ReasoningDelta,
    RequestResolved,
    RunEnded,
    RunStarted,
    SessionStarted,
    SkillLoaded,
    TasksChanged,
    TextDelta,
    ToolBudget,
    ToolCallFinished,
    ToolCallStarted,
    ToolOutput,
    UsageReported,
    UserPrompt,
    Warning,
)
from mrsmith_tui.records import Tag

# --------------------------------------------------------------------------- JSON lines

AnyMsg = Annotated[
    SessionStarted | UserPrompt | RunStarted | RunEnded | ReasoningDelta | TextDelta | BlockEnded | ToolCallStarted
    | ToolOutput | ToolCallFinished | JobStarted | JobEnded | UsageReported | ToolBudget | Warning | Error | Notice
    | ApprovalRequested | ContinueRequested | QuestionRequested | RequestResolved | PermissionsInForce | TasksChanged
    | SkillLoaded | AgentSpawned | AgentStateChanged | FromAgent | TranscriptHeader | PromptRecorded | AnswerRecorded
    | ContextAdded | Compacted | AgentChanged | McpServerChanged
    | MentionsRead | CommandRan | PermissionModeChanged,
    Tag("type"),
]
# FromAgent names the union it is part of: its module gets the name (its checker resolves it there).
_run.AnyMsg = AnyMsg  # type: ignore[attr-defined]

MSG_TYPES: dict[str, type[Msg]] = {cls.__name__: cls for cls in typing.get_args(typing.get_args(AnyMsg)[0])}

def build_all() -> None:
    """Nothing to build: Msgs are plain records, checked with pydantic only when one is read back
    (`from_json`), which builds what it needs then, safely from any thread. Kept for callers."""
    build_models(Msg, _Record, HistoryModel)


BUILDS_LOCKED = True  # the checkers are built under a lock (records_check)


def ready_for_threads() -> None:
    """What a session needs before it starts a thread: nothing any more (kept for callers)."""


def to_json(msg: Msg) -> dict[str, Any]:
    """One Msg as a JSON-able dict: {"type": "TextDelta", "at": ..., ...fields}."""
    return msg.model_dump(mode="json")


def from_json(data: dict[str, Any] | str | bytes) -> Msg:
    """The Msg a `to_json` dict (or its JSON text) stands for. Raises pydantic.ValidationError (pydantic
    is loaded on the first call: reading a transcript back is the one place that needs it)."""
    from mrsmith_tui.records_check import validator

    adapter, make = validator(AnyMsg)
    made: Msg = make(adapter.validate_python(data) if isinstance(data, dict) else adapter.validate_json(data))
    return made


__all__ = [
    "MSG_TYPES",
    "AgentChanged",
    "AgentSpawned",
    "AgentState",
    "AgentStateChanged",
    "Allowed",
    "AnswerRecorded",
    "AnyMsg",
    "ApprovalRequested",
    "BlockEnded",
    "CommandRan",
    "Compacted",
    "ContextAdded",
    "ContinueRequested",
    "Error",
    "FromAgent",
    "JobEnded",
    "JobStarted",
    "ListSink",
    "McpServerChanged",
    "MentionsRead",
    "Msg",
    "Notice",
    "PermissionModeChanged",
    "PermissionsInForce",
    "PromptRecorded",
    "Question",
    "QuestionOption",
    "QuestionRequested",
    "ReasoningDelta",
    "Recorded",
    "RequestResolved",
    "RunEnded",
    "RunStarted",
    "SessionStarted",
    "Sink",
    "SkillLoaded",
    "TasksChanged",
    "TextDelta",
    "Todo",
    "TodoPriority",
    "TodoStatus",
    "ToolBudget",
    "ToolCallFinished",
    "ToolCallStarted",
    "ToolOutput",
    "TranscriptHeader",
    "UsageInfo",
    "UsageReported",
    "UserPrompt",
    "Warning",
    "build_all",
    "from_json",
    "ready_for_threads",
    "to_json",
]
