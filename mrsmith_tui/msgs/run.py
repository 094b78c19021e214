"""What a session posts while it runs: its turns, streamed blocks, tools, usage, requests for the
person, tasks and agents (msgs re-exports them all)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from mrsmith_tui.msgs.msg_base import AgentState, Allowed, Msg, Question, Todo, UsageInfo

if TYPE_CHECKING:
    from mrsmith_tui.msgs import AnyMsg

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


class Warning(Msg):  # the vocabulary's word, though it shadows a builtin: use msgs.Warning
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
    exact: str = ""  # a shell call's exact command (`shell=rm -rf build`): what "always" allows; `spec` is the rule


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
    answer: str  # "yes" | "no" | "always" | "always_rule" | "cancelled" | the question's answer text


class PermissionsInForce(Msg):
    """Headless: what runs without asking, reported once before the run starts."""

    type: Literal["PermissionsInForce"] = "PermissionsInForce"
    specs: tuple[Allowed, ...] = ()
    approve_all: bool = False  # --yes: every call that would ask is approved


class PermissionModeChanged(Msg):
    """The session's permission mode (tools.permission_mode): reported once before a headless run and on
    every change (Shift-Tab). Posted, never recorded: a resumed session starts in the mode it is started with."""

    type: Literal["PermissionModeChanged"] = "PermissionModeChanged"
    mode: str  # ask | accept-edits | plan | auto


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


# --------------------------------------------------------------------------- MCP servers


class McpServerChanged(Msg):
    """An MCP server changed state (mrsmith_tui.mcp.hub). Posted, never recorded in a transcript."""

    type: Literal["McpServerChanged"] = "McpServerChanged"
    name: str
    state: str  # starting | ready | failed | disabled | stopped | untrusted
    tools: int = 0
    error: str = ""
    source: str = ""  # user | project
    transport: str = ""  # stdio | http
