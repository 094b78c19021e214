"""`update(model, msg) -> (model, effects)`: every UI rule, as one pure function.

No widgets, no clock, no I/O. Unchanged slices of the model stay the same objects, so a
view can tell by identity whether its region needs drawing.
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from typing import Callable, Literal

from mrsmith_tui import msgs as m
from mrsmith_tui.agents.states import FINAL
from mrsmith_tui.tools.base import RULE_TEXT
from mrsmith_tui.tui import effects as fx
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import Block, Model, Request

Effects = tuple[fx.Effect, ...]

GRACE = 0.4  # seconds after a request takes the keyboard in which keys are dropped, not answers
MOVE_KEYS = "Tab or F2"  # move from the prompt to a request waiting behind typed text
QUIT_WINDOW = 2.0  # a second Ctrl-C within this quits
NOTE_SECONDS = 4.0
OPEN_SCAN = 64  # open blocks are near the end: look this far back
SIDE_BY_SIDE = 100  # columns from which the sidebar sits beside the conversation

COMMANDS: dict[str, str] = {
    "/help": "this list",
    "/exit": "quit",
    "/reset": "start a fresh conversation",
    "/usage": "tokens, cache and cost of this session",
    "/agents": "[ID | stop ID]  the agents; focus the panel, open one, or stop one",
    "/agent": "<name> [--keep]  a new session on another agent (--keep: go on with this conversation)",
    "/skills": "[name]  list skills, or load one",
    "/tasks": "the task list",
    "/jobs": "background shell jobs (stopped when mrsmith exits unless detached)",
    "/reasoning": "[value|off]  reasoning effort",
    "/theme": "<name>  switch theme",
    "/copy": "copy the last answer",
    "/export": "[path]  the session as Markdown",
    "/compact": "summarise older turns to free context",
    "/sessions": "this folder's sessions: pick one to resume",
    "/permissions": "[revoke SPEC|N|all]  what runs without asking, and where it came from",
}

KEYS_HELP = (
    "Enter send · Ctrl-J newline · Up/Down history · Tab complete · Tab or F2: answer a waiting request · "
    "Esc cancel run · Ctrl-C cancel (twice: quit) · Ctrl-D quit · Ctrl-O review · Ctrl-B sidebar · Ctrl-P palette · "
    "Alt-Up/Down or Shift-Tab: move between blocks, Enter fold, c copy"
)


def initial_model(*, agent: str = "", model: str = "", effort: str | None = None, context_limit: int = 0,
                  history: tuple[str, ...] = (), agents: tuple[str, ...] = (), themes: tuple[str, ...] = (),
                  width: int = 120, height: int = 40) -> Model:
    return Model(
        ledger=ui.Ledger(agent=agent, model=model, effort=effort, context_limit=context_limit),
        input=ui.InputState(history=history[-ui.HISTORY_CAP:]),
        screen=ui.Screen(width=width, height=height),
        commands=tuple(COMMANDS),
        agents_known=agents,
        themes_known=themes,
    )


def update(model: Model, msg: m.Msg) -> tuple[Model, Effects]:
    handler = _HANDLERS.get(type(msg))
    if handler is None:
        return model, ()
    model, effects = handler(model, msg)
    if model.pending.head is not None and not model.pending.armed:
        model = _try_arm(model, msg.at)
    if model.now < msg.at:
        model = replace(model, now=msg.at)
    return model, effects


# --------------------------------------------------------------------------- blocks


def _add_block(model: Model, kind: ui.BlockKind, at: float, **fields) -> Model:
    conv = model.conv
    block = Block(key=f"b{conv.next_key}", kind=kind, started=at, **fields)
    conv = replace(conv, blocks=conv.blocks + (block,), next_key=conv.next_key + 1,
                   unseen=conv.unseen or not conv.follow)
    return replace(model, conv=conv)


def _find_open(blocks: tuple[Block, ...], kind: str, source_id: str) -> int | None:
    for i in range(len(blocks) - 1, max(-1, len(blocks) - 1 - OPEN_SCAN), -1):
        b = blocks[i]
        if b.kind == kind and b.source_id == source_id and not b.done:
            return i
    return None


def _set_block(model: Model, index: int, block: Block) -> Model:
    conv = model.conv
    blocks = conv.blocks[:index] + (block,) + conv.blocks[index + 1:]
    return replace(model, conv=replace(conv, blocks=blocks, unseen=conv.unseen or not conv.follow))


def _note_block(model: Model, kind: ui.BlockKind, text: str, at: float) -> Model:
    return _add_block(model, kind, at, text=text, done=True, ended=at)


def _state(model: Model, state: ui.RunState) -> Model:
    if model.ledger.state == state:
        return model
    return replace(model, ledger=replace(model.ledger, state=state))


# --------------------------------------------------------------------------- core Msgs


def _session_started(model: Model, msg: m.SessionStarted) -> tuple[Model, Effects]:
    return replace(model, ledger=replace(model.ledger, agent=msg.agent or model.ledger.agent,
                                         model=msg.model or model.ledger.model)), ()


def _user_prompt(model: Model, msg: m.UserPrompt) -> tuple[Model, Effects]:
    return _note_block(model, "user", msg.text, msg.at), ()


def _run_started(model: Model, msg: m.RunStarted) -> tuple[Model, Effects]:
    ledger = replace(model.ledger, state="thinking", run_started=msg.at, turn_in=0, turn_out=0, turn_cached=0,
                     agent=msg.agent or model.ledger.agent, model=msg.model or model.ledger.model)
    return replace(model, ledger=ledger), ()


def _delta(kind: str, state: ui.RunState) -> Callable:
    def handle(model: Model, msg) -> tuple[Model, Effects]:
        i = _find_open(model.conv.blocks, kind, msg.block_id)
        if i is None:
            model = _add_block(model, kind, msg.at, text=msg.text, source_id=msg.block_id)
        else:
            b = model.conv.blocks[i]
            model = _set_block(model, i, replace(b, text=b.text + msg.text))
        return _state(model, state), ()
    return handle


def _block_ended(model: Model, msg: m.BlockEnded) -> tuple[Model, Effects]:
    i = _find_open(model.conv.blocks, msg.kind, msg.block_id)
    if i is None:
        if not msg.text:
            return model, ()
        model = _add_block(model, msg.kind, msg.at, text=msg.text, source_id=msg.block_id)
        i = len(model.conv.blocks) - 1
    b = model.conv.blocks[i]
    done = replace(b, text=msg.text or b.text, done=True, ended=msg.at, folded=(b.kind == "reasoning"))
    return _set_block(model, i, done), ()


def _tool_started(model: Model, msg: m.ToolCallStarted) -> tuple[Model, Effects]:
    model = _add_block(model, "tool", msg.at, source_id=msg.call_id, name=msg.name,
                       summary=msg.summary, arguments=msg.arguments)
    return _state(model, "tool"), ()


def _tool_output(model: Model, msg: m.ToolOutput) -> tuple[Model, Effects]:
    i = _find_open(model.conv.blocks, "tool", msg.call_id)
    if i is None:
        return model, ()
    b = model.conv.blocks[i]
    text, dropped = b.text + msg.text, b.dropped
    if len(text) > ui.TOOL_OUTPUT_CAP:
        cut = len(text) - ui.TOOL_OUTPUT_CAP
        text, dropped = text[cut:], dropped + cut
    return _set_block(model, i, replace(b, text=text, dropped=dropped)), ()


def _tool_finished(model: Model, msg: m.ToolCallFinished) -> tuple[Model, Effects]:
    i = _find_open(model.conv.blocks, "tool", msg.call_id)
    if i is None:
        model = _add_block(model, "tool", msg.at, source_id=msg.call_id, name=msg.name)
        i = len(model.conv.blocks) - 1
    b = model.conv.blocks[i]
    done = replace(b, text=msg.result, dropped=0, done=True, ended=msg.at, ok=msg.ok, exit_code=msg.exit_code,
                   diff=msg.diff, denied=msg.denied, folded=True,
                   started=msg.at - msg.elapsed if msg.elapsed else b.started)
    model = _set_block(model, i, done)
    return _state(model, "thinking") if model.run.running else model, ()


def _usage(model: Model, msg: m.UsageReported) -> tuple[Model, Effects]:
    u, led = msg.usage, model.ledger
    tokens_in, cached = led.tokens_in + u.prompt_tokens, led.cached_in + u.cached_tokens
    led = replace(
        led,
        tokens_in=tokens_in, tokens_out=led.tokens_out + u.completion_tokens, cached_in=cached,
        context_tokens=msg.context_tokens or led.context_tokens,
        context_limit=msg.context_limit or led.context_limit,
        turn_in=led.turn_in + u.prompt_tokens, turn_out=led.turn_out + u.completion_tokens,
        turn_cached=led.turn_cached + u.cached_tokens,
    )
    return replace(model, ledger=led), ()


def _budget(model: Model, msg: m.ToolBudget) -> tuple[Model, Effects]:
    return replace(model, ledger=replace(model.ledger, tool_used=msg.used, tool_limit=msg.limit)), ()


def _warning(model: Model, msg: m.Warning) -> tuple[Model, Effects]:
    return _note_block(model, "warning", msg.text, msg.at), ()


def _error(model: Model, msg: m.Error) -> tuple[Model, Effects]:
    return _note_block(model, "error", msg.text, msg.at), ()


def _notice(model: Model, msg: m.Notice) -> tuple[Model, Effects]:
    return _note_block(model, "notice", msg.text, msg.at), ()


def _run_ended(model: Model, msg: m.RunEnded) -> tuple[Model, Effects]:
    led = model.ledger
    if led.turn_in or led.turn_out:
        took = msg.at - led.run_started if led.run_started is not None else 0.0
        parts = [f"{_k(led.turn_in)} in", f"{_k(led.turn_out)} out"]
        if led.turn_in:
            parts.append(f"cache {round(100 * led.turn_cached / led.turn_in)}%")
        parts.append(_seconds(took))
        model = _note_block(model, "usage", " · ".join(parts), msg.at)
    model = _end_run_blocks(model, msg)
    waiting = "waiting" if model.pending.queue else "idle"
    return replace(model, ledger=replace(model.ledger, state=waiting, run_started=None)), ()


def _end_run_blocks(model: Model, msg: m.RunEnded) -> Model:
    """A run's end in its conversation: its error or "cancelled" as a block, no block left open."""
    if msg.error:
        if not _said_already(model.conv, msg.error):  # the core posts Error, then RunEnded(error)
            model = _note_block(model, "error", msg.error, msg.at)
    elif msg.cancelled:
        model = _note_block(model, "notice", "cancelled", msg.at)
    return _close_open_blocks(model, msg.at)


