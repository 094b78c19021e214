"""Stream assembly from chunk shapes that real providers document or were seen sending.

Each case names its source. Chunks are reduced to the fields that matter plus the noise
fields the provider sends (ids, logprobs, system_fingerprint), so unknown keys are proven harmless.
"""

from __future__ import annotations

import json

import pytest

from mrsmith_tui.history import UserEntry
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.provider.assemble import MAX_BAD_CHUNKS, StreamAssembler
from mrsmith_tui.provider.server_errors import context_exceeded
from mrsmith_tui.provider.types import (
    ChatRequest,
    ProviderError,
    StreamDone,
    StreamNotice,
    StreamReasoning,
    StreamText,
    StreamToolCall,
    ToolCall,
)


def assemble(chunks, request=None):
    asm = StreamAssembler("p", request)
    events = []
    for c in chunks:
        events += asm.feed_data(c if isinstance(c, str) else json.dumps(c))
    return events, asm.finish()


def choice(delta, finish=None, **extra):
    out = {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m",
           "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}
    out.update(extra)
    return out


def texts(events, kind):
    return "".join(e.text for e in events if isinstance(e, kind))


# --- OpenAI ---------------------------------------------------------------------------

def test_openai_text_with_usage_on_final_empty_choices_chunk():
    # platform.openai.com/docs/api-reference/chat-streaming: role on the first delta only,
    # `refusal: null`, an empty delta with finish_reason, then usage with `choices: []`.
    events, done = assemble([
        choice({"role": "assistant", "content": "", "refusal": None}, system_fingerprint="fp_1"),
        choice({"content": "Hel"}),
        choice({"content": "lo"}),
        choice({}, "stop"),
        {"id": "x", "object": "chat.completion.chunk", "choices": [],
         "usage": {"prompt_tokens": 19, "completion_tokens": 10, "total_tokens": 29,
                   "prompt_tokens_details": {"cached_tokens": 8, "audio_tokens": 0},
                   "completion_tokens_details": {"reasoning_tokens": 4, "audio_tokens": 0}}},
        "[DONE]",
    ])
    assert events == [StreamText("Hel"), StreamText("lo")]
    assert done.content == "Hello" and done.finish_reason == "stop"
    assert done.usage == UsageInfo(prompt_tokens=19, completion_tokens=10, cached_tokens=8, reasoning_tokens=4, cache_reported=True)


def test_openai_parallel_tool_calls_in_fragments():
    # OpenAI function-calling guide, streaming: id/name on the first fragment of each index,
    # `content: null`, arguments in pieces, finish_reason "tool_calls".
    events, done = assemble([
        choice({"role": "assistant", "content": None, "tool_calls": [
            {"index": 0, "id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}),
        choice({"tool_calls": [{"index": 0, "function": {"arguments": '{"loc'}}]}),
        choice({"tool_calls": [{"index": 0, "function": {"arguments": 'ation": "Paris"}'}}]}),
        choice({"tool_calls": [{"index": 1, "id": "call_b", "type": "function",
                                "function": {"name": "get_time", "arguments": ""}}]}),
        choice({"tool_calls": [{"index": 1, "function": {"arguments": "{}"}}]}),
        choice({}, "tool_calls"),
    ])
    assert done.tool_calls == (
        ToolCall("call_a", "get_weather", '{"location": "Paris"}'),
        ToolCall("call_b", "get_time", "{}"),
    )
    assert done.finish_reason == "tool_calls" and done.content == ""
    assert StreamToolCall(0, "get_weather", 5, '{"loc') in events


def test_interleaved_tool_call_fragments_merge_by_index():
    # Several calls interleaved (seen from vLLM / OpenRouter fan-out): merge by index, not order.
    _, done = assemble([
        choice({"tool_calls": [{"index": 0, "id": "a", "function": {"name": "f", "arguments": "{\"x\""}},
                               {"index": 1, "id": "b", "function": {"name": "g", "arguments": "{\"y\""}}]}),
        choice({"tool_calls": [{"index": 1, "function": {"arguments": ": 2}"}}]}),
        choice({"tool_calls": [{"index": 0, "function": {"arguments": ": 1}"}}]}),
    ])
    assert done.tool_calls == (ToolCall("a", "f", '{"x": 1}'), ToolCall("b", "g", '{"y": 2}'))


# --- DeepSeek -------------------------------------------------------------------------

def test_deepseek_reasoner_reasoning_content_and_cache_hit_usage():
    # api-docs.deepseek.com/guides/reasoning_model: reasoning_content then content (the
    # other field null); usage with prompt_cache_hit_tokens / miss and reasoning_tokens.
    events, done = assemble([
        choice({"role": "assistant", "content": None, "reasoning_content": ""}),
        choice({"content": None, "reasoning_content": "9.11 vs 9.8"}),
        choice({"content": None, "reasoning_content": ": compare tenths."}),
        choice({"content": "9.8 is", "reasoning_content": None}),
        choice({"content": " larger.", "reasoning_content": None}, "stop",
               usage={"prompt_tokens": 12, "completion_tokens": 40, "total_tokens": 52,
                      "prompt_tokens_details": {"cached_tokens": 0},
                      "prompt_cache_hit_tokens": 6, "prompt_cache_miss_tokens": 6,
                      "completion_tokens_details": {"reasoning_tokens": 30}}),
    ])
    assert done.reasoning == "9.11 vs 9.8: compare tenths."
    assert done.content == "9.8 is larger."
    assert isinstance(events[0], StreamReasoning) and isinstance(events[-1], StreamText)
    assert done.usage == UsageInfo(prompt_tokens=12, completion_tokens=40, cached_tokens=6, reasoning_tokens=30, cache_reported=True)


# --- OpenRouter -----------------------------------------------------------------------

def test_openrouter_reasoning_and_reasoning_details_are_not_doubled():
    # openrouter.ai/docs/use-cases/reasoning-tokens: `reasoning` and `reasoning_details`
    # carry the same text in one delta; keep it once.
    _, done = assemble([
        choice({"role": "assistant", "content": "", "reasoning": "Let me",
                "reasoning_details": [{"type": "reasoning.text", "text": "Let me", "format": "unknown", "index": 0}]}),
        choice({"content": "", "reasoning": " think.",
                "reasoning_details": [{"type": "reasoning.text", "text": " think.", "index": 0}]}),
        choice({"content": "Done."}, "stop"),
    ])
    assert done.reasoning == "Let me think." and done.content == "Done."


def test_reasoning_details_alone():
    # OpenRouter (Anthropic / Gemini upstreams): only `reasoning_details[]` with text or summary.
    _, done = assemble([
        choice({"reasoning_details": [{"type": "reasoning.summary", "summary": "Plan. "}]}),
        choice({"reasoning_details": [{"type": "reasoning.text", "text": "Step.", "signature": None}]}),
        choice({"reasoning_details": [{"type": "reasoning.encrypted", "data": "opaque"}]}),
    ])
    assert done.reasoning == "Plan. Step."


def test_openrouter_error_mid_stream_keeps_partial_text():
    # openrouter.ai/docs/api-reference/errors ("errors during streaming"): an `error` object in
    # a chunk whose choice has finish_reason "error".
    asm = StreamAssembler("openrouter")
    asm.feed_data(json.dumps(choice({"content": "Partial"})))
    with pytest.raises(ProviderError) as err:
        asm.feed_data(json.dumps(choice({"content": ""}, "error", provider="openai",
                                        error={"code": "server_error", "message": "Provider disconnected"})))
    assert err.value.message == "provider 'openrouter' sent an error: Provider disconnected"
    assert err.value.partial_content == "Partial"


# --- vLLM -----------------------------------------------------------------------------

def test_vllm_reasoning_parser_and_tool_call_without_arguments_key():
    # docs.vllm.ai reasoning_outputs / tool_calling: reasoning_content deltas; the first tool
    # fragment has id/name and no "arguments" key; usage on a final `choices: []` chunk.
    _, done = assemble([
        choice({"role": "assistant", "content": ""}),
        choice({"reasoning_content": "Need weather."}),
        choice({"tool_calls": [{"id": "chatcmpl-tool-1", "type": "function", "index": 0,
                                "function": {"name": "get_weather"}}]}),
        choice({"tool_calls": [{"index": 0, "function": {"arguments": '{"city": "Oslo"}'}}]}),
        choice({"content": ""}, "tool_calls"),
        {"id": "x", "choices": [], "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59,
                                             "prompt_tokens_details": None}},
    ])
    assert done.reasoning == "Need weather."
    assert done.tool_calls == (ToolCall("chatcmpl-tool-1", "get_weather", '{"city": "Oslo"}'),)
    assert done.usage == UsageInfo(prompt_tokens=50, completion_tokens=9)


# --- llama.cpp ------------------------------------------------------------------------

def test_llama_cpp_reasoning_and_usage_on_last_choice_chunk():
    # llama.cpp tools/server (OAI-compat): reasoning_content with --reasoning-format deepseek;
    # the finishing chunk carries usage and `timings`.
    _, done = assemble([
        {"choices": [{"finish_reason": None, "index": 0, "delta": {"role": "assistant", "content": None}}],
         "created": 1, "id": "chatcmpl-l", "model": "gemma", "system_fingerprint": "b5000", "object": "chat.completion.chunk"},
        {"choices": [{"finish_reason": None, "index": 0, "delta": {"reasoning_content": "Hmm."}}], "object": "chat.completion.chunk"},
        {"choices": [{"finish_reason": None, "index": 0, "delta": {"content": "Hi!"}}], "object": "chat.completion.chunk"},
        {"choices": [{"finish_reason": "length", "index": 0, "delta": {}}], "object": "chat.completion.chunk",
         "usage": {"completion_tokens": 3, "prompt_tokens": 7, "total_tokens": 10},
         "timings": {"prompt_n": 7, "predicted_n": 3}},
    ])
    assert (done.reasoning, done.content, done.finish_reason) == ("Hmm.", "Hi!", "length")
    assert done.usage == UsageInfo(prompt_tokens=7, completion_tokens=3)


def test_llama_cpp_error_chunk():
    # llama.cpp server sends `data: {"error": {"code": 500, "message": ..., "type": "server_error"}}`.
    asm = StreamAssembler("llama")
    with pytest.raises(ProviderError, match=r"^provider 'llama' sent an error: context too long$"):
        asm.feed_data('{"error": {"code": 500, "message": "context too long", "type": "server_error"}}')


def test_error_as_sse_event_type():
    # Some gateways send `event: error` with a bare object.
    with pytest.raises(ProviderError, match="sent an error: overloaded"):
        StreamAssembler("p").feed_data('{"message": "overloaded"}', event="error")


# --- Ollama ---------------------------------------------------------------------------

def test_ollama_reasoning_field_and_whole_tool_call_in_one_chunk():
    # github.com/ollama/ollama docs/openai.md: `reasoning` for thinking models, a tool call
    # sent whole in one chunk, `system_fingerprint: fp_ollama`.
    _, done = assemble([
        choice({"role": "assistant", "content": "", "reasoning": "User wants files."}, system_fingerprint="fp_ollama"),
        choice({"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_o1", "index": 0, "type": "function",
             "function": {"name": "glob", "arguments": '{"pattern":"**/*.py"}'}}]}),
        choice({"role": "assistant", "content": ""}, "tool_calls"),
    ])
    assert done.reasoning == "User wants files."
    assert done.tool_calls == (ToolCall("call_o1", "glob", '{"pattern":"**/*.py"}'),)


def test_tool_calls_without_index():
    # Older Ollama / some proxies omit `index`: a new id starts a call, a bare fragment continues the last.
    _, done = assemble([
        choice({"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "a", "arguments": '{"n":'}}]}),
        choice({"tool_calls": [{"function": {"arguments": "1}"}}]}),
        choice({"tool_calls": [{"id": "c2", "type": "function", "function": {"name": "b", "arguments": "{}"}}]}),
    ])
    assert done.tool_calls == (ToolCall("c1", "a", '{"n":1}'), ToolCall("c2", "b", "{}"))


def test_every_call_index_zero_with_distinct_ids():
    # Some gateways number every parallel call index 0, each with its own id.
    _, done = assemble([
        choice({"tool_calls": [{"index": 0, "id": "x1", "function": {"name": "a", "arguments": "{}"}}]}),
        choice({"tool_calls": [{"index": 0, "id": "x2", "function": {"name": "b", "arguments": "{}"}}]}),
    ])
    assert [c.id for c in done.tool_calls] == ["x1", "x2"]


def test_arguments_as_object_are_reserialised():
    # Non-conforming servers (proxies forwarding Ollama's native shape) send an object.
    _, done = assemble([choice({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "f", "arguments": {"a": [1, "é"]}}}]})])
    assert json.loads(done.tool_calls[0].arguments) == {"a": [1, "é"]}


def test_missing_id_gets_a_stable_one():
    _, done = assemble([choice({"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": "{}"}}]})])
    assert done.tool_calls == (ToolCall("call_0", "f", "{}"),)


