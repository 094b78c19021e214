"""The in-app measurements, run one after another in one app: throughput and key latency
while streaming, the same with 10 and with 5,000 finished blocks, memory, idle CPU."""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
import time
from dataclasses import dataclass, field

from textual.app import App

from bench import keyruns
from bench.harness import FrameWatch, KeyProber, LoopLag, TimingSink, p95, send_key, type_text, wait_event
from bench.report import Figure
from bench.workload import END_MARK


@dataclass
class Settings:
    stream_tokens: int = 20_000
    scale_tokens: int = 8_000  # long enough for a dozen key presses per stream: a p95 needs samples
    scale_repeats: int = 5
    fill_blocks: int = 5_000
    idle_seconds: float = 10.0
    stream_timeout: float = 60.0
    fill_timeout: float = 120.0
    agents: int = 100
    agent_tokens: int = 1_000
    agent_rate: int = 50  # tokens/s per agent, like a real model: 5,000 tokens/s in all
    agents_timeout: float = 90.0
    key_runs: int = 5  # key latency: the median of this many runs' p95 ...
    keys_per_run: int = 30  # ... each of at least this many keys (as many streams or fleets as it takes)
    keys_only: bool = False  # `--only keys`: the stream and 5,000-block sections only (no idle, no fleets)

    @classmethod
    def quick(cls) -> Settings:
        return cls(scale_tokens=3_000, scale_repeats=2, idle_seconds=4.0, stream_timeout=20.0, fill_timeout=30.0,
                   agent_tokens=150, agents_timeout=30.0)


@dataclass
class StreamResult:
    tokens: int
    seconds: float | None  # first delta through the sink -> end mark in a frame
    cpu: float  # process CPU seconds (UI, worker, provider) for the whole run
    frames: int
    keys_ms: list[float] = field(default_factory=list)
    error: str | None = None
    note: str = ""

    @property
    def rate(self) -> float | None:
        return self.tokens / self.seconds if self.seconds else None


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def _wait_ended(timing: TimingSink, timeout: float) -> bool:
    return await wait_event(timing.log.ended, timeout)


async def stream_once(app: App, watch: FrameWatch, timing: TimingSink, tokens: int, tag: str, *,
                      plain: bool = False, probe: bool = False, timeout: float = 60.0) -> StreamResult:
    mark = f"{END_MARK}{tag}"
    seen, when = watch.expect(mark)
    timing.log.reset()
    frames0, cpu0 = watch.frames, time.process_time()
    type_text(app, f"stream {tokens}{' plain' if plain else ''} tag {tag}\r")
    prober = None
    if probe:
        deadline = time.perf_counter() + 10
        while timing.log.first_delta_at is None and not timing.log.ended.is_set() and time.perf_counter() < deadline:
            await asyncio.sleep(0.005)
        prober = KeyProber(app, watch).start()
    # Done when the last word is in a frame. An app may not show the end of a long answer (a
    # capped block): then done is when a key pressed at the run's end is in a frame, because the
    # key waits in the app's queue behind every update posted before it.
    drain_at: float | None = None
    keys: list[float] = []
    loop = asyncio.get_running_loop()
    deadline = time.perf_counter() + timeout
    while not seen.is_set() and time.perf_counter() < deadline:
        if timing.log.ended.is_set():
            if prober:
                prober.stop_and_hold()  # no new keys; one still pending must not delay or erase the drain key
            drain = KeyProber(app, watch)
            await loop.run_in_executor(None, drain.probe_once)
            drain_at = drain.frame_times[0] if drain.frame_times else None
            keys = await prober.finish() if prober else []
            prober = None
            await wait_event(seen, 1.0)  # the mark, if the app shows it, comes with the same frames
            break
        await asyncio.sleep(0.005)
    shown = seen.is_set()
    cpu = time.process_time() - cpu0
    if prober:
        keys = await prober.finish()
    error = None
    first = timing.log.first_delta_at
    seconds = None
    note = ""
    if shown and first is not None:
        seconds = when[0] - first
    elif drain_at is not None and first is not None:
        seconds = drain_at - first
        note = "end of the answer never on screen; timed to the queue drain"
    else:
        watch.forget(mark)
        if timing.log.ended.is_set() and drain_at is None:
            error = "the run ended, but neither its last word nor a key pressed then reached the screen within 2 s"
        else:
            error = f"the end of the stream was not on screen after {timeout:.0f} s"
        send_key(app, "escape", None)  # cancel the run
    if not shown:
        watch.forget(mark)
    if not await _wait_ended(timing, 30):
        error = error or "the run never ended"
    error = error or timing.log.error
    await asyncio.sleep(0.2)  # let the final Markdown render settle before the next step
    return StreamResult(tokens, seconds, cpu, watch.frames - frames0, keys, error, note)


