"""The Msg vocabulary: the one port between the core and every frontend.

Everything a run does reaches the TUI, the headless printer, the transcript and the tests
as one of these frozen pydantic models, posted through a `Sink`. Msgs are plain data (str,
int, float, bool, tuples, and the small records below); each carries its class name as its
`type` tag, so a Msg is printed as one JSON object (`to_json`: the `--json` stream, the
transcript's lines) and read back as the same Msg (`from_json`, through the discriminated
union `AnyMsg`). Construction is by keyword only.

Time enters the program only here: every Msg carries `at` (wall-clock seconds), set when
it is made. The TUI model never reads a clock; it reads `msg.at`.
"""

from __future__ import annotations

import time
import typing
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from mrsmith_tui.history import AssistantEntry, UserEntry

# --------------------------------------------------------------------------- records


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UsageInfo(_Record):
    """Token usage of one model call (or a sum of several)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    estimated: bool = False

    def __add__(self, other: UsageInfo) -> UsageInfo:
        return UsageInfo(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            estimated=self.estimated or other.estimated,
        )


TodoStatus = Literal["pending", "in_progress", "completed", "cancelled"]
TodoPriority = Literal["high", "medium", "low"]


class Todo(_Record):
    content: str
    status: TodoStatus = "pending"
    priority: TodoPriority = "medium"


class QuestionOption(_Record):
    label: str
    description: str = ""


class Question(_Record):
    question: str
    options: tuple[QuestionOption, ...] = ()
    multiple: bool = False


AgentState = Literal["running", "waiting", "stopping", "stopped", "done", "failed"]

# --------------------------------------------------------------------------- base


class Msg(BaseModel):
    """Base of every Msg. `type` is the class name (each class pins it with a Literal);
    `at` is wall-clock time (seconds since the epoch)."""

    model_config = ConfigDict(frozen=True, extra="forbid", ser_json_inf_nan="constants")

    type: str = ""
    at: float = Field(default_factory=time.time)


_M = TypeVar("_M", bound=Msg)


class Sink(Protocol):
    """Where the core posts Msgs. Must be safe to call from any thread."""

    def __call__(self, msg: Msg) -> None: ...


class ListSink:
    """A Sink that keeps every Msg in a list (tests, headless folding)."""

    def __init__(self) -> None:
        self.msgs: list[Msg] = []

    def __call__(self, msg: Msg) -> None:
        self.msgs.append(msg)

    def of(self, kind: type[_M]) -> list[_M]:
        return [m for m in self.msgs if isinstance(m, kind)]


# --------------------------------------------------------------------------- session and run


class SessionStarted(Msg):
    type: Literal["SessionStarted"] = "SessionStarted"
    session_id: str
    transcript_path: str = ""  # "" when persistence is off (--no-session)
    agent: str = ""
    model: str = ""
    provider: str = ""
    cwd: str = ""
    resumed: bool = False


class UserPrompt(Msg):
    """A prompt the person sent (echoed by the run when it starts a turn)."""

    type: Literal["UserPrompt"] = "UserPrompt"
    run_id: str
    text: str


class RunStarted(Msg):
    type: Literal["RunStarted"] = "RunStarted"
    run_id: str
    agent: str = ""
    model: str = ""


class RunEnded(Msg):
    type: Literal["RunEnded"] = "RunEnded"
    run_id: str
    cancelled: bool = False
    error: str | None = None  # one line, e.g. "provider 'groq' answered 401: Invalid API Key"
    reason: str = ""  # why it ended when that is not the answer: "max_rounds" (the tool-round cap)
    skipped_chunks: int = 0  # malformed stream chunks skipped during the run


# --------------------------------------------------------------------------- streamed blocks
# A "block" is one streamed piece of an assistant message: its reasoning or its answer.
# Block ids are unique within a session ("r1", "t1", ...). The core posts one delta per
# provider delta; frontends merge them per frame (coalesce.py); a block always ends with BlockEnded.


class ReasoningDelta(Msg):
    type: Literal["ReasoningDelta"] = "ReasoningDelta"
    block_id: str
    text: str


class TextDelta(Msg):
    type: Literal["TextDelta"] = "TextDelta"
    block_id: str
    text: str


class BlockEnded(Msg):
    type: Literal["BlockEnded"] = "BlockEnded"
    block_id: str
    kind: Literal["reasoning", "text"]
    text: str  # the whole block, as assembled


# --------------------------------------------------------------------------- tools


class ToolCallStarted(Msg):
    type: Literal["ToolCallStarted"] = "ToolCallStarted"
    call_id: str
    name: str
    arguments: str  # raw JSON as the model sent it
    summary: str = ""  # one short line for the header, e.g. "git status" or "src/a.py"


class ToolOutput(Msg):
    """Live output of a running tool (a shell's stdout/stderr), in order."""

    type: Literal["ToolOutput"] = "ToolOutput"
    call_id: str
    text: str


class ToolCallFinished(Msg):
    type: Literal["ToolCallFinished"] = "ToolCallFinished"
    call_id: str
    name: str
    ok: bool
    result: str  # what goes back to the model
    exit_code: int | None = None
    diff: str | None = None  # unified diff for edit / write_file
    elapsed: float = 0.0
    denied: bool = False  # refused by the person or the policy


class JobStarted(Msg):
    """A shell command started in the background (`background: true`); stopped when mrsmith exits
    unless `detach` is set."""

    type: Literal["JobStarted"] = "JobStarted"
    job_id: str
    pid: int
    command: str
    log: str
    detach: bool = False


class JobEnded(Msg):
    type: Literal["JobEnded"] = "JobEnded"
    job_id: str
    pid: int
    exit_code: int | None = None  # negative: killed by that signal


# --------------------------------------------------------------------------- usage and budgets


class UsageReported(Msg):
    """Usage of one model call. `context_tokens` is what the context now holds."""

    type: Literal["UsageReported"] = "UsageReported"
    usage: UsageInfo
    context_tokens: int = 0
    context_limit: int = 0


class ToolBudget(Msg):
    type: Literal["ToolBudget"] = "ToolBudget"
    used: int
    limit: int | None


class Warning(Msg):  # noqa: A001 - the vocabulary's word; use msgs.Warning
    type: Literal["Warning"] = "Warning"
    text: str
    code: str = ""  # e.g. "context-85", "budget-80", "transcript"


class Error(Msg):
    type: Literal["Error"] = "Error"
    text: str


class Notice(Msg):
    """Neutral information for the person (e.g. "resumed session 0193…")."""

    type: Literal["Notice"] = "Notice"
    text: str


# --------------------------------------------------------------------------- the person


class ApprovalRequested(Msg):
    """The run waits for the person. Answered through the Approver port by request_id."""

    type: Literal["ApprovalRequested"] = "ApprovalRequested"
    request_id: str
    tool: str
    arguments: str
    reason: str  # why it needs approval
    spec: str = ""  # what "always" would allow, e.g. "write_file" or "shell:git commit"
    diff: str | None = None
    agent_id: str | None = None
    rule: str = "other"  # the trust rule that asked (tools.base.RULE_TEXT): writes, runs, secret, ...


class ContinueRequested(Msg):
    """The run hit maxToolRounds and asks whether to go on with a fresh set of rounds."""

    type: Literal["ContinueRequested"] = "ContinueRequested"
    request_id: str
    rounds: int
    agent_id: str | None = None


class QuestionRequested(Msg):
    type: Literal["QuestionRequested"] = "QuestionRequested"
    request_id: str
    questions: tuple[Question, ...]
    agent_id: str | None = None


class RequestResolved(Msg):
    """A pending approval / continue / question was answered (or cancelled)."""

    type: Literal["RequestResolved"] = "RequestResolved"
    request_id: str
    answer: str  # "yes" | "no" | "always" | "cancelled" | the question's answer text


class Allowed(_Record):
    spec: str  # "write_file", "shell:git commit", "shell" (every shell command)
    origin: str  # "answer" (an "always" answer), "--allow", "config" (the config's allow list)


class PermissionsInForce(Msg):
    """Headless: what runs without asking, reported once before the run starts."""

    type: Literal["PermissionsInForce"] = "PermissionsInForce"
    specs: tuple[Allowed, ...] = ()
    approve_all: bool = False  # --yes: every call that would ask is approved


# --------------------------------------------------------------------------- tasks, skills


class TasksChanged(Msg):
    type: Literal["TasksChanged"] = "TasksChanged"
    todos: tuple[Todo, ...]


class SkillLoaded(Msg):
    type: Literal["SkillLoaded"] = "SkillLoaded"
    name: str
    path: str = ""


# --------------------------------------------------------------------------- agents


class AgentSpawned(Msg):
    type: Literal["AgentSpawned"] = "AgentSpawned"
    agent_id: str  # "agent-1" (background) or "subagent-1" (task tool)
    label: str
    task: str
    background: bool = True
    parent_id: str | None = None


class AgentStateChanged(Msg):
    type: Literal["AgentStateChanged"] = "AgentStateChanged"
    agent_id: str
    state: AgentState
    detail: str = ""  # e.g. the error of a failed agent


class FromAgent(Msg):
    """A Msg from a sub-agent or background agent, wrapped with its id."""

    type: Literal["FromAgent"] = "FromAgent"
    agent_id: str
    msg: AnyMsg


# --------------------------------------------------------------------------- the transcript
# What the history is rebuilt from. Posted like every Msg (the TUI draws an answer from
# AnswerRecorded when it streamed none: a replay), and written to the transcript with the
# complete Msgs around them (session.records). The headless `--json` stream leaves them out.


class Recorded(Msg):
    """Base of the Msgs that record a change of the history."""


class TranscriptHeader(Msg):
    """The first line of a transcript (never posted). `format` is the transcript's version; a
    transcript of an older format that a newer mrsmith goes on writing gets one before its first
    Msg line. An agent's own transcript names the agent (`agent_id`, ...)."""

    type: Literal["TranscriptHeader"] = "TranscriptHeader"
    format: int
    session_id: str
    created: float
    cwd: str
    agent: str = ""
    model: str = ""
    provider: str = ""
    version: str = ""
    agent_id: str | None = None
    parent_id: str | None = None
    background: bool = False
    label: str = ""


class PromptRecorded(Recorded):
    """The person's prompt as it entered the history: the attachments fenced before it."""

    type: Literal["PromptRecorded"] = "PromptRecorded"
    run_id: str
    entry: UserEntry
    attachments: tuple[str, ...] = ()  # their labels (piped stdin, -f FILE)


class AnswerRecorded(Recorded):
    """One answer of the model as it entered the history, whole (a cut one is `entry.partial`).

    `started` is when it began to stream (0: it streamed nothing); `reasoning_block` and `text_block`
    are the ids of the blocks it streamed as ("" when none streamed), so a frontend that drew them
    already knows this answer."""

    type: Literal["AnswerRecorded"] = "AnswerRecorded"
    run_id: str
    entry: AssistantEntry
    model: str = ""
    started: float = 0.0
    reasoning_block: str = ""
    text_block: str = ""


class ContextAdded(Recorded):
    """Text the program put in the context (a loaded skill: its name, folder and body)."""

    type: Literal["ContextAdded"] = "ContextAdded"
    entry: UserEntry
    skill: str = ""
    path: str = ""
    body: str = ""


class Compacted(Recorded):
    """The first `replaces` entries of the history are summarised by `summary` (session.resume.apply_compaction)."""

    type: Literal["Compacted"] = "Compacted"
    summary: str
    replaces: int
    context_tokens: int = 0  # what the context holds after it


class AgentChanged(Recorded):
    """The session goes on with another agent (the history is kept)."""

    type: Literal["AgentChanged"] = "AgentChanged"
    agent: str
    model: str
    provider: str = ""


# --------------------------------------------------------------------------- JSON lines

AnyMsg = Annotated[
    SessionStarted | UserPrompt | RunStarted | RunEnded | ReasoningDelta | TextDelta | BlockEnded | ToolCallStarted
    | ToolOutput | ToolCallFinished | JobStarted | JobEnded | UsageReported | ToolBudget | Warning | Error | Notice
    | ApprovalRequested | ContinueRequested | QuestionRequested | RequestResolved | PermissionsInForce | TasksChanged
    | SkillLoaded | AgentSpawned | AgentStateChanged | FromAgent | TranscriptHeader | PromptRecorded | AnswerRecorded
    | ContextAdded | Compacted | AgentChanged,
    Field(discriminator="type"),
]
FromAgent.model_rebuild()

MSG_TYPES: dict[str, type[Msg]] = {cls.__name__: cls for cls in typing.get_args(typing.get_args(AnyMsg)[0])}

_ADAPTER: TypeAdapter[Msg] = TypeAdapter(AnyMsg)


def to_json(msg: Msg) -> dict[str, Any]:
    """One Msg as a JSON-able dict: {"type": "TextDelta", "at": ..., ...fields}."""
    return msg.model_dump(mode="json")


def from_json(data: dict[str, Any] | str | bytes) -> Msg:
    """The Msg a `to_json` dict (or its JSON text) stands for. Raises pydantic.ValidationError."""
    if isinstance(data, dict):
        return _ADAPTER.validate_python(data)
    return _ADAPTER.validate_json(data)
