"""Reading the context size from the endpoint, in each server's own shape (no network: MockTransport)."""

from __future__ import annotations

import json

import httpx
import pytest

from mrsmith_tui.provider.context_probe import probe_context_size


def server(routes: dict[tuple[str, str], object]):
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(f"{request.method} {request.url.path}")
        body = routes.get((request.method, request.url.path))
        if body is None:
            return httpx.Response(404, json={"error": "not found"})
        if request.method == "POST":
            assert json.loads(request.content) == {"model": "m1"}
        return httpx.Response(200, json=body)

    return httpx.MockTransport(handle), seen


@pytest.mark.parametrize("routes, expected", [
    ({("GET", "/props"): {"default_generation_settings": {"n_ctx": 4096}}}, (4096, "llama.cpp /props n_ctx")),
    ({("GET", "/v1/models"): {"data": [{"id": "m1", "meta": {"n_ctx_train": 32768}}]}},
     (32768, "llama.cpp /v1/models meta.n_ctx_train")),
    ({("GET", "/v1/models"): {"data": [{"id": "other"}, {"id": "m1", "max_model_len": 16384}]}},
     (16384, "vLLM /v1/models max_model_len")),
    ({("GET", "/api/v0/models/m1"): {"id": "m1", "max_context_length": 131072, "loaded_context_length": 8192}},
     (8192, "LM Studio /api/v0/models")),
    ({("GET", "/api/version"): {"version": "0.9"},
      ("POST", "/api/show"): {"parameters": "stop \"<end>\"\nnum_ctx 6144", "model_info": {"qwen3.context_length": 40960}}},
     (6144, "Ollama /api/show")),
    ({("GET", "/api/version"): {"version": "0.9"}, ("POST", "/api/show"): {"model_info": {"qwen3.context_length": 40960}}},
     (40960, "Ollama /api/show")),
])
def test_each_server_shape(routes, expected):
    transport, _ = server(routes)
    assert probe_context_size("http://127.0.0.1:1/v1", "m1", transport=transport) == expected


def test_a_server_that_does_not_tell_gets_no_post():
    transport, seen = server({("GET", "/v1/models"): {"data": [{"id": "m1"}]}})
    assert probe_context_size("http://127.0.0.1:1/v1", "m1", transport=transport) == (0, "")
    assert not any(s.startswith("POST") for s in seen)


def test_an_unreachable_server_is_not_told():
    def refuse(request):
        raise httpx.ConnectError("refused")

    assert probe_context_size("http://127.0.0.1:1/v1", "m1", transport=httpx.MockTransport(refuse)) == (0, "")