def _said_already(conv: ui.Conversation, error: str) -> bool:
    return any(b.kind == "error" and b.text == error for b in conv.blocks[-OPEN_SCAN:])


def _close_open_blocks(model: Model, at: float) -> Model:
    """A cancelled or failed run can leave a block open; close it so nothing spins forever."""
    blocks = model.conv.blocks
    start = max(0, len(blocks) - OPEN_SCAN)
    changed = False
    out = list(blocks[start:])
    for j, b in enumerate(out):
        if not b.done:
            out[j] = replace(b, done=True, ended=at, folded=b.kind in ("reasoning", "tool"),
                             ok=False if b.kind == "tool" else b.ok)
            changed = True
    if not changed:
        return model
    return replace(model, conv=replace(model.conv, blocks=blocks[:start] + tuple(out)))


def _worker_done(model: Model, msg: ui.WorkerDone) -> tuple[Model, Effects]:
    if msg.crashed:
        model = _note_block(model, "error", msg.crashed, msg.at)
        model = _close_open_blocks(model, msg.at)
    run = replace(model.run, running=False, cancelling=False)
    led = model.ledger if model.ledger.state == "idle" else replace(model.ledger, state="idle", run_started=None)
    model = replace(model, run=run, ledger=led)
    if run.queued:
        first, rest = run.queued[0], run.queued[1:]
        model = replace(model, run=replace(run, running=True, queued=rest))
        return model, (fx.StartRun(first),)
    return model, ()


# --------------------------------------------------------------------------- requests


def _request(kind: str) -> Callable:
    def handle(model: Model, msg) -> tuple[Model, Effects]:
        if any(r.request_id == msg.request_id for r in model.pending.queue):
            return model, ()
        fields = {"approval": lambda: dict(tool=msg.tool, arguments=msg.arguments, reason=msg.reason,
                                           spec=msg.spec, diff=msg.diff, rule=msg.rule),
                  "continue": lambda: dict(rounds=msg.rounds),
                  "question": lambda: dict(questions=msg.questions)}[kind]()
        req = Request(request_id=msg.request_id, kind=kind, at=msg.at, agent_id=msg.agent_id, **fields)
        pending = replace(model.pending, queue=model.pending.queue + (req,))
        return _state(replace(model, pending=pending), "waiting"), ()  # update() arms or defers it
    return handle


def _try_arm(model: Model, at: float) -> Model:
    """The head request takes the keyboard when it finds the prompt empty and no other screen open.
    Behind typed text (or another screen) it is held, with a notice, until the person moves to it
    (OpenRequest) or sends the prompt: a prompt emptied by editing does not arm it, since the person
    is still typing. Never changes the draft."""
    p = model.pending
    head = p.head
    if head is None or p.armed:
        return model
    if not p.held and not model.input.draft and not model.screen.review:
        return _arm(model, at)
    if not p.held:
        model = replace(model, pending=replace(p, held=True))
    return _waiting_notice_block(model, head, at)


