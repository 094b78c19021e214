"""A hostile or broken server cannot make parsing quadratic or memory unbounded."""

from __future__ import annotations

import json

import pytest

from mrsmith_tui.provider import assemble as assemble_mod
from mrsmith_tui.provider import sse as sse_mod
from mrsmith_tui.provider import stream_policy
from mrsmith_tui.provider.assemble import TAIL_CHARS, StreamAssembler
from mrsmith_tui.provider.sse import SSELineTooLong, SSEParser
from mrsmith_tui.provider.types import ProviderError, StreamToolCall


def _chunk(delta):
    return json.dumps({"choices": [{"index": 0, "delta": delta, "finish_reason": None}]})


def test_a_long_line_in_many_chunks_is_scanned_once(monkeypatch) -> None:
    scanned: list[int] = []
    cut = sse_mod._lines

    def counting(text: str) -> list[str]:
        scanned.append(len(text))
        return cut(text)

    monkeypatch.setattr(sse_mod, "_lines", counting)
    parser = SSEParser()
    line = "data: " + "x" * 20_000 + "\r\n\n"
    events = []
    for i in range(0, len(line), 10):
        events += parser.feed(line[i : i + 10].encode())
    assert [e.data for e in events] == ["x" * 20_000]
    assert sum(scanned) == len(line)  # each character looked at once, not once per chunk


def test_a_line_past_the_cap_stops_the_parser() -> None:
    parser = SSEParser(max_line=1000)
    parser.feed(b"data: " + b"y" * 900)
    with pytest.raises(SSELineTooLong):
        parser.feed(b"y" * 200)


def test_a_growing_call_reports_its_size_and_a_bounded_tail() -> None:
    asm = StreamAssembler("p")
    events = asm.feed_data(_chunk({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "w", "arguments": ""}}]}))
    for _ in range(5000):
        events += asm.feed_data(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": "ab"}}]}))
    last = [e for e in events if isinstance(e, StreamToolCall)][-1]
    assert last.arguments_chars == 10_000 and last.arguments_tail == "ab" * (TAIL_CHARS // 2)


def test_arguments_past_the_cap_are_dropped_and_the_call_marked(monkeypatch) -> None:
    monkeypatch.setattr(assemble_mod, "MAX_ARGUMENT_CHARS", 100)
    asm = StreamAssembler("p")
    asm.feed_data(_chunk({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "w", "arguments": "{\"a\": \""}}]}))
    for _ in range(50):
        asm.feed_data(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": "0123456789"}}]}))
    (call,) = asm.finish().tool_calls
    assert call.too_large == 507 and call.arguments == "{}"


def test_an_answer_past_the_cap_ends_the_stream(monkeypatch) -> None:
    monkeypatch.setattr(stream_policy, "MAX_ANSWER_CHARS", 1000)
    asm = StreamAssembler("p")
    with pytest.raises(ProviderError) as info:
        for _ in range(200):
            asm.feed_data(_chunk({"content": "0123456789"}))
    assert "stopped reading it" in str(info.value)
