"""maxToolCallsPerTurn: a model answer with hundreds of tool calls runs only the first N."""

from __future__ import annotations

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken

from .fakes import EchoTool, FakeProvider, answer, calls
from .test_conversation import make


def test_a_turn_of_500_calls_runs_32_and_answers_the_rest_with_a_reason():
    echo = EchoTool()
    specs = [("echo", {"text": f"t{i}"}) for i in range(500)]
    provider = FakeProvider(calls(*specs), answer("all done"))
    conv, sink, transcript = make(provider, echo)
    result = conv.run_turn("go", CancelToken())
    assert result.final_text == "all done" and result.error is None and not result.cancelled
    assert [c["text"] for c in echo.calls] == [f"t{i}" for i in range(32)]
    tool_msgs = [m for m in provider.requests[1].messages if m.get("role") == "tool"]
    assert len(tool_msgs) == 500  # every call has its result, in order, or the next request is malformed
    assert [m["tool_call_id"] for m in tool_msgs] == [f"call_{i + 1}" for i in range(500)]
    refused = [m["content"] for m in tool_msgs[32:]]
    assert set(refused) == {"Error: not run: at most 32 tool calls per turn"}
    assert len(sink.of(msgs.ToolCallFinished)) == 32  # the refused ones are not drawn one by one
    warning = [w for w in sink.of(msgs.Warning) if w.code == "turn-cap"]
    assert len(warning) == 1 and "500 tool calls" in warning[0].text and "468 are not run" in warning[0].text
    assert len(sink.of(msgs.RunEnded)) == 1 and transcript.types()[-1] == "RunEnded"


def test_the_cap_is_configurable_and_does_not_spend_the_session_budget():
    echo = EchoTool()
    provider = FakeProvider(calls(*[("echo", {"text": "x"})] * 5), answer("ok"))
    conv, _sink, _ = make(provider, echo, max_tool_calls_per_turn=2, max_tool_calls_per_session=10)
    conv.run_turn("go", CancelToken())
    assert len(echo.calls) == 2 and conv.budget.used == 2
    contents = [m["content"] for m in provider.requests[1].messages if m.get("role") == "tool"]
    assert contents[2:] == ["Error: not run: at most 2 tool calls per turn"] * 3


def test_a_call_with_too_large_arguments_is_refused_with_its_size():
    from mrsmith_tui.msgs import UsageInfo
    from mrsmith_tui.provider.types import StreamDone, ToolCall

    def script(req, cancel):
        yield StreamDone("", "", (ToolCall("call_1", "echo", "{}", too_large=9_000_000),), "tool_calls", UsageInfo(prompt_tokens=1, completion_tokens=1))

    echo = EchoTool()
    provider = FakeProvider(script, answer("ok"))
    conv, _sink, _ = make(provider, echo)
    result = conv.run_turn("go", CancelToken())
    assert result.error is None and echo.calls == []
    (tool_msg,) = [m for m in provider.requests[1].messages if m.get("role") == "tool"]
    assert "arguments too large (9000000 characters" in tool_msg["content"] and "not run" in tool_msg["content"]
