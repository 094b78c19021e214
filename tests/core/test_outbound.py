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


def test_a_json_escaped_key_let_out_after_a_held_tail_is_still_redacted():
    # The trailing "s" could begin the key, so it is held; what goes out is then JSON that decodes to the key.
    for wrap in (lambda x: x, lambda x: m.FromAgent(agent_id="agent-1", msg=x)):
        f = OutboundFilter(Redactor([KEY]))
        for delta in (m.TextDelta(block_id="t1", text='{"a": "\\u0073k-UNIQUE-4b3c2d1e0f"}s'),
                      m.ReasoningDelta(block_id="r1", text='["\\u0073k-UNIQUE-4b3c2d1e0f"]s'),
                      m.ToolOutput(call_id="c1", text='{"k": "\\u0073\\u006b-UNIQUE-4b3c2d1e0f"}s')):
            shown = f(wrap(delta))
            assert len(shown) == 1
            inner = shown[0].msg if isinstance(shown[0], m.FromAgent) else shown[0]
            assert "UNIQUE-4b3c2d1e0f" not in inner.text and "[redacted]" in inner.text


def test_a_key_in_a_streams_id_or_an_agents_id_is_redacted():
    f = OutboundFilter(Redactor([KEY]))
    shown = run(f, [m.ToolOutput(call_id=f"call_{KEY}", text="out"),
                    m.FromAgent(agent_id=f"agent-{KEY}", msg=m.TextDelta(block_id=f"t-{KEY}", text="hi"))])
    assert KEY not in repr(shown) and shown[0].text == "out" and shown[1].msg.text == "hi"


def _reference(redactor, items):
    """The filter as it was before deltas skipped the walk over the whole Msg: the outputs must not differ."""
    from mrsmith_tui.security.redact import StreamRedactor, map_strings
    from mrsmith_tui.security.terminal_text import clean

    stream = StreamRedactor(redactor)
    kinds = {m.TextDelta: "text", m.ReasoningDelta: "reasoning", m.ToolOutput: "tool"}

    def delta(kind, stream_id, text):
        if kind == "tool":
            return m.ToolOutput(call_id=stream_id, text=text)
        return (m.TextDelta if kind == "text" else m.ReasoningDelta)(block_id=stream_id, text=text)

    def filt(msg, prefix):
        if isinstance(msg, m.FromAgent):
            return [msg.model_copy(update={"msg": inner}) for inner in filt(msg.msg, (*prefix, msg.agent_id))]
        if type(msg) in kinds:
            stream_id = msg.call_id if isinstance(msg, m.ToolOutput) else msg.block_id
            text = stream.feed((prefix, kinds[type(msg)], stream_id), msg.text)
            return [msg.model_copy(update={"text": text})] if text else []
        if isinstance(msg, m.BlockEnded):
            keys = [(prefix, msg.kind, msg.block_id)]
        elif isinstance(msg, m.ToolCallFinished):
            keys = [(prefix, "tool", msg.call_id)]
        elif isinstance(msg, m.RunEnded):
            keys = [k for k in stream.held_keys() if k[0] == prefix]
        else:
            keys = []
        held = [(k, stream.flush(k)) for k in keys]
        return [delta(k[1], k[2], text) for k, text in held if text] + [msg]

    out = []
    for item in items:
        out += [map_strings(redactor.redact_value(x), clean) for x in filt(item, ())]
    return out


def _timeless(msg):
    data = msg.model_dump(exclude={"at"})
    if isinstance(msg, m.FromAgent):
        data["msg"] = _timeless(msg.msg)
    return data


def test_the_filter_shows_what_it_showed_before_for_random_streams():
    import random

    other = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    pieces = [KEY, other, '{"a": "\\u0073k-UNIQUE-4b3c2d1e0f"}', "\x1b[2J", "plain ", "s", "sk-", "gh", "\n", "é🎉", '["',
              "\\u0073", "k-UNIQUE-4b3c", "2d1e0f", '"]']
    for seed in range(300):
        rng = random.Random(seed)
        items: list[m.Msg] = []
        for _ in range(rng.randrange(1, 25)):
            text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 4)))
            sid = rng.choice(["t1", "t2", f"c-{KEY}"])
            roll = rng.random()
            if roll < 0.3:
                msg: m.Msg = m.TextDelta(block_id=sid, text=text)
            elif roll < 0.5:
                msg = m.ReasoningDelta(block_id=sid, text=text)
            elif roll < 0.7:
                msg = m.ToolOutput(call_id=sid, text=text)
            elif roll < 0.8:
                msg = m.BlockEnded(block_id=sid, kind=rng.choice(["text", "reasoning"]), text=text)
            elif roll < 0.85:
                msg = m.ToolCallFinished(call_id=sid, name="shell", ok=True, result=text)
            elif roll < 0.9:
                msg = m.RunEnded(run_id="r")
            else:
                msg = m.Notice(text=text)
            if rng.random() < 0.3:
                msg = m.FromAgent(agent_id=rng.choice(["agent-1", f"agent-{KEY}"]), msg=msg)
            items.append(msg)
        redactor = Redactor([KEY, other])
        shown = run(OutboundFilter(redactor), items)
        expected = _reference(redactor, items)
        assert [_timeless(x) for x in shown] == [_timeless(x) for x in expected], seed
        assert KEY not in repr(shown) and other not in repr(shown)
