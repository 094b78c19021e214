"""The tool loop: streaming, tool rounds, error results, limits, budget, provider errors, cancel."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.core.budget import ToolCallBudget
from mrsmith_tui.core.conversation import BUDGET_SPENT_INSTRUCTION, Conversation
from mrsmith_tui.history import ToolResultEntry, UserEntry, assistant
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.provider.types import StreamDone, StreamReasoning, StreamText
from mrsmith_tui.tools.approval import ApprovalGate
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.registry import ToolRegistry

from .fakes import BoomTool, EchoTool, FakeProvider, ScriptedApprover, WriteTool, answer, calls, failing


class ListTranscript:
    def __init__(self) -> None:
        self.records: list[msgs.Msg] = []

    def append(self, msg: msgs.Msg) -> None:
        self.records.append(msg)

    def types(self) -> list[str]:
        return [r.type for r in self.records]


def make(provider, *tools, approver=None, budget=None, **agent_kw):
    agent = AgentConfig(name="a", provider="fake", model="m", **agent_kw)
    sink = msgs.ListSink()
    approver = approver or ScriptedApprover()
    ctx = ToolContext(root=Path("."), cancel=CancelToken(), approver=approver, emit=sink)
    transcript = ListTranscript()
    conv = Conversation(
        agent, provider, ToolRegistry(tools), ctx, ApprovalGate(approver), sink, transcript, budget,
        system_prompt="SYS",
    )
    return conv, sink, transcript


def kinds(sink: msgs.ListSink) -> list[str]:
    return [type(m).__name__ for m in sink.msgs]


def test_text_answer_streams_blocks_and_ends_once():
    conv, sink, transcript = make(FakeProvider(answer("hello world", reasoning="think")))
    result = conv.run_turn("hi", CancelToken())
    assert result.final_text == "hello world" and not result.cancelled and result.error is None
    assert kinds(sink) == [
        "UserPrompt", "RunStarted", "PromptRecorded", "ReasoningDelta", "BlockEnded", "TextDelta", "TextDelta",
        "BlockEnded", "AnswerRecorded", "UsageReported", "RunEnded",
    ]
    ended = sink.of(msgs.BlockEnded)
    assert [(b.block_id, b.kind, b.text) for b in ended] == [("r1", "reasoning", "think"), ("t1", "text", "hello world")]
    assert transcript.types() == ["UserPrompt", "RunStarted", "PromptRecorded", "AnswerRecorded", "UsageReported",
                                  "RunEnded"]
    (recorded,) = sink.of(msgs.AnswerRecorded)
    assert recorded == transcript.records[3] and recorded.entry == assistant("hello world", "think")
    assert (recorded.reasoning_block, recorded.text_block) == ("r1", "t1")
    assert recorded.started == sink.of(msgs.ReasoningDelta)[0].at


def test_block_ids_stay_unique_across_turns():
    conv, sink, _ = make(FakeProvider(answer("one"), answer("two")))
    conv.run_turn("a", CancelToken())
    conv.run_turn("b", CancelToken())
    assert [b.block_id for b in sink.of(msgs.BlockEnded)] == ["t1", "t2"]
    assert [r.run_id for r in sink.of(msgs.RunEnded)] == ["run1", "run2"]


def test_tool_round_trip_feeds_result_back_with_its_call_id():
    echo = EchoTool()
    provider = FakeProvider(calls(("echo", {"text": "ab", "times": 2})), answer("done"))
    conv, sink, transcript = make(provider, echo)
    assert conv.run_turn("go", CancelToken()).final_text == "done"
    assert echo.calls == [{"text": "ab", "times": 2}]
    second = provider.requests[1].messages
    assert second[0] == {"role": "system", "content": "SYS"}
    assert second[-2]["tool_calls"][0]["id"] == "call_1" and second[-2]["content"] is None
    assert second[-1] == {"role": "tool", "tool_call_id": "call_1", "content": "abab"}
    assert [m.text for m in sink.of(msgs.ToolOutput)] == ["echoing ab\n"]
    finished = sink.of(msgs.ToolCallFinished)[0]
    assert (finished.call_id, finished.ok, finished.result) == ("call_1", True, "abab")
    assert sink.of(msgs.ToolCallStarted)[0].summary == ""
    assert transcript.types() == ["UserPrompt", "RunStarted", "PromptRecorded", "AnswerRecorded", "UsageReported",
                                  "ToolCallFinished", "AnswerRecorded", "UsageReported", "RunEnded"]
    assert transcript.records[5] == finished


def test_several_calls_in_one_message_run_in_order():
    echo = EchoTool()
    provider = FakeProvider(calls(("echo", {"text": "1"}), ("echo", {"text": "2"}), ("echo", {"text": "3"})), answer("ok"))
    conv, _sink, _ = make(provider, echo)
    conv.run_turn("go", CancelToken())
    assert [c["text"] for c in echo.calls] == ["1", "2", "3"]
    tool_msgs = [m for m in provider.requests[1].messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_msgs] == ["call_1", "call_2", "call_3"]


def _results_after(provider, conv_tools, *specs):
    provider = FakeProvider(calls(*specs), answer("ok"))
    conv, sink, _ = make(provider, *conv_tools)
    result = conv.run_turn("go", CancelToken())
    assert result.error is None, "a bad call must never end the run"
    return [m["content"] for m in provider.requests[1].messages if m["role"] == "tool"], sink


def test_unknown_tool_comes_back_as_an_error_naming_it():
    contents, sink = _results_after(None, [EchoTool()], ("nope", {}))
    assert contents == ["Error: unknown tool 'nope'; the tools are: echo"]
    assert sink.of(msgs.ToolCallFinished)[0].ok is False


def test_arguments_that_are_not_json_or_do_not_fit_the_schema():
    echo = EchoTool()
    contents, _ = _results_after(
        None, [echo], ("echo", '{"text": "a"'), ("echo", "[1]"), ("echo", {}), ("echo", {"text": "a", "times": "ten"})
    )
    assert contents[0].startswith("Error: echo: the arguments are not valid JSON")
    assert contents[1] == "Error: echo: the arguments must be a JSON object, got an array"
    assert contents[2] == "Error: echo: 'text' is required"
    assert contents[3] == "Error: echo: 'times' must be an integer, got \"ten\""
    assert echo.calls == []


def test_a_raising_tool_is_an_error_result():
    contents, _ = _results_after(None, [BoomTool()], ("boom", {}))
    assert contents == ["Error: boom failed: RuntimeError: kaboom"]


def test_refused_approval_is_a_denied_result_and_the_tool_does_not_run():
    write = WriteTool()
    approver = ScriptedApprover(decision="no")
    provider = FakeProvider(calls(("write", {})), answer("ok"))
    conv, sink, _ = make(provider, write, approver=approver)
    conv.run_turn("go", CancelToken())
    assert write.ran == 0 and approver.queries[0].spec == "write"
    finished = sink.of(msgs.ToolCallFinished)[0]
    assert finished.denied and not finished.ok
    assert "did not approve" in provider.requests[1].messages[-1]["content"]


def test_reasoning_is_stripped_from_the_next_request():
    provider = FakeProvider(calls(("echo", {"text": "x"}), reasoning="secret plan"), answer("ok"))
    conv, _, _ = make(provider, EchoTool())
    conv.run_turn("go", CancelToken())
    sent = json.dumps(provider.requests[1].messages)
    assert "secret plan" not in sent and "reasoning" not in sent
    assert conv.history[1].reasoning == "secret plan"  # history keeps everything


def test_reasoning_is_sent_back_when_thinking_is_preserve():
    provider = FakeProvider(answer("one", reasoning="because"), answer("two"))
    conv, _, _ = make(provider, thinking="preserve")
    conv.run_turn("a", CancelToken())
    conv.run_turn("b", CancelToken())
    sent_answer = provider.requests[1].messages[2]
    assert sent_answer == {"role": "assistant", "content": "one", "reasoning_content": "because"}


def test_round_cap_asks_and_yes_gives_a_fresh_set_of_rounds():
    approver = ScriptedApprover(continues=[True, True])
    tool_round = calls(("echo", {"text": "x"}))
    provider = FakeProvider(tool_round, tool_round, tool_round, tool_round, answer("finished"))
    conv, sink, _ = make(provider, EchoTool(), approver=approver, max_tool_rounds=2)
    result = conv.run_turn("go", CancelToken())
    assert approver.continue_asks == [2, 4]  # asked after each set, with the rounds done so far
    assert result.final_text == "finished" and len(provider.requests) == 5
    assert not sink.of(msgs.Notice)


def test_round_cap_no_stops_with_a_notice():
    approver = ScriptedApprover(continues=[False])
    provider = FakeProvider(calls(("echo", {"text": "x"})))
    conv, sink, _ = make(provider, EchoTool(), approver=approver, max_tool_rounds=3)
    result = conv.run_turn("go", CancelToken())
    assert approver.continue_asks == [3] and len(provider.requests) == 3
    assert "3 tool rounds" in sink.of(msgs.Notice)[0].text
    assert result.error is None and len(sink.of(msgs.RunEnded)) == 1


def test_budget_warns_once_at_80_percent_and_when_spent_asks_for_a_summary():
    budget = ToolCallBudget(5)
    provider = FakeProvider(
        calls(("echo", {"text": "1"}), ("echo", {"text": "2"})),
        calls(("echo", {"text": "3"}), ("echo", {"text": "4"})),
        calls(("echo", {"text": "5"}), ("echo", {"text": "6"})),  # the 6th call is refused
        answer("summary: send continue"),
    )
    echo = EchoTool()
    conv, sink, transcript = make(provider, echo, budget=budget)
    result = conv.run_turn("go", CancelToken())
    assert [c["text"] for c in echo.calls] == ["1", "2", "3", "4", "5"]
    codes = [w.code for w in sink.of(msgs.Warning)]
    assert codes == ["budget-80", "budget-100"]
    assert [(b.used, b.limit) for b in sink.of(msgs.ToolBudget)] == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]
    last = provider.requests[-1]
    assert last.tools == [] and last.messages[-1] == {"role": "user", "content": BUDGET_SPENT_INSTRUCTION}
    assert "budget" in provider.requests[3].messages[-2]["content"]  # the refused 6th call's result
    assert result.final_text == "summary: send continue"
    assert BUDGET_SPENT_INSTRUCTION not in json.dumps([e.model_dump() for e in conv.history])  # transient, not in history
    assert [m.code for m in transcript.records if isinstance(m, msgs.Warning)] == ["budget-80", "budget-100"]
    refused = [m for m in transcript.records if isinstance(m, msgs.ToolCallFinished)][-1]
    assert "budget" in refused.result and refused not in sink.msgs  # recorded, never shown: it did not run

    # `continue` grants a fresh budget: tools are offered again.
    provider.scripts = [answer("going on")]
    provider.requests.clear()
    conv.run_turn("continue", CancelToken())
    assert provider.requests[0].tools and budget.used == 0


def test_provider_error_ends_the_run_and_keeps_the_partial_text():
    provider = FakeProvider(failing("stream cut mid-way by 127.0.0.1", partial="half an ans"))
    conv, sink, transcript = make(provider)
    result = conv.run_turn("go", CancelToken())
    assert result.error == "stream cut mid-way by 127.0.0.1" and not result.cancelled
    assert sink.of(msgs.BlockEnded)[0].text == "half an ans"
    assert sink.of(msgs.Error)[0].text == result.error
    ended = sink.of(msgs.RunEnded)
    assert len(ended) == 1 and ended[0].error == result.error
    assert transcript.types() == ["UserPrompt", "RunStarted", "PromptRecorded", "AnswerRecorded", "Error", "RunEnded"]
    assert transcript.records[3].entry == assistant("half an ans", partial=True) == conv.history[-1]


def test_cancel_mid_stream_ends_once_with_cancelled():
    cancel = CancelToken()

    def script(req, token) -> Iterator:
        yield StreamText("partial ")
        cancel.cancel()  # the person presses Esc while tokens stream
        yield StreamText("never shown")
        yield StreamDone("partial never shown", "", (), "stop", UsageInfo(prompt_tokens=1, completion_tokens=1))

    conv, sink, transcript = make(FakeProvider(script))
    result = conv.run_turn("go", cancel)
    assert result.cancelled
    assert sink.of(msgs.BlockEnded)[0].text == "partial "
    assert [m.cancelled for m in sink.of(msgs.RunEnded)] == [True]
    assert transcript.records[-1] == sink.of(msgs.RunEnded)[0]
    assert transcript.records[-2].entry == assistant("partial ", partial=True)


def test_cancel_during_tools_answers_every_call_and_stops():
    cancel = CancelToken()

    class CancellingTool(EchoTool):
        name = "cancelling"

        def run(self, args, ctx):
            cancel.cancel()
            return super().run(args, ctx)

    provider = FakeProvider(calls(("cancelling", {"text": "a"}), ("cancelling", {"text": "b"})), answer("unused"))
    conv, sink, _ = make(provider, CancellingTool())
    result = conv.run_turn("go", cancel)
    assert result.cancelled and len(provider.requests) == 1
    tool_results = [m for m in conv.history if isinstance(m, ToolResultEntry)]
    assert [m.call_id for m in tool_results] == ["call_1", "call_2"]
    assert "cancelled" in tool_results[1].content
    assert len(sink.of(msgs.RunEnded)) == 1


def test_every_provider_delta_is_one_text_delta():
    """The core holds nothing back: how often text reaches a screen is the frontend's choice."""
    def script(req, token):
        yield StreamReasoning("hm")
        for piece in "abcdef":
            yield StreamText(piece)
        yield StreamDone("abcdef", "hm", (), "stop", UsageInfo(prompt_tokens=1, completion_tokens=1))

    conv, sink, _ = make(FakeProvider(script))
    conv.run_turn("go", CancelToken())
    assert [d.text for d in sink.of(msgs.TextDelta)] == list("abcdef")
    assert [d.text for d in sink.of(msgs.ReasoningDelta)] == ["hm"]
    assert [(e.kind, e.text) for e in sink.of(msgs.BlockEnded)] == [("reasoning", "hm"), ("text", "abcdef")]


