"""The Chat Completions wire: every history entry kind, thinking stripped or preserved, compaction."""

from __future__ import annotations

import json

from mrsmith_tui.history import (
    AssistantEntry,
    ReasoningBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultEntry,
    UserEntry,
    assistant,
)
from mrsmith_tui.provider.chat_wire import request_messages, wire_message, wire_messages
from mrsmith_tui.provider.types import ChatRequest

CALL = ToolCallBlock(id="c1", name="read_file", arguments='{"path": "a.py"}')
WIRE_CALL = {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}}


def test_every_user_kind_is_a_user_message_with_its_text():
    for kind in ("prompt", "context", "summary"):
        assert wire_message(UserEntry(text="hi", kind=kind)) == {"role": "user", "content": "hi"}


def test_a_tool_result_keeps_its_call_id_and_leaves_out_the_name():
    entry = ToolResultEntry(call_id="c1", name="read_file", content="1: x")
    assert wire_message(entry) == {"role": "tool", "tool_call_id": "c1", "content": "1: x"}


def test_an_answer_is_its_text_and_an_empty_one_is_an_empty_string():
    assert wire_message(assistant("done")) == {"role": "assistant", "content": "done"}
    assert wire_message(assistant()) == {"role": "assistant", "content": ""}


def test_tool_calls_are_function_calls_and_content_is_none_without_text():
    assert wire_message(assistant(tool_calls=(CALL,))) == {"role": "assistant", "content": None, "tool_calls": [WIRE_CALL]}
    assert wire_message(assistant("looking", tool_calls=(CALL,))) == {
        "role": "assistant", "content": "looking", "tool_calls": [WIRE_CALL]}


def test_arguments_that_do_not_parse_go_back_as_the_model_wrote_them():
    bad = ToolCallBlock(id="c2", name="edit", arguments='{"path": "a.py", "old": "unclosed')
    sent = wire_message(assistant(tool_calls=(bad,)))
    assert sent["tool_calls"][0]["function"]["arguments"] == '{"path": "a.py", "old": "unclosed'


def test_reasoning_is_stripped_unless_thinking_is_preserve():
    entry = assistant("answer", reasoning="why", tool_calls=(CALL,))
    assert "reasoning_content" not in wire_message(entry)
    assert "reasoning_content" not in wire_message(entry, "strip")
    preserved = wire_message(entry, "preserve")
    assert list(preserved) == ["role", "content", "tool_calls", "reasoning_content"]
    assert preserved["reasoning_content"] == "why"


def test_a_signature_has_no_place_on_this_wire():
    entry = assistant("answer", reasoning="why", signature="sig-123")
    assert json.dumps(wire_message(entry, "preserve")).count("sig-123") == 0
    assert wire_message(assistant("answer", signature="sig-only"), "preserve") == {"role": "assistant", "content": "answer"}


def test_several_text_and_reasoning_blocks_are_joined_in_order():
    entry = AssistantEntry(blocks=(ReasoningBlock(text="a"), TextBlock(text="one "), CALL, ReasoningBlock(text="b"),
                                   TextBlock(text="two")))
    assert wire_message(entry, "preserve") == {
        "role": "assistant", "content": "one two", "tool_calls": [WIRE_CALL], "reasoning_content": "ab"}


def test_a_partial_answer_is_sent_as_a_plain_answer():
    entry = assistant("half an ans", reasoning="hmm", partial=True)
    assert wire_message(entry) == {"role": "assistant", "content": "half an ans"}
    assert wire_message(entry, "preserve") == {"role": "assistant", "content": "half an ans", "reasoning_content": "hmm"}


def test_compacted_entries_are_left_out_and_the_system_prompt_leads():
    old = [UserEntry(text="old", compacted=True), assistant("old answer").model_copy(update={"compacted": True})]
    entries = old + [UserEntry(text="summary", kind="summary"), UserEntry(text="new")]
    assert wire_messages("SYS", entries) == [
        {"role": "system", "content": "SYS"},
        {"role": "user", "content": "summary"},
        {"role": "user", "content": "new"},
    ]


def test_a_request_is_translated_with_its_own_thinking():
    entries = (UserEntry(text="q"), assistant("a", reasoning="r"))
    strip = ChatRequest(model="m", system_prompt="S", entries=entries)
    preserve = ChatRequest(model="m", system_prompt="S", entries=entries, thinking="preserve")
    assert request_messages(strip)[-1] == {"role": "assistant", "content": "a"}
    assert request_messages(preserve)[-1] == {"role": "assistant", "content": "a", "reasoning_content": "r"}
