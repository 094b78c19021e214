"""The Messages translation and the Chat dialects: request bodies per protocol and knob."""

from __future__ import annotations

import json

import pytest

from mrsmith_tui.history import (
    AssistantEntry,
    ReasoningBlock,
    RedactedThinkingBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultEntry,
    UserEntry,
)
from mrsmith_tui.provider.chat_dialect import dialect_fields
from mrsmith_tui.provider.chat_wire import request_messages
from mrsmith_tui.provider.messages_wire import messages_body
from mrsmith_tui.provider.types import ChatRequest

TOOLS = [{"type": "function", "function": {"name": "read_file", "description": "Read a file",
                                            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}},
         {"type": "function", "function": {"name": "glob", "parameters": {"type": "object"}}}]

SIGNED = ReasoningBlock(text="I will read a.py", signature="EqQBCkYIBxgCKkA+/sig==")
OLD_SIGNED = ReasoningBlock(text="earlier thought", signature="b2xkLXNpZw==")


def tool_history() -> tuple:
    return (
        UserEntry(text="first question"),
        AssistantEntry(blocks=(OLD_SIGNED, TextBlock(text="first answer"))),
        UserEntry(text="read a.py"),
        AssistantEntry(blocks=(SIGNED, RedactedThinkingBlock(data="ENC=="), TextBlock(text="Reading."),
                               ToolCallBlock(id="toolu_1", name="read_file", arguments='{"path": "a.py"}'))),
        ToolResultEntry(call_id="toolu_1", name="read_file", content="print('a')"),
        UserEntry(text="[skill body]", kind="context"),
    )


def body(**kw) -> dict:
    request = ChatRequest(**({"model": "claude-sonnet-4-5", "system_prompt": "SYS", "entries": tool_history(),
                              "tools": TOOLS} | kw))
    return messages_body(request, kw.pop("protocol", "anthropic"))


def test_system_is_top_level_and_max_tokens_always_sent():
    b = body()
    assert b["system"] == "SYS" and all(m["role"] != "system" for m in b["messages"])
    assert b["max_tokens"] == 32_000 and b["stream"] is True
    assert "thinking" not in b and "output_config" not in b  # no effort: nothing sent
    assert body(max_tokens=777)["max_tokens"] == 777


