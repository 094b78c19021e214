"""Key latency as the median of several runs' p95 (issue #26): one run's p95 over a dozen keys
swung by tens of milliseconds, so a run collects at least `keys_per_run` keys (as many streams or
fleets as that takes) and the figure is the median of the runs' p95, each run's printed."""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable

from bench.harness import p95


async def collect(runs: int, keys_per_run: int, one: Callable[[int], Awaitable[list[float]]],
                  max_rounds_per_run: int = 12) -> list[list[float]]:
    """`runs` lists of at least `keys_per_run` keys each: `one(i)` is called until a run has enough
    (at most `max_rounds_per_run` times; a round with no keys ends that run)."""
    out: list[list[float]] = []
    rounds = 0
    for _ in range(runs):
        keys: list[float] = []
        for _ in range(max_rounds_per_run):
            got = await one(rounds)
            rounds += 1
            keys += got
            if len(keys) >= keys_per_run or not got:
                break
        out.append(keys)
    return out


def median_p95(runs: list[list[float]]) -> float | None:
    values = [v for v in (p95(keys) for keys in runs) if v is not None]
    return statistics.median(values) if values else None


def note(runs: list[list[float]], keys_per_run: int) -> str:
    if not any(runs):
        return "no keys measured"
    each = ", ".join(f"{p:.0f}" for p in (p95(k) for k in runs) if p is not None)
    counts = [len(k) for k in runs]
    lost = sum(v >= 2000 for k in runs for v in k)
    short = sum(c < keys_per_run for c in counts)
    return (f"median of {len(runs)} runs' p95 ({each} ms; {min(counts)}-{max(counts)} keys a run"
            + (f", {short} run(s) under {keys_per_run} keys" if short else "")
            + (f", {lost} key(s) never on screen within 2 s" if lost else "") + ")")