def _waiting_notice_block(model: Model, head: Request, at: float) -> Model:
    p = model.pending
    if p.noticed == head.request_id:
        return model
    model = _note_block(model, "notice", waiting_notice(head), at)
    return replace(model, pending=replace(p, noticed=head.request_id, notice_key=model.conv.blocks[-1].key))


def _arm(model: Model, at: float) -> Model:
    """On screen from now; its keys count only from the grace after its modal is painted (RequestShown)."""
    return replace(model, pending=replace(model.pending, armed=True, held=False, keys_from=None, confirm_always=False))


def takes_keys(model: Model, at: float) -> bool:
    """Whether a key pressed at `at` may answer the request on screen (painted, and not within its grace)."""
    p = model.pending
    return p.armed and p.keys_from is not None and at >= p.keys_from


def _request_shown(model: Model, msg: ui.RequestShown) -> tuple[Model, Effects]:
    p = model.pending
    if p.head is None or p.head.request_id != msg.request_id or not p.armed or p.keys_from is not None:
        return model, ()
    return replace(model, pending=replace(p, keys_from=msg.at + GRACE)), ()


def _keyboard_elsewhere(model: Model, msg: ui.KeyboardElsewhere) -> tuple[Model, Effects]:
    p = model.pending
    if p.head is None:
        return model, ()
    return replace(model, pending=replace(p, armed=False, held=True, keys_from=None)), ()


# The single keys that answer a modal; a question takes any key (its options and free text).
# "a" (always) is the costly answer: the first press asks for a second ("a" again or Enter).
ANSWER_KEYS: dict[str, dict[str, str]] = {
    "approval": {"y": "yes", "n": "no", "a": "always", "escape": "no"},
    "continue": {"y": "yes", "enter": "yes", "n": "no", "escape": "no"},
}


def answer_for(model: Model, key: str) -> str | None:
    """The answer a key gives to the request on screen (None: not an answer key)."""
    head = model.pending.head
    if head is None:
        return None
    answer = ANSWER_KEYS.get(head.kind, {}).get(key)
    if answer is None and key == "enter" and head.kind == "approval" and model.pending.confirm_always:
        return "always"
    return answer


KeyRoute = Literal["pass", "drop", "prompt"]


def key_route(model: Model, at: float, key: str, printable: bool) -> KeyRoute:
    """Where a key pressed at `at` goes while a request's modal is on screen: to the modal
    ("pass"), nowhere ("drop": a non-printable key before the modal was painted or within its
    grace), or to the prompt ("prompt"): a printable key before or within the grace, or one that
    answers nothing, is the person typing, not answering; it lands in the prompt and the request
    waits behind the text again."""
    p = model.pending
    if p.head is None or not p.armed:  # the modal is still on screen, closing: its keys are typing
        return "prompt" if printable else "drop"
    if not takes_keys(model, at):
        return "prompt" if printable else "drop"
    answers = ANSWER_KEYS.get(p.head.kind)
    if answers is not None and printable and key not in answers:
        return "prompt"
    return "pass"


def _typed_away(model: Model, msg: ui.TypedAway) -> tuple[Model, Effects]:
    """A key typed into a modal went to the prompt (now `msg.text`): the request waits behind it."""
    inp = replace(model.input, draft=msg.text, recall=None, completions=completions(model, msg.text))
    model = replace(model, input=inp)
    if model.pending.head is not None:
        model = replace(model, pending=replace(model.pending, armed=False, held=True, keys_from=None,
                                               confirm_always=False))
    return model, ()  # update() puts the waiting notice up (once per request)


REQUEST_WORDS = {"approval": "approval", "continue": "go-on request", "question": "question"}


def waiting_notice(req: Request) -> str:
    who = f"{req.agent_id}: " if req.agent_id else ""
    if req.kind == "approval":
        what = f"{req.tool} waits for your approval ({RULE_TEXT.get(req.rule, RULE_TEXT['other'])})"
    elif req.kind == "continue":
        what = f"the run used {req.rounds} tool rounds and asks whether to go on"
    else:
        what = "a question waits for your answer"
    return f"{who}{what} · {MOVE_KEYS} to answer; your text stays in the prompt"


def _open_request(model: Model, msg: ui.OpenRequest) -> tuple[Model, Effects]:
    p = model.pending
    if p.head is None:
        return _flash(model, "nothing is waiting for an answer", msg.at), ()
    if p.armed:
        return model, ()
    return _arm(model, msg.at), ()


def _key_ignored(model: Model, msg: ui.KeyIgnored) -> tuple[Model, Effects]:
    """A non-printable key (Esc, Enter, an arrow) before the modal was painted or within its grace:
    dropped, and the grace starts again from it, so a key held or pressed as the modal appeared never
    answers it."""
    p = model.pending
    if not p.armed:
        return model, ()
    if p.keys_from is not None:
        model = replace(model, pending=replace(p, keys_from=max(p.keys_from, msg.at + GRACE)))
    return _flash(model, "key ignored: the request had just appeared (answer after a short pause)", msg.at), ()


ANSWER_WORDS = {"yes": "allowed once", "always": "always allowed", "no": "refused", "": "cancelled",
                "cancelled": "cancelled"}


def _pop_request(model: Model, request_id: str, answer: str = "", at: float = 0.0) -> Model:
    queue = tuple(r for r in model.pending.queue if r.request_id != request_id)
    if len(queue) == len(model.pending.queue):
        return model
    p = model.pending
    if p.noticed == request_id and p.notice_key:  # its "waits" notice says how it ended
        model = _mark_notice(model, p.notice_key, answer)
    req = next(r for r in p.queue if r.request_id == request_id)
    if req.kind == "approval" and req.agent_id is None and at > req.at:
        model = _not_counting_the_wait(model, req, at)
    pending = ui.Pending(queue=queue, noticed=p.noticed)
    state = model.ledger.state
    if not queue and state == "waiting":
        state = "thinking" if model.run.running else "idle"
    return replace(model, pending=pending, ledger=replace(model.ledger, state=state))


def _not_counting_the_wait(model: Model, req: Request, at: float) -> Model:
    """The live elapsed time of the tool call that asked leaves out the time the person took to answer
    (its final time is the tool's own, from the core)."""
    blocks = model.conv.blocks
    for i in range(len(blocks) - 1, max(-1, len(blocks) - 1 - OPEN_SCAN), -1):
        b = blocks[i]
        if b.kind == "tool" and not b.done and b.name == req.tool:
            return _set_block(model, i, replace(b, started=min(at, b.started + (at - req.at))))
    return model


