"""OutboundFilter: the one filter between the core and what a frontend shows."""
from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.core.outbound import OutboundFilter
from mrsmith_tui.security.redact import Redactor

KEY = "sk-UNIQUE-4b3c2d1e0f"


def run(f, items):
    out = []
    for item in items:
        out += f(item)
    return out


def test_a_key_cut_across_deltas_of_every_stream_kind():
    f = OutboundFilter(Redactor([KEY]))
    shown = run(f, [
        m.TextDelta(block_id="t1", text="a sk-UN"), m.ReasoningDelta(block_id="r1", text="sk-UNIQUE"),
        m.TextDelta(block_id="t1", text="IQUE-4b3c2d1e0f b"), m.BlockEnded(block_id="t1", kind="text", text="x"),
        m.ToolOutput(call_id="c1", text="out sk-UNIQUE-4b"), m.ToolCallFinished(call_id="c1", name="shell", ok=True, result=""),
        m.RunEnded(run_id="run1"),
    ])
    text = "".join(x.text for x in shown if isinstance(x, m.TextDelta))
    assert text == "a [redacted] b"
    tool = [x.text for x in shown if isinstance(x, m.ToolOutput)]
    assert "".join(tool) == "out sk-UNIQUE-4b"  # not the whole key: let out at the end of the call
    assert [type(x).__name__ for x in shown][-2:] == ["ReasoningDelta", "RunEnded"]  # held reasoning flushed by RunEnded


def test_agents_streams_are_their_own_and_stay_wrapped():
    f = OutboundFilter(Redactor([KEY]))
    shown = run(f, [
        m.FromAgent(agent_id="agent-1", msg=m.TextDelta(block_id="t1", text="sk-UNIQUE-")),
        m.TextDelta(block_id="t1", text="main"),
        m.FromAgent(agent_id="agent-1", msg=m.TextDelta(block_id="t1", text="4b3c2d1e0f!")),
    ])
    assert [type(x).__name__ for x in shown] == ["TextDelta", "FromAgent"]
    assert shown[0].text == "main" and shown[1].msg.text == "[redacted]!"


def test_every_string_is_cleaned_for_a_terminal():
    f = OutboundFilter(Redactor())
    (q,) = f(m.QuestionRequested(request_id="r", questions=(m.Question(question="\x1b]0;t\x07?", options=(m.QuestionOption(label="\x9b2J"),)),)))
    assert q.questions[0].question == "␛]0;t␇?" and q.questions[0].options[0].label == "\\x9b2J"
    (raw,) = OutboundFilter(Redactor(), clean=None)(m.Notice(text="\x1b[2J"))
    assert raw.text == "\x1b[2J"


def test_a_whole_answer_is_redacted_and_cleaned_to_its_blocks():
    from mrsmith_tui.history import ToolCallBlock, assistant

    entry = assistant(f"key {KEY}\x1b[2J", f"thinking of {KEY}",
                      tool_calls=(ToolCallBlock(id="c1", name="shell", arguments=f'{{"command": "echo {KEY}"}}'),))
    (shown,) = OutboundFilter(Redactor([KEY]))(m.FromAgent(agent_id="a", msg=m.AnswerRecorded(run_id="r", entry=entry)))
    answer = shown.msg.entry
    assert (answer.text, answer.reasoning) == ("key [redacted]␛[2J", "thinking of [redacted]")
    assert answer.tool_calls[0].arguments == '{"command": "echo [redacted]"}' and answer.blocks[0].type == "reasoning"
