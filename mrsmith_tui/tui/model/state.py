"""The whole screen as immutable data: frozen records (records.Value) and tuples, no widgets, no clock.

Time enters only through Msgs (`msg.at`); `Model.now` is the time of the last Msg folded in.
Views compare slices by identity, so `update` must keep every unchanged slice the same object.
"""

from __future__ import annotations

from typing import Literal

from mrsmith_tui.core.custom_commands import CommandSet
from mrsmith_tui.msgs import Question, Todo
from mrsmith_tui.records import Value, field
from mrsmith_tui.tui.model.prompt_state import HistorySearch

__all__ = [
    "AGENT_BLOCKS_CAP",
    "HISTORY_CAP",
    "QUEUE_CAP",
    "TOOL_OUTPUT_CAP",
    "AgentRow",
    "Block",
    "BlockKind",
    "ChatLog",
    "InputState",
    "McpRow",
    "Model",
    "Pending",
    "Request",
    "Run",
    "RunState",
    "Screen",
    "Sidebar",
    "StatusLedger",
    "Welcome",
]

BlockKind = Literal["user", "reasoning", "text", "tool", "usage", "warning", "error", "notice"]
RunState = Literal["idle", "thinking", "streaming", "tool", "waiting"]

# Caps: every buffer is bounded; the full text of a block stays in `text` (for review and
# export) but what a live widget shows is cut by the view.
TOOL_OUTPUT_CAP = 64_000  # chars of live tool output kept (the tail)
AGENT_BLOCKS_CAP = 400  # blocks kept per agent for its own screen (its transcript keeps all)
HISTORY_CAP = 500  # prompts kept in the recall history
QUEUE_CAP = 20  # prompts queued while a run goes


class Block(Value):
    key: str  # unique in the conversation ("b1", "b2", ...)
    kind: BlockKind
    text: str = ""  # the source: prompt, reasoning, Markdown answer, tool output, message
    done: bool = False
    folded: bool = False
    started: float = 0.0
    ended: float | None = None
    source_id: str = ""  # block_id of the stream or call_id of the tool
    # tools
    name: str = ""
    summary: str = ""
    arguments: str = ""
    ok: bool | None = None
    exit_code: int | None = None
    diff: str | None = None
    denied: bool = False
    dropped: int = 0  # chars of live output dropped from the front (cap)


class ChatLog(Value):
    """One conversation's blocks as the screen shows them (the main one, or an agent's own)."""

    blocks: tuple[Block, ...] = ()
    next_key: int = 1
    focused: str | None = None  # key of the focused block
    follow: bool = True  # stick to the bottom
    unseen: bool = False  # new output arrived while the person was scrolled up
    top: str | None = None  # a block shown from its first line, once (/help: a long answer read from the top)


class StatusLedger(Value):
    """What the status bar counts: the run's state, the agent and model, tokens, context, tools."""

    state: RunState = "idle"
    state_since: float = 0.0  # the model's clock when the state began (a long wait says how long)
    agent: str = ""
    model: str = ""
    effort: str | None = None
    context_tokens: int = 0
    context_limit: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cached_in: int = 0
    cache_known: bool = False  # some usage said how much was cached ("cache —" until one does)
    tool_used: int = 0
    tool_limit: int | None = None
    background: int = 0  # running background agents
    mode: str = "ask"  # the permission mode (tools.permission_mode): its badge is never shed
    mode_auto: bool = False  # the session started in auto: Shift-Tab's cycle reaches it again
    run_started: float | None = None
    # this turn's usage (the dim line at the end of a turn)
    turn_in: int = 0
    turn_out: int = 0
    turn_cached: int = 0
    turn_cache_known: bool = False

    @property
    def cache_pct(self) -> int | None:
        """The cached share of the prompts so far; None before any usage and when no server said."""
        return round(100 * self.cached_in / self.tokens_in) if self.tokens_in and self.cache_known else None

    @property
    def cache_text(self) -> str:
        """`cache 42%`, or `cache —` when the server did not say ("" before any usage)."""
        if not self.tokens_in:
            return ""
        pct = self.cache_pct
        return f"cache {pct}%" if pct is not None else "cache —"


class AgentRow(Value):
    agent_id: str
    label: str
    state: str = "running"
    started: float = 0.0
    ended: float | None = None
    tool_calls: int = 0
    tokens: int | None = None  # None until the agent reports a model call's usage
    last_action: str = ""
    background: bool = True


class McpRow(Value):
    """One MCP server in the sidebar (McpServerChanged)."""

    name: str
    state: str = "starting"
    tools: int = 0
    error: str = ""