def _mark_notice(model: Model, key: str, answer: str) -> Model:
    i = _block_index(model, key)
    if i is None:
        return model
    b = model.conv.blocks[i]
    head, _, _ = b.text.partition(f" · {MOVE_KEYS} to answer")
    word = ANSWER_WORDS.get(answer, "answered")
    return _set_block(model, i, replace(b, text=f"{head} · {word}"))


def _answer(model: Model, msg: ui.Answer) -> tuple[Model, Effects]:
    p = model.pending
    head = p.head
    if head is None or head.request_id != msg.request_id or not p.armed:
        return model, ()
    if not takes_keys(model, msg.at):
        return _key_ignored(model, ui.KeyIgnored(at=msg.at))
    if head.kind == "approval" and msg.answer == "always" and not p.confirm_always:
        return replace(model, pending=replace(p, confirm_always=True)), ()
    return _pop_request(model, msg.request_id, msg.answer, msg.at), (fx.Resolve(msg.request_id, msg.answer),)


def _resolved(model: Model, msg: m.RequestResolved) -> tuple[Model, Effects]:
    return _pop_request(model, msg.request_id, msg.answer, msg.at), ()


def _drop_requests(model: Model, keep: Callable[[Request], bool], at: float) -> tuple[Model, Effects]:
    """Refuse (answer "", which the worker reads as no) and remove every request not kept: a cancelled
    run's, a stopped agent's. Their modals leave the screen."""
    gone = [r.request_id for r in model.pending.queue if not keep(r)]
    for rid in gone:
        model = _pop_request(model, rid, "cancelled", at)
    return model, tuple(fx.Resolve(rid, "") for rid in gone)


def _of_the_run(model: Model, req: Request) -> bool:
    """A request of the main run or of a sub-agent it is waiting on (not a background agent's)."""
    if req.agent_id is None:
        return True
    row = next((r for r in model.sidebar.agents if r.agent_id == req.agent_id), None)
    return row is None or not row.background


# --------------------------------------------------------------------------- tasks and agents


def _tasks(model: Model, msg: m.TasksChanged) -> tuple[Model, Effects]:
    return replace(model, sidebar=replace(model.sidebar, tasks=tuple(msg.todos))), ()


def _count_background(rows: tuple[ui.AgentRow, ...]) -> int:
    return sum(1 for r in rows if r.background and r.state not in FINAL)


def _set_agents(model: Model, rows: tuple[ui.AgentRow, ...]) -> Model:
    led = replace(model.ledger, background=_count_background(rows))
    return replace(model, sidebar=replace(model.sidebar, agents=rows), ledger=led)


def _agent_spawned(model: Model, msg: m.AgentSpawned) -> tuple[Model, Effects]:
    rows = tuple(r for r in model.sidebar.agents if r.agent_id != msg.agent_id)
    row = ui.AgentRow(agent_id=msg.agent_id, label=msg.label, started=msg.at, background=msg.background,
                      last_action=_one_line(msg.task, 60))
    return _set_agents(model, rows + (row,)), ()


def _agent_index(model: Model, agent_id: str) -> int | None:
    for i, r in enumerate(model.sidebar.agents):
        if r.agent_id == agent_id:
            return i
    return None


def _agent_state(model: Model, msg: m.AgentStateChanged) -> tuple[Model, Effects]:
    i = _agent_index(model, msg.agent_id)
    if i is None:
        model, _ = _agent_spawned(model, m.AgentSpawned(agent_id=msg.agent_id, label=msg.agent_id, task="", at=msg.at))
        i = len(model.sidebar.agents) - 1
    row = model.sidebar.agents[i]
    ended = msg.at if msg.state in FINAL else None
    news: Effects = ()
    if ended is not None and row.ended is None and row.background and not model.run.running \
            and model.ledger.state == "idle":
        word = {"done": "finished", "failed": "failed", "stopped": "stopped"}[msg.state]
        news = (fx.Notify(f"{row.agent_id} {word} · its report is collected on the next turn (wait_agents)"),)
    row = replace(row, state=msg.state, ended=ended, last_action=_one_line(msg.detail, 60) or row.last_action)
    rows = model.sidebar.agents
    model = _set_agents(model, rows[:i] + (row,) + rows[i + 1:])
    if msg.state in FINAL or msg.state == "stopping":  # its questions can no longer be answered
        model, refused = _drop_requests(model, lambda r: r.agent_id != msg.agent_id, msg.at)
        news = refused + news
    return model, news


def _from_agent(model: Model, msg: m.FromAgent) -> tuple[Model, Effects]:
    inner = msg.msg
    if isinstance(inner, (m.ApprovalRequested, m.ContinueRequested, m.QuestionRequested, m.RequestResolved,
                          m.AgentSpawned, m.AgentStateChanged, m.FromAgent)):
        return update(model, inner)
    i = _agent_index(model, msg.agent_id)
    if i is None:
        model, _ = _agent_spawned(model, m.AgentSpawned(agent_id=msg.agent_id, label=msg.agent_id, task="", at=msg.at))
        i = len(model.sidebar.agents) - 1
    model = _agent_blocks(model, msg.agent_id, inner)
    row = model.sidebar.agents[i]
    if isinstance(inner, m.ToolCallStarted):
        row = replace(row, tool_calls=row.tool_calls + 1, last_action=_one_line(f"{inner.name} {inner.summary}", 60))
    elif isinstance(inner, m.UsageReported):
        row = replace(row, tokens=row.tokens + inner.usage.prompt_tokens + inner.usage.completion_tokens)
    elif isinstance(inner, m.ReasoningDelta) and row.last_action != "thinking":
        row = replace(row, last_action="thinking")
    elif isinstance(inner, m.TextDelta) and row.last_action != "writing":
        row = replace(row, last_action="writing")
    elif isinstance(inner, m.Error):
        model = _note_block(model, "error", f"{msg.agent_id}: {inner.text}", msg.at)
        row = replace(row, last_action=_one_line(inner.text, 60))
    elif isinstance(inner, m.Warning):
        row = replace(row, last_action=_one_line(inner.text, 60))
    else:
        return model, ()
    if row is model.sidebar.agents[i]:
        return model, ()
    rows = model.sidebar.agents
    return _set_agents(model, rows[:i] + (row,) + rows[i + 1:]), ()


# The rules that build the main conversation's blocks also build each agent's own: the same
# handler runs on a model whose `conv` is the agent's, and only that conversation is kept.
_AGENT_BLOCK_MSGS = (m.UserPrompt, m.ReasoningDelta, m.TextDelta, m.BlockEnded, m.ToolCallStarted, m.ToolOutput,
                     m.ToolCallFinished, m.Warning, m.Error, m.Notice)


def _agent_blocks(model: Model, agent_id: str, inner: m.Msg) -> Model:
    if isinstance(inner, m.RunEnded):
        if agent_id not in model.agent_convs:
            return model
        return _in_agent_conv(model, agent_id, lambda sub: _end_run_blocks(sub, inner))
    if not isinstance(inner, _AGENT_BLOCK_MSGS):
        return model
    return _in_agent_conv(model, agent_id, lambda sub: _HANDLERS[type(inner)](sub, inner)[0])


