"""The book of every agent a session started (sub-agents and background agents alike).

One lock guards every record; its condition wakes `wait_agents` when any agent changes
state. State changes go through `transition`, which applies the pure state table and posts
AgentStateChanged, so the frontends and the records never disagree.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from mrsmith_tui import msgs
from mrsmith_tui.agents.states import FINAL, AgentEvent, next_state
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.msgs import AgentState, Question
from mrsmith_tui.tools.base import ApprovalQuery, Approver, Decision


@dataclass(eq=False)
class AgentRecord:
    agent_id: str  # "agent-3" (background) or "subagent-2" (task tool)
    label: str
    task: str
    background: bool
    agent_name: str  # the configured agent it runs as
    parent_id: str | None = None
    cancel: CancelToken = field(default_factory=CancelToken)
    state: AgentState = "running"
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    tool_calls: int = 0
    report: str | None = None  # what a finished background agent hands back
    report_read: bool = False
    busy: bool = True  # a run is going on in this agent's context
    conversation: Any = None  # core.conversation.Conversation
    thread: threading.Thread | None = None

    @property
    def finished(self) -> bool:
        return self.state in FINAL

    def elapsed(self, now: float | None = None) -> float:
        end = self.ended if self.ended is not None else (now if now is not None else time.monotonic())
        return max(0.0, end - self.started)


class AgentBook:
    def __init__(self, sink: Callable[[msgs.Msg], None]) -> None:
        self.sink = sink
        self.changed = threading.Condition(threading.RLock())
        self._records: dict[str, AgentRecord] = {}
        self._counters: dict[str, int] = {}

    def new_id(self, prefix: str) -> str:
        """Ids never repeat within a process, even across /reset, so frontends can key by them."""
        with self.changed:
            n = self._counters.get(prefix, 0) + 1
            self._counters[prefix] = n
            return f"{prefix}-{n}"

    def skip_past(self, prefix: str, n: int) -> None:
        """New ids with `prefix` start after n (ids recorded by a resumed session)."""
        with self.changed:
            self._counters[prefix] = max(self._counters.get(prefix, 0), n)

    def add(self, record: AgentRecord) -> None:
        with self.changed:
            self._records[record.agent_id] = record
        self.sink(
            msgs.AgentSpawned(
                agent_id=record.agent_id, label=record.label, task=record.task, background=record.background,
                parent_id=record.parent_id,
            )
        )

    def get(self, agent_id: str) -> AgentRecord | None:
        with self.changed:
            return self._records.get(agent_id)

    def records(self, *, background: bool | None = None) -> list[AgentRecord]:
        with self.changed:
            return [r for r in self._records.values() if background is None or r.background == background]

    def children(self, agent_id: str) -> list[AgentRecord]:
        with self.changed:
            return [r for r in self._records.values() if r.parent_id == agent_id]

    def forget(self, records: list[AgentRecord]) -> None:
        with self.changed:
            for r in records:
                self._records.pop(r.agent_id, None)

    def transition(self, record: AgentRecord, event: AgentEvent, detail: str = "") -> AgentState:
        with self.changed:
            before = record.state
            after = next_state(before, event)
            if after != before:
                record.state = after
                if after in FINAL:
                    record.ended = time.monotonic()
                elif before in FINAL:  # resumed
                    record.ended = None
            self.changed.notify_all()
        if after != before:
            self.sink(msgs.AgentStateChanged(agent_id=record.agent_id, state=after, detail=detail))
        return after

    def stop(self, record: AgentRecord) -> None:
        """Stop an agent and everything it started; its run ends cancelled within a second."""
        self.transition(record, "stop")
        record.cancel.cancel()
        for child in self.children(record.agent_id):
            if not child.finished:
                self.stop(child)

    def agent_sink(self, record: AgentRecord) -> Callable[[msgs.Msg], None]:
        """The sink of one agent's context: its Msgs reach the frontends wrapped with its id."""
        root = self.sink

        def post(msg: msgs.Msg) -> None:
            if isinstance(msg, msgs.ToolCallStarted):
                with self.changed:
                    record.tool_calls += 1
            # Every concrete Msg is a member of the union the wrapper's field is typed with.
            root(msgs.FromAgent(agent_id=record.agent_id, msg=cast("msgs.AnyMsg", msg)))

        return post


class WaitingApprover:
    """Wraps the session's Approver: while an agent waits on the person it shows as waiting."""

    def __init__(self, inner: Approver, book: AgentBook) -> None:
        self.inner = inner
        self.book = book

    def __getattr__(self, name: str) -> Any:  # anything else the frontend's approver offers
        if name == "inner":  # not set yet (copy, pickle): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)

    def _waiting(self, agent_id: str | None, ask: Callable[[], Any]) -> Any:
        record = self.book.get(agent_id) if agent_id else None
        if record is None:
            return ask()
        self.book.transition(record, "needs_person")
        try:
            return ask()
        finally:
            self.book.transition(record, "answered")

    def approve(self, query: ApprovalQuery) -> Decision:
        return self._waiting(query.agent_id, lambda: self.inner.approve(query))

    def confirm_continue(self, rounds: int, agent_id: str | None = None) -> bool:
        return self._waiting(agent_id, lambda: self.inner.confirm_continue(rounds, agent_id))

    def ask(self, questions: tuple[Question, ...], agent_id: str | None = None) -> str | None:
        return self._waiting(agent_id, lambda: self.inner.ask(questions, agent_id))
