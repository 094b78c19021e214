"""Find the model servers running on this machine, and name a provider after its URL.

    probe_servers(LOCAL_SERVERS) -> [Found]   # Ollama, LM Studio, llama.cpp, vLLM on 127.0.0.1
    provider_name_for(base_url) -> "openai"   # api.openai.com -> openai, localhost -> local

Each server is asked `GET /v1/models`, all at once, with a short timeout; those that answer are
returned in the given order with their models. The HTTP call (`fetch`) is a parameter, so tests and
the first-run screen can point it elsewhere. Any failure means "not found", never an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlparse

from mrsmith_tui.provider.openai_compat import list_models

# (base_url, api_key, timeout) -> model ids; raises on any failure (a one-line message).
FetchModels = Callable[[str, "str | None", float], list[str]]


@dataclass(frozen=True)
class LocalServer:
    label: str  # what the person sees
    name: str  # the provider name written to the config
    port: int
    host: str = "127.0.0.1"

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"


LOCAL_SERVERS: tuple[LocalServer, ...] = (
    LocalServer("Ollama", "ollama", 11434),
    LocalServer("LM Studio", "lmstudio", 1234),
    LocalServer("llama.cpp", "llamacpp", 8080),
    LocalServer("vLLM", "vllm", 8000),
)


@dataclass(frozen=True)
class Found:
    server: LocalServer
    models: tuple[str, ...]


def probe_servers(servers: Sequence[LocalServer], fetch: FetchModels = list_models,
                  timeout: float = 0.8) -> list[Found]:
    """The servers that answered GET /v1/models, in the given order; all probed at once."""
    if not servers:
        return []

    def one(server: LocalServer) -> Found | None:
        try:
            return Found(server, tuple(fetch(server.base_url, None, timeout)))
        except Exception:  # refused, timed out, not an OpenAI-compatible server: not offered
            return None

    with ThreadPoolExecutor(max_workers=len(servers), thread_name_prefix="probe") as pool:
        return [f for f in pool.map(one, servers) if f is not None]


def provider_name_for(base_url: str) -> str:
    """A short provider name from the URL: api.openai.com -> openai, localhost -> local."""
    host = (urlparse(base_url).hostname or "").lower()
    if not host or host in ("localhost", "127.0.0.1", "::1") or re.fullmatch(r"[\d.]+", host):
        return "local"
    labels = [p for p in host.split(".") if p not in ("api", "www")]
    name = labels[-2] if len(labels) >= 2 else labels[0] if labels else "custom"
    return re.sub(r"[^a-z0-9_-]", "-", name) or "custom"
