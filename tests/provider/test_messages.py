"""The Messages adapter over a real socket (tests/messages_loopback.py): every event and block type."""

from __future__ import annotations

import json

import httpx
import pytest

from loopback import Turn
from messages_loopback import (
    MessagesServer,
    answer,
    block_start,
    block_stop,
    delta,
    error_event,
    message_end,
    message_start,
    ping,
    sse,
    text_answer,
    text_blocks,
    tool_answer,
    tool_blocks,
)
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.history import ReasoningBlock, RedactedThinkingBlock, TextBlock, ToolCallBlock, UserEntry
from mrsmith_tui.provider.messages import MessagesProvider
from mrsmith_tui.provider.types import (
    ChatRequest,
    ProviderError,
    StreamDone,
    StreamNotice,
    StreamReasoning,
    StreamText,
    StreamToolCall,
)

REQUEST = ChatRequest(model="claude-test", system_prompt="S", entries=(UserEntry(text="hi"),))


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def server():
    servers: list[MessagesServer] = []

    def start(turns=None, **kw) -> MessagesServer:
        srv = MessagesServer(turns, **kw).start()
        servers.append(srv)
        return srv

    yield start
    for srv in servers:
        srv.stop()


def provider(srv, *, base_url=None, sleep=None, **kw) -> MessagesProvider:
    return MessagesProvider(name="claude", base_url=base_url or srv.base_url, api_key=kw.pop("api_key", "sk-ant"),
                            sleep=sleep if sleep is not None else Sleeps(), **kw)


def collect(p, request=REQUEST):
    return list(p.stream(request, CancelToken()))


def test_text_and_signed_thinking_stream_in_order_with_headers_and_path(server):
    srv = server([text_answer("Hello there", thinking="let me think", signature="c2lnLTE=")])
    events = collect(provider(srv))
    done = events[-1]
    assert isinstance(done, StreamDone)
    assert "".join(e.text for e in events if isinstance(e, StreamReasoning)) == "let me think"
    assert "".join(e.text for e in events if isinstance(e, StreamText)) == "Hello there"
    assert done.blocks == (ReasoningBlock(text="let me think", signature="c2lnLTE="), TextBlock(text="Hello there"))
    assert done.finish_reason == "end_turn" and done.content == "Hello there"
    headers = {k.lower(): v for k, v in srv.headers[0].items()}
    assert srv.paths == ["/v1/messages"]
    assert headers["x-api-key"] == "sk-ant" and headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in headers
    body = srv.requests[0]
    assert body["system"] == "S" and body["stream"] is True and body["max_tokens"] > 0
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]


def test_a_base_that_ends_in_v1_is_not_doubled(server):
    srv = server([text_answer("ok")])
    collect(provider(srv, base_url=srv.base_url + "/v1/"))
    assert srv.paths == ["/v1/messages"]


def test_redacted_thinking_is_kept_as_its_own_block(server):
    turn = answer([block_start(0, {"type": "redacted_thinking", "data": "ENCRYPTED=="}), block_stop(0)],
                  text_blocks(1, "fine"))
    done = collect(provider(server([turn])))[-1]
    assert done.blocks == (RedactedThinkingBlock(data="ENCRYPTED=="), TextBlock(text="fine"))
    assert done.reasoning == ""


def test_tool_use_arguments_split_mid_token_and_two_calls(server):
    turn = answer(tool_blocks(0, "read_file", {"path": "src/a.py"}, "toolu_a"),
                  tool_blocks(1, "glob", {"pattern": "**/*.py"}, "toolu_b"), stop="tool_use")
    events = collect(provider(server([turn])))
    done = events[-1]
    assert [(c.id, c.name, json.loads(c.arguments)) for c in done.tool_calls] == [
        ("toolu_a", "read_file", {"path": "src/a.py"}), ("toolu_b", "glob", {"pattern": "**/*.py"})]
    assert done.blocks == tuple(ToolCallBlock(id=c.id, name=c.name, arguments=c.arguments) for c in done.tool_calls)
    live = [e for e in events if isinstance(e, StreamToolCall)]
    assert {e.index for e in live} == {0, 1} and live[-1].name == "glob"
    assert done.finish_reason == "tool_use"


def test_ping_unknown_events_and_unknown_block_types_are_skipped(server):
    turn = answer([sse("vendor_extension", {"x": 1}), block_start(0, {"type": "server_tool_use", "id": "s"}),
                   delta(0, {"type": "mystery_delta"}), block_stop(0), ping()], text_blocks(1, "still here"))
    done = collect(provider(server([turn])))[-1]
    assert done.blocks == (TextBlock(text="still here"),)


def test_an_error_event_ends_the_stream_with_the_servers_message(server):
    turn = Turn(events=[message_start(), *text_blocks(0, "part"), error_event("api_error", "Internal server error")],
                done=False)
    with pytest.raises(ProviderError) as info:
        collect(provider(server([turn])))
    assert "Internal server error" in info.value.message and info.value.partial_content == "part"