# --- Groq -----------------------------------------------------------------------------

def test_groq_usage_in_x_groq_and_reasoning_field():
    # console.groq.com/docs/reasoning (reasoning_format=parsed -> `reasoning`); usage under
    # `x_groq.usage` on the final chunk when stream_options is not honoured.
    _, done = assemble([
        choice({"role": "assistant", "content": ""}, x_groq={"id": "req_1"}),
        choice({"reasoning": "Short."}),
        choice({"content": "Answer"}),
        choice({}, "stop", x_groq={"id": "req_1", "usage": {"queue_time": 0.01, "prompt_tokens": 30, "prompt_time": 0.002,
                                                             "completion_tokens": 4, "total_tokens": 34}}),
    ])
    assert done.reasoning == "Short." and done.usage == UsageInfo(prompt_tokens=30, completion_tokens=4)


# --- Mistral --------------------------------------------------------------------------

def test_mistral_tool_call_whole_and_usage_on_last_choice_chunk():
    # docs.mistral.ai function calling (streamed): the call arrives whole with a 9-char id,
    # usage on the chunk that carries finish_reason.
    _, done = assemble([
        choice({"role": "assistant", "content": ""}),
        choice({"tool_calls": [{"id": "D681PevKs", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}, "index": 0}]},
               "tool_calls", usage={"prompt_tokens": 90, "total_tokens": 110, "completion_tokens": 20}),
    ])
    assert done.tool_calls == (ToolCall("D681PevKs", "read_file", '{"path": "a.py"}'),)
    assert done.usage == UsageInfo(prompt_tokens=90, completion_tokens=20)


