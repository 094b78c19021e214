"""From history to the messages sent: the wire form, and the `full` / `sliding` builders.

History (see Conversation) holds everything, reasoning included, as OpenAI message dicts
with a few private keys ("reasoning", "name" on tool results, "partial"). What is sent is
built fresh for every call: private keys dropped, reasoning sent back as
`reasoning_content` only when the agent's `thinking` is "preserve", and, for `sliding`,
only the most recent whole turns that fit the window.

A turn starts at a user message and runs to the next one, so an assistant message with
tool calls always travels with its tool results.
"""

from __future__ import annotations

import json
from typing import Any, Literal

_WIRE_KEYS = {
    "system": ("content",),
    "user": ("content",),
    "assistant": ("content", "tool_calls"),
    "tool": ("tool_call_id", "content"),
}


def to_wire(message: dict[str, Any], thinking: Literal["strip", "preserve"] = "strip") -> dict[str, Any]:
    role = message.get("role", "user")
    out: dict[str, Any] = {"role": role}
    for key in _WIRE_KEYS.get(role, ("content",)):
        if key in message:
            out[key] = message[key]
    if role == "assistant":
        if not out.get("tool_calls"):
            out.pop("tool_calls", None)
            out["content"] = out.get("content") or ""
        elif not out.get("content"):
            out["content"] = None
        if thinking == "preserve" and message.get("reasoning"):
            out["reasoning_content"] = message["reasoning"]
    return out


class TokenEstimator:
    """~4 characters a token, calibrated by the last real usage the provider reported."""

    def __init__(self) -> None:
        self.scale = 1.0

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


def split_turns(history: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    turns: list[list[dict[str, Any]]] = []
    for message in history:
        if message.get("role") == "user" or not turns:
            turns.append([])
        turns[-1].append(message)
    return turns


def sliding_window(
    history: list[dict[str, Any]], *, budget_tokens: int, estimator: TokenEstimator, thinking: str = "strip"
) -> list[dict[str, Any]]:
    """The most recent whole turns whose wire size fits `budget_tokens` (the newest always kept)."""
    kept: list[list[dict[str, Any]]] = []
    used = 0
    for turn in reversed(split_turns(history)):
        size = sum(estimator.count(to_wire(m, thinking)) for m in turn)  # type: ignore[arg-type]
        if kept and used + size > budget_tokens:
            break
        kept.append(turn)
        used += size
    return [m for turn in reversed(kept) for m in turn]


def build_messages(
    system_prompt: str,
    history: list[dict[str, Any]],
    *,
    builder: Literal["full", "sliding"] = "full",
    thinking: Literal["strip", "preserve"] = "strip",
    window_tokens: int = 0,
    estimator: TokenEstimator | None = None,
    reserved_tokens: int = 0,
) -> list[dict[str, Any]]:
    """The messages for one call. `reserved_tokens`: what the tool specs take of the window."""
    system = {"role": "system", "content": system_prompt}
    # Messages a /compact summary replaced stay in the history but leave the context.
    chosen = [m for m in history if not m.get("compacted")]
    if builder == "sliding":
        estimator = estimator or TokenEstimator()
        budget = window_tokens - estimator.count(system) - reserved_tokens
        chosen = sliding_window(chosen, budget_tokens=max(0, budget), estimator=estimator, thinking=thinking)
    return [system] + [to_wire(m, thinking) for m in chosen]
