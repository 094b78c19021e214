"""The frontends' throttle: a Sink that merges streamed deltas into at most one post per frame.

The core emits every delta as it arrives; how often text reaches a screen is the frontend's
choice, made here once: the TUI puts a CoalescingSink in front of its dispatch (tui/shell/bridge.py),
the headless printer in front of stdout (headless.py). A base module next to `msgs` because it
knows only Msgs, and both frontends (which may not import each other) use it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from mrsmith_tui import msgs as m

Post = Callable[[m.Msg], None]
PostMany = Callable[[list[m.Msg]], None]  # what one flush posts, in order
Key = tuple[object, ...]  # which stream a delta belongs to
FRAME_SECONDS = 1 / 30  # the TUI draws ~30 frames a second; more posts than that are not seen


def _delta_key(msg: m.Msg) -> Key | None:
    """Which stream a delta belongs to; None for a Msg that is not a delta (posted as it is)."""
    if isinstance(msg, (m.TextDelta, m.ReasoningDelta)):
        return (type(msg), msg.block_id)
    if isinstance(msg, m.ToolOutput):
        return (m.ToolOutput, msg.call_id)
    if isinstance(msg, m.FromAgent):
        inner = _delta_key(msg.msg)
        return None if inner is None else ("agent", msg.agent_id, *inner)
    return None


def _with_text(first: m.Msg, last: m.Msg, text: str) -> m.Msg:
    """`first` carrying the merged text and the time of `last` (inside a FromAgent wrapper too)."""
    if isinstance(first, m.FromAgent) and isinstance(last, m.FromAgent):
        return first.model_copy(update={"msg": _with_text(first.msg, last.msg, text), "at": last.at})
    return first.model_copy(update={"text": text, "at": last.at})


def _text_of(delta: m.Msg) -> str:
    while isinstance(delta, m.FromAgent):
        delta = delta.msg
    if isinstance(delta, (m.TextDelta, m.ReasoningDelta, m.ToolOutput)):
        return delta.text
    raise TypeError(f"not a delta: {type(delta).__name__}")  # _delta_key keys only the deltas


class _Held:
    """The deltas of one stream since the last post: joined once, when posted (no quadratic copies)."""

    __slots__ = ("first", "last", "pieces")

    def __init__(self, msg: m.Msg) -> None:
        self.first = self.last = msg
        self.pieces: list[str] = []

    def merged(self) -> m.Msg:
        if not self.pieces:
            return self.first
        return _with_text(self.first, self.last, _text_of(self.first) + "".join(self.pieces))


class CoalescingSink:
    """Posts every Msg in order; the deltas of one stream are merged and posted at most once an interval.

    Any other Msg posts what is held first (order is kept). A delta that arrives a whole interval
    after the last post goes at once; one held back is posted by the next Msg, a later delta, or by
    a flusher thread when the stream pauses (it sleeps on a condition while nothing is held: idle
    costs nothing). Thread-safe: `post` is called under one lock, in order. `flush()` posts what
    is held now (tests drive a fake `clock` with it, without waiting).

    `post_many`, when given, takes the place of `post`: what one flush posts (the merged deltas,
    then the Msg that caused it, if one did) goes in one call, so a frontend that hands Msgs to
    another thread pays for one hand-over a flush, not one a Msg (a hundred agents streaming
    make a hundred merged deltas a frame).
    """

    def __init__(self, post: Post | None = None, interval: float = FRAME_SECONDS,
                 clock: Callable[[], float] = time.monotonic, *, post_many: PostMany | None = None) -> None:
        if (post is None) == (post_many is None):
            raise TypeError("CoalescingSink takes post or post_many")
        self._post = post
        self._post_many = post_many if post_many is not None else self._post_each
        self._interval = interval
        self._clock = clock
        self._lock = threading.Lock()  # entered directly on the hot path (the Condition's own enter is slower)
        self._cond = threading.Condition(self._lock)
        self._held: dict[Key, _Held] = {}  # one per stream, in arrival order
        self._last_flush = float("-inf")  # when held deltas were last posted
        self._closed = False
        self._flusher: threading.Thread | None = None

    def __call__(self, msg: m.Msg) -> None:
        # The fire hose takes the short way: exact type tests, as an isinstance that fails costs more.
        if type(msg) is m.TextDelta or type(msg) is m.ReasoningDelta:
            key: Key | None = (type(msg), msg.block_id)
            text = msg.text
        else:
            key = _delta_key(msg)
            text = _text_of(msg) if key is not None else ""
        with self._lock:
            if key is None:
                self._flush_locked(msg)
                return
            held = self._held.get(key)
            if held is None:
                if not self._held and self._flusher is not None:
                    self._cond.notify()  # the flusher sleeps while nothing is held; more held does not move its deadline
                self._held[key] = _Held(msg)
            else:
                held.pieces.append(text)
                held.last = msg
            if self._clock() - self._last_flush >= self._interval:
                self._flush_locked()
            elif self._flusher is None and not self._closed:
                self._flusher = threading.Thread(target=self._flush_loop, name="mrsmith-sink-flush", daemon=True)
                self._flusher.start()

    def flush(self) -> None:
        with self._cond:
            self._flush_locked()

    def close(self) -> None:
        """Post what is held; the flusher thread ends (later Msgs are still posted, deltas held until the next Msg)."""
        with self._cond:
            self._flush_locked()
            self._closed = True
            self._cond.notify()

    def _flush_locked(self, then: m.Msg | None = None) -> None:
        """Post what is held, then `then` (a Msg that is not a delta), in one batch."""
        if not self._held:
            if then is not None:
                self._post_many([then])
            return  # a Msg that finds nothing held does not start a frame: the next delta may go at once
        held, self._held = self._held, {}
        self._last_flush = self._clock()
        batch = [stream.merged() for stream in held.values()]
        if then is not None:
            batch.append(then)
        self._post_many(batch)

    def _post_each(self, batch: list[m.Msg]) -> None:
        assert self._post is not None  # the constructor takes post when it has no post_many
        for msg in batch:
            self._post(msg)

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
            self._flusher = None