def test_mistral_magistral_thinking_content_parts():
    # docs.mistral.ai reasoning (Magistral): content is a list of typed parts, "thinking" first.
    _, done = assemble([
        choice({"role": "assistant", "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "Consider."}]}]}),
        choice({"content": [{"type": "text", "text": "Result."}]}),
        choice({"content": "!"}, "stop"),
    ])
    assert done.reasoning == "Consider." and done.content == "Result.!"


# --- <think> in content (GLM / Qwen / DeepSeek-R1 distills served raw) ----------------

THINK = "\n<think>\nstep one</think>\n\nThe answer."


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 100])
def test_leading_think_split_at_any_piece_size(size):
    pieces = [THINK[i : i + size] for i in range(0, len(THINK), size)]
    events, done = assemble([choice({"content": p}) for p in pieces])
    assert done.reasoning == "\nstep one"
    assert done.content == "The answer."
    assert texts(events, StreamReasoning) == done.reasoning and texts(events, StreamText) == done.content


def test_think_only_counts_at_the_start():
    _, done = assemble([choice({"content": "Use <think>"}), choice({"content": " tags</think> like this."})])
    assert done.content == "Use <think> tags</think> like this." and done.reasoning == ""


def test_a_lone_less_than_is_content_once_it_cannot_be_think():
    events, done = assemble([choice({"content": "<"}), choice({"content": "b>bold"})])
    assert done.content == "<b>bold" and events == [StreamText("<b>bold")]


