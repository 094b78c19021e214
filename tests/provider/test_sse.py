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


@pytest.mark.parametrize("seed", range(200))
def test_random_streams_cut_at_random_offsets_parse_as_one_piece(seed):
    # Chunks with and without a CR take different line-cutting paths: they must agree wherever the cuts fall.
    import random

    rng = random.Random(seed)
    ends = ["\n", "\r", "\r\n"]
    text = ""
    expected: list[SSEEvent] = []
    for i in range(rng.randrange(1, 8)):
        datas = [f"{i}-{rng.choice(['x', 'é', '🎉', ' y', ''])}{j}" for j in range(rng.randrange(1, 4))]
        if rng.random() < 0.3:
            text += ": ping" + rng.choice(ends)
        text += "".join(f"data: {d}{rng.choice(ends)}" for d in datas)
        text += rng.choice(["\r", "\r\n"] if text.endswith("\r") else ends)  # "\r" + "\n" would be one CRLF
        expected.append(SSEEvent("\n".join(datas)))
    data = text.encode()
    assert parse([data]) == expected
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randrange(1, 6))))
    pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    assert parse(pieces) == expected, pieces
