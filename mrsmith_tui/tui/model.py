"""The whole screen as immutable data: frozen dataclasses and tuples, no widgets, no clock.

Time enters only through Msgs (`msg.at`); `Model.now` is the time of the last Msg folded in.
Views compare slices by identity, so `update` must keep every unchanged slice the same object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from mrsmith_tui.msgs import Msg, Question, Todo

BlockKind = Literal["user", "reasoning", "text", "tool", "usage", "warning", "error", "notice"]
RunState = Literal["idle", "thinking", "streaming", "tool", "waiting"]

# Caps: every buffer is bounded; the full text of a block stays in `text` (for review and
# export) but what a live widget shows is cut by the view.
TOOL_OUTPUT_CAP = 64_000  # chars of live tool output kept (the tail)
AGENT_BLOCKS_CAP = 400  # blocks kept per agent for its own screen (its transcript keeps all)
HISTORY_CAP = 500  # prompts kept in the recall history
QUEUE_CAP = 20  # prompts queued while a run goes


@dataclass(frozen=True)
class Block:
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


@dataclass(frozen=True)
class Conversation:
    blocks: tuple[Block, ...] = ()
    next_key: int = 1
    focused: str | None = None  # key of the focused block
    follow: bool = True  # stick to the bottom
    unseen: bool = False  # new output arrived while the person was scrolled up


@dataclass(frozen=True)
class Ledger:
    state: RunState = "idle"
    agent: str = ""
    model: str = ""
    effort: str | None = None
    context_tokens: int = 0
    context_limit: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cached_in: int = 0
    tool_used: int = 0
    tool_limit: int | None = None
    background: int = 0  # running background agents
    run_started: float | None = None
    # this turn's usage (the dim line at the end of a turn)
    turn_in: int = 0
    turn_out: int = 0
    turn_cached: int = 0

    @property
    def cache_pct(self) -> int | None:
        return round(100 * self.cached_in / self.tokens_in) if self.tokens_in else None


@dataclass(frozen=True)
class AgentRow:
    agent_id: str
    label: str
    state: str = "running"
    started: float = 0.0
    ended: float | None = None
    tool_calls: int = 0
    tokens: int = 0
    last_action: str = ""
    background: bool = True


@dataclass(frozen=True)
class Sidebar:
    tasks: tuple[Todo, ...] = ()
    agents: tuple[AgentRow, ...] = ()
    wanted: bool | None = None  # the person's choice; None: automatic
    selected: str | None = None  # the agent row the panel's cursor is on (the panel has the focus)


@dataclass(frozen=True)
class InputState:
    draft: str = ""
    history: tuple[str, ...] = ()
    recall: int | None = None  # index into history while recalling
    stash: str = ""  # the draft before recall started
    completions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Request:
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


@dataclass(frozen=True)
class Pending:
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
    noticed: str = ""  # the request whose "waiting" notice is in the conversation
    notice_key: str = ""  # that notice's block

    @property
    def head(self) -> Request | None:
        return self.queue[0] if self.queue else None


@dataclass(frozen=True)
class Run:
    running: bool = False
    queued: tuple[str, ...] = ()
    cancelling: bool = False


@dataclass(frozen=True)
class Screen:
    width: int = 120
    height: int = 40
    review: bool = False
    quit_armed_at: float | None = None
    note: str = ""  # one transient line (copied, hints)
    note_at: float = 0.0
    agent_open: str | None = None  # the agent whose own screen is shown


@dataclass(frozen=True)
class Model:
    conv: Conversation = field(default_factory=Conversation)
    ledger: Ledger = field(default_factory=Ledger)
    sidebar: Sidebar = field(default_factory=Sidebar)
    input: InputState = field(default_factory=InputState)
    pending: Pending = field(default_factory=Pending)
    run: Run = field(default_factory=Run)
    screen: Screen = field(default_factory=Screen)
    now: float = 0.0
    commands: tuple[str, ...] = ()  # slash commands offered (for completion)
    agents_known: tuple[str, ...] = ()  # configured agent names
    themes_known: tuple[str, ...] = ()
    # Each agent's own blocks (its screen), keyed by agent id. Replaced, never mutated.
    agent_convs: dict[str, Conversation] = field(default_factory=dict)


# --------------------------------------------------------------------------- UI Msgs
# What the shell turns Textual events into. Plain data, with `at` like every Msg.


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
class Complete(Msg):
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
class OpenRequest(Msg):
    """Tab (no completion offered) or F2: move to the request waiting behind the typed prompt."""


@dataclass(frozen=True)
class TypedAway(Msg):
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
