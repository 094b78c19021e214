"""Requests waiting for the person (approvals, go-on requests, questions): when one takes the keyboard,
which keys answer it, how it ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from mrsmith_tui import msgs as m
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import ANSWER_KEYS, MOVE_KEYS, Model, Request
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.blocks import OPEN_SCAN, block_index, flash, note_block, set_block, set_state
from mrsmith_tui.tui.update.effects import Effects, Handler

GRACE = 0.4  # seconds after a request takes the keyboard in which keys are dropped, not answers


def _request(kind: Literal["approval", "continue", "question"]) -> Handler:
    def handle(model: Model, msg: Any) -> tuple[Model, Effects]:
        fields = {"approval": lambda: dict(tool=msg.tool, arguments=msg.arguments, reason=msg.reason,
                                           spec=msg.spec, diff=msg.diff, rule=msg.rule, exact=msg.exact),
                  "continue": lambda: dict(rounds=msg.rounds),
                  "question": lambda: dict(questions=msg.questions)}[kind]()
        req = Request(request_id=msg.request_id, kind=kind, at=msg.at, agent_id=msg.agent_id, **fields)
        return set_state(replace(model, pending=_queued(model.pending, req)), "waiting", msg.at), ()  # update() arms or defers it
    return handle


def _queued(p: ui.Pending, req: Request) -> ui.Pending:
    """`p` with `req` at the end of the queue, or in the place of a request queued with the same id.

    The newest is the one a worker waits on (an answer goes to the id, so to it): it is the one shown.
    One that replaces the head on screen is not on screen yet: its own modal takes the keys again only
    once painted, after the grace.
    """
    at = next((i for i, r in enumerate(p.queue) if r.request_id == req.request_id), None)
    if at is None:
        return replace(p, queue=p.queue + (req,))
    queue = p.queue[:at] + (req,) + p.queue[at + 1:]
    if at > 0:
        return replace(p, queue=queue)
    return replace(p, queue=queue, armed=False, keys_from=None, confirm_always=False, explaining=False)


def try_arm(model: Model, at: float) -> Model:
    """The head request takes the keyboard when it finds the prompt empty and no other screen open.
    Behind typed text (or another screen) it is held, with a notice, until the person moves to it
    (Tab, F2) or sends the prompt: a prompt emptied by editing does not arm it, since the person
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
    model = note_block(model, "notice", waiting_notice(head), at)
    return replace(model, pending=replace(p, noticed=head.request_id, notice_key=model.conv.blocks[-1].key))


def _arm(model: Model, at: float) -> Model:
    """On screen from now; its keys count only from the grace after its modal is painted (RequestShown)."""
    return replace(model, pending=replace(model.pending, armed=True, held=False, keys_from=None, confirm_always=False,
                                          explaining=False))


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


def answer_for(model: Model, key: str) -> str | None:
    """The answer a key gives to the request on screen (None: not an answer key)."""
    head = model.pending.head
    if head is None:
        return None
    if model.pending.explaining:
        return "no" if key == "escape" else None  # Enter sends the typed line (the modal's input)
    answer = ANSWER_KEYS.get(head.kind, {}).get(key)
    if answer is None and key == "enter" and head.kind == "approval" and model.pending.confirm_always:
        return "always_rule" if model.pending.confirm_rule else "always"
    return answer


KeyRoute = Literal["pass", "drop", "prompt"]


def key_route(model: Model, at: float, key: str, printable: bool) -> KeyRoute:
    """Where a key pressed at `at` goes while a request's modal is on screen: to the modal
    ("pass"), nowhere ("drop": a non-printable key before the modal was painted or within its
    grace), or to the prompt ("prompt"): a printable key before or within the grace, or one that
    answers nothing, is the person typing, not answering; it lands in the prompt and the request
    waits behind the text again."""
    p = model.pending
    if p.head is None or not takes_keys(model, at):  # closing, not yet painted, or in its grace: typing
        return "prompt" if printable else "drop"
    if p.explaining:  # typing the line that goes with a "no": every key is the modal's
        return "pass"
    answers = ANSWER_KEYS.get(p.head.kind)
    if answers is not None and printable and key not in answers:
        return "prompt"
    return "pass"


def waiting_notice(req: Request) -> str:
    who = f"{req.agent_id}: " if req.agent_id else ""
    if req.kind == "approval":
        from mrsmith_tui.tools.outcome import RULE_TEXT  # the tools' records load with the session (start-up time, #26)

        what = f"{req.tool} waits for your approval ({RULE_TEXT.get(req.rule, RULE_TEXT['other'])})"
    elif req.kind == "continue":
        what = f"the run used {req.rounds} tool rounds and asks whether to go on"
    else:
        what = "a question waits for your answer"
    return f"{who}{what} · {MOVE_KEYS} to answer; your text stays in the prompt"