def _in_agent_conv(model: Model, agent_id: str, step: Callable[[Model], Model], *, keep_rest: bool = False) -> Model:
    """Run `step` on the model with `agent_id`'s conversation in place of the main one; keep what it did
    to that conversation (bounded) and, with keep_rest, to the rest of the model (notes, effects' state)."""
    conv = model.agent_convs.get(agent_id) or ui.Conversation()
    after = step(replace(model, conv=conv))
    base = replace(after, conv=model.conv) if keep_rest else model
    if after.conv is conv:
        return base
    done = after.conv
    if len(done.blocks) > ui.AGENT_BLOCKS_CAP:
        done = replace(done, blocks=done.blocks[-ui.AGENT_BLOCKS_CAP:])
    return replace(base, agent_convs={**model.agent_convs, agent_id: done})


def _on_shown_conv(handler: Callable) -> Callable:
    """Fold, focus, copy and scroll act on the conversation on screen: an open agent's, else the main one."""

    def handle(model: Model, msg) -> tuple[Model, Effects]:
        agent_id = model.screen.agent_open
        if agent_id is None:
            return handler(model, msg)
        effects: list[Effects] = []

        def step(sub: Model) -> Model:
            sub, out = handler(sub, msg)
            effects.append(out)
            return sub

        return _in_agent_conv(model, agent_id, step, keep_rest=True), effects[0]

    return handle


def _open_agent(model: Model, msg: ui.OpenAgent) -> tuple[Model, Effects]:
    if _agent_index(model, msg.agent_id) is None:
        known = ", ".join(r.agent_id for r in model.sidebar.agents) or "none yet"
        return _note_block(model, "warning", f"no agent {msg.agent_id!r} (agents: {known})", msg.at), ()
    if model.screen.agent_open == msg.agent_id:
        return model, ()
    return replace(model, screen=replace(model.screen, agent_open=msg.agent_id)), ()


def _close_agent(model: Model, msg: ui.CloseAgent) -> tuple[Model, Effects]:
    if model.screen.agent_open is None:
        return model, ()
    back = "panel" if model.sidebar.selected else "prompt"
    return replace(model, screen=replace(model.screen, agent_open=None)), (fx.Focus(back),)


def _stop_agent(model: Model, agent_id: str | None, at: float) -> tuple[Model, Effects]:
    i = _agent_index(model, agent_id) if agent_id else None
    if i is None:
        known = ", ".join(r.agent_id for r in model.sidebar.agents) or "none yet"
        return _note_block(model, "warning", f"no agent {agent_id!r} to stop (agents: {known})", at), ()
    row = model.sidebar.agents[i]
    if row.ended is not None:
        return _flash(model, f"{row.agent_id} is already {row.state}", at), ()
    model, refused = _drop_requests(model, lambda r: r.agent_id != row.agent_id, at)
    return _flash(model, f"stopping {row.agent_id}…", at), refused + (fx.StopAgent(row.agent_id),)


def _stop_agent_key(model: Model, msg: ui.StopAgentKey) -> tuple[Model, Effects]:
    return _stop_agent(model, model.screen.agent_open or model.sidebar.selected, msg.at)


def _select_first(model: Model) -> Model:
    rows = model.sidebar.agents
    if model.sidebar.selected is not None or not rows:
        return model
    first = next((r for r in rows if r.ended is None), rows[0])
    return replace(model, sidebar=replace(model.sidebar, selected=first.agent_id))


def _panel_key(model: Model, msg: ui.PanelKey) -> tuple[Model, Effects]:
    sb = model.sidebar
    if msg.action == "focus":
        return _select_first(model), ()
    if msg.action == "blur":  # the cursor goes with the focus, unless it left for that agent's screen
        if sb.selected is None or model.screen.agent_open is not None:
            return model, ()
        return replace(model, sidebar=replace(sb, selected=None)), ()
    if msg.action == "leave" or not sb.agents:
        # On a narrow screen the panel covered the conversation: leaving it gives the screen back.
        wanted = None if model.screen.width < SIDE_BY_SIDE else sb.wanted
        return replace(model, sidebar=replace(sb, selected=None, wanted=wanted)), (fx.Focus("prompt"),)
    i = _agent_index(model, sb.selected or "")
    if msg.action in ("up", "down"):
        j = 0 if i is None else max(0, min(len(sb.agents) - 1, i + (1 if msg.action == "down" else -1)))
        return replace(model, sidebar=replace(sb, selected=sb.agents[j].agent_id)), ()
    if i is None:
        return _select_first(model), ()
    if msg.action == "open":
        return _open_agent(model, ui.OpenAgent(agent_id=sb.agents[i].agent_id, at=msg.at))
    return _stop_agent(model, sb.agents[i].agent_id, msg.at)


def _agents_command(model: Model, arg: str, at: float) -> tuple[Model, Effects]:
    """`/agents` lists and focuses the panel; `/agents stop ID` stops one; `/agents ID` opens its screen."""
    verb, _, rest = arg.partition(" ")
    if verb == "stop":
        return _stop_agent(model, rest.strip() or None, at)
    if verb:
        return _open_agent(model, ui.OpenAgent(agent_id=verb, at=at))
    effects: Effects = (fx.Command("/agents", ""),)
    if model.sidebar.agents:
        model = _select_first(model)
        model = replace(model, sidebar=replace(model.sidebar, wanted=True))
        model = _flash(model, "agents: ↑/↓ select · Enter open · x stop · Esc or typing: back to the prompt", at)
        effects += (fx.Focus("panel"),)
    return model, effects


# --------------------------------------------------------------------------- input


def completions(model: Model, draft: str) -> tuple[str, ...]:
    if not draft.startswith("/") or "\n" in draft:
        return ()
    if " " not in draft:
        return tuple(c for c in model.commands if c.startswith(draft) and c != draft)
    name, _, arg = draft.partition(" ")
    ids = tuple(r.agent_id for r in model.sidebar.agents)
    pool = {"/agent": model.agents_known, "/theme": model.themes_known, "/agents": ("stop",) + ids,
            "/permissions": ("revoke",)}.get(name, ())
    if name == "/agents" and arg.startswith("stop "):
        return tuple(f"/agents stop {i}" for i in ids if i.startswith(arg[5:]) and i != arg[5:])
    return tuple(f"{name} {p}" for p in pool if p.startswith(arg) and p != arg)


def _draft(model: Model, msg: ui.DraftChanged) -> tuple[Model, Effects]:
    inp = model.input
    if msg.text == inp.draft:
        return model, ()
    recall = inp.recall
    if recall is not None and msg.text != inp.history[recall]:
        recall = None
    inp = replace(inp, draft=msg.text, recall=recall, completions=completions(model, msg.text))
    return replace(model, input=inp), ()


