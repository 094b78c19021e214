"""The two doors between the worker threads and the app: a coalescing Sink and the TuiApprover.

Both are thread-safe and reach the app only through `post(msg)` (one `Dispatch` message to
the App each), so everything arrives in order.
"""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import Future
from dataclasses import replace
from typing import Callable

from mrsmith_tui import msgs as m
from mrsmith_tui.tools.base import ApprovalQuery, Decision

Post = Callable[[m.Msg], None]
FLUSH_INTERVAL = 1 / 30


def _delta_key(msg: m.Msg) -> tuple | None:
    if isinstance(msg, (m.TextDelta, m.ReasoningDelta)):
        return (type(msg), msg.block_id)
    if isinstance(msg, m.ToolOutput):
        return (m.ToolOutput, msg.call_id)
    if isinstance(msg, m.FromAgent):
        inner = _delta_key(msg.msg)
        return None if inner is None else ("agent", msg.agent_id, *inner)
    return None


def _merge(a: m.Msg, b: m.Msg) -> m.Msg:
    if isinstance(a, m.FromAgent):
        return replace(a, msg=_merge(a.msg, b.msg), at=b.at)  # type: ignore[attr-defined]
    return replace(a, text=a.text + b.text, at=b.at)  # type: ignore[attr-defined]


class CoalescingSink:
    """Posts every Msg in order; deltas of one block are merged and posted at most ~30 times a second.

    A delta held back is posted by the next Msg, or by a flusher thread when the stream pauses
    (the flusher sleeps on a condition while nothing is held: idle costs nothing).
    """

    def __init__(self, post: Post, interval: float = FLUSH_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        self._post = post
        self._interval = interval
        self._clock = clock
        self._cond = threading.Condition()
        self._held: list[m.Msg] = []  # merged deltas, one per key, in arrival order
        self._keys: dict[tuple, int] = {}
        self._last_flush = 0.0
        self._closed = False
        self._flusher: threading.Thread | None = None

    def __call__(self, msg: m.Msg) -> None:
        key = _delta_key(msg)
        with self._cond:
            if key is None:
                self._flush_locked()
                self._post(msg)
                return
            at = self._keys.get(key)
            if at is None:
                self._keys[key] = len(self._held)
                self._held.append(msg)
            else:
                self._held[at] = _merge(self._held[at], msg)
            if self._clock() - self._last_flush >= self._interval:
                self._flush_locked()
            else:
                self._ensure_flusher()
                self._cond.notify()

    def flush(self) -> None:
        with self._cond:
            self._flush_locked()

    def close(self) -> None:
        with self._cond:
            self._flush_locked()
            self._closed = True
            self._cond.notify()

    def _flush_locked(self) -> None:
        held, self._held, self._keys = self._held, [], {}
        self._last_flush = self._clock()
        for msg in held:
            self._post(msg)

    def _ensure_flusher(self) -> None:
        if self._flusher is None and not self._closed:
            self._flusher = threading.Thread(target=self._flush_loop, name="mrsmith-sink-flush", daemon=True)
            self._flusher.start()

    def _flush_loop(self) -> None:
        with self._cond:
            while not self._closed:
                if not self._held:
                    self._cond.wait()
                    continue
                wait = self._last_flush + self._interval - self._clock()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                self._flush_locked()


class TuiApprover:
    """Implements the Approver port: posts a request Msg and blocks the worker until resolved."""

    def __init__(self, sink: Callable[[m.Msg], None]) -> None:
        self._sink = sink
        self._lock = threading.Lock()
        self._futures: dict[str, tuple[Future[str], str | None]] = {}
        self._ids = itertools.count(1)
        self._closed = False

    def close(self) -> None:
        """The app is gone: answer everything pending, and every later request at once, with no."""
        with self._lock:
            self._closed = True
        self.cancel(main_only=False)

    def _wait(self, make: Callable[[str], m.Msg], agent_id: str | None) -> str:
        rid = f"req-{next(self._ids)}"
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
            diff=query.diff, agent_id=query.agent_id, rule=query.rule), query.agent_id)
        return answer if answer in ("yes", "always") else "no"  # type: ignore[return-value]

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
        for rid, future in chosen:
            if not future.done():
                future.set_result("")
        return [rid for rid, _ in chosen]