class Sidebar(Value):
    tasks: tuple[Todo, ...] = ()
    agents: tuple[AgentRow, ...] = ()
    mcp: tuple[McpRow, ...] = ()
    wanted: bool | None = None  # the person's choice; None: automatic
    selected: str | None = None  # the agent row the panel's cursor is on (the panel has the focus)


class InputState(Value):
    draft: str = ""
    history: tuple[str, ...] = ()
    recall: int | None = None  # index into history while recalling
    stash: str = ""  # the draft before recall started
    completions: tuple[str, ...] = ()
    chosen: int | None = None  # Tab is cycling: the draft holds completions[chosen] (None: not cycling)
    typed: str = ""  # while cycling: the draft as typed, the completions were offered for
    files: tuple[str, ...] = ()  # the root's names for `@path` completion (tools.file_index)
    files_at: float | None = None  # when they were asked for (None: never)
    search: HistorySearch | None = None  # Ctrl-R is searching the history


class Request(Value):
    """A pending approval, continue or question."""

    request_id: str
    kind: Literal["approval", "continue", "question"]
    at: float
    tool: str = ""
    arguments: str = ""
    reason: str = ""
    spec: str = ""
    diff: str | None = None
    rounds: int = 0
    questions: tuple[Question, ...] = ()
    agent_id: str | None = None
    rule: str = "other"  # approvals: the trust rule that asked (tools.base.RULE_TEXT)
    exact: str = ""  # approvals: the exact command "a" remembers (`shell=rm -rf build`); "r" remembers `spec`


class Pending(Value):
    """Requests waiting for the person. The head takes the keyboard ("armed") when it arrives on an
    empty prompt with no other screen open, after a prompt is sent, or when the person moves to it
    (Tab / F2); once it waited behind the person's text ("held") only those last two arm it. Keys
    count as answers only from `keys_from`: the grace after its modal was first painted (None: not
    painted yet), pushed on by every key ignored in it."""

    queue: tuple[Request, ...] = ()
    armed: bool = False  # the head request is on screen and has the keyboard
    keys_from: float | None = None  # keys at or after this time are answers; None: its modal is not painted yet
    held: bool = False  # the head waits behind the person's typing or another screen until Tab / F2 / a sent prompt
    confirm_always: bool = False  # "a" was pressed once: a second "a" (or Enter) gives "always"
    confirm_rule: bool = False  # with confirm_always: it was "r" (the broader rule), and a second "r" gives it
    explaining: bool = False  # Tab on an approval: the person types what the model should do instead
    noticed: str = ""  # the request whose "waiting" notice is in the conversation
    notice_key: str = ""  # that notice's block

    @property
    def head(self) -> Request | None:
        return self.queue[0] if self.queue else None


class Run(Value):
    running: bool = False
    queued: tuple[str, ...] = ()
    cancelling: bool = False


class Screen(Value):
    width: int = 120
    height: int = 40
    review: bool = False
    quit_armed_at: float | None = None
    note: str = ""  # one transient line (copied, hints)
    note_at: float = 0.0
    agent_open: str | None = None  # the agent whose own screen is shown


class Welcome(Value):
    """What the empty conversation greets a person with (the shell gathers it: config, folder, version,
    this folder's last session)."""

    version: str = ""
    endpoint: str = ""
    folder: str = ""
    last_id: str = ""  # this folder's newest session with a turn ("": none)
    last_when: str = ""
    last_prompt: str = ""
    last_turns: int = 0
    can_resume: bool = False  # this screen can switch sessions
    warnings: int = 0  # start-up warnings so far (Model.startup_warnings): the welcome says /help lists them


class Model(Value):
    conv: ChatLog = field(default_factory=ChatLog)
    ledger: StatusLedger = field(default_factory=StatusLedger)
    sidebar: Sidebar = field(default_factory=Sidebar)
    input: InputState = field(default_factory=InputState)
    pending: Pending = field(default_factory=Pending)
    run: Run = field(default_factory=Run)
    screen: Screen = field(default_factory=Screen)
    now: float = 0.0
    agents_known: tuple[str, ...] = ()  # configured agent names
    models_known: tuple[str, ...] = ()  # model names /model completes (configured, then the server's list)
    themes_known: tuple[str, ...] = ()
    welcome: Welcome | None = None  # None: not gathered yet (or a read-only view)
    custom: CommandSet = field(default_factory=CommandSet)  # the custom /commands found (core/command_files.py)
    # Warnings that came before the conversation did (theme, MCP, config): toasts, not blocks, so the welcome
    # and its Ctrl-T stay; kept here (bounded) for /help, so a toast missed is never a warning lost.
    startup_warnings: tuple[str, ...] = ()
    # Each agent's own blocks (its screen), keyed by agent id. Replaced, never mutated.
    agent_convs: dict[str, ChatLog] = field(default_factory=dict)
