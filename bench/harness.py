"""Running the real app under Textual's headless driver, and seeing what reaches the screen.

The app is started exactly as the CLI starts it, through `run_tui(make_session, ...)`;
`App.run` is swapped for a headless run at 120×40 that hands the live app to a scenario.

- `FrameWatch` wraps the app's `_display`: every frame is serialised to the bytes a real
  terminal would receive (the headless driver skips that step; we keep its cost) and
  searched for the texts a scenario waits for. "On screen" means "in a frame".
- `KeyProber` is a thread, like a terminal driver's input thread: it posts a key with a
  character that never occurs in the workload and times the first frame that shows it.
- `BenchSession` proxies the real `AgentSession` (real provider, real tool loop, loopback
  server) and adds one prompt, `fill N tag T`, that emits N finished blocks as Msgs at
  full speed, to grow the conversation without N model calls.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import statistics
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from textual import events
from textual.app import App

from mrsmith_tui import msgs
from mrsmith_tui.agents.fleet import Fleet
from mrsmith_tui.core.session import AgentSession
from mrsmith_tui.core.session_api import Session, Sink
from mrsmith_tui.tools.base import Approver

SIZE = (120, 40)
PROBE_CHARS = "αβγδεζηθικλμνξοπρστυφχψω"  # never in the (ASCII) workload


class FrameWatch:
    """Counts frames and tells when a text first appears in one."""

    def __init__(self, app: App) -> None:
        self.frames = 0
        self.bytes = 0
        self._needles: dict[str, tuple[threading.Event, list[float]]] = {}
        self._lock = threading.Lock()
        original = app._display
        console = app.console

        def display(screen: Any, renderable: Any) -> None:
            original(screen, renderable)
            if renderable is None or app._batch_count:
                return
            text = renderable.render_segments(console)
            now = time.perf_counter()
            self.frames += 1
            self.bytes += len(text)
            if self._needles:
                with self._lock:
                    for needle, (event, slot) in list(self._needles.items()):
                        if needle in text:
                            slot.append(now)
                            event.set()
                            del self._needles[needle]

        app._display = display  # type: ignore[method-assign]

    def expect(self, needle: str) -> tuple[threading.Event, list[float]]:
        """Register before causing it; the list gets the frame time."""
        entry: tuple[threading.Event, list[float]] = (threading.Event(), [])
        with self._lock:
            self._needles[needle] = entry
        return entry

    def forget(self, needle: str) -> None:
        with self._lock:
            self._needles.pop(needle, None)


async def wait_event(event: threading.Event, timeout: float) -> bool:
    """Wait for a thread event without busy-polling the app's loop much (every 5 ms)."""
    deadline = time.perf_counter() + timeout
    while not event.is_set():
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(0.005)
    return True


def send_key(app: App, key: str, character: str | None) -> None:
    """What a terminal driver does for one key press (thread-safe)."""
    event = events.Key(key, character)
    event.set_sender(app)
    app._driver.send_message(event)  # type: ignore[union-attr]


KEY_NAMES = {" ": "space", "\r": "enter"}


def type_text(app: App, text: str) -> None:
    for ch in text:
        send_key(app, KEY_NAMES.get(ch, ch), ch)


_probe_counter = itertools.count()


class KeyProber:
    """Presses probe keys every `interval` seconds in a thread; latencies in ms."""

    def __init__(self, app: App, watch: FrameWatch, interval: float = 0.02, timeout: float = 2.0) -> None:
        self.app, self.watch, self.interval, self.timeout = app, watch, interval, timeout
        self.latencies_ms: list[float] = []
        self.frame_times: list[float] = []  # when each key was first on screen
        self.typed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="key-prober", daemon=True)
        self._clear_lock = threading.Lock()
        self._holding = False
        self._held_clears = 0

    def start(self) -> KeyProber:
        self._thread.start()
        return self

    def probe_once(self) -> None:
        ch = PROBE_CHARS[next(_probe_counter) % len(PROBE_CHARS)]  # shared: two probers never collide
        # The input shows several probe characters at once; a fresh one marks this press.
        event, slot = self.watch.expect(ch)
        t0 = time.perf_counter()
        send_key(self.app, ch, ch)
        self.typed += 1
        if event.wait(self.timeout):
            self.latencies_ms.append((slot[0] - t0) * 1000)
            self.frame_times.append(slot[0])
        else:
            self.watch.forget(ch)
            self.latencies_ms.append(self.timeout * 1000)  # counted as a (very) late key
        self._clear()

    def _clear(self) -> None:
        # Delete it again so the same character is "fresh" next time round.
        with self._clear_lock:
            if self._holding:
                self._held_clears += 1
                return
            send_key(self.app, "backspace", None)

    def stop_and_hold(self) -> None:
        """No new keys, and the backspace of a key still pending is held back until `stop`: sent
        now, it could erase another prober's key before any frame showed it."""
        with self._clear_lock:
            self._stop.set()
            self._holding = True

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.probe_once()

    def stop(self) -> list[float]:
        """Blocking: never call it on the app's event loop (the pending key needs that loop)."""
        self._stop.set()
        self._thread.join(5)
        with self._clear_lock:
            self._holding = False
            for _ in range(self._held_clears):
                send_key(self.app, "backspace", None)
            self._held_clears = 0
        return self.latencies_ms

    async def finish(self) -> list[float]:
        """Stop from the app's event loop: the join runs in an executor thread."""
        self._stop.set()
        return await asyncio.get_running_loop().run_in_executor(None, self.stop)


