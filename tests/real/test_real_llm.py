"""Against a real OpenAI-compatible server: `make test-real` (scripts/real-llm.sh starts one).

Skipped unless MRSMITH_REAL_BASE_URL is set. The server is llama.cpp's llama-server with a
tiny Gemma model: it streams text and usage and reports errors, but makes no tool calls.
"""

from __future__ import annotations

import os

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.history import UserEntry
from mrsmith_tui.provider.openai_compat import OpenAICompatProvider, list_models
from mrsmith_tui.provider.types import ChatRequest, ProviderError, StreamDone, StreamText

BASE_URL = os.environ.get("MRSMITH_REAL_BASE_URL", "")
MODEL = os.environ.get("MRSMITH_REAL_MODEL", "gemma")

pytestmark = [
    pytest.mark.real,
    pytest.mark.skipif(not BASE_URL, reason="MRSMITH_REAL_BASE_URL is not set"),
]


def real_provider() -> OpenAICompatProvider:
    return OpenAICompatProvider(name="real", base_url=BASE_URL, api_key=os.environ.get("MRSMITH_REAL_API_KEY"),
                                read_timeout=120)


def ask(text: str) -> ChatRequest:
    return ChatRequest(model=MODEL, system_prompt="", entries=(UserEntry(text=text),))


def test_streams_text_and_real_usage():
    events = list(real_provider().stream(ask("Say hello in five words."), CancelToken()))
    done = events[-1]
    assert isinstance(done, StreamDone)
    deltas = [e for e in events if isinstance(e, StreamText)]
    assert len(deltas) > 1, "the answer should arrive in several pieces"
    assert done.content == "".join(d.text for d in deltas) and (done.content.strip() or done.reasoning)
    assert not done.usage.estimated
    assert done.usage.prompt_tokens > 0 and done.usage.completion_tokens > 0
    assert done.finish_reason in {"stop", "length"}


def test_cancel_after_first_delta_yields_no_stream_done():
    cancel = CancelToken()
    seen = []
    for ev in real_provider().stream(ask("Count from one to fifty in words."), cancel):
        seen.append(ev)
        cancel.cancel()
    assert seen and not any(isinstance(e, StreamDone) for e in seen)


def test_oversized_prompt_is_one_line_error_from_the_server():
    with pytest.raises(ProviderError) as err:
        list(real_provider().stream(ask("word " * 9000), CancelToken()))
    # llama-server: "request (9024 tokens) exceeds the available context size (4096 tokens), ..."
    assert err.value.message.startswith("provider 'real' answered 400: ") and "context" in err.value.message
    assert "\n" not in err.value.message


def test_without_include_usage_the_stream_still_completes():
    p = OpenAICompatProvider(name="real", base_url=BASE_URL, api_key=None, include_usage=False, read_timeout=120)
    done = list(p.stream(ask("Hi"), CancelToken()))[-1]
    assert isinstance(done, StreamDone) and done.usage.completion_tokens > 0


def test_list_models():
    assert list_models(BASE_URL, None, timeout=10)
