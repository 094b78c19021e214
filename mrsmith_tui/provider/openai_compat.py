"""The OpenAI-compatible `/chat/completions` provider: the Chat translation and assembly over the shared transport.

The transport (`provider.transport`: httpx, SSE, retries, the socket a cancel shuts down, HTTP
error mapping) is shared with the Messages wire; this module only builds the request (the
history via `chat_wire`, a vendor dialect's fields via `chat_dialect`) and assembles the answer
(`assemble.StreamAssembler`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx

from mrsmith_tui import __version__
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import ProviderConfig
from mrsmith_tui.provider.assemble import StreamAssembler
from mrsmith_tui.provider.chat_dialect import dialect_fields
from mrsmith_tui.provider.chat_wire import request_messages
from mrsmith_tui.provider.server_errors import one_line
from mrsmith_tui.provider.transport import HttpStreamer, error_detail
from mrsmith_tui.provider.types import ChatRequest, ProviderError, StreamEvent
from mrsmith_tui.security.redact import shown_url


class OpenAICompatProvider:
    wire = "chat"

    def __init__(
        self,
        *,
        name: str,
        base_url: str,
        api_key: str | None,
        include_usage: bool = True,
        connect_timeout: float = 15.0,
        read_timeout: float = 600.0,
        max_tries: int = 3,
        sleep: Callable[[float], None] | None = None,
        transport: httpx.BaseTransport | None = None,
        protocol: str = "openai",
    ) -> None:
        """`sleep` waits between tries; by default it waits on the cancel token, so Esc ends a backoff."""
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.include_usage = include_usage
        self.protocol = protocol
        self._api_key = api_key
        self._http = HttpStreamer(name=name, base_url=self.base_url, connect_timeout=connect_timeout,
                                  read_timeout=read_timeout, max_tries=max_tries, sleep=sleep, transport=transport)

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAICompatProvider(name={self.name!r}, base_url={shown_url(self.base_url)!r})"

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def request_body(self, request: ChatRequest) -> dict[str, Any]:
        body: dict[str, Any] = {"model": request.model, "messages": request_messages(request, self.protocol),
                                "stream": True}
        if request.tools:
            body["tools"] = request.tools
        if self.include_usage and request.include_usage:
            body["stream_options"] = {"include_usage": True}
        body.update(dialect_fields(self.protocol, request))
        return body

    def headers(self) -> dict[str, str]:
        headers = {"Accept": "text/event-stream", "User-Agent": f"mrsmith_tui/{__version__}"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def stream(self, request: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        yield from self._http.stream(self.url, self.request_body(request), self.headers(),
                                     lambda: StreamAssembler(self.name, request), cancel)


def make_provider(pc: ProviderConfig, api_key: str | None, include_usage: bool) -> OpenAICompatProvider:
    return OpenAICompatProvider(
        name=pc.name,
        base_url=pc.base_url,
        api_key=api_key,
        include_usage=include_usage,
        connect_timeout=pc.connect_timeout,
        read_timeout=pc.read_timeout,
        protocol=pc.protocol,
    )


def list_models(base_url: str, api_key: str | None, timeout: float = 3.0) -> list[str]:
    """GET {base_url}/models -> the model ids, sorted. Raises ProviderError with one line."""
    base = base_url.rstrip("/")
    shown = shown_url(base)  # no password or ?key= in an error line
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        response = httpx.get(f"{base}/models", headers=headers, timeout=timeout)
    except httpx.TransportError as exc:
        raise ProviderError(f"cannot reach {shown}: {one_line(str(exc) or type(exc).__name__, 200)}") from None
    if response.status_code != 200:
        detail = error_detail(response.content, response.reason_phrase or "")
        raise ProviderError(f"{shown}/models answered {response.status_code}: {detail}", status=response.status_code)
    try:
        data = response.json().get("data")
        return sorted({str(m["id"]) for m in data if isinstance(m, dict) and m.get("id")})
    except (ValueError, AttributeError, TypeError):
        raise ProviderError(f"{shown}/models sent an unexpected answer: {one_line(response.text, 80)}") from None
