"""Coalesced deltas: text held back is posted when the model pauses, not only at the block's end."""

from __future__ import annotations

import time

from mrsmith_tui import msgs
from mrsmith_tui.core.ids import IdSource
from mrsmith_tui.core.stream import BlockStream


def test_text_held_back_is_posted_when_the_stream_pauses():
    sink = msgs.ListSink()
    blocks = BlockStream(sink, IdSource(), interval=0.05)
    blocks.add("text", "Hello")  # posted at once (first delta of a block)
    blocks.add("text", " world")  # within the interval: held back
    assert "".join(m.text for m in sink.of(msgs.TextDelta)) == "Hello"
    deadline = time.monotonic() + 60  # a safety net, not a budget
    while time.monotonic() < deadline and "".join(m.text for m in sink.of(msgs.TextDelta)) != "Hello world":
        time.sleep(0.01)
    assert "".join(m.text for m in sink.of(msgs.TextDelta)) == "Hello world"
    blocks.end()
    assert sink.of(msgs.BlockEnded)[0].text == "Hello world"
    assert blocks.content == "Hello world"


def test_many_fast_deltas_are_coalesced_and_complete():
    sink = msgs.ListSink()
    blocks = BlockStream(sink, IdSource(), interval=10)
    for i in range(1000):
        blocks.add("reasoning", str(i % 10))
    blocks.end()
    deltas = sink.of(msgs.ReasoningDelta)
    assert len(deltas) <= 2
    assert "".join(d.text for d in deltas) == "".join(str(i % 10) for i in range(1000))
