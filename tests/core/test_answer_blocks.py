"""Ordered answer blocks in the history: signed blocks go back byte for byte, the record is redacted;
stop reasons speak; a transcript keeps redacted thinking and tolerates blocks it does not know."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.core.answer_blocks import kept_and_recorded
from mrsmith_tui.core.conversation import Conversation
from mrsmith_tui.history import (
    AssistantEntry,
    ReasoningBlock,
    RedactedThinkingBlock,
    TextBlock,
    ToolCallBlock,
    UnknownBlock,
)
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.provider.messages_wire import messages_of
from mrsmith_tui.provider.types import ChatRequest, StreamDone, StreamEvent, StreamReasoning, StreamText, ToolCall
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.session.rebuild import rebuild_history
from mrsmith_tui.session.transcript import TranscriptWriter, read_transcript
from mrsmith_tui.tools.approval import ApprovalGate
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.registry import ToolRegistry

from .fakes import EchoTool, FakeProvider, ScriptedApprover, answer

SECRET = "sk-SIGNED-THINKING-9f8e7d6c5b"


def signed(thinking: str, text: str = "", calls: tuple[ToolCall, ...] = (), stop: str = "end_turn"):
    def script(req: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        yield StreamReasoning(thinking)
        if text:
            yield StreamText(text)
        blocks = (ReasoningBlock(text=thinking, signature="SIG=="), RedactedThinkingBlock(data="ENC=="))
        blocks += (TextBlock(text=text),) if text else ()
        blocks += tuple(ToolCallBlock(id=c.id, name=c.name, arguments=c.arguments) for c in calls)
        yield StreamDone(text, thinking, calls, stop, UsageInfo(prompt_tokens=10, completion_tokens=2), blocks=blocks)

    return script


def conversation(provider, tmp_path: Path, *tools):
    agent = AgentConfig(name="a", provider="fake", model="m")
    sink = msgs.ListSink()
    approver = ScriptedApprover()
    ctx = ToolContext(root=tmp_path, cancel=CancelToken(), approver=approver, emit=sink)
    transcript = TranscriptWriter(tmp_path / "t.jsonl", secrets=[SECRET])
    conv = Conversation(agent, provider, ToolRegistry(list(tools)), ctx, ApprovalGate(approver), sink, transcript,
                        system_prompt="SYS")
    return conv, sink, transcript


def test_the_answers_blocks_enter_the_history_in_their_order(tmp_path):
    call = ToolCall(id="toolu_1", name="echo", arguments='{"text": "x"}')
    provider = FakeProvider(signed("plan", "doing it", (call,), "tool_use"), answer("done"))
    conv, _, _ = conversation(provider, tmp_path, EchoTool())
    conv.run_turn("go", CancelToken())
    first = conv.history[1]
    assert isinstance(first, AssistantEntry)
    assert [type(b).__name__ for b in first.blocks] == ["ReasoningBlock", "RedactedThinkingBlock", "TextBlock", "ToolCallBlock"]
    sent = messages_of(provider.requests[1].request.entries)
    assert sent[1]["content"][:2] == [{"type": "thinking", "thinking": "plan", "signature": "SIG=="},
                                      {"type": "redacted_thinking", "data": "ENC=="}]


def test_a_secret_inside_signed_thinking_goes_back_unaltered_but_is_recorded_redacted(tmp_path):
    PROCESS.add(SECRET)
    provider = FakeProvider(signed(f"the key is {SECRET}", f"text with {SECRET}"), answer("ok"))
    conv, sink, transcript = conversation(provider, tmp_path)
    conv.run_turn("go", CancelToken())
    conv.run_turn("again", CancelToken())
    sent = messages_of(provider.requests[1].request.entries)[1]["content"]
    assert sent[0] == {"type": "thinking", "thinking": f"the key is {SECRET}", "signature": "SIG=="}  # byte for byte
    assert sent[2]["type"] == "text" and SECRET not in sent[2]["text"]  # unsigned text: redacted as ever
    recorded = sink.of(msgs.AnswerRecorded)[0].entry
    assert SECRET not in json.dumps(recorded.model_dump())
    assert recorded.blocks[0] == ReasoningBlock(text=PROCESS.redact(f"the key is {SECRET}"), signature="")
    transcript.close()
    text = (tmp_path / "t.jsonl").read_text()
    assert SECRET not in text
    resumed = rebuild_history(read_transcript(tmp_path / "t.jsonl")[0])
    again = messages_of(resumed)  # a resumed session never sends altered text under a signature
    assert all(b.get("type") != "thinking" for m in again for b in m["content"])
    assert {"type": "redacted_thinking", "data": "ENC=="} in again[1]["content"]


def test_signed_thinking_without_a_secret_survives_the_transcript(tmp_path):
    conv, _, transcript = conversation(FakeProvider(signed("plain plan", "hi")), tmp_path)
    conv.run_turn("go", CancelToken())
    transcript.close()
    resumed = rebuild_history(read_transcript(tmp_path / "t.jsonl")[0])
    assert resumed[1].blocks[:2] == (ReasoningBlock(text="plain plan", signature="SIG=="), RedactedThinkingBlock(data="ENC=="))


@pytest.mark.parametrize(("stop", "code", "words"), [("max_tokens", "length", "answer cut at the output limit"),
                                                      ("length", "length", "answer cut at the output limit"),
                                                      ("refusal", "refusal", "refused")])
def test_stop_reasons_speak(tmp_path, stop, code, words):
    conv, sink, _ = conversation(FakeProvider(signed("t", "cut here", stop=stop)), tmp_path)
    conv.run_turn("go", CancelToken())
    (warning,) = sink.of(msgs.Warning)
    assert warning.code == code and words in warning.text


def test_a_block_type_from_a_newer_writer_does_not_lose_the_answer():
    raw = {"type": "AnswerRecorded", "at": 1.0, "run_id": "r1", "entry": {"role": "assistant", "blocks": [
        {"type": "text", "text": "kept"}, {"type": "server_tool_result", "payload": {"x": 1}}]}}
    record = msgs.from_json(raw)
    assert isinstance(record, msgs.AnswerRecorded)
    assert record.entry.text == "kept" and record.entry.blocks[1] == UnknownBlock(original_type="server_tool_result")
    assert messages_of([record.entry]) == [{"role": "assistant", "content": [{"type": "text", "text": "kept"}]}]


def test_kept_and_recorded_is_the_same_entry_when_nothing_is_signed():
    entry = AssistantEntry(blocks=(TextBlock(text="hello"),))
    kept, recorded = kept_and_recorded(entry)
    assert kept == recorded == entry


def test_another_provider_gets_no_signature_no_encrypted_thinking_and_no_key():
    from mrsmith_tui.core.answer_blocks import unsigned
    from mrsmith_tui.history import UserEntry

    PROCESS.add(SECRET)
    history = [UserEntry(text="q"), AssistantEntry(blocks=(ReasoningBlock(text=f"key {SECRET}", signature="SIG=="),
                                                         RedactedThinkingBlock(data="ENC=="), TextBlock(text="a")))]
    out = unsigned(history)
    assert out[0] is history[0]
    assert out[1].blocks == (ReasoningBlock(text=PROCESS.redact(f"key {SECRET}")), TextBlock(text="a"))
    assert SECRET not in json.dumps([e.model_dump() for e in out])


def test_switching_to_another_provider_unsigns_the_history(tmp_path):
    from mrsmith_tui.config.schema import Config, ProviderConfig
    from mrsmith_tui.core.session import build_session

    PROCESS.add(SECRET)
    fakes: dict[str, FakeProvider] = {"p": FakeProvider(signed(f"think {SECRET}", "first")), "q": FakeProvider(answer("second"))}
    config = Config(providers=[ProviderConfig(name="p", protocol="anthropic"), ProviderConfig(name="q", protocol="minimax")],
                    agents=[AgentConfig(name="a", provider="p", model="claude-x"), AgentConfig(name="b", provider="q", model="mm")],
                    sessions_dir=str(tmp_path / "s"))
    s = build_session(config=config, agent_name="a", cwd=tmp_path, sink=msgs.ListSink(), approver=ScriptedApprover(),
                      provider_factory=lambda pc: fakes[pc.name])
    s.run("one", CancelToken())
    s.switch_agent("b")
    s.run("two", CancelToken())
    sent = messages_of(fakes["q"].requests[0].request.entries)
    assert not any(b["type"] in ("thinking", "redacted_thinking") for m in sent for b in m["content"])
    assert SECRET not in json.dumps(sent)
