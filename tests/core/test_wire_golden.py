"""The bytes sent for a scripted session did not change when the history became typed.

The fixtures in tests/core/fixtures/chat_wire_*.jsonl are the request bodies (one JSON line
per model call, as `OpenAICompatProvider.request_body` builds them) that the code before
the typed history (#15) sent for the scenarios below; the same scenarios must send the same
bytes now. The scenario covers every entry kind: prompts with an attachment, reasoning,
answers with text and tool calls and with tool calls only, a call whose arguments do not
parse, tool results, a skill body put into the context, a partial answer cut by a broken
stream, the budget-spent instruction, and a compaction; with thinking stripped and
preserved, and with the full and the sliding builder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.core.budget import ToolCallBudget
from mrsmith_tui.core.compact import compaction_cut
from mrsmith_tui.core.conversation import Conversation
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.provider.openai_compat import OpenAICompatProvider
from mrsmith_tui.provider.types import (
    ChatRequest,
    ProviderError,
    StreamDone,
    StreamEvent,
    StreamReasoning,
    StreamText,
    ToolCall,
)
from mrsmith_tui.session.rebuild import apply_compaction
from mrsmith_tui.tools.approval import ApprovalGate
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.registry import ToolRegistry

from .fakes import EchoTool, FakeProvider, ScriptedApprover, answer, calls

FIXTURES = Path(__file__).parent / "fixtures"

SCENARIOS = {
    "strip-full": {"thinking": "strip", "context_builder": "full"},
    "preserve-full": {"thinking": "preserve", "context_builder": "full"},
    "preserve-sliding": {"thinking": "preserve", "context_builder": "sliding", "max_context_tokens": 1000},
}


def cut_stream(reasoning: str, partial: str) -> object:
    def script(req: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        yield StreamReasoning(reasoning)
        yield StreamText(partial)
        raise ProviderError("stream cut mid-way", partial_content=partial)

    return script


def unparsable_call(req: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
    call = ToolCall(id="call_bad", name="echo", arguments='{"text": "unclosed')
    yield StreamDone("", "", (call,), "tool_calls", UsageInfo(prompt_tokens=120, completion_tokens=8))


def run_scenario(thinking: str, context_builder: str, max_context_tokens: int = 128_000) -> list[str]:
    heavy = UsageInfo(prompt_tokens=2500, completion_tokens=10)  # real prompt tokens well above the estimate: the estimator scales up
    provider = FakeProvider(
        calls(("echo", {"text": "ab", "times": 2}), reasoning="plan: look first", content="Looking.", usage=heavy),
        unparsable_call,
        answer("Done: abab", reasoning="that worked", usage=heavy),
        cut_stream("thinking it over", "half an ans"),
        calls(("echo", {"text": "c"}), ("echo", {"text": "ü ✓"}), usage=heavy),
        answer("summary: the budget is spent", reasoning="wrap up", usage=heavy),
        answer("after the compaction", usage=UsageInfo(prompt_tokens=90, completion_tokens=5)),
        answer("the last word"),
    )
    agent = AgentConfig(name="a", provider="fake", model="m", thinking=thinking, context_builder=context_builder,
                        max_context_tokens=max_context_tokens)
    sink = msgs.ListSink()
    approver = ScriptedApprover()
    ctx = ToolContext(root=Path("."), cancel=CancelToken(), approver=approver, emit=sink)
    conv = Conversation(agent, provider, ToolRegistry([EchoTool()]), ctx, ApprovalGate(approver), sink, None,
                        ToolCallBudget(4), system_prompt="You are the scripted agent.")
    conv.run_turn("read the notes", CancelToken(), attachments=[("stdin", "piped notes\n")])
    conv.add_context("[skill body] Plan first, then act.")
    conv.run_turn("second", CancelToken())
    conv.run_turn("third", CancelToken())
    _, cut = compaction_cut(conv.history, keep_turns=2)
    apply_compaction(conv.history, "the notes were read; two echoes ran", cut)
    conv.run_turn("after compaction", CancelToken())
    conv.run_turn("one more " + "x" * 2000, CancelToken())
    wire = OpenAICompatProvider(name="fake", base_url="http://127.0.0.1:9/v1", api_key=None)
    return [json.dumps(wire.request_body(sent.request), ensure_ascii=False) for sent in provider.requests]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_bodies_sent_are_byte_identical_to_before_the_typed_history(name):
    bodies = run_scenario(**SCENARIOS[name])  # type: ignore[arg-type]
    expected = (FIXTURES / f"chat_wire_{name}.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(bodies) == len(expected)
    for n, (got, want) in enumerate(zip(bodies, expected, strict=True)):
        assert got == want, f"request {n} differs"