def _open_request(model: Model, msg: ui.MoveToRequest) -> tuple[Model, Effects]:
    p = model.pending
    if p.head is None:
        return flash(model, "nothing is waiting for an answer", msg.at), ()
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
    return flash(model, "key ignored: the request had just appeared (answer after a short pause)", msg.at), ()


ANSWER_WORDS = {"yes": "allowed once", "always": "always allowed", "always_rule": "always allowed (the rule)",
                "no": "refused", "": "cancelled", "cancelled": "cancelled"}


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
    model = replace(model, pending=pending)
    if not queue and model.ledger.state == "waiting":
        model = set_state(model, "thinking" if model.run.running else "idle", at)
    return model


def _not_counting_the_wait(model: Model, req: Request, at: float) -> Model:
    """The live elapsed time of the tool call that asked leaves out the time the person took to answer
    (its final time is the tool's own, from the core)."""
    blocks = model.conv.blocks
    for i in range(len(blocks) - 1, max(-1, len(blocks) - 1 - OPEN_SCAN), -1):
        b = blocks[i]
        if b.kind == "tool" and not b.done and b.name == req.tool:
            return set_block(model, i, replace(b, started=min(at, b.started + (at - req.at))))
    return model


def _mark_notice(model: Model, key: str, answer: str) -> Model:
    i = block_index(model, key)
    if i is None:
        return model
    b = model.conv.blocks[i]
    head, _, _ = b.text.partition(f" · {MOVE_KEYS} to answer")
    word = "refused, with a note" if answer.startswith("no:") else ANSWER_WORDS.get(answer, "answered")
    return set_block(model, i, replace(b, text=f"{head} · {word}"))


def _answer(model: Model, msg: ui.Answer) -> tuple[Model, Effects]:
    p = model.pending
    head = p.head
    if head is None or head.request_id != msg.request_id or not p.armed:
        return model, ()
    if not takes_keys(model, msg.at):
        return _key_ignored(model, ui.KeyIgnored(at=msg.at))
    if head.kind == "approval" and msg.answer in ("always", "always_rule"):
        rule = msg.answer == "always_rule"
        if rule and not head.exact:  # "r": only a shell command has a rule broader than itself
            return flash(model, "no broader rule here: a always allows this call", msg.at), ()
        if not p.confirm_always or p.confirm_rule != rule:  # the first press: a second one (or Enter) confirms
            return replace(model, pending=replace(p, confirm_always=True, confirm_rule=rule)), ()
    if head.kind == "approval" and msg.answer == "explain":  # Tab: a "no" with a line for the model
        return replace(model, pending=replace(p, explaining=True, confirm_always=False)), ()
    return _pop_request(model, msg.request_id, msg.answer, msg.at), (fx.Resolve(msg.request_id, msg.answer),)


def _resolved(model: Model, msg: m.RequestResolved) -> tuple[Model, Effects]:
    return _pop_request(model, msg.request_id, msg.answer, msg.at), ()


def drop_requests(model: Model, keep: Callable[[Request], bool], at: float) -> tuple[Model, Effects]:
    """Refuse (answer "", which the worker reads as no) and remove every request not kept: a cancelled
    run's, a stopped agent's. Their modals leave the screen."""
    gone = [r.request_id for r in model.pending.queue if not keep(r)]
    for rid in gone:
        model = _pop_request(model, rid, "cancelled", at)
    return model, tuple(fx.Resolve(rid, "") for rid in gone)


def of_the_run(model: Model, req: Request) -> bool:
    """A request of the main run or of a sub-agent it is waiting on (not a background agent's)."""
    if req.agent_id is None:
        return True
    row = next((r for r in model.sidebar.agents if r.agent_id == req.agent_id), None)
    return row is None or not row.background


HANDLERS: dict[type, Handler] = {
    m.ApprovalRequested: _request("approval"),
    m.ContinueRequested: _request("continue"),
    m.QuestionRequested: _request("question"),
    m.RequestResolved: _resolved,
    ui.Answer: _answer,
    ui.MoveToRequest: _open_request,
    ui.KeyIgnored: _key_ignored,
    ui.RequestShown: _request_shown,
    ui.KeyboardElsewhere: _keyboard_elsewhere,
}
