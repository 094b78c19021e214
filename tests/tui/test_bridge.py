"""The coalescing sink and the TuiApprover, without a terminal."""

from __future__ import annotations

import re
import threading
import time

import pytest

from mrsmith_tui import msgs as m
from mrsmith_tui.tools.base import ApprovalQuery
from mrsmith_tui.tui.shell.bridge import CoalescingSink, TuiApprover


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_deltas_merge_per_block_and_order_is_kept():
    posted: list[m.Msg] = []
    clock = Clock()
    sink = CoalescingSink(posted.append, interval=1.0, clock=clock)
    sink(m.TextDelta(block_id="t1", text="a"))  # first one goes at once (nothing flushed for a second)
    for ch in "bcd":
        sink(m.TextDelta(block_id="t1", text=ch))
    sink(m.ToolOutput(call_id="c1", text="x"))
    sink(m.TextDelta(block_id="t1", text="e"))
    sink(m.BlockEnded(block_id="t1", kind="text", text="abcde"))
    assert [type(p).__name__ for p in posted] == ["TextDelta", "TextDelta", "ToolOutput", "BlockEnded"]
    assert posted[0].text == "a" and posted[1].text == "bcde" and posted[2].text == "x"
    sink.close()


def test_a_held_delta_is_posted_when_the_stream_pauses():
    posted: list[m.Msg] = []
    sink = CoalescingSink(posted.append, interval=0.05)
    sink(m.ReasoningDelta(block_id="r", text="a"))
    sink(m.ReasoningDelta(block_id="r", text="b"))  # held back: within the interval
    deadline = time.monotonic() + 60  # a safety net, not a budget
    while "".join(p.text for p in posted) != "ab" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "".join(p.text for p in posted) == "ab"
    sink.close()


def test_many_deltas_from_a_thread_become_few_posts_with_the_same_text():
    posted: list[m.Msg] = []
    sink = CoalescingSink(posted.append, interval=1 / 30)

    def produce() -> None:
        for i in range(20_000):
            sink(m.TextDelta(block_id="t", text=str(i % 10)))
        sink(m.BlockEnded(block_id="t", kind="text", text=""))

    t = threading.Thread(target=produce)
    t.start()
    t.join()
    text = "".join(p.text for p in posted if isinstance(p, m.TextDelta))
    assert text == "".join(str(i % 10) for i in range(20_000))
    assert len(posted) < 2_000 and isinstance(posted[-1], m.BlockEnded)
    sink.close()


def test_agent_deltas_coalesce_inside_their_wrapper():
    posted: list[m.Msg] = []
    clock = Clock()
    sink = CoalescingSink(posted.append, interval=1.0, clock=clock)
    sink(m.Notice(text="start"))
    for ch in "abc":
        sink(m.FromAgent(agent_id="agent-1", msg=m.TextDelta(block_id="t", text=ch)))
    sink.flush()
    # "a" went at once (the Notice found nothing held, so it started no frame); "b" and "c" merged.
    assert all(isinstance(p, m.FromAgent) for p in posted[1:]) and [p.msg.text for p in posted[1:]] == ["a", "bc"]
    sink.close()


def test_approver_blocks_until_resolved_and_cancel_answers_no():
    posted: list[m.Msg] = []
    approver = TuiApprover(posted.append)
    answers: list = []

    def ask() -> None:
        answers.append(approver.approve(ApprovalQuery(tool="shell", arguments="{}", reason="r", spec="shell:rm")))
        answers.append(approver.confirm_continue(32))

    t = threading.Thread(target=ask)
    t.start()
    while not posted:
        time.sleep(0.005)
    req = posted[0]
    assert isinstance(req, m.ApprovalRequested) and req.spec == "shell:rm"
    approver.resolve(req.request_id, "always")
    while len(posted) < 2:
        time.sleep(0.005)
    assert approver.cancel(main_only=True) == [posted[1].request_id]
    t.join(60)
    assert answers == ["always", False]


def test_request_ids_carry_a_prefix_of_their_approver_nobody_else_can_guess():
    posted: list[m.Msg] = []
    approvers = [TuiApprover(posted.append), TuiApprover(posted.append)]
    went_on: list[bool] = []
    threads = [threading.Thread(target=lambda a=a: went_on.append(a.confirm_continue(5))) for a in approvers]
    for t in threads:
        t.start()
    while len(posted) < 2:
        time.sleep(0.005)
    ids = [p.request_id for p in posted]
    assert all(re.fullmatch(r"req-[0-9a-f]{8}-1", rid) for rid in ids) and ids[0] != ids[1]
    for a in approvers:
        a.resolve("req-1", "yes")  # a guessed id resolves nothing
        assert a.cancel(main_only=False)
    for t in threads:
        t.join(60)
    assert went_on == [False, False]