def test_tools_are_converted_with_their_schema():
    assert body()["tools"] == [
        {"name": "read_file", "description": "Read a file",
         "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}},
        {"name": "glob", "input_schema": {"type": "object"}}]


def test_signed_blocks_go_back_byte_for_byte_in_order_before_tool_use():
    answer = body(thinking="preserve")["messages"][3]
    assert answer == {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "I will read a.py", "signature": "EqQBCkYIBxgCKkA+/sig=="},
        {"type": "redacted_thinking", "data": "ENC=="},
        {"type": "text", "text": "Reading."},
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.py"}}]}
    assert body(thinking="preserve")["messages"][1]["content"][0]["signature"] == "b2xkLXNpZw=="


def test_strip_drops_earlier_turns_thinking_but_keeps_the_current_loops():
    messages = body(thinking="strip")["messages"]
    assert messages[1]["content"] == [{"type": "text", "text": "first answer"}]
    assert messages[3]["content"][0]["signature"] == "EqQBCkYIBxgCKkA+/sig=="


def test_unsigned_or_partial_thinking_is_never_sent():
    entries = (UserEntry(text="q"), AssistantEntry(blocks=(ReasoningBlock(text="no signature"), TextBlock(text="a"))),
               UserEntry(text="q2"), AssistantEntry(blocks=(SIGNED, TextBlock(text="cut")), partial=True), UserEntry(text="q3"))
    messages = body(entries=entries, thinking="preserve")["messages"]
    assert messages[1]["content"] == [{"type": "text", "text": "a"}]
    assert messages[3]["content"] == [{"type": "text", "text": "cut"}]


def test_consecutive_user_entries_merge_with_tool_results_first():
    entries = tool_history()[:5] + (UserEntry(text="[skill body]", kind="context"), UserEntry(text="go on"))
    messages = body(entries=entries)["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert messages[-1]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "print('a')"},
        {"type": "text", "text": "[skill body]"}, {"type": "text", "text": "go on"}]


def test_a_user_entry_before_tool_results_still_puts_the_results_first():
    entries = tool_history()[:4] + (UserEntry(text="note", kind="context"),
                                    ToolResultEntry(call_id="toolu_1", name="read_file", content="x"))
    last = body(entries=entries)["messages"][-1]["content"]
    assert [b["type"] for b in last] == ["tool_result", "text"]


def test_without_tools_a_history_with_tool_blocks_is_flattened_to_text():
    messages = body(tools=[])["messages"]
    assert "tools" not in body(tools=[])
    blocks = [b for m in messages for b in m["content"]]
    assert not any(b["type"] in ("tool_use", "tool_result", "thinking", "redacted_thinking") for b in blocks)
    assert any('[called read_file with {"path": "a.py"}]' in b.get("text", "") for b in blocks)
    assert any(b.get("text", "").startswith("[result of read_file]") for b in blocks)


def test_cache_active_puts_breakpoints_on_the_system_prompt_and_the_last_tool():
    b = body(cache="active")
    assert b["system"] == [{"type": "text", "text": "SYS", "cache_control": {"type": "ephemeral"}}]
    assert "cache_control" not in b["tools"][0] and b["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in json.dumps(body(cache="auto"))


@pytest.mark.parametrize(("effort", "budget", "max_tokens"), [
    ("low", 1024, 32_000), ("medium", 8192, 32_000), ("high", 32768, 36_864), ("max", 27_904, 32_000)])
def test_effort_becomes_a_thinking_budget(effort, budget, max_tokens):
    b = body(reasoning_effort=effort)
    assert b["thinking"] == {"type": "enabled", "budget_tokens": budget} and b["max_tokens"] == max_tokens
    assert b["thinking"]["budget_tokens"] < b["max_tokens"]


def test_effort_max_leaves_the_reply_floor_of_a_given_max_tokens():
    assert body(reasoning_effort="max", max_tokens=20_000)["thinking"]["budget_tokens"] == 20_000 - 4096


@pytest.mark.parametrize("model", ["claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-7", "MiniMax-M3",
                                   "anthropic/claude-opus-4.7", "claude-sonnet-4.6"])
def test_models_that_want_it_get_adaptive_thinking_with_an_effort(model):
    b = body(model=model, reasoning_effort="high")
    assert b["thinking"] == {"type": "adaptive"} and b["output_config"] == {"effort": "high"}


def test_the_thinking_style_from_config_beats_the_model_rule():
    assert body(model="claude-sonnet-4-5", reasoning_effort="low", thinking_style="adaptive")["thinking"] == {"type": "adaptive"}
    assert body(model="claude-opus-4-6", reasoning_effort="low", thinking_style="budget")["thinking"]["type"] == "enabled"


def test_unparsable_arguments_go_as_an_empty_input():
    entries = (UserEntry(text="q"), AssistantEntry(blocks=(ToolCallBlock(id="t", name="glob", arguments="{broken"),)),
               ToolResultEntry(call_id="t", name="glob", content="error: arguments are not JSON"))
    assert body(entries=entries)["messages"][1]["content"] == [{"type": "tool_use", "id": "t", "name": "glob", "input": {}}]


# ------------------------------------------------------------------ the Chat dialects


def chat(protocol: str, **kw) -> tuple[list[dict], dict]:
    request = ChatRequest(**({"model": "m", "system_prompt": "SYS", "entries": tool_history(), "tools": TOOLS} | kw))
    return request_messages(request, protocol), dialect_fields(protocol, request)


def test_deepseek_strip_turns_thinking_off_and_sends_no_reasoning():
    messages, fields = chat("deepseek", thinking="strip", reasoning_effort="high")
    assert fields == {"thinking": {"type": "disabled"}}
    assert not any("reasoning_content" in m for m in messages)


def test_deepseek_preserve_sends_reasoning_back_and_its_effort():
    messages, fields = chat("deepseek", thinking="preserve", reasoning_effort="max", max_tokens=4000)
    assert fields == {"max_tokens": 4000, "reasoning_effort": "max"}
    assert [m.get("reasoning_content") for m in messages if m["role"] == "assistant"] == ["earlier thought", "I will read a.py"]


def test_zai_preserve_asks_for_preserved_thinking_and_folds_medium_into_high():
    _, fields = chat("zai", thinking="preserve", reasoning_effort="medium")
    assert fields == {"thinking": {"type": "enabled", "clear_thinking": False}, "reasoning_effort": "high"}


def test_zai_strip_still_sends_the_current_loops_reasoning():
    messages, fields = chat("zai", thinking="strip")
    assert fields == {}
    assert [m.get("reasoning_content") for m in messages if m["role"] == "assistant"] == [None, "I will read a.py"]


def test_openai_strip_sends_no_reasoning_except_for_kimi():
    messages, fields = chat("openai", thinking="strip", reasoning_effort="low")
    assert fields == {"reasoning_effort": "low"} and not any("reasoning_content" in m for m in messages)
    kimi, _ = chat("openai", model="kimi-k2-thinking", thinking="strip")
    assert [m.get("reasoning_content") for m in kimi if m["role"] == "assistant"] == [None, "I will read a.py"]


def test_unset_knobs_send_nothing():
    for protocol in ("openai", "zai", "deepseek"):
        assert chat(protocol, thinking="strip" if protocol != "deepseek" else "preserve")[1] == {}


def test_call_ids_from_a_chat_server_become_ids_the_wire_takes_on_both_sides():
    entries = (UserEntry(text="q"), AssistantEntry(blocks=(ToolCallBlock(id="functions.read_file:0", name="read_file",
                                                                         arguments="{}"),)),
               ToolResultEntry(call_id="functions.read_file:0", name="read_file", content="ok"))
    messages = body(entries=entries)["messages"]
    assert messages[1]["content"][0]["id"] == messages[2]["content"][0]["tool_use_id"] == "functions_read_file_0"


def test_a_result_whose_call_is_gone_becomes_text_and_a_call_without_its_result_is_told_it_did_not_run():
    entries = (UserEntry(text="q", compacted=True),
               AssistantEntry(blocks=(ToolCallBlock(id="gone", name="glob", arguments="{}"),), compacted=True),
               ToolResultEntry(call_id="gone", name="glob", content="x"), UserEntry(text="next"),
               AssistantEntry(blocks=(ToolCallBlock(id="t1", name="glob", arguments="{}"),
                                      ToolCallBlock(id="t2", name="glob", arguments="{}"))),
               ToolResultEntry(call_id="t2", name="glob", content="two"),
               UserEntry(text="after a crash"),
               AssistantEntry(blocks=(ToolCallBlock(id="t3", name="glob", arguments="{}"),)))
    messages = body(entries=entries)["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert messages[0]["content"] == [{"type": "text", "text": "[result of an earlier call]\nx"},
                                      {"type": "text", "text": "next"}]
    results = [b for b in messages[2]["content"] if b["type"] == "tool_result"]
    assert [(r["tool_use_id"], r.get("is_error", False)) for r in results] == [("t2", False), ("t1", True)]
    assert messages[2]["content"][:2] == results and messages[2]["content"][2]["text"] == "after a crash"
    assert messages[4]["content"][0]["tool_use_id"] == "t3" and messages[4]["content"][0]["is_error"]


def test_no_text_block_of_whitespace_alone_is_sent():
    entries = (UserEntry(text="  \n"), AssistantEntry(blocks=(TextBlock(text="\n\n"),
                                                               ToolCallBlock(id="t1", name="glob", arguments="{}"))),
               ToolResultEntry(call_id="t1", name="glob", content="x"), AssistantEntry(blocks=(TextBlock(text=" "),)),
               UserEntry(text="next"))
    messages = body(entries=entries)["messages"]
    texts = [b["text"] for m in messages for b in m["content"] if b["type"] == "text"]
    assert texts == ["(empty)", "next"] and all(t.strip() for t in texts)
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
