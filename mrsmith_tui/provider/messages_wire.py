"""The Messages wire (Anthropic's `/v1/messages`): typed history entries to a request body.

The one place the history becomes Messages content blocks, with the rules the wire enforces:

- the system prompt is the top-level `system` field, never a message;
- roles alternate: consecutive user entries (a prompt after tool results, a skill body, the
  budget-spent instruction) merge into one user message, tool results first, as the wire wants
  them right after the answer that called them; consecutive answers merge the same way;
- an answer's blocks go back in the order they came: thinking with its signature and redacted
  thinking byte for byte (signed: never altered), text, `tool_use` with the arguments as an
  object. Unsigned (partial) thinking is never sent; with `thinking: strip` only the current
  tool loop's thinking goes back (the wire needs it before that loop's `tool_use`);
- a request without tools whose history holds tool blocks (a compaction, the budget-spent turn)
  gets them flattened to text, since the wire refuses `tool_use` without tool definitions;
- `max_tokens` is always sent; an effort becomes a thinking budget (low 1024, medium 8k,
  high 32k, max: max_tokens less a reply floor) or, for models that want it, adaptive thinking
  with `output_config.effort`; `cache: active` puts `cache_control` breakpoints on the system
  prompt and the last tool.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from mrsmith_tui.config.vendors import BUDGETS, REPLY_FLOOR, vendor, wants_adaptive
from mrsmith_tui.history import (
    AssistantEntry,
    HistoryEntry,
    ReasoningBlock,
    RedactedThinkingBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultEntry,
    UserEntry,
)
from mrsmith_tui.provider.chat_wire import current_loop_start
from mrsmith_tui.provider.types import ChatRequest

__all__ = ["BUDGETS", "REPLY_FLOOR", "messages_body", "messages_of", "thinking_budget", "tool_spec"]

EPHEMERAL = {"type": "ephemeral"}
_NOT_ID = re.compile(r"[^A-Za-z0-9_-]")  # a tool_use id may hold only these (Chat servers write "functions.x:0")


def thinking_budget(effort: str, max_tokens: int) -> int:
    if effort == "max":
        return max(1024, max_tokens - REPLY_FLOOR)
    return BUDGETS.get(effort, BUDGETS["medium"])


def max_tokens_for(request: ChatRequest, protocol: str) -> int:
    """The `max_tokens` sent: the configured one, else the vendor's, raised to leave room for a thinking budget."""
    if request.max_tokens:
        return request.max_tokens
    default = vendor(protocol).max_tokens or 32_000
    effort = (request.reasoning_effort or "").strip()
    if effort in BUDGETS and not _adaptive(request):
        return max(default, BUDGETS[effort] + REPLY_FLOOR)
    return default


def _adaptive(request: ChatRequest) -> bool:
    if request.thinking_style is not None:
        return request.thinking_style == "adaptive"
    return wants_adaptive(request.model)


