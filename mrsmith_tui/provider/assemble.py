"""Turn streamed chat-completion chunks into provider events (pure: no I/O, no clock).

Every OpenAI-compatible server speaks a slightly different dialect; this module is where
the differences end:

- reasoning arrives as `reasoning_content` (DeepSeek, vLLM, llama.cpp, GLM, Kimi),
  `reasoning` (OpenRouter, Ollama, Groq), `reasoning_details[].text` (OpenRouter), a list
  of `thinking` content parts (Mistral Magistral) or a leading `<think>…</think>` in the
  content (models served raw);
- tool calls come as fragments keyed by `index`, sometimes without one, sometimes whole,
  sometimes with the arguments as an object;
- usage comes on a final chunk with empty `choices`, on the last choice chunk, under
  `x_groq`, or not at all (then it is estimated at about four characters a token).

Sizes are bounded: one call's arguments past MAX_ARGUMENT_CHARS are dropped and the call is
marked `too_large` (the conversation refuses it with its size), and a whole answer past
MAX_ANSWER_CHARS ends the stream with a ProviderError.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mrsmith_tui.history import ToolCallBlock, assistant
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.provider.chat_wire import request_messages
from mrsmith_tui.provider.server_errors import context_exceeded, error_text, whole_number
from mrsmith_tui.provider.stream_policy import MAX_BAD_CHUNKS, TAIL_CHARS, StreamPolicy, tail_of
from mrsmith_tui.provider.types import (
    MAX_ARGUMENT_CHARS,
    ChatRequest,
    ProviderError,
    StreamDone,
    StreamEvent,
    StreamReasoning,
    StreamText,
    StreamToolCall,
    ToolCall,
)
from mrsmith_tui.provider.wire_json import valid_arguments

__all__ = ["MAX_BAD_CHUNKS", "TAIL_CHARS", "StreamAssembler", "estimate_prompt_tokens", "estimate_tokens", "parse_usage"]

_THINK_OPEN = "<think>"
_THINK_CLOSE = "</think>"
CHARS_PER_TOKEN = 4


def estimate_tokens(chars: int) -> int:
    return (chars + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def estimate_prompt_tokens(request: ChatRequest) -> int:
    """About four characters a token over everything the request sends as text."""
    size = len(json.dumps(request.tools)) if request.tools else 0
    for message in request_messages(request):
        content = message.get("content")
        if isinstance(content, str):
            size += len(content)
        elif content is not None:
            size += len(json.dumps(content))
        for call in message.get("tool_calls") or ():
            size += len(json.dumps(call))
    return estimate_tokens(size)


@dataclass
class _PendingCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)
    size: int = 0  # characters of arguments received, kept or not

    def tail(self) -> str:
        return tail_of(self.arguments)


class _ThinkSplitter:
    """Splits a leading `<think>…</think>` off the content, whatever the piece boundaries."""

    def __init__(self) -> None:
        self._state = "undecided"  # -> "thinking" -> "after" -> "content"; or straight to "content"
        self._held = ""

    def feed(self, text: str) -> list[StreamEvent]:
        if self._state == "content":  # decided: every later piece is answer text (the short way, per chunk)
            return [StreamText(text)] if text else []
        out: list[StreamEvent] = []
        self._held += text
        while self._held:
            if self._state == "content":
                out.append(StreamText(self._held))
                self._held = ""
            elif self._state == "undecided":
                stripped = self._held.lstrip()
                if stripped.startswith(_THINK_OPEN):
                    self._state, self._held = "thinking", stripped[len(_THINK_OPEN) :]
                elif _THINK_OPEN.startswith(stripped):
                    break  # still could become "<think>": wait for more
                else:
                    self._state = "content"
            elif self._state == "thinking":
                end = self._held.find(_THINK_CLOSE)
                if end >= 0:
                    if end:
                        out.append(StreamReasoning(self._held[:end]))
                    self._state, self._held = "after", self._held[end + len(_THINK_CLOSE) :]
                else:
                    keep = _partial_suffix(self._held, _THINK_CLOSE)
                    emit = self._held[: len(self._held) - keep]
                    if emit:
                        out.append(StreamReasoning(emit))
                    self._held = self._held[len(emit) :]
                    break
            else:  # "after": drop the blank lines between the thinking and the answer
                self._held = self._held.lstrip()
                if self._held:
                    self._state = "content"
        return out

    def finish(self) -> list[StreamEvent]:
        held, self._held = self._held, ""
        if not held:
            return []
        if self._state == "thinking":
            return [StreamReasoning(held)]  # never closed: it was all thinking
        if self._state == "undecided":
            return [StreamText(held)]
        return []


def _partial_suffix(text: str, tag: str) -> int:
    """Length of the longest end of `text` that is a beginning of `tag`."""
    for n in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:n]):
            return n
    return 0


def _dict(value: Any) -> dict[str, Any]:
    """`value` when the server sent an object there, else an empty one (a chunk of the wrong shape is read, not fatal)."""
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def parse_usage(usage: dict[str, Any]) -> UsageInfo:
    prompt_details = _dict(usage.get("prompt_tokens_details"))
    completion_details = _dict(usage.get("completion_tokens_details"))
    cached = whole_number(prompt_details.get("cached_tokens")) or whole_number(usage.get("prompt_cache_hit_tokens"))
    reported = "cached_tokens" in prompt_details or "prompt_cache_hit_tokens" in usage  # DeepSeek: prompt_cache_hit_tokens
    return UsageInfo(
        prompt_tokens=whole_number(usage.get("prompt_tokens")),
        completion_tokens=whole_number(usage.get("completion_tokens")),
        cached_tokens=cached,
        reasoning_tokens=whole_number(completion_details.get("reasoning_tokens")),
        cache_reported=reported,
    )


class StreamAssembler:
    """Feed it SSE data payloads (or parsed chunks); collect events; `finish()` gives StreamDone."""

    def __init__(self, provider_name: str, request: ChatRequest | None = None) -> None:
        self.provider_name = provider_name
        self.request = request
        self.saw_done = False  # the `data: [DONE]` sentinel arrived
        self._content: list[str] = []
        self._reasoning: list[str] = []
        self._calls: list[_PendingCall] = []
        self.policy = StreamPolicy(provider_name, lambda: (self.content, self.reasoning))
        self._index_to_slot: dict[int, int] = {}
        self._finish_reason: str | None = None
        self._usage: UsageInfo | None = None
        self._think = _ThinkSplitter()

    @property
    def content(self) -> str:
        return "".join(self._content)

    @property
    def reasoning(self) -> str:
        return "".join(self._reasoning)

    @property
    def started(self) -> bool:
        return bool(self.policy.answer_chars or self._calls)

    @property
    def skipped_chunks(self) -> int:
        return self.policy.skipped_chunks

    def feed_data(self, data: str, event: str = "message") -> list[StreamEvent]:
        """One SSE event's data. A malformed chunk is skipped (a StreamNotice says so); raises
        ProviderError on an error object or after MAX_BAD_CHUNKS malformed chunks in a row."""
        if data.strip() == "[DONE]":
            self.saw_done = True
            return []
        chunk, skipped = self.policy.parse(data)
        if chunk is None:
            return skipped
        if event == "error" and "error" not in chunk:
            chunk = {"error": chunk}
        return self.feed(chunk)

    def feed(self, chunk: dict[str, Any]) -> list[StreamEvent]:
        # Mid-stream error objects: OpenAI/llama.cpp {"error": {...}}, vLLM {"object": "error", "message": ...},
        # Anthropic-style {"type": "error", "error": {...}}.
        if chunk.get("error") or chunk.get("object") == "error" or chunk.get("type") == "error":
            payload = chunk.get("error") or chunk
            exceeded, limit = context_exceeded(chunk)
            error = self._error(f"provider '{self.provider_name}' sent an error: {error_text(payload)}")
            error.context_exceeded, error.context_limit = exceeded, limit
            raise error
        usage = chunk.get("usage") or _dict(chunk.get("x_groq")).get("usage")
        if isinstance(usage, dict):
            self._usage = parse_usage(usage)
        out: list[StreamEvent] = []
        for choice in chunk.get("choices") or ():
            if not isinstance(choice, dict) or whole_number(choice.get("index")) != 0:
                continue  # only the first choice is ever asked for (n = 1)
            delta = choice.get("delta") or choice.get("message") or {}
            if isinstance(delta, dict):
                self._delta(delta, out)
            if choice.get("finish_reason"):
                self._finish_reason = str(choice["finish_reason"])
        return out

    def finish(self) -> StreamDone:
        for ev in self._think.finish():
            self._record(ev, [])
        calls = tuple(
            ToolCall(id=c.id or f"call_{i}", name=c.name, arguments="{}", too_large=c.size)
            if c.size > MAX_ARGUMENT_CHARS
            else ToolCall(id=c.id or f"call_{i}", name=c.name, arguments=valid_arguments("".join(c.arguments)))
            for i, c in enumerate(self._calls)
        )
        blocks = assistant(self.content, self.reasoning,
                           tool_calls=tuple(ToolCallBlock(id=c.id, name=c.name, arguments=c.arguments) for c in calls))
        return StreamDone(
            content=self.content,
            reasoning=self.reasoning,
            tool_calls=calls,
            finish_reason=self._finish_reason,
            usage=self._usage if self._usage is not None else self._estimate(calls),
            blocks=blocks.blocks,
        )

    def _error(self, message: str) -> ProviderError:
        return self.policy.error(message)

    def _estimate(self, calls: tuple[ToolCall, ...]) -> UsageInfo:
        out_chars = len(self.content) + len(self.reasoning) + sum(len(c.name) + len(c.arguments) for c in calls)
        return UsageInfo(
            prompt_tokens=estimate_prompt_tokens(self.request) if self.request else 0,
            completion_tokens=estimate_tokens(out_chars),
            estimated=True,
        )

    def _record(self, ev: StreamEvent, out: list[StreamEvent]) -> None:
        if isinstance(ev, StreamText):
            self._grow(len(ev.text))
            self._content.append(ev.text)
        elif isinstance(ev, StreamReasoning):
            self._grow(len(ev.text))
            self._reasoning.append(ev.text)
        out.append(ev)

    def _delta(self, delta: dict[str, Any], out: list[StreamEvent]) -> None:
        reasoning = _reasoning_of(delta)
        if reasoning:
            self._record(StreamReasoning(reasoning), out)
        refusal = delta.get("refusal")  # OpenAI: the model declined; its words are the answer
        if isinstance(refusal, str) and refusal:
            self._record(StreamText(refusal), out)
        content = delta.get("content")
        if isinstance(content, list):  # Mistral: typed content parts
            for part in content:
                kind = part.get("type") if isinstance(part, dict) else None
                if kind == "thinking":
                    text = _text_of(part.get("thinking"))
                    if text:
                        self._record(StreamReasoning(text), out)
                elif kind == "text":
                    content_text = _text_of(part.get("text"))
                    for ev in self._think.feed(content_text):
                        self._record(ev, out)
        elif isinstance(content, str) and content:
            for ev in self._think.feed(content):
                self._record(ev, out)
        for fragment in delta.get("tool_calls") or ():
            if isinstance(fragment, dict):
                self._tool_fragment(fragment, out)

    def _tool_fragment(self, fragment: dict[str, Any], out: list[StreamEvent]) -> None:
        function = _dict(fragment.get("function"))
        call_id = _str(fragment.get("id"))
        name = _str(function.get("name"))
        slot = self._slot_for(fragment.get("index"), call_id, name)
        call = self._calls[slot]
        if call_id and not call.id:
            call.id = call_id
        if name and not call.name:
            call.name = name
        arguments = function.get("arguments")
        if isinstance(arguments, (dict, list)):
            whole = json.dumps(arguments)  # sent as an object: always whole
            call.arguments, call.size = [whole], len(whole)
            self._grow(len(whole))
        elif isinstance(arguments, str):
            call.size += len(arguments)
            self._grow(len(arguments))
            if call.size <= MAX_ARGUMENT_CHARS:
                call.arguments.append(arguments)
            else:
                call.arguments = []  # refused when the call comes to run; nothing more is held
        out.append(StreamToolCall(index=slot, name=call.name, arguments_chars=call.size, arguments_tail=call.tail()))

    def _grow(self, chars: int) -> None:
        self.policy.grow(chars)

    def _slot_for(self, index: Any, call_id: str, name: str) -> int:
        """Which call a fragment belongs to (a slot in self._calls)."""
        if isinstance(index, int) and not isinstance(index, bool):
            slot = self._index_to_slot.get(index)
            if slot is not None:
                existing = self._calls[slot]
                # Some servers give every call index 0; a new id with a name is a new call.
                if not (call_id and name and existing.id and call_id != existing.id):
                    return slot
            self._calls.append(_PendingCall())
            self._index_to_slot[index] = len(self._calls) - 1
            return len(self._calls) - 1
        # No index: match by id, else continue the last call, else start one.
        for slot, existing in enumerate(self._calls):
            if call_id and existing.id == call_id:
                return slot
        if self._calls and not (call_id or name):
            return len(self._calls) - 1
        self._calls.append(_PendingCall())
        return len(self._calls) - 1


def _reasoning_of(delta: dict[str, Any]) -> str:
    # OpenRouter sends the same text as both `reasoning` and `reasoning_details`: take one.
    for key in ("reasoning_content", "reasoning"):
        value = delta.get(key)
        if isinstance(value, str) and value:
            return value
    details = delta.get("reasoning_details")
    if isinstance(details, list):
        parts = []
        for item in details:
            if isinstance(item, dict):
                text = item.get("text") or item.get("summary")
                if isinstance(text, str):
                    parts.append(text)
        return "".join(parts)
    return ""


def _text_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(_text_of(v.get("text") if isinstance(v, dict) else v) for v in value)
    return ""
