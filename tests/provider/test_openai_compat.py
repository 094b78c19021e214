"""OpenAICompatProvider over a real socket (tests/loopback.py), errors and retries included."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from loopback import Turn, chunk, held, text_turn, tool_turn, usage_chunk
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import ProviderConfig
from mrsmith_tui.history import UserEntry
from mrsmith_tui.provider.chat_wire import request_messages
from mrsmith_tui.provider.openai_compat import OpenAICompatProvider, list_models, make_provider
from mrsmith_tui.provider.types import ChatRequest, ProviderError, StreamDone, StreamNotice, StreamReasoning, StreamText

REQUEST = ChatRequest(model="test-model", system_prompt="", entries=(UserEntry(text="hi"),))


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def provider(srv, *, sleep=None, **kw) -> OpenAICompatProvider:
    return OpenAICompatProvider(name="x", base_url=srv.base_url, api_key=kw.pop("api_key", "sk-test"),
                                sleep=sleep if sleep is not None else Sleeps(), **kw)


def cancel_once_asked(srv, cancel: CancelToken) -> None:
    """Cancel from another thread as soon as the server has the request (not after a guessed delay)."""
    def watch() -> None:
        while not srv.requests:
            threading.Event().wait(0.01)
        cancel.cancel()

    threading.Thread(target=watch, daemon=True).start()


def collect(p, request=REQUEST, cancel=None):
    return list(p.stream(request, cancel or CancelToken()))


def test_streams_text_reasoning_and_usage(loopback):
    srv = loopback([text_turn("Hello there", reasoning="thinking hard")])
    events = collect(provider(srv))
    done = events[-1]
    assert isinstance(done, StreamDone)
    assert done.content == "Hello there" and done.reasoning == "thinking hard"
    assert "".join(e.text for e in events if isinstance(e, StreamText)) == "Hello there"
    assert any(isinstance(e, StreamReasoning) for e in events)
    assert (done.usage.prompt_tokens, done.usage.completion_tokens, done.usage.estimated) == (10, 5, False)


def test_request_body_and_auth_header(loopback):
    srv = loopback([tool_turn("read_file", {"path": "a.py"})])
    tools = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
    request = ChatRequest(model="m1", system_prompt="S", entries=(UserEntry(text="go"),), tools=tools, reasoning_effort="high")
    done = collect(provider(srv), request)[-1]
    body, headers = srv.requests[0], {k.lower(): v for k, v in srv.headers[0].items()}
    assert body["model"] == "m1" and body["messages"] == request_messages(request) and body["tools"] == tools
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["reasoning_effort"] == "high"
    assert headers["authorization"] == "Bearer sk-test"
    assert done.tool_calls[0].name == "read_file" and done.tool_calls[0].arguments == '{"path": "a.py"}'


def test_optional_fields_are_omitted(loopback):
    srv = loopback([text_turn("ok")])
    request = ChatRequest(model="m", system_prompt="", entries=(UserEntry(text="x"),), reasoning_effort="  ")
    collect(provider(srv, api_key=None, include_usage=False), request)
    body, headers = srv.requests[0], {k.lower() for k in srv.headers[0]}
    assert "tools" not in body and "stream_options" not in body and "reasoning_effort" not in body
    assert "authorization" not in headers


def test_missing_usage_is_estimated(loopback):
    srv = loopback([text_turn("abcdefgh", usage=False)])
    done = collect(provider(srv))[-1]
    assert done.usage.estimated and done.usage.completion_tokens == 2 and done.usage.prompt_tokens >= 1


def test_missing_done_and_split_everywhere_and_pings(loopback):
    events = [": OPENROUTER PROCESSING\n\n", chunk(role="assistant", content=""), ": ping\r\n\r\n",
              chunk("héllo wörld 🎉"), chunk(finish="stop"), usage_chunk()]
    srv = loopback([Turn(events=events, done=False, split=3)])
    done = collect(provider(srv))[-1]
    assert done.content == "héllo wörld 🎉" and done.usage.prompt_tokens == 10


def test_401_is_not_retried_and_shows_the_provider_message(loopback):
    srv = loopback([Turn(status=401, body={"error": {"message": "Invalid API Key", "type": "invalid_request_error"}})])
    sleeps = Sleeps()
    with pytest.raises(ProviderError) as err:
        collect(provider(srv, sleep=sleeps))
    assert err.value.message == "provider 'x' answered 401: Invalid API Key"
    assert err.value.status == 401 and len(srv.requests) == 1 and sleeps == []


@pytest.mark.parametrize("body,shown", [
    ({"message": "model not found"}, "model not found"),
    ('plain   text\nerror', "plain text error"),
    ({"detail": [{"msg": "field required"}]}, "field required"),
    ("x" * 1000, None),
], ids=["message", "plain-text", "fastapi-detail", "very-long"])
def test_4xx_message_shapes(loopback, body, shown):
    srv = loopback([Turn(status=404, body=body)])
    with pytest.raises(ProviderError) as err:
        collect(provider(srv))
    assert err.value.message.startswith("provider 'x' answered 404: ")
    assert "\n" not in err.value.message and len(err.value.message) < 340
    if shown:
        assert err.value.message.endswith(shown)


def test_429_with_retry_after_then_success(loopback):
    srv = loopback([Turn(status=429, body={"error": {"message": "slow down"}}, headers={"Retry-After": "2"}),
                    text_turn("finally")])
    sleeps = Sleeps()
    done = collect(provider(srv, sleep=sleeps))[-1]
    assert done.content == "finally" and sleeps == [2.0] and len(srv.requests) == 2


def test_retry_after_as_http_date(loopback):
    from email.utils import formatdate

    srv = loopback([Turn(status=503, headers={"Retry-After": formatdate(time.time() + 40, usegmt=True)}), text_turn("ok")])
    sleeps = Sleeps()
    collect(provider(srv, sleep=sleeps))
    assert len(sleeps) == 1 and 10 <= sleeps[0] <= 40  # wide: the clock moves on a loaded machine


def test_500_three_times_is_an_error_after_backoff(loopback):
    srv = loopback([Turn(status=500, body={"error": {"message": "boom"}})])
    sleeps = Sleeps()
    with pytest.raises(ProviderError) as err:
        collect(provider(srv, sleep=sleeps))
    assert err.value.message == "provider 'x' answered 500: boom"
    assert len(srv.requests) == 3 and len(sleeps) == 2 and sleeps[1] > sleeps[0] > 0


def test_cut_mid_way_keeps_partial_text(loopback):
    turn = text_turn("Partial answer here", reasoning="why", pieces=3)
    turn.cut_after = 5
    srv = loopback([turn])
    seen = []
    with pytest.raises(ProviderError) as err:
        for ev in provider(srv).stream(REQUEST, CancelToken()):
            seen.append(ev)
    assert err.value.message.startswith("provider 'x' stream was cut mid-way: ")
    assert err.value.partial_reasoning == "why" and err.value.partial_content
    assert "Partial answer here".startswith(err.value.partial_content)
    assert not any(isinstance(e, StreamDone) for e in seen) and len(srv.requests) == 1


def test_a_malformed_chunk_is_skipped_and_the_answer_goes_on(loopback):
    srv = loopback([Turn(events=[chunk("ok "), "data: {oops\n\n", chunk("then more", finish="stop")])])
    events = collect(provider(srv))
    notices = [e for e in events if isinstance(e, StreamNotice)]
    assert [n.text for n in notices] == ["skipped a malformed chunk from provider 'x': {oops"]
    assert events[-1].content == "ok then more"


def test_retries_say_when_and_why(loopback):
    srv = loopback([Turn(status=429, body={"error": {"message": "slow down"}}, headers={"Retry-After": "2"}),
                    Turn(status=503), text_turn("finally")])
    events = collect(provider(srv, sleep=Sleeps()))
    notices = [e.text for e in events if isinstance(e, StreamNotice)]
    assert notices[0] == "retrying in 2 s (429 from 127.0.0.1)"
    assert notices[1].startswith("retrying in ") and notices[1].endswith(" s (503 from 127.0.0.1)")


def test_context_length_exceeded_is_not_retried_and_says_so(loopback):
    body = {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                      "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}
    srv = loopback([Turn(status=400, body=body)])
    with pytest.raises(ProviderError) as err:
        collect(provider(srv))
    assert err.value.context_exceeded and err.value.context_limit == 4096 and len(srv.requests) == 1


def test_a_vllm_error_object_mid_stream_ends_the_stream(loopback):
    srv = loopback([Turn(events=[chunk("so far"), {"object": "error", "message": "engine died", "type": "InternalError"}])])
    with pytest.raises(ProviderError) as err:
        collect(provider(srv))
    assert err.value.message == "provider 'x' sent an error: engine died" and err.value.partial_content == "so far"


def test_error_event_mid_stream(loopback):
    srv = loopback([Turn(events=[chunk("so far"), 'event: error\ndata: {"error": {"message": "quota"}}\n\n'])])
    with pytest.raises(ProviderError) as err:
        collect(provider(srv))
    assert err.value.message == "provider 'x' sent an error: quota" and err.value.partial_content == "so far"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_host_is_retried_then_named():
    port = closed_port()
    sleeps = Sleeps()
    p = OpenAICompatProvider(name="x", base_url=f"http://127.0.0.1:{port}/v1", api_key=None, sleep=sleeps)
    with pytest.raises(ProviderError) as err:
        collect(p)
    assert err.value.message.startswith(f"cannot reach provider 'x' at http://127.0.0.1:{port}/v1: ")
    assert len(sleeps) == 2


def test_cancel_mid_stream_returns_promptly(loopback):
    # The stream stops after 5 events and stays open: only the cancel can end the loop.
    srv = loopback([held(Turn(events=[chunk(f"t{i} ") for i in range(200)]), threading.Event(), at=5)])
    cancel = CancelToken()
    seen = []
    for ev in provider(srv).stream(REQUEST, cancel):
        seen.append(ev)
        if len(seen) == 3:
            threading.Thread(target=cancel.cancel).start()
    assert len(seen) <= 5 and not any(isinstance(e, StreamDone) for e in seen)


def test_cancel_while_waiting_for_the_first_byte(loopback):
    # A blocked read (the server holds its answer until the test ends) ends when the token is cancelled.
    srv = loopback([held(Turn(events=[chunk("late")]), threading.Event())])
    cancel = CancelToken()
    cancel_once_asked(srv, cancel)
    assert collect(provider(srv), cancel=cancel) == []
    assert len(srv.requests) == 1


def test_cancel_during_backoff_stops_retrying(loopback):
    srv = loopback([Turn(status=503, headers={"Retry-After": "3600"})])
    cancel = CancelToken()
    p = OpenAICompatProvider(name="x", base_url=srv.base_url, api_key=None)  # default sleep waits on the token
    cancel_once_asked(srv, cancel)
    assert [e for e in collect(p, cancel=cancel) if not isinstance(e, StreamNotice)] == []
    assert len(srv.requests) == 1


def test_read_timeout_is_configurable(loopback):
    srv = loopback([held(Turn(events=[chunk("a"), chunk("b")]), threading.Event(), at=1)])  # "b" never comes
    with pytest.raises(ProviderError, match=r"stream was cut mid-way: no data for 0\.3 s"):
        collect(provider(srv, read_timeout=0.3))


def test_a_server_that_takes_the_request_and_never_answers_is_not_asked_again(loopback):
    # The server reads the request and holds its answer for good: one readTimeout (from the config) is the
    # whole wait, not one per try (600 s became 30 minutes), and the error says what happened, in one line.
    srv = loopback([held(Turn(events=[chunk("never")]), threading.Event())])
    pc = ProviderConfig(name="local", base_url=srv.base_url, connect_timeout=0.5, read_timeout=0.2)
    events: list = []
    with pytest.raises(ProviderError) as err:
        events.extend(make_provider(pc, None, include_usage=True).stream(REQUEST, CancelToken()))
    assert len(srv.requests) == 1 and events == []  # no "retrying in" notice either
    assert err.value.message == (f"provider 'local' at {srv.base_url} took the request but sent nothing in 0.2 s "
                                 "(readTimeout; not tried again)")


def test_make_provider_from_config(loopback):
    srv = loopback([text_turn("hi")])
    pc = ProviderConfig(name="local", base_url=srv.base_url, read_timeout=42)
    p = make_provider(pc, "k", include_usage=False)
    assert p.name == "local" and "k" not in repr(p)
    collect(p)
    assert "stream_options" not in srv.requests[0]
    assert srv.headers[0].get("Authorization") == "Bearer k"


def test_list_models(loopback):
    srv = loopback(models=["b-model", "a-model"])
    assert list_models(srv.base_url, "k") == ["a-model", "b-model"]


def test_list_models_unreachable():
    with pytest.raises(ProviderError, match=r"^cannot reach http://127\.0\.0\.1:"):
        list_models(f"http://127.0.0.1:{closed_port()}/v1", None, timeout=1)


def test_a_non_streamed_json_answer_is_accepted():
    # Some servers ignore `stream: true` and answer one chat.completion object.
    import httpx

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={
            "id": "c", "object": "chat.completion",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "whole", "reasoning_content": "r"}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1}})

    p = OpenAICompatProvider(name="x", base_url="http://example.invalid/v1", api_key=None, transport=httpx.MockTransport(handler))
    done = collect(p)[-1]
    assert (done.content, done.reasoning, done.usage.prompt_tokens) == ("whole", "r", 3)


HTML = "<html>\n<head><title>Sign in</title></head>\x1b[2J<body>" + "portal " * 200 + "</body></html>"


def test_a_200_that_is_not_an_event_stream_is_an_error_naming_what_came(loopback):
    # nginx or a captive portal answering the POST with a page: once an empty successful answer
    srv = loopback([Turn(body=HTML, content_type="text/html; charset=utf-8")])
    with pytest.raises(ProviderError) as info:
        collect(provider(srv))
    message = info.value.message
    assert message.startswith("provider 'x' answered 200 text/html, not an event stream: <html> <head><title>Sign in")
    assert "\n" not in message and "\x1b" not in message and len(message) < 200
    assert not info.value.retryable and len(srv.requests) == 1


def test_an_event_stream_with_no_event_is_an_error_and_one_with_no_content_is_an_answer(loopback):
    with pytest.raises(ProviderError, match=r"answered 200 with an event stream that held no event: \(an empty body\)$"):
        collect(provider(loopback([Turn(events=[], done=False)])))
    done = collect(provider(loopback([Turn(events=[chunk(role="assistant", content=""), chunk(finish="stop")])])))[-1]
    assert isinstance(done, StreamDone) and done.content == "" and done.finish_reason == "stop"


@pytest.mark.parametrize("body", [b"", b"[]", b"null", b'{"status": "ok"}', b"<html>maintenance</html>"])
def test_a_200_json_body_that_is_no_completion_is_an_error_too(body):
    import httpx

    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body,
                                                                  headers={"content-type": "application/json"}))
    p = OpenAICompatProvider(name="x", base_url="http://example.invalid/v1", api_key=None, transport=transport)
    with pytest.raises(ProviderError, match=r"^provider 'x' answered 200 application/json, not an event stream or a "
                                            r"completion: "):
        collect(p)
