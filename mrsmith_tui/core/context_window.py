"""Which history entries one request carries: `full` (all of them) or `sliding` (the newest that fit).

The history (`mrsmith_tui.history`) holds everything, reasoning and compacted entries
included. For each call the core chooses the entries still in the context: a /compact
summary's replaced entries never, and with the `sliding` builder only the most recent whole
turns that fit the window. The choice is wire-neutral; turning the entries into what a
server takes is the provider's (`provider.chat_wire` for Chat Completions).

A turn starts at a user entry and runs to the next one, so an assistant entry with tool
calls always travels with its tool results.

Sizes are estimated on the Chat Completions form of the entries: it is the yardstick the
estimator is calibrated against (the real prompt tokens a server reports for what was sent),
and another wire's form differs from it by far less than the estimate's own error.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from mrsmith_tui.history import HistoryEntry
from mrsmith_tui.provider.chat_wire import request_messages, system_message, wire_message, wire_messages
from mrsmith_tui.provider.types import ChatRequest, Thinking

__all__ = ["Builder", "TokenEstimator", "context_entries", "sliding_window", "split_turns"]

Builder = Literal["full", "sliding"]


class TokenEstimator:
    """~4 characters a token, calibrated by the last real usage the provider reported."""

    def __init__(self, scale: float = 1.0) -> None:
        """`scale`: the start before the first real usage calibrates it (a vendor's tokenizer: config.vendors)."""
        self.scale = scale

    @staticmethod
    def raw(value: Any) -> int:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        return (len(text) + 3) // 4

    def count(self, value: Any) -> int:
        return int(self.raw(value) * self.scale)

    def calibrate(self, sent: Any, real_prompt_tokens: int) -> None:
        estimate = self.raw(sent)
        if estimate > 0 and real_prompt_tokens > 0:
            self.scale = min(4.0, max(0.25, real_prompt_tokens / estimate))

    def calibrate_by(self, request: ChatRequest, real_prompt_tokens: int) -> None:
        """Calibrate by what the server counted for `request`."""
        self.calibrate({"messages": request_messages(request), "tools": request.tools}, real_prompt_tokens)

    def entry(self, entry: HistoryEntry, thinking: Thinking = "strip") -> int:
        return self.count(wire_message(entry, thinking))

    def system(self, system_prompt: str) -> int:
        return self.count(system_message(system_prompt))

    def context(self, system_prompt: str, entries: Sequence[HistoryEntry], thinking: Thinking = "strip") -> int:
        """The whole context: the system prompt and every entry still in it."""
        return self.count(wire_messages(system_prompt, entries, thinking))


def split_turns(history: Sequence[HistoryEntry]) -> list[list[HistoryEntry]]:
    turns: list[list[HistoryEntry]] = []
    for entry in history:
        if entry.role == "user" or not turns:
            turns.append([])
        turns[-1].append(entry)
    return turns


def sliding_window(
    history: Sequence[HistoryEntry], *, budget_tokens: int, estimator: TokenEstimator, thinking: Thinking = "strip"
) -> list[HistoryEntry]:
    """The most recent whole turns whose wire size fits `budget_tokens` (the newest always kept)."""
    kept: list[list[HistoryEntry]] = []
    used = 0
    for turn in reversed(split_turns(history)):
        size = sum(estimator.entry(e, thinking) for e in turn)
        if kept and used + size > budget_tokens:
            break
        kept.append(turn)
        used += size
    return [e for turn in reversed(kept) for e in turn]


def context_entries(
    system_prompt: str,
    history: Sequence[HistoryEntry],
    *,
    builder: Builder = "full",
    thinking: Thinking = "strip",
    window_tokens: int = 0,
    estimator: TokenEstimator | None = None,
    reserved_tokens: int = 0,
) -> list[HistoryEntry]:
    """The entries for one call. `reserved_tokens`: what the tool specs take of the window."""
    # Entries a /compact summary replaced stay in the history but leave the context.
    chosen = [e for e in history if not e.compacted]
    if builder == "sliding":
        estimator = estimator or TokenEstimator()
        budget = window_tokens - estimator.system(system_prompt) - reserved_tokens
        chosen = sliding_window(chosen, budget_tokens=max(0, budget), estimator=estimator, thinking=thinking)
    return chosen