def test_a_closed_approver_answers_no_without_blocking():
    approver = TuiApprover(lambda msg: None)
    approver.close()
    assert approver.approve(ApprovalQuery(tool="shell", arguments="{}", reason="r", spec="s")) == "no"
    assert approver.ask((m.Question(question="q?"),)) is None


# The core emits every delta (tests/core/test_stream.py); the bridge is where they become frames.


def test_n_deltas_become_at_most_one_post_per_frame():
    posted: list[m.Msg] = []
    clock = Clock()
    sink = CoalescingSink(posted.append, interval=1 / 30, clock=clock)
    n, step = 3000, 1 / 300  # ten deltas a frame for 10 s of the fake clock: 300 frames
    for i in range(n):
        sink(m.TextDelta(block_id="t", text=str(i % 10)))
        clock.t += step
    deltas = [p for p in posted if isinstance(p, m.TextDelta)]
    assert len(deltas) <= 300 + 1
    sink(m.BlockEnded(block_id="t", kind="text", text=""))  # posts what the last frame held, first
    assert isinstance(posted[-1], m.BlockEnded)
    assert "".join(p.text for p in posted if isinstance(p, m.TextDelta)) == "".join(str(i % 10) for i in range(n))
    sink.close()


def test_within_a_frame_deltas_wait_for_the_flush_and_keep_the_last_time():
    posted: list[m.Msg] = []
    clock = Clock()
    sink = CoalescingSink(posted.append, interval=1.0, clock=clock)
    sink(m.Notice(text="nothing held: this starts no frame"))
    sink(m.TextDelta(block_id="t", text="a", at=1.0))  # so this one still goes at once
    sink(m.TextDelta(block_id="t", text="b", at=2.0))
    sink(m.TextDelta(block_id="t", text="c", at=3.0))
    assert [getattr(p, "text", "") for p in posted[1:]] == ["a"]
    sink.flush()
    assert isinstance(posted[-1], m.TextDelta) and (posted[-1].text, posted[-1].at) == ("bc", 3.0)
    sink.flush()  # nothing held: nothing posted
    assert len(posted) == 3
    sink.close()


def test_streams_merge_apart_and_nested_agents_keep_their_wrappers():
    posted: list[m.Msg] = []
    sink = CoalescingSink(posted.append, interval=1.0, clock=Clock())

    def nested(text: str) -> m.Msg:
        return m.FromAgent(agent_id="agent-1", msg=m.FromAgent(agent_id="agent-2",
                                                               msg=m.ReasoningDelta(block_id="r", text=text)))

    for msg in [m.TextDelta(block_id="t", text="1"), nested("x"), m.ToolOutput(call_id="c", text="out"),
                m.TextDelta(block_id="t", text="2"), nested("y")]:
        sink(msg)
    assert len(posted) == 1  # the first went at once; the rest wait for the frame
    sink.flush()
    assert posted[1] == nested("xy").__class__(agent_id="agent-1", msg=m.FromAgent(
        agent_id="agent-2", msg=m.ReasoningDelta(block_id="r", text="xy", at=posted[1].msg.msg.at), at=posted[1].msg.at),
        at=posted[1].at)
    assert [type(p).__name__ for p in posted] == ["TextDelta", "FromAgent", "ToolOutput", "TextDelta"]
    assert [posted[2].text, posted[3].text] == ["out", "2"]
    sink.close()


def test_post_many_gets_what_one_flush_posts_in_one_call_and_in_order():
    batches: list[list[m.Msg]] = []
    clock = Clock()
    sink = CoalescingSink(post_many=batches.append, interval=1.0, clock=clock)
    sink(m.TextDelta(block_id="t", text="a"))  # nothing flushed for a second: goes at once, alone
    for i in range(100):  # a hundred agents, a delta each, within the frame: held
        sink(m.FromAgent(agent_id=f"agent-{i}", msg=m.TextDelta(block_id="t", text="x")))
        sink(m.FromAgent(agent_id=f"agent-{i}", msg=m.TextDelta(block_id="t", text="y")))
    sink(m.TextDelta(block_id="t", text="b"))
    sink(m.BlockEnded(block_id="t", kind="text", text="ab"))  # posts the held, then itself: one call
    assert [len(b) for b in batches] == [1, 102]
    last = batches[1]
    assert [p.msg.text for p in last[:100]] == ["xy"] * 100  # each agent's two deltas merged
    assert [p.agent_id for p in last[:100]] == [f"agent-{i}" for i in range(100)]  # in arrival order
    assert isinstance(last[100], m.TextDelta) and last[100].text == "b" and isinstance(last[101], m.BlockEnded)
    sink(m.Notice(text="alone"))  # nothing held: a batch of one
    assert [type(p).__name__ for p in batches[2]] == ["Notice"]
    sink.close()


def test_a_coalescing_sink_takes_post_or_post_many():
    with pytest.raises(TypeError):
        CoalescingSink()
    with pytest.raises(TypeError):
        CoalescingSink(print, post_many=print)
