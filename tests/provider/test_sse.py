"""SSE parser: the event-stream rules, whatever the network chunk boundaries."""

from __future__ import annotations

import pytest

from mrsmith_tui.provider.sse import SSEEvent, SSEParser


def parse(chunks: list[bytes]) -> list[SSEEvent]:
    parser = SSEParser()
    events: list[SSEEvent] = []
    for c in chunks:
        events += parser.feed(c)
    return events + parser.close()


def every_split(data: bytes) -> list[list[bytes]]:
    """The stream in one piece, cut at every offset, and one byte at a time."""
    splits = [[data], [bytes([b]) for b in data]]
    splits += [[data[:i], data[i:]] for i in range(1, len(data))]
    return splits


STREAM = (
    ": OPENROUTER PROCESSING\r\n\r\n"
    'data: {"a": "héllo – 世界 🎉"}\r\n\r\n'
    ": ping\n"
    "event: error\n"
    'data: {"error": 1}\n\n'
    "data: line one\r"
    "data: line two\r\r"
    "id: 7\n"
    "data:no-space\n\n"
    "data: [DONE]\n\n"
).encode()

EXPECTED = [
    SSEEvent('{"a": "héllo – 世界 🎉"}'),
    SSEEvent('{"error": 1}', event="error"),
    SSEEvent("line one\nline two"),
    SSEEvent("no-space", id="7"),
    SSEEvent("[DONE]", id="7"),
]


def test_mixed_stream_parses_per_spec():
    assert parse([STREAM]) == EXPECTED


def test_identical_events_at_every_split_offset():
    for chunks in every_split(STREAM):
        assert parse(chunks) == EXPECTED, [c[:20] for c in chunks]


def test_crlf_split_between_cr_and_lf_is_one_line_end():
    # If the LF after a chunk-final CR counted as a second line end, the event would fire early.
    events = parse([b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"])
    assert events == [SSEEvent("a\nb")]


def test_utf8_split_inside_a_character():
    data = "data: 🎉\n\n".encode()
    cut = data.index(b"\xf0") + 2
    assert parse([data[:cut], data[cut:]]) == [SSEEvent("🎉")]


def test_comments_only_produce_nothing():
    assert parse([b": ping\n\n: ping\r\n\r\n:\n\n"]) == []


def test_event_type_resets_after_dispatch():
    events = parse([b"event: error\ndata: x\n\ndata: y\n\n"])
    assert [e.event for e in events] == ["error", "message"]


def test_missing_final_blank_line_still_delivers_last_event():
    assert parse([b"data: 1\n\ndata: 2"]) == [SSEEvent("1"), SSEEvent("2")]


def test_leading_bom_is_ignored():
    assert parse(["\ufeffdata: x\n\n".encode()]) == [SSEEvent("x")]


@pytest.mark.parametrize("line,value", [("data: x", "x"), ("data:  x", " x"), ("data:", ""), ("data", "")])
def test_single_leading_space_is_stripped(line, value):
    events = parse([f"{line}\ndata: end\n\n".encode()])
    assert events == [SSEEvent(f"{value}\nend")]


def test_unknown_fields_and_retry_are_ignored():
    assert parse([b"retry: 100\nfoo: bar\ndata: x\n\n"]) == [SSEEvent("x")]
