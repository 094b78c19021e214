"""The background fleet: agents that work in their own threads while the person goes on.

`spawn` returns an id at once; the worker runs its task as one turn of its own context
(tools: the session's, minus the fleet tools; it may dispatch sub-agents with `task`).
Its report waits until the main agent collects it with `wait` (each report is delivered
once). Nothing reaches the main context any other way. Workers outlive the run that
spawned them and stop on `stop`, `/reset`, an agent switch or exit (`stop_all`).
Transcripts: `agent-<n>.jsonl` beside the session's.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from mrsmith_tui.agents.book import AgentBook, AgentRecord
from mrsmith_tui.agents.context import ContextFactory
from mrsmith_tui.agents.states import AgentEvent
from mrsmith_tui.agents.subagent import FLEET_TOOLS, last_answer
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.load import ConfigError, resolve_agent
from mrsmith_tui.core.conversation import RunResult
from mrsmith_tui.core.session_api import ServiceHost
from mrsmith_tui.errors import MrSmithError

WORKER_NOTE = (
    "# You are a background agent\n\n"
    "The main agent started you with the task in the first message and goes on with other work; "
    "nobody reads this conversation while you work. Other agents may work in the same folder at the "
    "same time: touch only the files your task is about. Your final message is your report, the only "
    "thing the main agent gets: say what you found or changed (with file paths), what you verified and "
    "how, and what is left."
)
STOP_JOIN_SECONDS = 2.0  # how long stop_agent waits for a worker's partial report


class FleetError(MrSmithError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class WaitResult:
    reports: list[AgentRecord]  # finished agents whose reports are delivered now
    running: list[AgentRecord]
    already_read: list[AgentRecord]  # asked for by id, report delivered earlier
    unknown: list[str]


class Fleet:
    def __init__(
        self, session: ServiceHost, book: AgentBook, factory: ContextFactory, *, max_agents: int = 4,
        agent_wait_ms: int = 120_000,
    ) -> None:
        self.session = session
        self.book = book
        self.factory = factory
        self.max_agents = max_agents
        self.agent_wait_ms = agent_wait_ms
        self._root = CancelToken()  # every worker's token is its child

    # ------------------------------------------------------------------ spawn

    def spawn(self, task: str, *, label: str | None = None, agent: str | None = None) -> AgentRecord:
        """Start a background agent on `task`. Raises FleetError (off, over the bound, unknown agent)."""
        if not task.strip():
            raise FleetError("spawn_agent needs a task")
        if self.max_agents <= 0:
            raise FleetError("background agents are turned off (--max-agents 0)")
        try:
            config = resolve_agent(self.session.config, agent) if agent else self.session.agent
        except ConfigError as e:
            raise FleetError(e.message) from None
        with self.book.changed:
            live = [r for r in self.book.records(background=True) if not r.finished]
            if len(live) >= self.max_agents:
                raise FleetError(
                    f"{len(live)} background agents are already running (the limit is {self.max_agents}); "
                    "collect one with wait_agents or stop one with stop_agent first"
                )
            record = AgentRecord(
                agent_id=self.book.new_id("agent"), label=(label or "").strip() or _label_of(task), task=task,
                background=True, agent_name=config.name, cancel=CancelToken(self._root),
            )
            # Added under the lock, so two spawns at once cannot both pass the bound.
            record.conversation = self.factory.build(record, config, exclude=FLEET_TOOLS, note=WORKER_NOTE)
            self.book.add(record)
        record.thread = threading.Thread(target=self._work, args=(record,), name=f"mrsmith-{record.agent_id}", daemon=True)
        record.thread.start()
        return record

    def _work(self, record: AgentRecord) -> None:
        try:
            result = record.conversation.run_turn(record.task, record.cancel)
        except BaseException as e:  # run_turn ends every run itself; this is a last guard for the thread
            result = RunResult(final_text="", error=f"internal error: {type(e).__name__}: {e}".splitlines()[0])
        event: AgentEvent
        if result.cancelled or record.cancel.cancelled:
            partial = last_answer(record.conversation)
            report, event, detail = "[stopped before it finished]" + (f" What it had written:\n{partial}" if partial else ""), "ended", ""
        elif result.error:
            report, event, detail = f"[failed] {result.error}", "failed", result.error
        else:
            report, event, detail = result.final_text.strip() or "(it ended without a report)", "finished", ""
        with self.book.changed:
            record.report = report
            record.busy = False
        self.book.transition(record, event, detail)  # wakes every waiter, after the report is in place
        transcript = record.conversation.transcript
        if transcript is not None:
            transcript.close()

    # ------------------------------------------------------------------ wait, stop, list

    def wait(self, ids: list[str] | None = None, timeout_ms: int | None = None, cancel: CancelToken | None = None) -> WaitResult:
        """Wait until every awaited agent has finished (or the timeout, or `cancel`); collect unread reports.

        Without `ids`: every background agent that is running or has an unread report.
        """
        limit = self.agent_wait_ms if timeout_ms is None else max(0, min(timeout_ms, self.agent_wait_ms))
        deadline = time.monotonic() + limit / 1000
        unknown: list[str] = []
        with self.book.changed:
            if ids:
                targets = []
                for agent_id in dict.fromkeys(ids):
                    record = self.book.get(agent_id)
                    if record is None or not record.background:
                        unknown.append(agent_id)
                    else:
                        targets.append(record)
            else:
                targets = [r for r in self.book.records(background=True) if not r.finished or not r.report_read]
        wake = cancel.on_cancel(self._notify) if cancel is not None else (lambda: None)
        try:
            with self.book.changed:
                while True:
                    pending = [r for r in targets if r.report is None]
                    remaining = deadline - time.monotonic()
                    if not pending or remaining <= 0 or (cancel is not None and cancel.cancelled):
                        break
                    self.book.changed.wait(remaining)
                reports: list[AgentRecord] = []
                already: list[AgentRecord] = []
                for r in targets:
                    if r.report is None:
                        continue
                    (reports if self._take_report_locked(r) else already).append(r)
                running = [r for r in targets if r.report is None]
        finally:
            wake()
        return WaitResult(reports=reports, running=running, already_read=already, unknown=unknown)

    @staticmethod
    def _take_report_locked(record: AgentRecord) -> bool:
        """True the one time a finished agent's report is handed over (each report is delivered once)."""
        if record.report is None or record.report_read:
            return False
        record.report_read = True
        return True

    def take_report(self, record: AgentRecord) -> str | None:
        """The report of `record` if it is finished and not yet delivered; then it counts as delivered."""
        with self.book.changed:
            return record.report if record.background and self._take_report_locked(record) else None

    def _notify(self) -> None:
        with self.book.changed:
            self.book.changed.notify_all()

    def stop(self, agent_id: str, *, join_seconds: float = STOP_JOIN_SECONDS) -> AgentRecord:
        """Stop one agent (background or sub-agent) and what it started. Raises FleetError for an unknown id.

        Waits up to `join_seconds` for a worker to end (so its partial report is there); a
        frontend's event loop passes 0 and watches AgentStateChanged instead.
        """
        record = self.book.get(agent_id)
        if record is None:
            known = ", ".join(r.agent_id for r in self.book.records()) or "none"
            raise FleetError(f"no agent {agent_id!r} (the agents: {known})")
        if not record.finished:
            self.book.stop(record)
            if join_seconds > 0 and record.thread is not None and record.thread is not threading.current_thread():
                record.thread.join(join_seconds)
        return record

    def list(self) -> list[AgentRecord]:
        return self.book.records(background=True)

    def stop_all(self, *, join_seconds: float = STOP_JOIN_SECONDS) -> None:
        """Stop every agent of the session (/reset, agent switch, exit) and forget them."""
        old_root, self._root = self._root, CancelToken()
        records = self.book.records()
        for record in records:
            if not record.finished:
                self.book.stop(record)
        old_root.cancel()
        deadline = time.monotonic() + join_seconds
        for record in records:
            if record.thread is not None and record.thread is not threading.current_thread():
                record.thread.join(max(0.0, deadline - time.monotonic()))
        for record in records:
            transcript = getattr(record.conversation, "transcript", None)
            if transcript is not None:
                transcript.close()
        self.book.forget(records)


def _label_of(task: str) -> str:
    first = task.strip().splitlines()[0] if task.strip() else "agent"
    return first if len(first) <= 40 else first[:39] + "…"
