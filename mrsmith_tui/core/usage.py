"""The usage ledger: per-turn usage, session totals, the context gauge and its warnings.

`context_tokens` is what the main context held after the last call (prompt + completion).
Sub-agent usage is kept apart (`add_subagent_usage`): it never moves the context gauge.
Warnings at 85 % and 100 % of maxContextTokens are posted once per crossing: the gauge has
to fall back below a threshold (a reset, a sliding window) before it warns again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from mrsmith_tui import msgs
from mrsmith_tui.core.budget import ToolCallBudget
from mrsmith_tui.msgs import UsageInfo

_THRESHOLDS = ((0.85, "context-85"), (1.0, "context-100"))


class UsageLedger:
    def __init__(
        self,
        sink: Callable[[msgs.Msg], None],
        *,
        max_context_tokens: int,
        budget: ToolCallBudget | None = None,
    ) -> None:
        self._sink = sink
        self.max_context_tokens = max_context_tokens
        self.budget = budget or ToolCallBudget(None)
        self.turns: list[tuple[str, UsageInfo]] = []  # (run_id, usage) per model call
        self.total = UsageInfo()
        self.subagent_total = UsageInfo()
        self.context_tokens = 0
        self.context_source = ""  # where max_context_tokens came from, for /usage
        self.prompt_overhead: Callable[[], tuple[int, int, int]] | None = None  # (system, schemas, tools) tokens
        self.compact_declined_at: int | None = None  # the gauge when a summary was no shorter (core.compact)
        self._armed = {code: True for _, code in _THRESHOLDS}
        self._lock = threading.Lock()

    # -- the main context

    def add(self, run_id: str, usage: UsageInfo, *, context_tokens: int | None = None) -> None:
        """Count one model call in the totals, posting nothing (a restored turn, the /compact call);
        `context_tokens`, when given, is the context gauge from now on."""
        with self._lock:
            self._add_locked(run_id, usage, context_tokens)

    def _add_locked(self, run_id: str, usage: UsageInfo, context_tokens: int | None) -> None:
        self.turns.append((run_id, usage))
        self.total = self.total + usage
        if context_tokens is not None:
            self.context_tokens = context_tokens

    def record(self, run_id: str, usage: UsageInfo) -> list[msgs.Msg]:
        """Account one model call of the main context; posts and returns the Msgs it made."""
        with self._lock:
            self._add_locked(run_id, usage, usage.prompt_tokens + usage.completion_tokens)
            out: list[msgs.Msg] = [
                msgs.UsageReported(usage=usage, context_tokens=self.context_tokens, context_limit=self.max_context_tokens)
            ]
            out += self._threshold_warnings()
        for m in out:
            self._sink(m)
        return out

    def _threshold_warnings(self) -> list[msgs.Msg]:
        out: list[msgs.Msg] = []
        share = self.context_tokens / self.max_context_tokens if self.max_context_tokens else 0.0
        for ratio, code in _THRESHOLDS:
            if share >= ratio and self._armed[code]:
                self._armed[code] = False
                pct = round(share * 100)
                out.append(
                    msgs.Warning(
                        text=f"context is {pct}% full ({self.context_tokens:,} of {self.max_context_tokens:,} tokens)",
                        code=code,
                    )
                )
            elif share < ratio:
                self._armed[code] = True
        return out

    def reset_context(self) -> None:
        with self._lock:
            self.context_tokens = 0
            self.compact_declined_at = None
            self._armed = {code: True for _, code in _THRESHOLDS}

    # -- sub-agents

    def add_subagent_usage(self, usage: UsageInfo) -> None:
        with self._lock:
            self.subagent_total = self.subagent_total + usage

    # -- derived figures for the status bar

    @property
    def cache_hit_percent(self) -> float:
        """Cached share of all prompt tokens of the main context, 0-100."""
        prompt = self.total.prompt_tokens
        return 100.0 * self.total.cached_tokens / prompt if prompt else 0.0

    @property
    def context_percent(self) -> float:
        return 100.0 * self.context_tokens / self.max_context_tokens if self.max_context_tokens else 0.0

    @property
    def tool_calls_used(self) -> int:
        return self.budget.used

    @property
    def tool_calls_limit(self) -> int | None:
        return self.budget.limit

    @property
    def last(self) -> UsageInfo | None:
        return self.turns[-1][1] if self.turns else None