class LoopLag:
    """How late the app's event loop runs a 20 ms timer: a direct view of "falling behind"."""

    def __init__(self, interval: float = 0.02) -> None:
        self.interval = interval
        self.lags_ms: list[float] = []
        self._task: asyncio.Task | None = None

    async def _tick(self) -> None:
        while True:
            due = time.perf_counter() + self.interval
            await asyncio.sleep(self.interval)
            self.lags_ms.append(max(0.0, (time.perf_counter() - due) * 1000))

    def start(self) -> LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def stop(self) -> list[float]:
        if self._task:
            self._task.cancel()
        return self.lags_ms


def p95(values: list[float]) -> float | None:
    if not values:
        return None
    if len(values) < 20:
        return max(values)
    return statistics.quantiles(values, n=20)[18]


# --------------------------------------------------------------------------- the session


@dataclass
class RunLog:
    """What passed through the sink, timed (the worker side of a run)."""

    first_delta_at: float | None = None
    deltas: int = 0
    ended: threading.Event = field(default_factory=threading.Event)
    ended_at: float | None = None
    error: str | None = None

    def reset(self) -> None:
        self.first_delta_at, self.deltas, self.ended_at, self.error = None, 0, None, None
        self.ended = threading.Event()


class TimingSink:
    """Forwards every Msg to the app's sink; notes the first delta and the run's end."""

    def __init__(self) -> None:
        self.inner: Callable[[msgs.Msg], None] = lambda msg: None  # the app's sink, once it made the session
        self.log = RunLog()
        self.fleet: Fleet | None = None  # the session's background fleet, when the composition gave it one

    def __call__(self, msg: msgs.Msg) -> None:
        # Called for every streamed delta: exact type tests, as an isinstance that fails is slow for a
        # pydantic class, and the instrument should not weigh on what it measures.
        if type(msg) is msgs.TextDelta or type(msg) is msgs.ReasoningDelta:
            if self.log.first_delta_at is None:
                self.log.first_delta_at = time.perf_counter()
            self.log.deltas += 1
        self.inner(msg)
        if type(msg) is msgs.RunEnded:
            self.log.ended_at = time.perf_counter()
            self.log.error = msg.error
            self.log.ended.set()


