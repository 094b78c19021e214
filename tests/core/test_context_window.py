"""Context builders: which entries a request carries, and the sliding window's turn boundaries."""

from __future__ import annotations

from mrsmith_tui.core.context_window import TokenEstimator, context_entries, split_turns
from mrsmith_tui.history import AssistantEntry, HistoryEntry, ToolCallBlock, ToolResultEntry, UserEntry, assistant
from mrsmith_tui.provider.chat_wire import wire_message, wire_messages


def turn(n: int, *, tool: bool = False, size: int = 400) -> list[HistoryEntry]:
    user = UserEntry(text=f"question {n} " + "x" * size)
    if not tool:
        return [user, assistant(f"answer {n}")]
    return [
        user,
        assistant(tool_calls=(ToolCallBlock(id=f"c{n}", name="echo", arguments="{}"),)),
        ToolResultEntry(call_id=f"c{n}", name="echo", content="y" * size),
        assistant(f"answer {n}", reasoning="r" * size),
    ]


def sent(system: str, history: list[HistoryEntry], **kw) -> list[dict]:
    return wire_messages(system, context_entries(system, history, **kw))


def test_full_sends_everything():
    history = turn(1) + turn(2, tool=True)
    out = sent("SYS", history, builder="full", window_tokens=1)
    assert len(out) == 1 + len(history) and out[0] == {"role": "system", "content": "SYS"}


def test_compacted_entries_leave_the_context():
    history = [e.model_copy(update={"compacted": True}) for e in turn(1)] + turn(2)
    assert context_entries("SYS", history) == turn(2)


def test_split_turns_starts_a_turn_at_each_user_entry():
    turns = split_turns(turn(1) + turn(2, tool=True) + turn(3))
    assert [len(t) for t in turns] == [2, 4, 2]


def test_sliding_drops_the_oldest_whole_turns_and_keeps_the_system_prompt():
    history = turn(1) + turn(2, tool=True) + turn(3) + turn(4, tool=True) + turn(5)
    est = TokenEstimator()
    size = lambda entries: sum(est.count(wire_message(e)) for e in entries)  # noqa: E731
    window = est.count({"role": "system", "content": "SYS"}) + size(turn(4, tool=True) + turn(5))
    out = sent("SYS", history, builder="sliding", window_tokens=window + size(turn(3)) - 1, estimator=est)
    assert out[0] == {"role": "system", "content": "SYS"}
    users = [m["content"].split()[1] for m in out if m["role"] == "user"]
    assert users == ["4", "5"]
    # the tool call of turn 4 travels with its result
    assert out[2]["tool_calls"][0]["id"] == "c4" and out[3]["tool_call_id"] == "c4"
    assert out[1]["role"] == "user"


def test_sliding_never_splits_a_tool_call_from_its_result():
    history = turn(1, tool=True) + turn(2, tool=True) + turn(3, tool=True)
    for window in range(50, 1500, 37):
        chosen = context_entries("SYS", history, builder="sliding", window_tokens=window)
        call_ids = {c.id for e in chosen if isinstance(e, AssistantEntry) for c in e.tool_calls}
        result_ids = {e.call_id for e in chosen if isinstance(e, ToolResultEntry)}
        assert call_ids == result_ids
        assert chosen[0].role == "user"


def test_sliding_keeps_the_newest_turn_even_when_it_alone_is_too_big():
    history = turn(1) + turn(2, size=10_000)
    out = sent("SYS", history, builder="sliding", window_tokens=100)
    assert [m["role"] for m in out] == ["system", "user", "assistant"]
    assert out[1]["content"].startswith("question 2")


def test_reserved_tokens_and_reasoning_count_against_the_window():
    history = turn(1) + turn(2)
    assert len(sent("SYS", history, builder="sliding", window_tokens=400)) == 5
    assert len(sent("SYS", history, builder="sliding", window_tokens=400, reserved_tokens=250)) == 3


def test_preserved_reasoning_counts_against_the_window():
    history = turn(1, tool=True) + turn(2)
    est = TokenEstimator()
    strip = sum(est.entry(e) for e in turn(1, tool=True))
    preserve = sum(est.entry(e, "preserve") for e in turn(1, tool=True))
    assert preserve > strip
    window = est.system("SYS") + strip + sum(est.entry(e) for e in turn(2))
    assert len(context_entries("SYS", history, builder="sliding", window_tokens=window, thinking="strip")) == 6
    assert len(context_entries("SYS", history, builder="sliding", window_tokens=window, thinking="preserve")) == 2


def test_estimator_is_calibrated_by_real_usage():
    est = TokenEstimator()
    sent = {"messages": [{"role": "user", "content": "x" * 400}]}
    raw = est.count(sent)
    est.calibrate(sent, raw * 2)
    assert est.count(sent) == raw * 2
    est.calibrate(sent, raw * 100)  # absurd figures are clamped
    assert est.scale == 4.0


def test_context_size_is_the_wire_size_of_system_and_entries():
    est = TokenEstimator()
    history = turn(1, tool=True)
    assert est.context("SYS", history, "preserve") == est.count(wire_messages("SYS", history, "preserve"))
    assert est.context("SYS", ()) == est.count([{"role": "system", "content": "SYS"}])
