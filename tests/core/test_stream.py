"""BlockStream: one delta Msg per provider delta, at once; block bookkeeping only."""

from __future__ import annotations

import threading

from mrsmith_tui import msgs
from mrsmith_tui.core.run_ids import IdSource
from mrsmith_tui.core.stream import BlockStream


def test_each_piece_is_posted_at_once_as_its_own_delta():
    sink = msgs.ListSink()
    blocks = BlockStream(sink, IdSource())
    blocks.add("text", "Hello")
    blocks.add("text", " world")
    assert [m.text for m in sink.of(msgs.TextDelta)] == ["Hello", " world"]  # nothing held back, no flush
    blocks.end()
    assert sink.of(msgs.BlockEnded)[0].text == "Hello world"
    assert blocks.content == "Hello world"


def test_a_fire_hose_is_passed_through_one_for_one_without_threads():
    sink = msgs.ListSink()
    before = threading.active_count()
    blocks = BlockStream(sink, IdSource())
    for i in range(1000):
        blocks.add("reasoning", str(i % 10))
    assert threading.active_count() == before
    blocks.end()
    deltas = sink.of(msgs.ReasoningDelta)
    assert len(deltas) == 1000 and {d.block_id for d in deltas} == {"r1"}
    assert "".join(d.text for d in deltas) == "".join(str(i % 10) for i in range(1000))


def test_blocks_switch_with_the_kind_and_the_answer_is_kept_across_them():
    sink = msgs.ListSink()
    blocks = BlockStream(sink, IdSource())
    for kind, text in [("reasoning", "think "), ("reasoning", "more"), ("text", "An"), ("text", "swer"),
                       ("reasoning", "again"), ("text", "!"), ("text", "")]:
        blocks.add(kind, text)  # type: ignore[arg-type]
    blocks.end()
    blocks.end()  # a second end posts nothing
    ended = [(e.block_id, e.kind, e.text) for e in sink.of(msgs.BlockEnded)]
    assert ended == [("r1", "reasoning", "think more"), ("t1", "text", "Answer"), ("r2", "reasoning", "again"),
                     ("t2", "text", "!")]
    assert (blocks.reasoning, blocks.content) == ("think moreagain", "Answer!")
    assert [type(m).__name__ for m in sink.msgs][-2:] == ["TextDelta", "BlockEnded"]