def test_attachments_go_before_the_prompt():
    provider = FakeProvider(answer("ok"))
    conv, sink, transcript = make(provider)
    conv.run_turn("why?", CancelToken(), attachments=[("stdin", "log line\n")])
    user = provider.requests[0].messages[-1]["content"]
    assert user.index("log line") < user.index("why?") and 'name="stdin"' in user
    assert sink.of(msgs.UserPrompt)[0].text == "why?"
    (prompt,) = sink.of(msgs.PromptRecorded)
    assert prompt.attachments == ("stdin",) and prompt.entry.text == user and prompt in transcript.records


def test_reasoning_effort_sent_only_when_set():
    provider = FakeProvider(answer("ok"))
    conv, _, _ = make(provider, reasoning_effort="  ")
    conv.run_turn("a", CancelToken())
    conv.reasoning_effort = "high"
    conv.run_turn("b", CancelToken())
    assert [r.reasoning_effort for r in provider.requests] == [None, "high"]


def test_an_unexpected_bug_still_ends_the_run_once():
    def script(req, token):
        raise KeyError("oops")
        yield  # pragma: no cover

    conv, sink, _ = make(FakeProvider(script))
    result = conv.run_turn("go", CancelToken())
    assert result.error and result.error.startswith("internal error: KeyError")
    assert len(sink.of(msgs.RunEnded)) == 1