def _history_move(model: Model, msg: ui.HistoryMove) -> tuple[Model, Effects]:
    inp = model.input
    if not inp.history:
        return model, ()
    if inp.recall is None:
        if msg.step > 0:
            return model, ()
        inp = replace(inp, stash=inp.draft, recall=len(inp.history) - 1)
    else:
        nxt = inp.recall + msg.step
        if nxt >= len(inp.history):
            inp = replace(inp, recall=None, draft=inp.stash, completions=())
            return replace(model, input=inp), ()
        inp = replace(inp, recall=max(0, nxt))
    return replace(model, input=replace(inp, draft=inp.history[inp.recall], completions=())), ()


def _complete(model: Model, msg: ui.Complete) -> tuple[Model, Effects]:
    inp = model.input
    if not inp.completions:
        return model, ()
    draft = inp.completions[0]
    draft += " " if COMMANDS.get(draft, "").startswith(("<", "[")) else ""
    return replace(model, input=replace(inp, draft=draft, completions=completions(model, draft))), ()


def _remember(inp: ui.InputState, text: str) -> tuple[ui.InputState, Effects]:
    if inp.history and inp.history[-1] == text:
        return inp, ()
    return replace(inp, history=(inp.history + (text,))[-ui.HISTORY_CAP:]), (fx.SaveHistory(text),)


def _submit(model: Model, msg: ui.Submit) -> tuple[Model, Effects]:
    text = msg.text.strip()
    if not text:
        return model, ()
    inp, saved = _remember(model.input, text)
    inp = replace(inp, draft="", recall=None, stash="", completions=())
    model = replace(model, input=inp, conv=replace(model.conv, follow=True, unseen=False))
    if model.pending.held:  # the prompt is sent: the request it held back may take the keyboard
        model = replace(model, pending=replace(model.pending, held=False))
    if text.startswith("/") and "\n" not in text.split(" ", 1)[0]:
        model, effects = _command(model, text, msg.at)
        return model, saved + effects
    if model.run.running:
        if len(model.run.queued) >= ui.QUEUE_CAP:
            return _flash(model, f"queue full ({ui.QUEUE_CAP}); wait for the run", msg.at), saved
        model = replace(model, run=replace(model.run, queued=model.run.queued + (text,)))
        return _flash(model, f"queued · sent when the run ends ({len(model.run.queued)} waiting)", msg.at), saved
    model = replace(model, run=replace(model.run, running=True, cancelling=False))
    return _state(model, "thinking"), saved + (fx.StartRun(text),)


def _flash(model: Model, text: str, at: float) -> Model:
    return replace(model, screen=replace(model.screen, note=text, note_at=at))


def help_text() -> str:
    width = max(len(c) for c in COMMANDS)
    lines = [f"{c.ljust(width)}  {d}" for c, d in COMMANDS.items()]
    return "Commands\n" + "\n".join(lines) + "\n\nKeys\n" + KEYS_HELP.replace(" · ", "\n")


def tasks_text(tasks: tuple[m.Todo, ...]) -> str:
    if not tasks:
        return "no tasks yet (the model fills the list with todowrite)"
    return "Tasks\n" + "\n".join(f"{TASK_GLYPH.get(t.status, '○')} {t.content}"
                                 + ("" if t.priority == "medium" else f"  ({t.priority})") for t in tasks)


TASK_GLYPH = {"pending": "○", "in_progress": "◐", "completed": "●", "cancelled": "⊘"}


def _command(model: Model, text: str, at: float) -> tuple[Model, Effects]:
    name, _, arg = text.partition(" ")
    arg = arg.strip()
    if name == "/exit":
        return model, (fx.Exit(),)
    if name == "/help":
        return _note_block(model, "notice", help_text(), at), ()
    if name == "/tasks":
        return _note_block(model, "notice", tasks_text(model.sidebar.tasks), at), ()
    if name == "/copy":
        answer = next((b for b in reversed(model.conv.blocks) if b.kind == "text"), None)
        if answer is None:
            return _flash(model, "nothing to copy yet", at), ()
        return _flash(model, f"copied the last answer ({_count(answer.text)})", at), (fx.Copy(answer.text, "answer"),)
    if name == "/agents":
        return _agents_command(model, arg, at)
    if name in ("/agent", "/theme") and not arg:
        known = model.agents_known if name == "/agent" else model.themes_known
        return _note_block(model, "warning", f"{name} needs a name: {', '.join(known) or '(none)'}", at), ()
    if name in COMMANDS:
        if name in ("/reset", "/agent", "/compact", "/sessions") and model.run.running:
            return _note_block(model, "warning", f"{name} waits for the run to end (Esc cancels it)", at), ()
        if name in ("/compact", "/reset"):  # run in the worker like a turn (a reset stops agents' threads)
            model = _state(replace(model, run=replace(model.run, running=True, cancelling=False)), "thinking")
        return model, (fx.Command(name, arg),)
    close = difflib.get_close_matches(name, list(COMMANDS), n=1)
    hint = f" · did you mean {close[0]}?" if close else " · /help lists the commands"
    return _note_block(model, "warning", f"unknown command {name}{hint}", at), ()


# --------------------------------------------------------------------------- keys


def _cancel_key(model: Model, msg: ui.CancelKey) -> tuple[Model, Effects]:
    if model.screen.review:
        return replace(model, screen=replace(model.screen, review=False)), ()
    if model.run.running:
        return _cancel_run(model, msg.at)
    if model.conv.focused is not None:
        return replace(model, conv=replace(model.conv, focused=None, follow=True, unseen=False)), ()
    return model, ()


def _cancel_run(model: Model, at: float) -> tuple[Model, Effects]:
    if model.run.cancelling:
        return model, ()
    model = replace(model, run=replace(model.run, cancelling=True, queued=()))
    model, refused = _drop_requests(model, lambda r: not _of_the_run(model, r), at)
    return _flash(model, "cancelling…", at), (fx.CancelRun(),) + refused


def _interrupt(model: Model, msg: ui.InterruptKey) -> tuple[Model, Effects]:
    armed = model.screen.quit_armed_at
    if armed is not None and msg.at - armed <= QUIT_WINDOW:
        return model, (fx.Exit(),)
    screen = replace(model.screen, quit_armed_at=msg.at, note="Ctrl-C again to quit", note_at=msg.at)
    model = replace(model, screen=screen)
    if model.run.running:
        model, effects = _cancel_run(model, msg.at)
        model = _flash(model, "cancelling · Ctrl-C again to quit", msg.at)
        return model, effects + (fx.WakeAt(msg.at + NOTE_SECONDS),)
    return model, (fx.WakeAt(msg.at + NOTE_SECONDS),)


