"""Context builders: wire form, and the sliding window's turn boundaries."""

from __future__ import annotations

from mrsmith_tui.core.context_window import TokenEstimator, build_messages, split_turns, to_wire


def turn(n: int, *, tool: bool = False, size: int = 400) -> list[dict]:
    user = {"role": "user", "content": f"question {n} " + "x" * size}
    if not tool:
        return [user, {"role": "assistant", "content": f"answer {n}"}]
    return [
        user,
        {"role": "assistant", "content": "", "tool_calls": [{"id": f"c{n}", "type": "function",
                                                              "function": {"name": "echo", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": f"c{n}", "name": "echo", "content": "y" * size},
        {"role": "assistant", "content": f"answer {n}", "reasoning": "r" * size},
    ]


def test_to_wire_drops_private_keys_and_strips_reasoning():
    msg = {"role": "assistant", "content": "hi", "reasoning": "why", "partial": True}
    assert to_wire(msg) == {"role": "assistant", "content": "hi"}
    assert to_wire(msg, "preserve") == {"role": "assistant", "content": "hi", "reasoning_content": "why"}
    assert to_wire({"role": "tool", "tool_call_id": "c", "name": "echo", "content": "r"}) == {
        "role": "tool", "tool_call_id": "c", "content": "r"}
    assert to_wire({"role": "user", "content": "skill", "context": True}) == {"role": "user", "content": "skill"}


def test_full_sends_everything():
    history = turn(1) + turn(2, tool=True)
    sent = build_messages("SYS", history, builder="full", window_tokens=1)
    assert len(sent) == 1 + len(history) and sent[0] == {"role": "system", "content": "SYS"}


def test_split_turns_starts_a_turn_at_each_user_message():
    turns = split_turns(turn(1) + turn(2, tool=True) + turn(3))
    assert [len(t) for t in turns] == [2, 4, 2]


def test_sliding_drops_the_oldest_whole_turns_and_keeps_the_system_prompt():
    history = turn(1) + turn(2, tool=True) + turn(3) + turn(4, tool=True) + turn(5)
    est = TokenEstimator()
    size = lambda msgs: sum(est.count(to_wire(m)) for m in msgs)  # noqa: E731
    window = est.count({"role": "system", "content": "SYS"}) + size(turn(4, tool=True) + turn(5))
    sent = build_messages("SYS", history, builder="sliding", window_tokens=window + size(turn(3)) - 1, estimator=est)
    assert sent[0] == {"role": "system", "content": "SYS"}
    users = [m["content"].split()[1] for m in sent if m["role"] == "user"]
    assert users == ["4", "5"]
    # the tool call of turn 4 travels with its result
    assert sent[2]["tool_calls"][0]["id"] == "c4" and sent[3]["tool_call_id"] == "c4"
    assert sent[1]["role"] == "user"


def test_sliding_never_splits_a_tool_call_from_its_result():
    history = turn(1, tool=True) + turn(2, tool=True) + turn(3, tool=True)
    for window in range(50, 1500, 37):
        sent = build_messages("SYS", history, builder="sliding", window_tokens=window)
        call_ids = {c["id"] for m in sent for c in m.get("tool_calls", [])}
        result_ids = {m["tool_call_id"] for m in sent if m["role"] == "tool"}
        assert call_ids == result_ids
        assert sent[1]["role"] == "user"


def test_sliding_keeps_the_newest_turn_even_when_it_alone_is_too_big():
    history = turn(1) + turn(2, size=10_000)
    sent = build_messages("SYS", history, builder="sliding", window_tokens=100)
    assert [m["role"] for m in sent] == ["system", "user", "assistant"]
    assert sent[1]["content"].startswith("question 2")


def test_reserved_tokens_and_reasoning_count_against_the_window():
    history = turn(1) + turn(2)
    assert len(build_messages("SYS", history, builder="sliding", window_tokens=400)) == 5
    assert len(build_messages("SYS", history, builder="sliding", window_tokens=400, reserved_tokens=250)) == 3


def test_estimator_is_calibrated_by_real_usage():
    est = TokenEstimator()
    sent = {"messages": [{"role": "user", "content": "x" * 400}]}
    raw = est.count(sent)
    est.calibrate(sent, raw * 2)
    assert est.count(sent) == raw * 2
    est.calibrate(sent, raw * 100)  # absurd figures are clamped
    assert est.scale == 4.0