def test_tool_calls_ignored_when_no_tools_were_offered():
    budget = ToolCallBudget(1)
    budget.try_use()
    provider = FakeProvider(calls(("echo", {"text": "x"}), content="summary"))
    conv, _, _ = make(provider, EchoTool(), budget=budget)
    assert conv.run_turn("go", CancelToken()).final_text == "summary"
    assert not conv.history[-1].tool_calls and len(provider.requests) == 1


def test_a_provider_error_caused_by_cancel_is_a_cancel_not_an_error():
    from mrsmith_tui.provider.types import ProviderError

    cancel = CancelToken()

    def script(req, token):
        yield StreamText("some")
        cancel.cancel()
        raise ProviderError("stream cut", partial_content="some")

    conv, sink, _ = make(FakeProvider(script))
    result = conv.run_turn("go", cancel)
    assert result.cancelled and result.error is None and not sink.of(msgs.Error)
    assert sink.of(msgs.BlockEnded)[0].text == "some"


def test_a_stream_without_an_end_is_an_error_not_a_cancel():
    def script(req, token):
        yield StreamText("half")

    conv, sink, _ = make(FakeProvider(script))
    result = conv.run_turn("go", CancelToken())
    assert not result.cancelled and "ended the stream before finishing" in result.error
    assert sink.of(msgs.BlockEnded)[0].text == "half"