def _quit(model: Model, msg: ui.QuitKey) -> tuple[Model, Effects]:
    return model, (fx.Exit(),)


def _focus_move(model: Model, msg: ui.FocusMove) -> tuple[Model, Effects]:
    conv = model.conv
    if msg.step == 0 or not conv.blocks:
        if conv.focused is None:
            return model, ()
        return replace(model, conv=replace(conv, focused=None, follow=True, unseen=False)), ()
    keys = [b.key for b in conv.blocks]
    if conv.focused in keys:
        i = max(0, min(len(keys) - 1, keys.index(conv.focused) + msg.step))
    else:
        i = len(keys) - 1
    follow = conv.follow and i == len(keys) - 1
    return replace(model, conv=replace(conv, focused=keys[i], follow=follow)), ()


def _focus_block(model: Model, msg: ui.FocusBlock) -> tuple[Model, Effects]:
    if model.conv.focused == msg.key:
        return model, ()
    return replace(model, conv=replace(model.conv, focused=msg.key)), ()


def _block_index(model: Model, key: str | None) -> int | None:
    key = key or model.conv.focused
    if key is None:
        return None
    blocks = model.conv.blocks
    for i in range(len(blocks) - 1, -1, -1):
        if blocks[i].key == key:
            return i
    return None


def _toggle_fold(model: Model, msg: ui.ToggleFold) -> tuple[Model, Effects]:
    i = _block_index(model, msg.key)
    if i is None:
        return model, ()
    b = model.conv.blocks[i]
    model = _set_block(model, i, replace(b, folded=not b.folded))
    return replace(model, conv=replace(model.conv, focused=b.key, unseen=model.conv.unseen and not model.conv.follow)), ()


def copy_source(block: Block) -> tuple[str, str]:
    """The raw text a block stands for and what to call it in the note."""
    if block.kind == "tool":
        if block.name == "shell":
            return (block.summary or block.arguments), "command"
        if block.diff:
            return block.diff, "diff"
        return block.text, f"{block.name} output"
    return block.text, {"user": "prompt", "text": "answer", "reasoning": "reasoning"}.get(block.kind, block.kind)


def _copy_block(model: Model, msg: ui.CopyBlock) -> tuple[Model, Effects]:
    i = _block_index(model, msg.key)
    if i is None:
        return _flash(model, "focus a block first (Alt-Up)", msg.at), ()
    text, what = copy_source(model.conv.blocks[i])
    return _flash(model, f"copied the {what} ({_count(text)})", msg.at), (fx.Copy(text, what),)


def _scrolled(model: Model, msg: ui.Scrolled) -> tuple[Model, Effects]:
    conv = model.conv
    unseen = conv.unseen and not msg.at_bottom
    if conv.follow == msg.at_bottom and conv.unseen == unseen:
        return model, ()
    return replace(model, conv=replace(conv, follow=msg.at_bottom, unseen=unseen)), ()


def _resized(model: Model, msg: ui.Resized) -> tuple[Model, Effects]:
    if (model.screen.width, model.screen.height) == (msg.width, msg.height):
        return model, ()
    return replace(model, screen=replace(model.screen, width=msg.width, height=msg.height)), ()


def sidebar_visible(model: Model) -> bool:
    sb = model.sidebar
    if sb.wanted is not None:
        return sb.wanted
    return model.screen.width >= SIDE_BY_SIDE and bool(sb.tasks or sb.agents)


def sidebar_takes_screen(model: Model) -> bool:
    """Below SIDE_BY_SIDE columns a shown sidebar takes the whole width (beside, the text would be a sliver)."""
    return model.screen.width < SIDE_BY_SIDE and sidebar_visible(model)


def _toggle_sidebar(model: Model, msg: ui.ToggleSidebar) -> tuple[Model, Effects]:
    return replace(model, sidebar=replace(model.sidebar, wanted=not sidebar_visible(model))), ()


def _toggle_review(model: Model, msg: ui.ToggleReview) -> tuple[Model, Effects]:
    want = (not model.screen.review) if msg.open is None else msg.open
    if want == model.screen.review:
        return model, ()
    return replace(model, screen=replace(model.screen, review=want)), ()


def _tick(model: Model, msg: ui.Tick) -> tuple[Model, Effects]:
    effects: Effects = ()
    screen = model.screen
    if screen.note and msg.at - screen.note_at >= NOTE_SECONDS:
        model = replace(model, screen=replace(screen, note=""))
    if screen.quit_armed_at is not None and msg.at - screen.quit_armed_at > QUIT_WINDOW:
        model = replace(model, screen=replace(model.screen, quit_armed_at=None))
    return model, effects


def _note(model: Model, msg: ui.Note) -> tuple[Model, Effects]:
    return _note_block(model, msg.kind, msg.text, msg.at), ()


def _cleared(model: Model, msg: ui.Cleared) -> tuple[Model, Effects]:
    led = replace(model.ledger, context_tokens=0, turn_in=0, turn_out=0, turn_cached=0)
    agents = tuple(r for r in model.sidebar.agents if r.ended is None)
    kept = {r.agent_id for r in agents}
    sidebar = replace(model.sidebar, tasks=(), agents=agents,
                      selected=model.sidebar.selected if model.sidebar.selected in kept else None)
    conv = ui.Conversation(next_key=model.conv.next_key)
    screen = model.screen if model.screen.agent_open in kept or model.screen.agent_open is None \
        else replace(model.screen, agent_open=None)
    model, refused = _drop_requests(model, lambda r: False, msg.at)  # the old conversation's: nobody waits now
    model = replace(model, conv=conv, ledger=led, sidebar=sidebar, screen=screen,
                    agent_convs={k: v for k, v in model.agent_convs.items() if k in kept})
    return _note_block(model, "notice", "fresh conversation", msg.at), refused


def _session_switched(model: Model, msg: ui.SessionSwitched) -> tuple[Model, Effects]:
    """A clean screen for the resumed session; its replayed Msgs draw the history and the ledger."""
    fresh = initial_model(agent=msg.agent, model=msg.model, effort=msg.effort, context_limit=msg.context_limit,
                          history=model.input.history, agents=model.agents_known, themes=model.themes_known,
                          width=model.screen.width, height=model.screen.height)
    model = replace(fresh, conv=ui.Conversation(next_key=model.conv.next_key), input=model.input, now=model.now,
                    sidebar=replace(fresh.sidebar, wanted=model.sidebar.wanted))
    return model, ()  # resume_session's own notice ("resumed session …") ends the replay


def _agent_switched(model: Model, msg: ui.AgentSwitched) -> tuple[Model, Effects]:
    led = replace(model.ledger, agent=msg.agent, model=msg.model, effort=msg.effort,
                  context_limit=msg.context_limit or model.ledger.context_limit)
    model = replace(model, ledger=led)
    return _note_block(model, "notice", f"agent {msg.agent} · {msg.model}", msg.at), ()


