"""The cost of the outbound filter on the streaming path: terminal-text cleaning and redaction.

Every delta of a stream passes `OutboundFilter` (headless and TUI) before it is shown. The
figures: plain text through `clean` (the common case: one regex search finds nothing), text
dense with escapes, and whole delta Msgs through the filter with a key configured (the
stream redactor's held-back tail included), next to the 5,000 tokens/s the UI must keep up
with (a delta of ~4 tokens: ~1,250 deltas/s).
"""

from __future__ import annotations

import time

from bench.report import Figure
from mrsmith_tui import msgs
from mrsmith_tui.core.outbound import OutboundFilter
from mrsmith_tui.security.redact import Redactor
from mrsmith_tui.security.terminal_text import clean

_WORDS = "the model streams ordinary prose with `code`, numbers 1234 and unicode — ✓ 日本語 "


def _rate(fn, amount: float, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return amount / best


def measure(quick: bool = False) -> list[Figure]:
    repeats = 3 if quick else 7
    plain = _WORDS * (1_000_000 // len(_WORDS))
    dense = ("x\x1b[2J\x1b]0;t\x07 \u202e" + "y" * 20) * (1_000_000 // 36)
    mb = len(plain.encode()) / 1e6
    mb_dense = len(dense.encode()) / 1e6

    deltas = [msgs.TextDelta(block_id="t1", text=_WORDS[i % 40:i % 40 + 16]) for i in range(20_000)]
    redactor = Redactor(["sk-UNIQUE-4b3c2d1e0f", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"])

    def stream() -> None:
        f = OutboundFilter(redactor)
        for d in deltas:
            f(d)

    return [
        Figure("clean: plain text", _rate(lambda: clean(plain), mb, repeats), "MB/s", ">= 50"),
        Figure("clean: text dense with escapes", _rate(lambda: clean(dense), mb_dense, repeats), "MB/s", ">= 5"),
        Figure("filter: deltas (clean + redact 2 keys)", _rate(stream, len(deltas), repeats), "deltas/s", ">= 20000",
               "the UI needs ~1,250/s at 5,000 tokens/s"),
    ]
