"""Ask the endpoint how large the model's context is, in the ways local servers tell it.

- llama.cpp: `GET /props` -> `default_generation_settings.n_ctx` (the size it was started with),
  and `GET /v1/models` -> `data[].meta.n_ctx` / `n_ctx_train`;
- vLLM: `GET /v1/models` -> `data[].max_model_len`;
- LM Studio: `GET /api/v0/models/{model}` -> `loaded_context_length` / `max_context_length`;
- Ollama: `POST /api/show {"model": ...}` -> `parameters` "num_ctx N", else
  `model_info["<arch>.context_length"]` (asked only when `GET /api/version` answers, so no
  other server gets a POST it did not expect).

The GETs go out side by side; each has a short timeout; any failure just means "not told". Hosted APIs tell nothing
here, and the config (or the default) stands.
"""

from __future__ import annotations

import re
import threading
from typing import Any
from urllib.parse import quote

import httpx

PROBE_TIMEOUT = 2.0


def _positive(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _get(client: httpx.Client, url: str) -> Any:
    try:
        response = client.get(url)
        return response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def _from_models(listing: Any, model: str) -> tuple[int, str]:
    entries = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(entries, list):
        return 0, ""
    entries = [e for e in entries if isinstance(e, dict)]
    mine = [e for e in entries if e.get("id") == model] or (entries if len(entries) == 1 else [])
    for entry in mine:
        if _positive(entry.get("max_model_len")):
            return entry["max_model_len"], "vLLM /v1/models max_model_len"
        meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
        for key in ("n_ctx", "n_ctx_train"):
            if _positive(meta.get(key)):
                return meta[key], f"llama.cpp /v1/models meta.{key}"
        for key in ("context_length", "context_window", "max_context_length"):  # OpenRouter, Groq, ...
            if _positive(entry.get(key)):
                return entry[key], f"/v1/models {key}"
    return 0, ""


def _from_props(props: Any) -> int:
    if not isinstance(props, dict):
        return 0
    settings = props.get("default_generation_settings")
    n = _positive(settings.get("n_ctx")) if isinstance(settings, dict) else 0
    return n or _positive(props.get("n_ctx"))


def _from_lmstudio(info: Any) -> int:
    if not isinstance(info, dict):
        return 0
    return _positive(info.get("loaded_context_length")) or _positive(info.get("max_context_length"))


def _from_ollama(show: Any) -> int:
    if not isinstance(show, dict):
        return 0
    m = re.search(r"(?m)^\s*num_ctx\s+(\d+)", str(show.get("parameters") or ""))
    if m:
        return int(m.group(1))
    info = show.get("model_info")
    if not isinstance(info, dict):
        return 0
    return next((_positive(v) for k, v in info.items() if k.endswith(".context_length") and _positive(v)), 0)


def probe_context_size(base_url: str, model: str, api_key: str | None = None, *, timeout: float = PROBE_TIMEOUT,
                       transport: httpx.BaseTransport | None = None, client: httpx.Client | None = None) -> tuple[int, str]:
    """(tokens, where it came from) or (0, "") when the server does not say. `client`: one the caller
    made (with the key in its headers) and may close from another thread to cancel the probe."""
    if client is None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        with httpx.Client(timeout=timeout, headers=headers, transport=transport) as own:
            return _ask(own, base_url, model)
    return _ask(client, base_url, model)


def _ask(client: httpx.Client, base_url: str, model: str) -> tuple[int, str]:
    base = base_url.rstrip("/")
    root = base[: -len("/v1")] if base.endswith("/v1") else base
    answers = _get_all(client, {
        "props": f"{root}/props",
        "models": f"{base}/models",
        "lmstudio": f"{root}/api/v0/models/{quote(model, safe='')}",
        "version": f"{root}/api/version",
    })
    n = _from_props(answers["props"])
    if n:
        return n, "llama.cpp /props n_ctx"
    n, source = _from_models(answers["models"], model)
    if n:
        return n, source
    n = _from_lmstudio(answers["lmstudio"])
    if n:
        return n, "LM Studio /api/v0/models"
    if isinstance(answers["version"], dict):
        try:
            response = client.post(f"{root}/api/show", json={"model": model})
            n = _from_ollama(response.json()) if response.status_code == 200 else 0
        except (httpx.HTTPError, ValueError):
            n = 0
        if n:
            return n, "Ollama /api/show"
    return 0, ""


def _get_all(client: httpx.Client, urls: dict[str, str]) -> dict[str, Any]:
    """The GETs side by side (one round trip instead of four: a one-shot may be over sooner), in
    daemon threads, so a server that never answers holds neither the answer nor the exit."""
    answers: dict[str, Any] = dict.fromkeys(urls)

    def fetch(name: str, url: str) -> None:
        try:
            answers[name] = _get(client, url)
        except Exception:  # the client closed under it (the probe was cancelled): not told
            answers[name] = None

    threads = [threading.Thread(target=fetch, args=item, name="mrsmith-context-probe", daemon=True)
               for item in urls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers
