"""When mrsmith wants the person back: the main run ended, or an approval, a question or a go-on request
waits. Pure: which Msg calls for attention, and the words; the shell (shell/attention.py), which sees every
Msg before `update` folds it in, decides whether to ring (how long the run took, notify, the terminal's
focus) and how (bell, OSC 9/777/99)."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.records import Value
from mrsmith_tui.tui.model import Model, duration, one_line


class Call(Value):
    kind: str  # "ended" (the person's run; `took` seconds) or "waiting" (a request)
    text: str
    took: float = 0.0

WATCHED = (m.RunEnded, m.ApprovalRequested, m.QuestionRequested, m.ContinueRequested, m.FromAgent)


def attention_for(before: Model, msg: m.Msg) -> Call | None:
    """The Attention effect `msg` calls for (None for most Msgs). `before`: the model before `msg` was folded in."""
    if not isinstance(msg, WATCHED):
        return None
    if isinstance(msg, m.RunEnded):  # a bare RunEnded is the person's own run (agents' come as FromAgent)
        started = before.ledger.run_started
        # not a live run (a resumed session replays its recorded runs), or one the person cancelled: they are there
        if started is None or msg.cancelled or not before.run.running:
            return None
        took = max(0.0, msg.at - started)
        how = f"failed: {one_line(msg.error, 80)}" if msg.error else "finished"
        return Call(kind="ended", text=f"the run {how} after {duration(took)}", took=took)
    inner: m.Msg = msg
    while isinstance(inner, m.FromAgent):
        inner = inner.msg
    agent = getattr(inner, "agent_id", None)
    who = f"{one_line(agent, 30)}: " if isinstance(agent, str) and agent else ""
    if isinstance(inner, m.ApprovalRequested):
        return Call(kind="waiting", text=f"{who}{one_line(inner.tool, 60)} waits for your approval")
    if isinstance(inner, m.QuestionRequested):
        return Call(kind="waiting", text=f"{who}a question waits for your answer")
    if isinstance(inner, m.ContinueRequested):
        return Call(kind="waiting", text=f"{who}go on after {inner.rounds} tool rounds?")
    return None
