"""Finding the local model servers (what the first-run screen lists) and naming a provider by its URL."""

from __future__ import annotations

import threading

import pytest

from mrsmith_tui.provider.probe import LocalServer, probe_servers, provider_name_for

CLOSED_PORT = 9  # discard: nothing listens on 127.0.0.1:9 here


def test_probe_finds_only_servers_that_answer(loopback):
    srv = loopback(models=["b-model", "a-model"])
    found = probe_servers([LocalServer("LM Studio", "lmstudio", CLOSED_PORT), LocalServer("Ollama", "ollama", srv.port)])
    assert [(f.server.name, f.models) for f in found] == [("ollama", ("a-model", "b-model"))]


def test_probe_runs_all_servers_at_once():
    together = threading.Barrier(4)  # breaks (and fails the probes) unless all four are asked at once

    def meet(url, key, timeout):
        together.wait(timeout=60)
        return ["m"]

    servers = [LocalServer(str(p), str(p), p) for p in (1, 2, 3, 4)]
    assert len(probe_servers(servers, meet)) == 4 and not together.broken


@pytest.mark.parametrize(
    "url, name",
    [("https://api.openai.com/v1", "openai"), ("https://openrouter.ai/api/v1", "openrouter"),
     ("http://localhost:8080/v1", "local"), ("http://10.0.0.5:8000/v1", "local"), ("http://gpu-box:8000/v1", "gpu-box")],
)
def test_provider_name_from_url(url, name):
    assert provider_name_for(url) == name