def _effort(model: Model, msg: ui.EffortChanged) -> tuple[Model, Effects]:
    model = replace(model, ledger=replace(model.ledger, effort=msg.effort))
    return _note_block(model, "notice", f"reasoning effort {msg.effort or 'off (model default)'}", msg.at), ()


# --------------------------------------------------------------------------- status bar


SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
STATE_WORDS = {"idle": "idle", "thinking": "thinking", "streaming": "streaming", "tool": "tool",
               "waiting": "waiting for you"}


def spinner(now: float) -> str:
    return SPINNER[int(now * 10) % len(SPINNER)]


def context_level(led: ui.Ledger) -> str:
    """"ok", "warning" (>= 85 %) or "error" (>= 100 %)."""
    if not led.context_limit:
        return "ok"
    pct = 100 * led.context_tokens / led.context_limit
    return "error" if pct >= 100 else "warning" if pct >= 85 else "ok"


def status_fields(model: Model) -> list[tuple[int, str, str]]:
    """(keep-priority, text, style) per field; the lowest priority is shed first as the screen narrows."""
    led = model.ledger
    busy = led.state != "idle"
    glyph = spinner(model.now) if busy and led.state != "waiting" else ("◆" if led.state == "waiting" else "○")
    state = STATE_WORDS[led.state]
    head = model.pending.head
    if head is not None and not model.pending.armed:
        state = f"{REQUEST_WORDS[head.kind]} waiting: {MOVE_KEYS} to answer"
    if model.run.queued:
        state += f" · {len(model.run.queued)} queued"
    fields = [(100, f"{glyph} {state}", "state-" + led.state)]
    if led.agent:
        fields.append((60, led.agent, "agent"))
    if led.model:
        fields.append((50, led.model, "model"))
    if led.effort:
        fields.append((30, f"effort {led.effort}", "dim"))
    if led.context_limit:
        pct = round(100 * led.context_tokens / led.context_limit)
        fields.append((90, f"ctx {_k(led.context_tokens)}/{_k(led.context_limit)} {pct}%", "ctx-" + context_level(led)))
    if led.cache_pct is not None:
        fields.append((25, f"cache {led.cache_pct}%", "dim"))
    if led.tokens_in or led.tokens_out:
        fields.append((20, f"↑{_k(led.tokens_in)} ↓{_k(led.tokens_out)}", "dim"))
    if led.tool_used or led.tool_limit:
        limit = f"/{led.tool_limit}" if led.tool_limit else ""
        fields.append((15, f"tools {led.tool_used}{limit}", "dim"))
    if led.background:
        waiting = sum(1 for r in model.sidebar.agents if r.background and r.state == "waiting")
        text = f"{led.background} agent{'s' if led.background != 1 else ''} running"
        fields.append((40, text + (f" ({waiting} waiting for you)" if waiting else ""),
                       "agents-waiting" if waiting else "agents"))
    return fields


SEPARATOR = "  ·  "


def fit_status(fields: list[tuple[int, str, str]], width: int) -> list[tuple[str, str]]:
    """Drop the least important fields until the row fits `width` (never wraps)."""
    kept = list(fields)
    while kept:
        total = sum(len(t) for _, t, _ in kept) + len(SEPARATOR) * (len(kept) - 1) + 2
        if total <= width or len(kept) == 1:
            break
        weakest = min(range(len(kept)), key=lambda i: kept[i][0])
        if kept[weakest][0] >= 90 and len(kept) <= 2:
            break
        kept.pop(weakest)
    return [(t, s) for _, t, s in kept]


# --------------------------------------------------------------------------- small helpers


def _k(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 10_000:
        return f"{n // 1000}k"
    if n >= 1000:
        return f"{n / 1000:.1f}k"
    return str(n)


def _seconds(s: float) -> str:
    if s < 60:
        return f"{s:.1f}s" if s < 10 else f"{s:.0f}s"
    return f"{int(s // 60)}m{int(s % 60):02d}s"


def _count(text: str) -> str:
    lines = text.count("\n") + 1
    return f"{lines} line{'s' if lines != 1 else ''}, {len(text)} chars"


def _one_line(text: str, limit: int) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


_HANDLERS: dict[type, Callable] = {
    m.SessionStarted: _session_started,
    m.UserPrompt: _user_prompt,
    m.RunStarted: _run_started,
    m.ReasoningDelta: _delta("reasoning", "thinking"),
    m.TextDelta: _delta("text", "streaming"),
    m.BlockEnded: _block_ended,
    m.ToolCallStarted: _tool_started,
    m.ToolOutput: _tool_output,
    m.ToolCallFinished: _tool_finished,
    m.UsageReported: _usage,
    m.ToolBudget: _budget,
    m.Warning: _warning,
    m.Error: _error,
    m.Notice: _notice,
    m.RunEnded: _run_ended,
    m.ApprovalRequested: _request("approval"),
    m.ContinueRequested: _request("continue"),
    m.QuestionRequested: _request("question"),
    m.RequestResolved: _resolved,
    m.TasksChanged: _tasks,
    m.AgentSpawned: _agent_spawned,
    m.AgentStateChanged: _agent_state,
    m.FromAgent: _from_agent,
    ui.Submit: _submit,
    ui.DraftChanged: _draft,
    ui.HistoryMove: _history_move,
    ui.Complete: _complete,
    ui.CancelKey: _cancel_key,
    ui.InterruptKey: _interrupt,
    ui.QuitKey: _quit,
    ui.FocusMove: _on_shown_conv(_focus_move),
    ui.FocusBlock: _on_shown_conv(_focus_block),
    ui.ToggleFold: _on_shown_conv(_toggle_fold),
    ui.CopyBlock: _on_shown_conv(_copy_block),
    ui.Scrolled: _on_shown_conv(_scrolled),
    ui.PanelKey: _panel_key,
    ui.OpenAgent: _open_agent,
    ui.CloseAgent: _close_agent,
    ui.StopAgentKey: _stop_agent_key,
    ui.Resized: _resized,
    ui.ToggleSidebar: _toggle_sidebar,
    ui.ToggleReview: _toggle_review,
    ui.Answer: _answer,
    ui.OpenRequest: _open_request,
    ui.KeyIgnored: _key_ignored,
    ui.RequestShown: _request_shown,
    ui.KeyboardElsewhere: _keyboard_elsewhere,
    ui.TypedAway: _typed_away,
    ui.Tick: _tick,
    ui.WorkerDone: _worker_done,
    ui.Note: _note,
    ui.Cleared: _cleared,
    ui.AgentSwitched: _agent_switched,
    ui.SessionSwitched: _session_switched,
    ui.EffortChanged: _effort,
}