def test_overloaded_before_the_first_byte_is_retried_like_429(server):
    sleeps = Sleeps()
    overloaded = Turn(events=[message_start(), error_event("overloaded_error", "Overloaded")], done=False)
    srv = server([overloaded, text_answer("second try")])
    events = collect(provider(srv, sleep=sleeps))
    assert any(isinstance(e, StreamNotice) and e.kind == "retry" and "overloaded" in e.text for e in events)
    assert events[-1].content == "second try" and len(srv.requests) == 2 and len(sleeps) == 1


def test_529_is_retried(server):
    srv = server([Turn(status=529, body={"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
                  text_answer("ok")])
    events = collect(provider(srv))
    assert events[-1].content == "ok" and len(srv.requests) == 2


def test_overloaded_after_the_answer_began_is_not_retried(server):
    turn = Turn(events=[message_start(), *text_blocks(0, "half"), error_event("overloaded_error", "Overloaded")], done=False)
    srv = server([turn, text_answer("never")])
    with pytest.raises(ProviderError):
        collect(provider(srv))
    assert len(srv.requests) == 1


def test_a_4xx_names_the_server_message(server):
    srv = server([Turn(status=400, body={"type": "error", "error": {"type": "invalid_request_error",
                                                                    "message": "messages: roles must alternate"}})])
    with pytest.raises(ProviderError) as info:
        collect(provider(srv))
    assert info.value.status == 400 and "roles must alternate" in info.value.message


@pytest.mark.parametrize("stop", ["max_tokens", "refusal", "stop_sequence", "pause_turn"])
def test_stop_reasons_are_passed_on(server, stop):
    done = collect(provider(server([text_answer("cut", stop=stop)])))[-1]
    assert done.finish_reason == stop


def test_cache_usage_follows_the_one_contract(server):
    srv = server([text_answer("ok", usage={"input_tokens": 20, "cache_read": 900, "cache_creation": 80})])
    usage = collect(provider(srv))[-1].usage
    assert (usage.prompt_tokens, usage.cached_tokens, usage.completion_tokens) == (1000, 900, 5)
    assert usage.cache_reported and usage.cache_pct == 90.0 and not usage.estimated


def test_cache_not_reported_is_not_zero(server):
    usage = collect(provider(server([text_answer("ok", usage={"input_tokens": 20, "cache_read": None})])))[-1].usage
    assert usage.prompt_tokens == 20 and not usage.cache_reported and usage.cache_pct is None


def test_a_stream_without_message_stop_was_cut(server):
    turn = Turn(events=[message_start(), *text_blocks(0, "half an answ")], done=False)
    with pytest.raises(ProviderError) as info:
        collect(provider(server([turn])))
    assert "cut" in info.value.message and info.value.partial_content == "half an answ"


def test_a_malformed_event_is_skipped_with_a_notice(server):
    turn = answer(["event: content_block_delta\ndata: {not json\n\n"], text_blocks(0, "ok"))
    events = collect(provider(server([turn])))
    assert any(isinstance(e, StreamNotice) and e.kind == "skipped_chunk" for e in events)
    assert events[-1].content == "ok"


def test_lone_surrogates_become_replacement_characters(server):
    turn = Turn(events=[message_start(), block_start(0, {"type": "text", "text": ""}),
                        'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, '
                        '"delta": {"type": "text_delta", "text": "a\\ud800b"}}\n\n', block_stop(0), *message_end()],
                done=False)
    assert collect(provider(server([turn])))[-1].content == "a\ufffdb"


def test_a_server_that_ignores_stream_answers_one_whole_message():
    whole = {"id": "m", "type": "message", "role": "assistant", "stop_reason": "tool_use",
             "content": [{"type": "thinking", "thinking": "hm", "signature": "s1"}, {"type": "text", "text": "doing it"},
                         {"type": "tool_use", "id": "toolu_9", "name": "glob", "input": {"pattern": "*"}}],
             "usage": {"input_tokens": 5, "output_tokens": 7, "cache_read_input_tokens": 0}}
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=whole))
    p = MessagesProvider(name="c", base_url="http://x", api_key="k", transport=transport)
    done = collect(p)[-1]
    assert done.blocks == (ReasoningBlock(text="hm", signature="s1"), TextBlock(text="doing it"),
                           ToolCallBlock(id="toolu_9", name="glob", arguments='{"pattern": "*"}'))
    assert done.usage.prompt_tokens == 5 and done.finish_reason == "tool_use"


def test_thinking_alone_then_a_tool_with_a_signature_and_text_in_one_answer(server):
    turn = tool_answer("shell", {"command": "ls"}, thinking="I should list", signature="EqQBCkYIBxgC", text="Listing.")
    done = collect(provider(server([turn])))[-1]
    assert [type(b).__name__ for b in done.blocks] == ["ReasoningBlock", "TextBlock", "ToolCallBlock"]
    assert done.blocks[0].signature == "EqQBCkYIBxgC"


