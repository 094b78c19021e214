"""The two doors between the worker threads and the app: a coalescing Sink and the TuiApprover.

The core emits every streamed delta; this is where the TUI decides how often text reaches the
screen (at most one post per stream per frame; the merging itself is `mrsmith_tui.coalesce`).
Both are thread-safe and reach the app only through the channel's post (one `Dispatch` message
to the App a flush), so everything arrives in order.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING

from mrsmith_tui import msgs as m
from mrsmith_tui.coalesce import FRAME_SECONDS, CoalescingSink

if TYPE_CHECKING:  # the tools' records load with the session (start-up time, #26)
    from mrsmith_tui.tools.outcome import ApprovalQuery, Decision

__all__ = ["FRAME_SECONDS", "CoalescingSink", "TuiApprover"]  # the app's sink: CoalescingSink(post_many=...)


class TuiApprover:
    """Implements the Approver port: posts a request Msg and blocks the worker until resolved.

    Request ids (`req-<random>-<n>`) carry a prefix of this approver's own that nothing else can
    know, so an answer can only resolve a request this approver asked: never one a recording or
    anything else posted with a guessed id.
    """

    def __init__(self, sink: Callable[[m.Msg], None]) -> None:
        self._sink = sink
        self._lock = threading.Lock()
        self._futures: dict[str, tuple[Future[str], str | None]] = {}
        # os.urandom, what secrets.token_hex reads: `secrets` loads OpenSSL (hashlib, hmac), ~4 ms of start-up (#26)
        self._prefix = f"req-{os.urandom(4).hex()}-"
        self._ids = itertools.count(1)
        self._closed = False
        self._said: dict[int, str] = {}  # id(query) -> the line the person gave with a "no"

    def close(self) -> None:
        """The app is gone: answer everything pending, and every later request at once, with no."""
        with self._lock:
            self._closed = True
        self.cancel(main_only=False)

    def _wait(self, make: Callable[[str], m.Msg], agent_id: str | None) -> str:
        rid = f"{self._prefix}{next(self._ids)}"
        future: Future[str] = Future()
        with self._lock:
            if self._closed:
                return ""
            self._futures[rid] = (future, agent_id)
        self._sink(make(rid))
        try:
            return future.result()
        finally:
            with self._lock:
                self._futures.pop(rid, None)

    def approve(self, query: ApprovalQuery) -> Decision:
        answer = self._wait(lambda rid: m.ApprovalRequested(
            request_id=rid, tool=query.tool, arguments=query.arguments, reason=query.reason, spec=query.spec,
            diff=query.diff, agent_id=query.agent_id, rule=query.rule, exact=query.exact), query.agent_id)
        if answer.startswith("no:") and answer[3:].strip():
            with self._lock:
                self._said[id(query)] = answer[3:].strip()
        return answer if answer in ("yes", "always", "always_rule") else "no"  # type: ignore[return-value]

    def refusal(self, query: ApprovalQuery) -> str:
        """What the model reads of a "no" (the gate asks right after approve): the person's own line, if any."""
        with self._lock:
            said = self._said.pop(id(query), "")
        first = f"The person did not approve this {query.tool} call ({query.reason})."
        return f"{first} They said: {said}" if said else first

    def confirm_continue(self, rounds: int, agent_id: str | None = None) -> bool:
        return self._wait(lambda rid: m.ContinueRequested(request_id=rid, rounds=rounds, agent_id=agent_id),
                          agent_id) == "yes"

    def ask(self, questions: tuple[m.Question, ...], agent_id: str | None = None) -> str | None:
        answer = self._wait(lambda rid: m.QuestionRequested(request_id=rid, questions=tuple(questions),
                                                            agent_id=agent_id), agent_id)
        return answer or None

    def resolve(self, request_id: str, answer: str) -> None:
        with self._lock:
            entry = self._futures.get(request_id)
        if entry is not None and not entry[0].done():
            entry[0].set_result(answer)

    def cancel(self, *, main_only: bool = True) -> list[str]:
        """Answer "no" to every pending request (of the main run only, unless told otherwise)."""
        with self._lock:
            chosen = [(rid, f) for rid, (f, agent) in self._futures.items() if agent is None or not main_only]
        for _rid, future in chosen:
            if not future.done():
                future.set_result("")
        return [rid for rid, _ in chosen]
