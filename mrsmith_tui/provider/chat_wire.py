"""The Chat Completions wire: typed history entries to the `messages` a `/chat/completions` server takes.

The one place the history (`mrsmith_tui.history`) becomes OpenAI message dicts:

- the system prompt first, as a `system` message;
- a UserEntry (prompt, context or summary) as a `user` message with its text;
- an AssistantEntry as an `assistant` message: its text as `content` ("" when it has none,
  None when it only calls tools), its tool calls as `tool_calls` (`type: function`, the
  arguments as the model wrote them, parsable or not), and its reasoning as
  `reasoning_content` when `thinking` is "preserve", and for the current tool loop's answers
  (those after the last prompt) when the vendor refuses a tool-call turn without it (DeepSeek
  thinking mode, Z.ai interleaved thinking, Kimi: `vendors.needs_loop_reasoning`); a reasoning
  signature has no place on this wire and is left out;
- a ToolResultEntry as a `tool` message (`tool_call_id`, `content`);
- entries a compaction replaced (`compacted`) are left out.

Key order and values are exactly what the program sent before the history was typed, so
the bytes on the wire did not change. The core also uses `wire_message` as its yardstick
for token estimates (see core.context_window.TokenEstimator).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mrsmith_tui.config.vendors import needs_loop_reasoning
from mrsmith_tui.history import AssistantEntry, HistoryEntry, ToolCallBlock, ToolResultEntry, UserEntry
from mrsmith_tui.provider.types import ChatRequest, Thinking

__all__ = ["current_loop_start", "request_messages", "system_message", "wire_message", "wire_messages"]


def system_message(system_prompt: str) -> dict[str, Any]:
    return {"role": "system", "content": system_prompt}


def _tool_call(call: ToolCallBlock) -> dict[str, Any]:
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}


def _assistant(entry: AssistantEntry, thinking: Thinking) -> dict[str, Any]:
    calls = entry.tool_calls
    out: dict[str, Any] = {"role": "assistant"}
    if calls:
        out["content"] = entry.text or None
        out["tool_calls"] = [_tool_call(c) for c in calls]
    else:
        out["content"] = entry.text
    reasoning = entry.reasoning
    if thinking == "preserve" and reasoning:
        out["reasoning_content"] = reasoning
    return out


def wire_message(entry: HistoryEntry, thinking: Thinking = "strip") -> dict[str, Any]:
    """One entry as a Chat Completions message (whether it is compacted is the caller's business)."""
    if isinstance(entry, UserEntry):
        return {"role": "user", "content": entry.text}
    if isinstance(entry, ToolResultEntry):
        return {"role": "tool", "tool_call_id": entry.call_id, "content": entry.content}
    return _assistant(entry, thinking)


def wire_messages(system_prompt: str, entries: Iterable[HistoryEntry], thinking: Thinking = "strip",
                  *, loop_reasoning: bool = False) -> list[dict[str, Any]]:
    """The `messages` of one request: the system prompt, then every entry still in the context.
    `loop_reasoning`: the current tool loop's answers carry their reasoning whatever `thinking` says."""
    kept = [e for e in entries if not e.compacted]
    loop = current_loop_start(kept) if loop_reasoning and thinking == "strip" else len(kept)
    return [system_message(system_prompt)] + [
        wire_message(e, "preserve" if i >= loop else thinking) for i, e in enumerate(kept)
    ]


def current_loop_start(entries: list[HistoryEntry]) -> int:
    """Where the current tool loop begins: just after the last prompt (the answers and results since)."""
    for i in range(len(entries) - 1, -1, -1):
        entry = entries[i]
        if isinstance(entry, UserEntry) and entry.kind == "prompt":
            return i + 1
    return 0


def request_messages(request: ChatRequest, protocol: str = "openai") -> list[dict[str, Any]]:
    loop = needs_loop_reasoning(protocol, request.model) and not (protocol == "deepseek" and request.thinking == "strip")
    return wire_messages(request.system_prompt, request.entries, request.thinking, loop_reasoning=loop)
