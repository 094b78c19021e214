"""The Msg vocabulary: the one port between the core and every frontend.

Everything a run does reaches the TUI, the headless printer, the transcript and the tests
as one of these frozen dataclasses, posted through a `Sink`. Msgs are plain data (str,
int, float, bool, tuples, and the small records below) so they can be printed as JSON
lines (`to_json`) and compared in tests.

Time enters the program only here: every Msg carries `at` (wall-clock seconds), set when
it is made. The TUI model never reads a clock; it reads `msg.at`.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class UsageInfo:
    """Token usage of one model call (or a sum of several)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    estimated: bool = False

    def __add__(self, other: UsageInfo) -> UsageInfo:
        return UsageInfo(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cached_tokens + other.cached_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
            self.estimated or other.estimated,
        )


TodoStatus = Literal["pending", "in_progress", "completed", "cancelled"]
TodoPriority = Literal["high", "medium", "low"]


@dataclass(frozen=True)
class Todo:
    content: str
    status: TodoStatus = "pending"
    priority: TodoPriority = "medium"


@dataclass(frozen=True)
class QuestionOption:
    label: str
    description: str = ""


@dataclass(frozen=True)
class Question:
    question: str
    options: tuple[QuestionOption, ...] = ()
    multiple: bool = False


AgentState = Literal["running", "waiting", "stopping", "stopped", "done", "failed"]

# --------------------------------------------------------------------------- base


@dataclass(frozen=True)
class Msg:
    """Base of every Msg. `at` is wall-clock time (seconds since the epoch)."""

    at: float = field(default_factory=time.time, kw_only=True)


class Sink(Protocol):
    """Where the core posts Msgs. Must be safe to call from any thread."""

    def __call__(self, msg: Msg) -> None: ...


class ListSink:
    """A Sink that keeps every Msg in a list (tests, headless folding)."""

    def __init__(self) -> None:
        self.msgs: list[Msg] = []

    def __call__(self, msg: Msg) -> None:
        self.msgs.append(msg)

    def of(self, kind: type) -> list:
        return [m for m in self.msgs if isinstance(m, kind)]


# --------------------------------------------------------------------------- session and run


@dataclass(frozen=True)
class SessionStarted(Msg):
    session_id: str
    transcript_path: str = ""  # "" when persistence is off (--no-session)
    agent: str = ""
    model: str = ""
    provider: str = ""
    cwd: str = ""
    resumed: bool = False


@dataclass(frozen=True)
class UserPrompt(Msg):
    """A prompt the person sent (echoed by the run when it starts a turn)."""

    run_id: str
    text: str


@dataclass(frozen=True)
class RunStarted(Msg):
    run_id: str
    agent: str = ""
    model: str = ""


@dataclass(frozen=True)
class RunEnded(Msg):
    run_id: str
    cancelled: bool = False
    error: str | None = None  # one line, e.g. "provider 'groq' answered 401: Invalid API Key"
    reason: str = ""  # why it ended when that is not the answer: "max_rounds" (the tool-round cap)
    skipped_chunks: int = 0  # malformed stream chunks skipped during the run


# --------------------------------------------------------------------------- streamed blocks
# A "block" is one streamed piece of an assistant message: its reasoning or its answer.
# Block ids are unique within a session ("r1", "t1", ...). The core posts one delta per
# provider delta; frontends merge them per frame (coalesce.py); a block always ends with BlockEnded.


@dataclass(frozen=True)
class ReasoningDelta(Msg):
    block_id: str
    text: str


@dataclass(frozen=True)
class TextDelta(Msg):
    block_id: str
    text: str


@dataclass(frozen=True)
class BlockEnded(Msg):
    block_id: str
    kind: Literal["reasoning", "text"]
    text: str  # the whole block, as assembled


# --------------------------------------------------------------------------- tools


@dataclass(frozen=True)
class ToolCallStarted(Msg):
    call_id: str
    name: str
    arguments: str  # raw JSON as the model sent it
    summary: str = ""  # one short line for the header, e.g. "git status" or "src/a.py"


@dataclass(frozen=True)
class ToolOutput(Msg):
    """Live output of a running tool (a shell's stdout/stderr), in order."""

    call_id: str
    text: str


