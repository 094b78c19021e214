"""Turn a Messages stream's SSE events into provider events (pure: no I/O, no clock).

The events: `message_start` (the prompt's usage), `content_block_start` / `_delta` / `_stop`
for each block (`text` with `text_delta`, `thinking` with `thinking_delta` and
`signature_delta`, `redacted_thinking` whole at its start, `tool_use` with `input_json_delta`
pieces), `message_delta` (`stop_reason`, the answer's usage), `message_stop`, `ping` and
`error`. Unknown events and block types are skipped: a vendor's extension costs nothing.

The bounds and the malformed-chunk policy are the Chat assembler's (`stream_policy`). Usage
follows the one contract: the prompt is input + cache read + cache creation, the cached part
is the cache read. A stream that ends before `message_stop` (or at least a stop reason) was cut.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mrsmith_tui.history import AssistantBlock, ReasoningBlock, RedactedThinkingBlock, TextBlock, ToolCallBlock
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.provider.assemble import estimate_prompt_tokens, estimate_tokens
from mrsmith_tui.provider.server_errors import context_exceeded, error_text, whole_number
from mrsmith_tui.provider.stream_policy import StreamPolicy, tail_of
from mrsmith_tui.provider.types import (
    MAX_ARGUMENT_CHARS,
    ChatRequest,
    StreamDone,
    StreamEvent,
    StreamReasoning,
    StreamText,
    StreamToolCall,
    ToolCall,
)
from mrsmith_tui.provider.wire_json import valid_arguments

__all__ = ["MessagesAssembler", "messages_usage"]


@dataclass
class _Block:
    kind: str  # "text", "thinking", "redacted_thinking", "tool_use"
    parts: list[str] = field(default_factory=list)  # text, thinking, or a tool's argument pieces
    signature: list[str] = field(default_factory=list)
    data: str = ""  # redacted thinking
    id: str = ""
    name: str = ""
    size: int = 0  # a tool's argument characters, kept or not
    slot: int = 0  # a tool's number among the answer's calls
    stopped: bool = False  # its content_block_stop came: a later delta for it is not the answer's


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def messages_usage(usage: dict[str, Any]) -> UsageInfo:
    read = whole_number(usage.get("cache_read_input_tokens"))
    created = whole_number(usage.get("cache_creation_input_tokens"))
    return UsageInfo(
        prompt_tokens=whole_number(usage.get("input_tokens")) + read + created,
        completion_tokens=whole_number(usage.get("output_tokens")),
        cached_tokens=read,
        cache_reported="cache_read_input_tokens" in usage,
    )


class MessagesAssembler:
    def __init__(self, provider_name: str, request: ChatRequest | None = None) -> None:
        self.provider_name = provider_name
        self.request = request
        self.policy = StreamPolicy(provider_name, lambda: (self.content, self.reasoning))
        self._blocks: dict[int, _Block] = {}
        self._order: list[int] = []
        self._calls = 0
        self._usage: dict[str, Any] = {}
        self._stop_reason: str | None = None
        self.saw_stop = False

    @property
    def content(self) -> str:
        return "".join("".join(b.parts) for b in self._ordered() if b.kind == "text")

    @property
    def reasoning(self) -> str:
        return "".join("".join(b.parts) for b in self._ordered() if b.kind == "thinking")

    @property
    def started(self) -> bool:
        return bool(self._blocks)

    @property
    def skipped_chunks(self) -> int:
        return self.policy.skipped_chunks

    def _ordered(self) -> list[_Block]:
        return [self._blocks[i] for i in self._order]

    def feed_data(self, data: str, event: str = "message") -> list[StreamEvent]:
        if data.strip() == "[DONE]":  # a gateway's Chat habit at the end of a Messages stream: nothing to read
            return []
        chunk, skipped = self.policy.parse(data)
        if chunk is None:
            return skipped
        return self.feed(chunk, event)

    def feed(self, chunk: dict[str, Any], event: str = "message") -> list[StreamEvent]:
        kind = _str(chunk.get("type")) or (event if event != "message" else "")  # "message": SSE's default name
        if kind == "error" or (event == "error" and "error" in chunk):
            self._raise(chunk)
        if kind == "message" or (not kind and "content" in chunk and "role" in chunk):
            # a server that ignored `stream: true`: the whole answer at once (an event of no known type is not one)
            return self._whole(chunk)
        if kind == "message_start":
            message = _dict(chunk.get("message"))
            self._usage.update(_dict(message.get("usage")))
        elif kind == "content_block_start":
            return self._start(whole_number(chunk.get("index")), _dict(chunk.get("content_block")))
        elif kind == "content_block_delta":
            return self._delta(whole_number(chunk.get("index")), _dict(chunk.get("delta")))
        elif kind == "message_delta":
            reason = _dict(chunk.get("delta")).get("stop_reason")
            if isinstance(reason, str):
                self._stop_reason = reason
            self._usage.update({k: v for k, v in _dict(chunk.get("usage")).items() if v is not None})
        elif kind == "content_block_stop":
            stopped = self._blocks.get(whole_number(chunk.get("index")))
            if stopped is not None:
                stopped.stopped = True
        elif kind == "message_stop":
            self.saw_stop = True
        return []  # ping and events this mrsmith does not know

    def _raise(self, chunk: dict[str, Any]) -> None:
        payload = _dict(chunk.get("error")) or chunk
        exceeded, limit = context_exceeded(chunk)
        error = self.policy.error(f"provider '{self.provider_name}' sent an error: {error_text(payload)}")
        error.context_exceeded, error.context_limit = exceeded, limit
        error.retryable = payload.get("type") == "overloaded_error"
        raise error

    def _start(self, index: int, block: dict[str, Any]) -> list[StreamEvent]:
        kind = _str(block.get("type"))
        if kind not in ("text", "thinking", "redacted_thinking", "tool_use") or index in self._blocks:
            return []  # an unknown block type (or a start seen twice) is skipped
        b = _Block(kind)
        self._blocks[index] = b
        self._order.append(index)
        out: list[StreamEvent] = []
        if kind == "redacted_thinking":
            b.data = _str(block.get("data"))
            self.policy.grow(len(b.data))
        elif kind == "tool_use":
            b.id, b.name, b.slot = _str(block.get("id")), _str(block.get("name")), self._calls
            self._calls += 1
            given = block.get("input")
            if isinstance(given, dict) and given:  # sent whole at the start (some gateways)
                self._arguments(b, json.dumps(given))
            out.append(StreamToolCall(index=b.slot, name=b.name, arguments_chars=b.size, arguments_tail=tail_of(b.parts)))
        else:
            text = _str(block.get("text" if kind == "text" else "thinking"))
            if text:
                out += self._text(b, text)
            if kind == "thinking" and _str(block.get("signature")):
                b.signature.append(_str(block.get("signature")))
        return out

    def _delta(self, index: int, delta: dict[str, Any]) -> list[StreamEvent]:
        b = self._blocks.get(index)
        if b is None or b.stopped:
            return []  # a block never started (or an unknown type's), or one already stopped
        kind = _str(delta.get("type"))
        if kind == "text_delta" and b.kind == "text":
            return self._text(b, _str(delta.get("text")))
        if kind == "thinking_delta" and b.kind == "thinking":
            return self._text(b, _str(delta.get("thinking")))
        if kind == "signature_delta" and b.kind == "thinking":
            piece = _str(delta.get("signature"))
            self.policy.grow(len(piece))
            b.signature.append(piece)
        elif kind == "input_json_delta" and b.kind == "tool_use":
            self._arguments(b, _str(delta.get("partial_json")))
            return [StreamToolCall(index=b.slot, name=b.name, arguments_chars=b.size, arguments_tail=tail_of(b.parts))]
        return []

    def _text(self, b: _Block, text: str) -> list[StreamEvent]:
        if not text:
            return []
        self.policy.grow(len(text))
        b.parts.append(text)
        return [StreamText(text) if b.kind == "text" else StreamReasoning(text)]

    def _arguments(self, b: _Block, piece: str) -> None:
        b.size += len(piece)
        self.policy.grow(len(piece))
        if b.size <= MAX_ARGUMENT_CHARS:
            b.parts.append(piece)
        else:
            b.parts = []  # refused when the call comes to run; nothing more is held

    def _whole(self, message: dict[str, Any]) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        self._usage.update(_dict(message.get("usage")))
        content = message.get("content")
        for i, block in enumerate(content if isinstance(content, list) else ()):
            if not isinstance(block, dict):
                continue
            block_type = block.get("type")
            start = {**block, "text": "", "thinking": "", "signature": "", "input": {}} if block_type != "redacted_thinking" else block
            out += self._start(i, start)
            if block_type == "text":
                out += self._delta(i, {"type": "text_delta", "text": block.get("text")})
            elif block_type == "thinking":
                out += self._delta(i, {"type": "thinking_delta", "thinking": block.get("thinking")})
                self._delta(i, {"type": "signature_delta", "signature": block.get("signature")})
            elif block_type == "tool_use":
                arguments = block.get("input")
                out += self._delta(i, {"type": "input_json_delta", "partial_json": json.dumps(arguments if isinstance(arguments, dict) else {})})
        reason = message.get("stop_reason")
        self._stop_reason = reason if isinstance(reason, str) else None
        self.saw_stop = True
        return out

    def finish(self) -> StreamDone:
        if not self.saw_stop and self._stop_reason is None:  # a stop reason without message_stop: finished, leniently
            raise self.policy.error(f"provider '{self.provider_name}' stream was cut mid-way (no message_stop)")
        blocks: list[AssistantBlock] = []
        calls: list[ToolCall] = []
        for b in self._ordered():
            if b.kind == "text" and b.parts:
                blocks.append(TextBlock(text="".join(b.parts)))
            elif b.kind == "thinking" and (b.parts or b.signature):
                blocks.append(ReasoningBlock(text="".join(b.parts), signature="".join(b.signature)))
            elif b.kind == "redacted_thinking":
                blocks.append(RedactedThinkingBlock(data=b.data))
            elif b.kind == "tool_use":
                call_id = b.id or f"toolu_{b.slot}"
                if b.size > MAX_ARGUMENT_CHARS:
                    call = ToolCall(id=call_id, name=b.name, arguments="{}", too_large=b.size)
                else:
                    call = ToolCall(id=call_id, name=b.name, arguments=valid_arguments("".join(b.parts) or "{}"))
                calls.append(call)
                blocks.append(ToolCallBlock(id=call.id, name=call.name, arguments=call.arguments))
        return StreamDone(content=self.content, reasoning=self.reasoning, tool_calls=tuple(calls),
                          finish_reason=self._stop_reason, usage=self._final_usage(calls), blocks=tuple(blocks))

    def _final_usage(self, calls: list[ToolCall]) -> UsageInfo:
        if "input_tokens" in self._usage or "output_tokens" in self._usage:
            return messages_usage(self._usage)
        out_chars = len(self.content) + len(self.reasoning) + sum(len(c.name) + len(c.arguments) for c in calls)
        return UsageInfo(prompt_tokens=estimate_prompt_tokens(self.request) if self.request else 0,
                         completion_tokens=estimate_tokens(out_chars), estimated=True)
