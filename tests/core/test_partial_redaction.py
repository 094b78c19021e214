"""A key the model echoed is never sent back to a provider, whether its answer was complete, cut or cancelled.

The history is what the next request (and, after `/agent NAME --keep`, another provider) is built
from, so the part of an answer kept after a cut stream or a cancel is redacted like a whole answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.core.conversation import Conversation
from mrsmith_tui.provider.types import ChatRequest, StreamEvent, StreamText
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.tools.approval import ApprovalGate
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.registry import ToolRegistry

from .fakes import FakeProvider, Script, ScriptedApprover, answer, failing

KEY = "sk-PARTIAL-ANSWER-0a1b2c3d4e"


def cancelled_midway(token: CancelToken) -> Script:
    """The key streams in two pieces, then the person cancels before the answer ends."""

    def script(req: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        yield StreamText("the key is " + KEY[:8])
        yield StreamText(KEY[8:] + " and more")
        token.cancel()
        yield StreamText(" never")

    return script


@pytest.mark.parametrize("ending", ["complete", "cut", "cancelled"])
def test_an_echoed_key_is_not_in_the_next_request(ending: str) -> None:
    PROCESS.add(KEY)
    first_turn = CancelToken()
    first = {
        "complete": answer("the key is " + KEY),
        "cut": failing("stream cut mid-way", partial="the key is " + KEY),
        "cancelled": cancelled_midway(first_turn),
    }[ending]
    provider = FakeProvider(first, answer("ok"))
    agent = AgentConfig(name="a", provider="fake", model="m")
    sink = msgs.ListSink()
    approver = ScriptedApprover()
    ctx = ToolContext(root=Path("."), cancel=CancelToken(), approver=approver, emit=sink)
    conv = Conversation(agent, provider, ToolRegistry([]), ctx, ApprovalGate(approver), sink, None, system_prompt="SYS")

    result = conv.run_turn("show me the key", first_turn)
    assert (result.error is not None, result.cancelled) == (ending == "cut", ending == "cancelled")
    conv.run_turn("and now?", CancelToken())

    sent = json.dumps(provider.requests[-1].messages)
    assert KEY not in sent and KEY.lower() not in sent.lower()
    assert "the key is [redacted]" in sent  # the answer itself is kept, only the key is replaced
    (recorded, _) = sink.of(msgs.AnswerRecorded)
    assert KEY not in recorded.entry.model_dump_json()