class BenchSession:
    """The real AgentSession, plus `fill N tag T` (N finished blocks, emitted directly)."""

    def __init__(self, real: AgentSession, sink: TimingSink) -> None:
        self._real = real
        self._sink = sink
        self._fills = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def run(self, prompt: str, cancel: Any, *, attachments: Any = ()) -> Any:
        agents = re.search(r"agents (\d+) tokens (\d+) tag (\w+) rate (\d+)", prompt)
        if agents:
            return self._spawn(prompt, *(agents.group(i) for i in (1, 2, 3, 4)))
        m = re.search(r"fill (\d+) tag (\w+)", prompt)
        if not m:
            return self._real.run(prompt, cancel, attachments=attachments)
        from mrsmith_tui.core.session import RunResult

        self._fills += 1
        run_id = f"fill{self._fills}"
        emit = self._sink
        emit(msgs.UserPrompt(run_id=run_id, text=prompt))
        emit(msgs.RunStarted(run_id=run_id, agent="bench", model="bench-model"))
        n = int(m.group(1))
        for i in range(n - 1):
            bid = f"{run_id}-{i}"
            kind = i % 4
            if kind == 0:
                text = f"Looking at step {i}: the loop trims old turns.\nThen it keeps the prompt stable."
                emit(msgs.ReasoningDelta(block_id=bid, text=text))
                emit(msgs.BlockEnded(block_id=bid, kind="reasoning", text=text))
            elif kind == 2:
                emit(msgs.ToolCallStarted(call_id=bid, name="shell", arguments='{"command": "ls"}', summary="ls"))
                emit(msgs.ToolOutput(call_id=bid, text="a.py\nb.py\n"))
                emit(msgs.ToolCallFinished(call_id=bid, name="shell", ok=True, result="a.py\nb.py\n", exit_code=0,
                                           elapsed=0.01))
            else:
                text = f"Step **{i}** done: `fold()` now returns a tuple.\n\n- one\n- two\n"
                emit(msgs.TextDelta(block_id=bid, text=text))
                emit(msgs.BlockEnded(block_id=bid, kind="text", text=text))
        last = f"All steps finished FILLED{m.group(2)}"
        emit(msgs.TextDelta(block_id=f"{run_id}-end", text=last))
        emit(msgs.BlockEnded(block_id=f"{run_id}-end", kind="text", text=last))
        emit(msgs.RunEnded(run_id=run_id))
        return RunResult(final_text=last)


    def _spawn(self, prompt: str, count: str, tokens: str, tag: str, rate: str) -> Any:
        """Start `count` background agents, each streaming a `tokens`-token answer (issue 5's bench)."""
        from mrsmith_tui.core.session import RunResult

        run_id = f"spawn-{tag}"
        self._sink(msgs.UserPrompt(run_id=run_id, text=prompt))
        self._sink(msgs.RunStarted(run_id=run_id, agent="bench", model="bench-model"))
        fleet = self._real.services.fleet
        error = None
        if not isinstance(fleet, Fleet):
            error = "no fleet in session.services"
        else:
            for i in range(int(count)):
                fleet.spawn(f"stream {tokens} plain tag {tag}{i} rate {rate}", label=f"bench {i}")
        self._sink(msgs.RunEnded(run_id=run_id, error=error))
        return RunResult(final_text="", error=error)


# --------------------------------------------------------------------------- starting the app


def bench_config(base_url: str):
    from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig

    return Config(
        providers=[ProviderConfig(name="bench", base_url=base_url, read_timeout=60)],
        agents=[AgentConfig(name="bench", provider="bench", model="bench-model", max_context_tokens=10_000_000)],
        default_agent="bench",
    )


Scenario = Callable[[App, FrameWatch, TimingSink], Awaitable[Any]]


def run_app(run_tui: Callable[..., int], base_url: str, scenario: Scenario, workdir: Path,
            max_agents: int = 100) -> Any:
    """Start the app through `run_tui`, headless at 120×40, and run `scenario` against it."""
    from mrsmith_tui.agents.compose import compose_session

    config = bench_config(base_url)
    timing = TimingSink()
    outcome: dict[str, Any] = {}

    def make_session(sink: Sink, approver: Approver) -> Session:
        timing.inner = sink
        real = compose_session(config=config, agent_name="bench", cwd=workdir, sink=timing, approver=approver,
                               persist=False, max_agents=max_agents)
        fleet = real.services.fleet
        timing.fleet = fleet if isinstance(fleet, Fleet) else None
        # BenchSession is the real session behind a proxy (__getattr__), which the protocol cannot see.
        return cast(Session, BenchSession(real, timing))

    original_run = App.run

    def headless_run(self: App, *args: Any, **kwargs: Any) -> Any:
        async def go() -> None:
            async with self.run_test(headless=True, size=SIZE) as pilot:
                watch = FrameWatch(self)
                deadline = time.perf_counter() + 10
                while self.focused is None and time.perf_counter() < deadline:  # the prompt input has focus
                    await pilot.pause(0.01)
                outcome["result"] = await scenario(self, watch, timing)
                self.exit()

        try:
            asyncio.run(go())
        except Exception as e:
            if "result" not in outcome:
                raise
            outcome["teardown_error"] = f"{type(e).__name__}: {e}"  # the figures were taken; say it, keep them
        return self.return_value

    App.run = headless_run  # type: ignore[method-assign]
    try:
        run_tui(make_session, config=config, theme=None, history_path=workdir / "history")
    finally:
        App.run = original_run  # type: ignore[method-assign]
    if "result" not in outcome:
        raise RuntimeError("the scenario did not finish")
    return outcome["result"]
