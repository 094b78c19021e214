"""A Messages mode for the loopback server (tests/loopback.py): Anthropic-style SSE over a real socket.

Each scripted answer is a list of SSE events written with their `event:` line and no `[DONE]`;
the builders below make every event and block type of the Messages stream.

    with MessagesServer([text_answer("hello", thinking="hmm", signature="sig")]) as srv:
        run(base_url=srv.base_url)          # http://127.0.0.1:PORT (no /v1: the wire adds it)
        srv.requests[0]["messages"], srv.paths[0] == "/v1/messages"
"""

from __future__ import annotations

import json
from typing import Any

from loopback import LoopbackServer, Turn


def sse(event: str, payload: dict[str, Any] | None = None) -> str:
    data = {"type": event, **(payload or {})}
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def message_start(input_tokens: int = 10, *, cache_read: int | None = 0, cache_creation: int = 0,
                  model: str = "claude-test") -> str:
    usage: dict[str, Any] = {"input_tokens": input_tokens, "output_tokens": 1}
    if cache_read is not None:
        usage |= {"cache_read_input_tokens": cache_read, "cache_creation_input_tokens": cache_creation}
    return sse("message_start", {"message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [],
                                             "model": model, "stop_reason": None, "usage": usage}})


def block_start(index: int, block: dict[str, Any]) -> str:
    return sse("content_block_start", {"index": index, "content_block": block})


def delta(index: int, body: dict[str, Any]) -> str:
    return sse("content_block_delta", {"index": index, "delta": body})


def block_stop(index: int) -> str:
    return sse("content_block_stop", {"index": index})


def message_end(stop_reason: str = "end_turn", output_tokens: int = 5) -> list[str]:
    return [sse("message_delta", {"delta": {"stop_reason": stop_reason, "stop_sequence": None},
                                  "usage": {"output_tokens": output_tokens}}), sse("message_stop")]


def ping() -> str:
    return sse("ping")


def error_event(kind: str = "api_error", message: str = "something broke") -> str:
    return sse("error", {"error": {"type": kind, "message": message}})


def thinking_blocks(index: int, thinking: str, signature: str) -> list[str]:
    half = len(thinking) // 2
    return [block_start(index, {"type": "thinking", "thinking": "", "signature": ""}),
            delta(index, {"type": "thinking_delta", "thinking": thinking[:half]}),
            delta(index, {"type": "thinking_delta", "thinking": thinking[half:]}),
            delta(index, {"type": "signature_delta", "signature": signature}),
            block_stop(index)]


def text_blocks(index: int, text: str, pieces: int = 3) -> list[str]:
    step = max(1, len(text) // pieces)
    out = [block_start(index, {"type": "text", "text": ""})]
    out += [delta(index, {"type": "text_delta", "text": text[i:i + step]}) for i in range(0, len(text), step)]
    return out + [block_stop(index)]


def tool_blocks(index: int, name: str, arguments: dict[str, Any], call_id: str = "toolu_1") -> list[str]:
    """A tool_use whose arguments arrive as input_json_delta pieces cut mid-token."""
    text = json.dumps(arguments)
    cut = max(1, len(text) // 2 + 1)  # inside a string or a key, not at a token boundary
    return [block_start(index, {"type": "tool_use", "id": call_id, "name": name, "input": {}}),
            delta(index, {"type": "input_json_delta", "partial_json": ""}),
            delta(index, {"type": "input_json_delta", "partial_json": text[:cut]}),
            delta(index, {"type": "input_json_delta", "partial_json": text[cut:]}),
            block_stop(index)]


def answer(*blocks: list[str], stop: str = "end_turn", usage: dict[str, Any] | None = None,
           output_tokens: int = 5) -> Turn:
    events: list[dict[str, Any] | str] = [message_start(**(usage or {})), ping()]
    for group in blocks:
        events += group
    events += message_end(stop, output_tokens)
    return Turn(events=events, done=False)


def text_answer(text: str, *, thinking: str = "", signature: str = "", stop: str = "end_turn",
                usage: dict[str, Any] | None = None) -> Turn:
    groups = [thinking_blocks(0, thinking, signature)] if thinking else []
    groups.append(text_blocks(len(groups), text))
    return answer(*groups, stop=stop, usage=usage)


def tool_answer(name: str, arguments: dict[str, Any], *, thinking: str = "", signature: str = "",
                call_id: str = "toolu_1", text: str = "") -> Turn:
    groups = [thinking_blocks(0, thinking, signature)] if thinking else []
    if text:
        groups.append(text_blocks(len(groups), text))
    groups.append(tool_blocks(len(groups), name, arguments, call_id))
    return answer(*groups, stop="tool_use")


class MessagesServer(LoopbackServer):
    """The loopback server in Messages mode: its base URL is the host alone, as vendors document theirs."""

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _next_turn(self, body: dict[str, Any], headers: dict[str, str]) -> Turn:
        with self._lock:
            if not self.turns and self.responder is None:
                n = len(self.requests)
                self.requests.append(body)
                self.headers.append(headers)
                return text_answer(f"(no more scripted turns: request {n})")
        return super()._next_turn(body, headers)
