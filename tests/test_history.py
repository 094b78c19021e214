"""The typed history: entries are frozen, serialise and read back as the same union, and
`assistant()` puts reasoning first."""

from __future__ import annotations

import json

import pytest

from mrsmith_tui.history import (
    AssistantEntry,
    HistoryEntry,
    ReasoningBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultEntry,
    UserEntry,
    assistant,
)
from mrsmith_tui.records_check import validator

HISTORY, RECORDS = validator(list[HistoryEntry])  # what reading a transcript back checks with


def test_entries_round_trip_through_json_as_the_same_union():
    entries = [
        UserEntry(text="hi"),
        UserEntry(text="skill", kind="context"),
        assistant("ok", reasoning="why", signature="sig", tool_calls=(ToolCallBlock(id="c", name="n", arguments="{"),)),
        ToolResultEntry(call_id="c", name="n", content="r", compacted=True),
        assistant("half", partial=True),
        UserEntry(text="summary", kind="summary"),
    ]
    text = json.dumps([e.model_dump(mode="json") for e in entries])
    assert RECORDS(HISTORY.validate_json(text)) == entries


def test_assistant_puts_reasoning_first_and_leaves_out_empty_parts():
    call = ToolCallBlock(id="c", name="n", arguments="{}")
    entry = assistant("text", reasoning="think", tool_calls=(call,))
    assert entry.blocks == (ReasoningBlock(text="think"), TextBlock(text="text"), call)
    assert assistant().blocks == ()
    assert assistant(signature="s").blocks == (ReasoningBlock(text="", signature="s"),)
    assert (entry.text, entry.reasoning, entry.tool_calls) == ("text", "think", (call,))


def test_entries_are_frozen_and_a_mark_makes_a_new_one():
    entry = UserEntry(text="hi")
    with pytest.raises(AttributeError):
        entry.compacted = True  # type: ignore[misc]
    marked = entry.model_copy(update={"compacted": True})
    assert marked.compacted and not entry.compacted
    assert isinstance(AssistantEntry(blocks=()).model_copy(update={"compacted": True}), AssistantEntry)