def test_unclosed_think_is_reasoning():
    _, done = assemble([choice({"content": "<think>still thinking"})])
    assert done.reasoning == "still thinking" and done.content == ""


def test_content_that_is_a_prefix_of_think_is_flushed_at_the_end():
    _, done = assemble([choice({"content": "<th"})])
    assert done.content == "<th"


# --- shape edge cases -----------------------------------------------------------------

def test_null_content_null_delta_and_odd_finish_reason():
    _, done = assemble([
        choice({"role": "assistant", "content": None}),
        {"choices": [{"index": 0, "delta": None, "finish_reason": None}]},
        choice({"content": "ok"}, "content_filter"),
    ])
    assert done.content == "ok" and done.finish_reason == "content_filter"


def test_a_malformed_chunk_is_skipped_with_a_notice_and_five_in_a_row_fail():
    asm = StreamAssembler("x")
    asm.feed_data(json.dumps(choice({"content": "so far"})))
    (notice,) = asm.feed_data("{not json" + "y" * 200)
    assert isinstance(notice, StreamNotice) and notice.kind == "skipped_chunk"
    assert notice.text.startswith("skipped a malformed chunk from provider 'x': {not json") and len(notice.text) < 160
    asm.feed_data(json.dumps(choice({"content": " and on"})))  # a good chunk resets the count
    for _ in range(MAX_BAD_CHUNKS - 1):
        asm.feed_data("garbage")
    with pytest.raises(ProviderError) as err:
        asm.feed_data("garbage")
    assert err.value.message == f"provider 'x' sent {MAX_BAD_CHUNKS} malformed chunks in a row (the last: garbage)"
    assert err.value.partial_content == "so far and on" and asm.skipped_chunks == MAX_BAD_CHUNKS + 1