@dataclass(frozen=True)
class ToolCallFinished(Msg):
    call_id: str
    name: str
    ok: bool
    result: str  # what goes back to the model
    exit_code: int | None = None
    diff: str | None = None  # unified diff for edit / write_file
    elapsed: float = 0.0
    denied: bool = False  # refused by the person or the policy


@dataclass(frozen=True)
class JobStarted(Msg):
    """A shell command started in the background (`background: true`); stopped when mrsmith exits
    unless `detach` is set."""

    job_id: str
    pid: int
    command: str
    log: str
    detach: bool = False


@dataclass(frozen=True)
class JobEnded(Msg):
    job_id: str
    pid: int
    exit_code: int | None = None  # negative: killed by that signal


# --------------------------------------------------------------------------- usage and budgets


@dataclass(frozen=True)
class UsageReported(Msg):
    """Usage of one model call. `context_tokens` is what the context now holds."""

    usage: UsageInfo
    context_tokens: int = 0
    context_limit: int = 0


@dataclass(frozen=True)
class ToolBudget(Msg):
    used: int
    limit: int | None


@dataclass(frozen=True)
class Warning(Msg):  # noqa: A001 - the vocabulary's word; use msgs.Warning
    text: str
    code: str = ""  # e.g. "context-85", "budget-80", "transcript"


@dataclass(frozen=True)
class Error(Msg):
    text: str


@dataclass(frozen=True)
class Notice(Msg):
    """Neutral information for the person (e.g. "resumed session 0193…")."""

    text: str


# --------------------------------------------------------------------------- the person


@dataclass(frozen=True)
class ApprovalRequested(Msg):
    """The run waits for the person. Answered through the Approver port by request_id."""

    request_id: str
    tool: str
    arguments: str
    reason: str  # why it needs approval
    spec: str = ""  # what "always" would allow, e.g. "write_file" or "shell:git commit"
    diff: str | None = None
    agent_id: str | None = None
    rule: str = "other"  # the trust rule that asked (tools.base.RULE_TEXT): writes, runs, secret, ...


@dataclass(frozen=True)
class ContinueRequested(Msg):
    """The run hit maxToolRounds and asks whether to go on with a fresh set of rounds."""

    request_id: str
    rounds: int
    agent_id: str | None = None


@dataclass(frozen=True)
class QuestionRequested(Msg):
    request_id: str
    questions: tuple[Question, ...]
    agent_id: str | None = None


@dataclass(frozen=True)
class RequestResolved(Msg):
    """A pending approval / continue / question was answered (or cancelled)."""

    request_id: str
    answer: str  # "yes" | "no" | "always" | "cancelled" | the question's answer text


@dataclass(frozen=True)
class Allowed:
    spec: str  # "write_file", "shell:git commit", "shell" (every shell command)
    origin: str  # "answer" (an "always" answer), "--allow", "config" (the config's allow list)


@dataclass(frozen=True)
class PermissionsInForce(Msg):
    """Headless: what runs without asking, reported once before the run starts."""

    specs: tuple[Allowed, ...] = ()
    approve_all: bool = False  # --yes: every call that would ask is approved


# --------------------------------------------------------------------------- tasks, skills


@dataclass(frozen=True)
class TasksChanged(Msg):
    todos: tuple[Todo, ...]


@dataclass(frozen=True)
class SkillLoaded(Msg):
    name: str
    path: str = ""


# --------------------------------------------------------------------------- agents


@dataclass(frozen=True)
class AgentSpawned(Msg):
    agent_id: str  # "agent-1" (background) or "subagent-1" (task tool)
    label: str
    task: str
    background: bool = True
    parent_id: str | None = None


@dataclass(frozen=True)
class AgentStateChanged(Msg):
    agent_id: str
    state: AgentState
    detail: str = ""  # e.g. the error of a failed agent


@dataclass(frozen=True)
class FromAgent(Msg):
    """A Msg from a sub-agent or background agent, wrapped with its id."""

    agent_id: str
    msg: Msg


# --------------------------------------------------------------------------- JSON lines


def to_json(msg: Msg) -> dict[str, Any]:
    """One Msg as a JSON-able dict: {"type": "TextDelta", ...fields}."""
    out: dict[str, Any] = {"type": type(msg).__name__}
    for f in dataclasses.fields(msg):
        value = getattr(msg, f.name)
        out[f.name] = _jsonable(value)
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, Msg):
        return to_json(value)
    if dataclasses.is_dataclass(value):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value