def test_a_done_sentinel_and_a_missing_message_stop_after_a_stop_reason_are_tolerated(server):
    turn = Turn(events=[message_start(), *text_blocks(0, "fine"),
                        sse("message_delta", {"delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}),
                        "data: [DONE]\n\n"], done=False)
    events = collect(provider(server([turn])))
    assert not any(isinstance(e, StreamNotice) for e in events)
    assert events[-1].content == "fine" and events[-1].finish_reason == "end_turn"


def _bare(event: str) -> str:
    """The same event without its `event:` line (the type only in the data), CRLF line ends."""
    data = next(line for line in event.splitlines() if line.startswith("data:"))
    return f"{data}\r\n\r\n"


def test_events_without_event_lines_with_crlf_comments_and_retry_cut_at_every_byte(server):
    events = [message_start(), ": keep-alive\r\nretry: 3000\r\n\r\n", ping(),
              *text_blocks(0, "héllo 😀 wörld"), ping(), *message_end()]
    turn = Turn(events=[_bare(e) if e.startswith("event:") else e for e in events], done=False, split=1)
    done = collect(provider(server([turn])))[-1]
    assert done.content == "héllo 😀 wörld" and done.finish_reason == "end_turn"
    assert done.usage.prompt_tokens == 10 and not done.usage.estimated


def test_a_delta_for_a_block_never_started_or_already_stopped_is_not_the_answers(server):
    turn = answer([delta(5, {"type": "text_delta", "text": "ghost "})], text_blocks(0, "real"),
                  [delta(0, {"type": "text_delta", "text": " late"}),
                   delta(0, {"type": "input_json_delta", "partial_json": "{}"})])
    done = collect(provider(server([turn])))[-1]
    assert done.content == "real" and done.blocks == (TextBlock(text="real"),)


def _anthropic_error(kind: str, message: str) -> dict:
    return {"type": "error", "error": {"type": kind, "message": message}, "request_id": "req_011"}


@pytest.mark.parametrize(("status", "kind", "message", "tries"), [
    (400, "invalid_request_error", "messages.1: unexpected tool_use_id", 1),
    (401, "authentication_error", "invalid x-api-key", 1),
    (403, "permission_error", "your key may not use this model", 1),
    (404, "not_found_error", "model: claude-nope", 1),
    (413, "request_too_large", "Request exceeds the maximum allowed number of bytes.", 1),
    (429, "rate_limit_error", "per-minute rate limit exceeded", 3),
    (500, "api_error", "Internal server error", 3),
    (529, "overloaded_error", "Overloaded", 3),
])
def test_each_http_error_says_the_servers_message_and_only_transient_ones_are_tried_again(server, status, kind,
                                                                                           message, tries):
    srv = server([Turn(status=status, body=_anthropic_error(kind, message), headers={"retry-after": "0"})] * 3)
    with pytest.raises(ProviderError) as info:
        collect(provider(srv))
    assert info.value.status == status and info.value.message.endswith(f"answered {status}: {message}")
    assert len(srv.requests) == tries and not info.value.context_exceeded


def test_a_prompt_too_long_400_is_a_context_error_naming_the_limit(server):
    srv = server([Turn(status=400, body=_anthropic_error(
        "invalid_request_error", "prompt is too long: 250000 tokens > 200000 maximum"))])
    with pytest.raises(ProviderError) as info:
        collect(provider(srv))
    assert info.value.context_exceeded and info.value.context_limit == 200_000 and len(srv.requests) == 1


@pytest.mark.parametrize(("base", "url"), [
    ("https://api.anthropic.com", "https://api.anthropic.com/v1/messages"),
    ("https://api.anthropic.com/", "https://api.anthropic.com/v1/messages"),
    ("https://api.anthropic.com/v1/", "https://api.anthropic.com/v1/messages"),
    ("https://api.anthropic.com/v1/messages", "https://api.anthropic.com/v1/messages"),
    ("https://gw.example/v1/messages/", "https://gw.example/v1/messages"),
    ("https://api.minimax.io/anthropic", "https://api.minimax.io/anthropic/v1/messages"),
    ("https://api.z.ai/api/anthropic/", "https://api.z.ai/api/anthropic/v1/messages"),
])
def test_the_messages_url_from_any_way_of_writing_the_base(base, url):
    assert MessagesProvider(name="a", base_url=base, api_key="k").url == url


def test_a_base_written_as_the_whole_endpoint_reaches_it_over_the_socket(server):
    srv = server([text_answer("ok")])
    assert collect(provider(srv, base_url=f"{srv.base_url}/v1/messages/"))[-1].content == "ok"
    assert srv.paths == ["/v1/messages"]


def test_an_event_of_no_type_is_not_a_whole_answer_so_a_cut_after_it_is_still_a_cut(server):
    turn = Turn(events=[message_start(), *text_blocks(0, "partial"), 'data: {"vendor": "keep-alive"}\n\n'], done=False)
    with pytest.raises(ProviderError) as info:
        collect(provider(server([turn])))
    assert "cut mid-way" in info.value.message and info.value.partial_content == "partial"


def test_a_200_page_that_is_not_an_event_stream_is_named_not_a_cut_stream(server):
    srv = server([Turn(body="<html><body>Please log in to the network</body></html>", content_type="text/html")])
    with pytest.raises(ProviderError) as info:
        collect(provider(srv))
    assert info.value.message == ("provider 'claude' answered 200 text/html, not an event stream: "
                                  "<html><body>Please log in to the network</body></html>")