def test_a_refusal_is_the_answer():
    _, done = assemble([choice({"role": "assistant", "content": None, "refusal": "I can't help with that."}),
                        choice({"refusal": " Sorry."}, "stop")])
    assert done.content == "I can't help with that. Sorry." and done.finish_reason == "stop"


@pytest.mark.parametrize("chunk, message", [
    ({"object": "error", "message": "CUDA out of memory", "type": "InternalServerError", "code": 500},
     "provider 'x' sent an error: CUDA out of memory"),
    ({"error": {"message": "upstream timed out", "type": "server_error"}}, "provider 'x' sent an error: upstream timed out"),
    ({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, "provider 'x' sent an error: Overloaded"),
])
def test_mid_stream_error_objects_end_the_stream(chunk, message):
    asm = StreamAssembler("x")
    asm.feed_data(json.dumps(choice({"content": "par"})))
    with pytest.raises(ProviderError) as err:
        asm.feed_data(json.dumps(chunk))
    assert err.value.message == message and err.value.partial_content == "par"


@pytest.mark.parametrize("payload, limit", [
    ({"error": {"message": "This model's maximum context length is 8192 tokens. However, your messages resulted in "
                           "9000 tokens.", "type": "invalid_request_error", "code": "context_length_exceeded"}}, 8192),
    ({"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}, 4096),
    ({"object": "error", "message": "This model's maximum context length is 4096 tokens. However, you requested 5000 "
                                    "tokens (4000 in the messages, 1000 in the completion).", "type": "BadRequestError",
      "param": None, "code": 400}, 4096),
])
def test_context_length_exceeded_in_every_known_shape(payload, limit):
    assert context_exceeded(payload) == (True, limit)
    assert context_exceeded({"error": {"message": "invalid api key"}}) == (False, 0)


def test_done_sentinel_is_noted():
    asm = StreamAssembler("x")
    assert asm.feed_data("[DONE]") == [] and asm.saw_done


def test_no_usage_is_estimated_from_request_and_output():
    request = ChatRequest(model="m", system_prompt="a" * 40, entries=(UserEntry(text="b" * 40),))
    _, done = assemble([choice({"content": "c" * 20}), choice({"reasoning_content": "d" * 20}, "stop")], request)
    assert done.usage.estimated
    assert done.usage.prompt_tokens == 20 and done.usage.completion_tokens == 10


def test_real_usage_is_not_marked_estimated():
    _, done = assemble([choice({"content": "x"}, "stop", usage={"prompt_tokens": 1, "completion_tokens": 1})])
    assert not done.usage.estimated


def test_other_choices_are_ignored():
    chunk = {"choices": [{"index": 1, "delta": {"content": "B"}}, {"index": 0, "delta": {"content": "A"}}]}
    _, done = assemble([chunk])
    assert done.content == "A"


def test_finish_returns_stream_done():
    assert isinstance(assemble([])[1], StreamDone)