def tool_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI `function` tool spec as a Messages tool."""
    fn = spec.get("function") if isinstance(spec.get("function"), dict) else spec
    assert isinstance(fn, dict)
    out: dict[str, Any] = {"name": fn.get("name", "")}
    if fn.get("description"):
        out["description"] = fn["description"]
    out["input_schema"] = fn.get("parameters") or {"type": "object", "properties": {}}
    return out


def messages_body(request: ChatRequest, protocol: str = "anthropic") -> dict[str, Any]:
    max_tokens = max_tokens_for(request, protocol)
    body: dict[str, Any] = {"model": request.model, "max_tokens": max_tokens}
    active = request.cache == "active"
    if request.system_prompt:
        body["system"] = ([{"type": "text", "text": request.system_prompt, "cache_control": EPHEMERAL}]
                          if active else request.system_prompt)
    body["messages"] = messages_of(request.entries, request.thinking, with_tools=bool(request.tools))
    if request.tools:
        tools = [tool_spec(t) for t in request.tools]
        if active:
            tools[-1] = {**tools[-1], "cache_control": EPHEMERAL}
        body["tools"] = tools
    effort = (request.reasoning_effort or "").strip()
    if effort:
        if _adaptive(request):
            body["thinking"] = {"type": "adaptive"}
            body["output_config"] = {"effort": effort}
        else:
            budget = min(thinking_budget(effort, max_tokens), max(1024, max_tokens - 1))
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
    body["stream"] = True
    return body


def messages_of(entries: Iterable[HistoryEntry], thinking: str = "preserve", *, with_tools: bool = True) -> list[dict[str, Any]]:
    kept = [e for e in entries if not e.compacted]
    loop = current_loop_start(kept) if thinking == "strip" else 0
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(kept):
        if isinstance(entry, UserEntry):
            _add(out, "user", [{"type": "text", "text": entry.text if entry.text.strip() else "(empty)"}])
        elif isinstance(entry, ToolResultEntry):
            if with_tools:
                block: dict[str, Any] = {"type": "tool_result", "tool_use_id": _tool_id(entry.call_id),
                                         "content": entry.content}
            else:
                block = {"type": "text", "text": f"[result of {entry.name}]\n{entry.content}"}
            _add(out, "user", [block])
        else:
            content = _answer(entry, keep_thinking=i >= loop and with_tools, with_tools=with_tools)
            if content:
                _add(out, "assistant", content)
    return _paired(out) if with_tools else out


def _paired(out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every `tool_use` answered in the next message and every `tool_result` answering the message before, as
    the wire demands: a result whose call is gone (compacted, or a session cut between the two) becomes text, and
    a call left without its result (a session killed before its tools ran) is told it did not run."""
    for i, message in enumerate(out):
        if message["role"] != "assistant":
            continue
        calls = [b["id"] for b in message["content"] if b["type"] == "tool_use"]
        if calls and (i + 1 == len(out) or out[i + 1]["role"] != "user"):
            out.insert(i + 1, {"role": "user", "content": []})
    for i, message in enumerate(out):
        if message["role"] != "user":
            continue
        before = out[i - 1]["content"] if i and out[i - 1]["role"] == "assistant" else []
        calls = [b["id"] for b in before if b["type"] == "tool_use"]
        results: list[dict[str, Any]] = []
        rest: list[dict[str, Any]] = []
        for b in message["content"]:
            if b["type"] != "tool_result":
                rest.append(b)
            elif b["tool_use_id"] in calls and b["tool_use_id"] not in {r["tool_use_id"] for r in results}:
                results.append(b)
            else:
                rest.append({"type": "text", "text": f"[result of an earlier call]\n{b['content']}"})
        answered = {r["tool_use_id"] for r in results}
        results += [{"type": "tool_result", "tool_use_id": c, "content": "(no result: this call did not run)", "is_error": True}
                    for c in dict.fromkeys(calls) if c not in answered]
        out[i] = {"role": "user", "content": results + rest}
    return out


def _add(out: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    """Append a message, merged into the one before when it has the same role (tool results first)."""
    if out and out[-1]["role"] == role:
        merged = out[-1]["content"] + blocks
        if role == "user":
            merged = [b for b in merged if b["type"] == "tool_result"] + [b for b in merged if b["type"] != "tool_result"]
        out[-1] = {"role": role, "content": merged}
    else:
        out.append({"role": role, "content": blocks})


def _answer(entry: AssistantEntry, *, keep_thinking: bool, with_tools: bool) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for b in entry.blocks:
        if isinstance(b, ReasoningBlock):
            if keep_thinking and b.signature and not entry.partial:  # unsigned thinking never goes back
                blocks.append({"type": "thinking", "thinking": b.text, "signature": b.signature})
        elif isinstance(b, RedactedThinkingBlock):
            if keep_thinking and not entry.partial:
                blocks.append({"type": "redacted_thinking", "data": b.data})
        elif isinstance(b, TextBlock):
            if b.text.strip():  # the wire refuses a text block of whitespace alone
                blocks.append({"type": "text", "text": b.text})
        elif isinstance(b, ToolCallBlock):
            if with_tools:
                blocks.append({"type": "tool_use", "id": _tool_id(b.id), "name": b.name, "input": _input(b.arguments)})
            else:
                blocks.append({"type": "text", "text": f"[called {b.name} with {b.arguments}]"})
    if blocks and all(b["type"] in ("thinking", "redacted_thinking") for b in blocks):
        return []  # thinking alone is no answer the wire takes
    return blocks


def _tool_id(call_id: str) -> str:
    """A call id the wire takes: the same id on both sides of a call, whichever wire wrote it."""
    return _NOT_ID.sub("_", call_id) or "toolu_0"


def _input(arguments: str) -> dict[str, Any]:
    """The arguments as the object `tool_use.input` must be (arguments that do not parse: an empty one;
    the tool result already told the model so)."""
    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