async def fill(app: App, watch: FrameWatch, timing: TimingSink, blocks: int, tag: str, timeout: float) -> float | None:
    seen, when = watch.expect(f"FILLED{tag}")
    timing.log.reset()
    t0 = time.perf_counter()
    type_text(app, f"fill {blocks} tag {tag}\r")
    shown = await wait_event(seen, timeout)
    await _wait_ended(timing, 30)
    await asyncio.sleep(0.3)
    if not shown:
        watch.forget(f"FILLED{tag}")
        return None
    return when[0] - t0


def _collect_everything() -> tuple[float, int]:
    """What the app's idle settle_deep pauses for (ms), and how many objects it leaves frozen."""
    t0 = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return (time.perf_counter() - t0) * 1000, gc.get_freeze_count()


def _ms(values: list[float]) -> tuple[float | None, float | None]:
    return (statistics.median(values) if values else None), p95(values)


async def run_all(app: App, watch: FrameWatch, timing: TimingSink, s: Settings, ceiling: float | None) -> dict:
    """Every in-app figure, in sections."""
    out: dict[str, list[Figure]] = {}
    loop = asyncio.get_running_loop()

    # Key latency with nothing running: the floor the other latencies compare against.
    base_keys = await loop.run_in_executor(None, _sync_keys, app, watch)
    base_med, base_p95 = _ms(base_keys)

    # 1. Throughput, with key presses during the stream (as many streams as the key runs need).
    lag = LoopLag().start()
    runs: list[StreamResult] = []

    async def one_stream(i: int) -> list[float]:
        runs.append(await stream_once(app, watch, timing, s.stream_tokens, f"T{i}", probe=True,
                                      timeout=s.stream_timeout))
        return runs[-1].keys_ms

    stream_keys = await keyruns.collect(s.key_runs, s.keys_per_run, one_stream)
    lags = lag.stop()
    r = sorted(runs, key=lambda x: x.rate or 0)[len(runs) // 2]  # the median run
    rates = sorted(x.rate for x in runs if x.rate)
    span = f"{rates[0]:,.0f}-{rates[-1]:,.0f}" if rates else "n/a"
    throughput = [
        Figure(f"stream {s.stream_tokens:,} tokens (Markdown+code+reasoning)", r.rate, "tokens/s", ">= 10000",
               r.error or (f"median of {len(runs)} streams ({span}); {r.seconds:.2f} s, {r.frames} frames"
                           + (f", {r.rate / ceiling:.0%} of the no-UI ceiling" if ceiling and r.rate else "")
                           + (f"; {r.note}" if r.note else ""))),
        Figure("key press -> screen during the stream, p95", keyruns.median_p95(stream_keys), "ms", "< 50",
               keyruns.note(stream_keys, s.keys_per_run)),
        Figure("key press -> screen, idle app, p95 (baseline)", base_p95, "ms", "",
               f"median {base_med:.1f} ms" if base_med is not None else ""),
        Figure("CPU per token while streaming", r.cpu / r.tokens * 1e6 if r.tokens else None, "µs", ""),
        Figure("event-loop lag during the stream, p95", p95(lags), "ms", "",
               f"max {max(lags):.0f} ms" if lags else ""),
    ]
    if ceiling:
        throughput.append(Figure("no-UI ceiling: provider + tool loop, same stream", ceiling, "tokens/s", ""))
    out["Throughput (120x40, headless driver, frames serialised)"] = throughput

    # 2. Scale: the same small stream at ~10 and at 5,000 finished blocks.
    await fill(app, watch, timing, 6, "A", s.fill_timeout)
    gc.collect()
    rss10 = rss_mb()
    small = [await stream_once(app, watch, timing, s.scale_tokens, f"S{i}", plain=True, probe=True,
                               timeout=s.stream_timeout) for i in range(s.scale_repeats)]
    fill_seconds = await fill(app, watch, timing, s.fill_blocks, "B", s.fill_timeout)
    gc.collect()
    rss5k = rss_mb()
    idle5k = await loop.run_in_executor(None, _sync_keys, app, watch, 15)
    idle5k_med, idle5k_p95 = _ms(idle5k)
    big: list[StreamResult] = []

    async def one_big(i: int) -> list[float]:
        big.append(await stream_once(app, watch, timing, s.scale_tokens, f"L{i}", plain=True, probe=True,
                                     timeout=s.stream_timeout))
        return big[-1].keys_ms

    # A short stream at 5,000 blocks takes a few keys only: a run may need a few dozen of them.
    keys5k = await keyruns.collect(s.key_runs, s.keys_per_run, one_big, max_rounds_per_run=40)
    deep_ms, frozen = _collect_everything()  # after the key runs: what it leaves frozen changes their collections

    def cost(results: list[StreamResult]) -> float | None:
        ok = [x.cpu / x.tokens for x in results if not x.error]
        return statistics.median(ok) * 1e6 if ok else None

    def wall(results: list[StreamResult]) -> float | None:
        ok = [x.seconds / x.tokens for x in results if x.seconds]
        return statistics.median(ok) * 1e6 if ok else None

    c10, c5k, w10, w5k = cost(small), cost(big), wall(small), wall(big)
    errors = "; ".join(sorted({x.error or x.note for x in small + big if x.error or x.note}))
    out["Scale (10 vs 5,000 finished blocks)"] = [
        Figure(f"fill: {s.fill_blocks:,} blocks emitted -> last one on screen", fill_seconds, "s", "",
               "" if fill_seconds is not None else f"not on screen after {s.fill_timeout:.0f} s"),
        Figure("CPU per streamed token, ~10 blocks", c10, "µs", "", f"{s.scale_tokens:,}-token stream x{s.scale_repeats}"),
        Figure(f"CPU per streamed token, {s.fill_blocks:,} blocks", c5k, "µs", ""),
        Figure("  ratio 5,000 / 10 blocks (CPU per token)", c5k / c10 if c10 and c5k else None, "x", "<= 1.5", errors),
        Figure("  ratio 5,000 / 10 blocks (wall time per token)", w5k / w10 if w10 and w5k else None, "x", "",
               f"{w10:.0f} vs {w5k:.0f} µs/token" if w10 and w5k else ""),
        Figure(f"key press -> screen at {s.fill_blocks:,} blocks, during a stream, p95", keyruns.median_p95(keys5k),
               "ms", "< 50", keyruns.note(keys5k, s.keys_per_run)),
        Figure(f"key press -> screen at {s.fill_blocks:,} blocks, idle, p95", idle5k_p95, "ms", "< 50",
               f"median {idle5k_med:.1f} ms" if idle5k_med is not None else ""),
        Figure("memory (RSS) at ~10 blocks", rss10, "MB", ""),
        Figure(f"memory (RSS) at {s.fill_blocks:,} blocks", rss5k, "MB", "< 150"),
        Figure("  growth", rss5k - rss10, "MB", "< 100"),
        Figure(f"pause collecting everything at {s.fill_blocks:,} blocks, the frozen objects too", deep_ms, "ms", "",
               f"the app's settle_deep, idle only; {frozen:,} objects frozen again"),
    ]

    if s.keys_only:
        return out

    # 3. Idle.
    await asyncio.sleep(1.0)
    frames0, cpu0, t0 = watch.frames, time.process_time(), time.perf_counter()
    await asyncio.sleep(s.idle_seconds)
    elapsed = time.perf_counter() - t0
    idle_cpu = (time.process_time() - cpu0) / elapsed * 100
    out[f"Idle ({s.idle_seconds:.0f} s, after the runs above)"] = [
        Figure("CPU while idle", idle_cpu, "% core", "< 1", f"{watch.frames - frames0} frames in {elapsed:.1f} s"),
    ]
    out[f"Many agents: {s.key_runs} fleets of {s.agents} background agents x {s.agent_tokens:,} tokens at "
        f"{s.agent_rate}/s each"] = \
        await many_agents(app, watch, timing, s)
    return out


@dataclass
class FleetRun:
    keys: list[float]
    lags: list[float]
    wall: float
    frames: int
    cpu: float
    done: bool
    error: str | None = None


async def fleet_once(app: App, watch: FrameWatch, timing: TimingSink, s: Settings, tag: str) -> FleetRun:
    """One fleet of `s.agents` spawned and run to the end, with probe keys from the first spawn on."""
    frames0, cpu0, t0 = watch.frames, time.process_time(), time.perf_counter()
    lag = LoopLag().start()
    timing.log.reset()
    prober = KeyProber(app, watch).start()
    type_text(app, f"agents {s.agents} tokens {s.agent_tokens} tag {tag} rate {s.agent_rate}\r")
    await _wait_ended(timing, 30)
    if timing.log.error:
        await prober.finish()
        lag.stop()
        return FleetRun([], [], 0.0, 0, 0.0, False, timing.log.error)
    done = await _all_agents_done(timing, s.agents_timeout)
    keys = await prober.finish()
    wall = time.perf_counter() - t0
    return FleetRun(keys, lag.stop(), wall, watch.frames - frames0, time.process_time() - cpu0, done)


async def many_agents(app: App, watch: FrameWatch, timing: TimingSink, s: Settings) -> list[Figure]:
    fleets: list[FleetRun] = []

    async def one_fleet(i: int) -> list[float]:
        fleets.append(await fleet_once(app, watch, timing, s, f"G{i}"))
        return fleets[-1].keys

    key_runs = await keyruns.collect(s.key_runs, s.keys_per_run, one_fleet, max_rounds_per_run=1)
    errors = sorted({f.error for f in fleets if f.error})
    if errors:
        return [Figure("background agents", None, "", ">= 0", errors[0])]
    # A key pressed right after the last agent ended waits behind every queued update: the backlog.
    backlog = await asyncio.get_running_loop().run_in_executor(None, _sync_keys, app, watch, 1)
    walls = [f.wall for f in fleets if f.done]
    wall = sum(f.wall for f in fleets)
    frames = sum(f.frames for f in fleets)
    lags = [lag for f in fleets for lag in f.lags]
    worst = [max(f.lags) for f in fleets if f.lags]
    return [
        Figure("all agents finished (median of the fleets)", statistics.median(walls) if walls else None, "s", "",
               f"{len(walls)} of {len(fleets)} fleets finished within {s.agents_timeout:.0f} s"),
        Figure("panel frames while they ran", frames / wall if wall else None, "frames/s", "",
               f"{frames} frames; CPU {sum(f.cpu for f in fleets) / wall * 100:.0f} % of a core" if wall else ""),
        Figure("key press -> screen while they spawn and run, p95", keyruns.median_p95(key_runs), "ms", "< 50",
               keyruns.note(key_runs, s.keys_per_run)),
        Figure("key press -> screen right after the last one ended", backlog[0] if backlog else None, "ms", "< 50",
               "the queue of agent updates still to be drawn"),
        Figure("event-loop lag while a fleet spawns and runs, max", statistics.median(worst) if worst else None,
               "ms", "<= 100", f"median of {len(worst)} fleets' max ({', '.join(f'{w:.0f}' for w in worst)} ms); "
               f"p95 {p95(lags):.0f} ms" if lags else ""),
    ]


async def _all_agents_done(timing: TimingSink, timeout: float) -> bool:
    fleet = timing.fleet
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        records = fleet.list() if fleet is not None else []
        if records and all(r.finished for r in records):
            return True
        await asyncio.sleep(0.05)
    return False


def _sync_keys(app: App, watch: FrameWatch, n: int = 15) -> list[float]:
    prober = KeyProber(app, watch)
    for _ in range(n):
        prober.probe_once()
        time.sleep(0.03)
    return prober.latencies_ms
