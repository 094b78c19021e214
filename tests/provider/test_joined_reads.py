"""What one network read brings goes to the run as few events: adjacent text (or reasoning) pieces joined.

`types.joined` is checked as a property over seeded random event sequences; the provider is
checked over a real socket, where a whole answer sent in one HTTP chunk arrives in one read.
"""

from __future__ import annotations

import itertools
import random

import pytest

from loopback import Turn, chunk, usage_chunk
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.provider.openai_compat import OpenAICompatProvider
from mrsmith_tui.provider.types import (
    ProviderError,
    StreamDone,
    StreamEvent,
    StreamNotice,
    StreamReasoning,
    StreamText,
    StreamToolCall,
    joined,
)
from tests.provider.test_openai_compat import REQUEST, Sleeps

_TEXTS = ("a", "b c", "", "é🎉", "\n", "<think>", "x" * 50)


def _random_events(rng: random.Random) -> list[StreamEvent]:
    events: list[StreamEvent] = []
    for _ in range(rng.randrange(0, 30)):
        roll = rng.random()
        if roll < 0.45:
            events.append(StreamText(rng.choice(_TEXTS)))
        elif roll < 0.85:
            events.append(StreamReasoning(rng.choice(_TEXTS)))
        elif roll < 0.92:
            events.append(StreamToolCall(index=0, name="f", arguments_chars=rng.randrange(9), arguments_tail="{}"))
        else:
            events.append(StreamNotice("skipped_chunk", f"n{rng.randrange(9)}"))
    return events


def _runs(events: list[StreamEvent]) -> list[tuple[str, object]]:
    """The sequence as the run sees it: each run of same-kind text as one joined string, other events as they are."""
    out: list[tuple[str, object]] = []
    for event in events:
        if isinstance(event, (StreamText, StreamReasoning)):
            kind = type(event).__name__
            if out and out[-1][0] == kind:
                out[-1] = (kind, str(out[-1][1]) + event.text)
                continue
            out.append((kind, event.text))
        else:
            out.append(("other", event))
    return out


@pytest.mark.parametrize("seed", range(300))
def test_joined_keeps_every_character_and_event_in_order(seed):
    events = _random_events(random.Random(seed))
    out = joined(events)
    assert _runs(out) == _runs(events)  # the same text of each kind, in the same order, the same other events
    assert all(type(a) is not type(b) or not isinstance(a, (StreamText, StreamReasoning))
               for a, b in itertools.pairwise(out))  # no two adjacent pieces of one kind are left
    assert joined(out) == out
    assert len(out) <= len(events)


def test_joined_does_not_join_text_across_reasoning_or_a_tool_call():
    call = StreamToolCall(index=0, name="f", arguments_chars=2, arguments_tail="{}")
    events = [StreamText("a"), StreamText("b"), StreamReasoning("r"), StreamText("c"), call, StreamText("d"),
              StreamText("e")]
    assert joined(events) == [StreamText("ab"), StreamReasoning("r"), StreamText("c"), call, StreamText("de")]


def _provider(srv) -> OpenAICompatProvider:
    return OpenAICompatProvider(name="x", base_url=srv.base_url, api_key="sk-test", sleep=Sleeps())


def _fire_hose(n: int) -> list[dict | str]:
    return ([chunk(role="assistant", content="")] + [chunk(reasoning=f"r{i} ") for i in range(n)]
            + [chunk(f"t{i} ") for i in range(n)] + [chunk(finish="stop"), usage_chunk()])


def test_a_whole_answer_in_one_read_is_one_piece_of_each_kind(loopback):
    # 400 events in one HTTP chunk (a few KB, one send on loopback): the client reads them together.
    srv = loopback([Turn(events=_fire_hose(200), split=1 << 20)])
    events = list(_provider(srv).stream(REQUEST, CancelToken()))
    texts = [e.text for e in events if isinstance(e, StreamText)]
    reasoning = [e.text for e in events if isinstance(e, StreamReasoning)]
    assert "".join(texts) == "".join(f"t{i} " for i in range(200))
    assert "".join(reasoning) == "".join(f"r{i} " for i in range(200))
    assert len(texts) + len(reasoning) < 20  # one or a few reads, not 400 events
    done = events[-1]
    assert isinstance(done, StreamDone) and done.content == "".join(texts) and done.usage == UsageInfo(
        prompt_tokens=10, completion_tokens=5, cache_reported=True)


def test_text_read_together_with_a_mid_stream_error_still_reaches_the_run(loopback):
    error = {"error": {"message": "engine died"}}
    srv = loopback([Turn(events=[chunk(role="assistant", content=""), chunk("so "), chunk("far"), error],
                         split=1 << 20)])
    seen: list[StreamEvent] = []
    with pytest.raises(ProviderError) as err:
        for event in _provider(srv).stream(REQUEST, CancelToken()):
            seen.append(event)
    assert err.value.message == "provider 'x' sent an error: engine died"
    assert "".join(e.text for e in seen if isinstance(e, StreamText)) == "so far" == err.value.partial_content



WRONG_SHAPES = [
    {"x_groq": "oops", "choices": []},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": 7, "function": "write"}]}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"name": ["x"], "arguments": 5}}]}}]},
    {"choices": [], "usage": {"prompt_tokens": 3, "prompt_tokens_details": "none", "completion_tokens_details": 9}},
]


@pytest.mark.parametrize("shape", WRONG_SHAPES, ids=["x_groq-str", "function-str", "name-list", "details-str"])
def test_a_chunk_of_the_wrong_shape_is_read_around_and_the_answer_goes_on(loopback, shape):
    srv = loopback([Turn(events=[chunk(role="assistant", content=""), chunk("Hello, "), shape, chunk("world"),
                                 chunk(finish="stop")], split=1 << 20)])
    events = list(_provider(srv).stream(REQUEST, CancelToken()))
    done = events[-1]
    assert isinstance(done, StreamDone) and done.content == "Hello, world"
    assert all(isinstance(c.id, str) and isinstance(c.name, str) for c in done.tool_calls)


def test_nothing_is_yielded_once_cancelled_even_from_a_read_already_assembled(loopback):
    cancel = CancelToken()
    srv = loopback([Turn(events=[chunk(reasoning="think"), chunk("Hello"), chunk(finish="stop")], split=1 << 20)])
    seen: list[StreamEvent] = []
    for event in _provider(srv).stream(REQUEST, cancel):
        seen.append(event)
        cancel.cancel()  # the consumer cancels on the first event of the read
    assert seen == [StreamReasoning("think")]


def test_text_read_before_a_defect_in_the_same_read_still_reaches_the_run(loopback, monkeypatch):
    from mrsmith_tui.provider import assemble

    feed = assemble.StreamAssembler.feed_data

    def broken(self, data, event="message"):
        if "boom" in data:
            raise RuntimeError("a defect")
        return feed(self, data, event)

    monkeypatch.setattr(assemble.StreamAssembler, "feed_data", broken)
    srv = loopback([Turn(events=[chunk("so far"), chunk("boom")], split=1 << 20)])
    seen: list[StreamEvent] = []
    with pytest.raises(RuntimeError):
        for event in _provider(srv).stream(REQUEST, CancelToken()):
            seen.append(event)
    assert seen == [StreamText("so far")]