def test_context_added_during_a_tool_round_waits_for_the_results():
    provider = FakeProvider(calls(("loader", {"text": "x"})), answer("ok"))
    conv = None

    class Loader(EchoTool):
        name = "loader"

        def run(self, args, ctx):
            conv.add_context(msgs.ContextAdded(entry=UserEntry(text="SKILL BODY", kind="context"), skill="s",
                                               body="SKILL BODY"))
            return super().run(args, ctx)

    conv, _, transcript = make(provider, Loader())
    conv.run_turn("go", CancelToken())
    roles = [m["role"] for m in provider.requests[1].messages]
    assert roles == ["system", "user", "assistant", "tool", "user"]
    assert provider.requests[1].messages[-1]["content"] == "SKILL BODY"
    assert transcript.types().index("ContextAdded") > transcript.types().index("ToolCallFinished")


def test_a_tools_elapsed_leaves_out_the_time_spent_waiting_for_approval(monkeypatch):
    import types

    from mrsmith_tui.core import tool_round

    clock = [1000.0]  # the tool round's clock: only the person's reading moves it
    monkeypatch.setattr(tool_round, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))

    class SlowPerson(ScriptedApprover):
        def approve(self, query):
            clock[0] += 400.0  # the person reads the diff for minutes
            return super().approve(query)

    write = WriteTool()
    conv, sink, _transcript = make(FakeProvider(calls(("write", {})), answer("ok")), write, approver=SlowPerson())
    conv.run_turn("write it", CancelToken())
    (finished,) = sink.of(msgs.ToolCallFinished)
    assert finished.ok and finished.elapsed == 0.0


def test_stream_notices_become_a_retry_notice_and_one_warning_per_run_with_a_count():
    from mrsmith_tui.provider.types import StreamDone, StreamNotice

    def noisy(req, cancel):
        yield StreamNotice("retry", "retrying in 2 s (429 from host)")
        yield StreamText("a")
        yield StreamNotice("skipped_chunk", "skipped a malformed chunk from provider 'fake': {x")
        yield StreamNotice("skipped_chunk", "skipped a malformed chunk from provider 'fake': {y")
        yield StreamDone(content="a", reasoning="", tool_calls=(), finish_reason="stop", usage=UsageInfo(prompt_tokens=1, completion_tokens=1))

    conv, sink, _ = make(FakeProvider(noisy))
    conv.run_turn("hi", CancelToken())
    assert [m.text for m in sink.of(msgs.Notice)] == ["retrying in 2 s (429 from host)"]  # the TUI shows it as a line
    assert [m.code for m in sink.of(msgs.Warning)] == ["malformed-chunk"]
    assert sink.of(msgs.RunEnded)[0].skipped_chunks == 2
