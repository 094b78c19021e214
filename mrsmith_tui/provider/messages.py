"""The Messages provider (`POST {base}/v1/messages`): its translation and assembly over the shared transport.

The base URL is the vendor's as documented, without `/v1` (`https://api.anthropic.com`,
`https://api.minimax.io/anthropic`); a base that already ends in `/v1` is not doubled. The key
goes in `x-api-key`, with `anthropic-version: 2023-06-01`. Spoken with httpx and the project's
own SSE reader (`provider.transport`), not a vendor SDK.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx

from mrsmith_tui import __version__
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.provider.messages_assemble import MessagesAssembler
from mrsmith_tui.provider.messages_wire import messages_body
from mrsmith_tui.provider.server_errors import one_line
from mrsmith_tui.provider.transport import HttpStreamer, error_detail
from mrsmith_tui.provider.types import ChatRequest, ProviderError, StreamEvent
from mrsmith_tui.security.redact import shown_url

__all__ = ["ANTHROPIC_VERSION", "MessagesProvider", "list_messages_models", "messages_root"]

ANTHROPIC_VERSION = "2023-06-01"


def messages_root(base_url: str) -> str:
    """`{base}/v1`, once: a base written with its `/v1` (or the whole `/v1/messages` endpoint) is not doubled."""
    base = base_url.rstrip("/")
    if base.endswith("/v1/messages"):
        base = base.removesuffix("/messages")
    return base if base.endswith("/v1") else f"{base}/v1"


class MessagesProvider:
    wire = "messages"

    def __init__(
        self,
        *,
        name: str,
        base_url: str,
        api_key: str | None,
        protocol: str = "anthropic",
        connect_timeout: float = 15.0,
        read_timeout: float = 600.0,
        max_tries: int = 3,
        sleep: Callable[[float], None] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.protocol = protocol
        self._api_key = api_key
        self._http = HttpStreamer(name=name, base_url=self.base_url, connect_timeout=connect_timeout,
                                  read_timeout=read_timeout, max_tries=max_tries, sleep=sleep, transport=transport)

    def __repr__(self) -> str:  # never shows the key
        return f"MessagesProvider(name={self.name!r}, base_url={shown_url(self.base_url)!r})"

    @property
    def url(self) -> str:
        return f"{messages_root(self.base_url)}/messages"

    def request_body(self, request: ChatRequest) -> dict[str, Any]:
        return messages_body(request, self.protocol)

    def headers(self) -> dict[str, str]:
        return _headers(self._api_key) | {"Accept": "text/event-stream"}

    def stream(self, request: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        yield from self._http.stream(self.url, self.request_body(request), self.headers(),
                                     lambda: MessagesAssembler(self.name, request), cancel)


def _headers(api_key: str | None) -> dict[str, str]:
    headers = {"anthropic-version": ANTHROPIC_VERSION, "User-Agent": f"mrsmith_tui/{__version__}"}
    if api_key:
        headers["x-api-key"] = api_key
    return headers


def list_messages_models(base_url: str, api_key: str | None, timeout: float = 5.0) -> list[str]:
    """GET {base}/v1/models -> the model ids, sorted (Anthropic lists them; not every vendor does).
    Raises ProviderError with one line."""
    root = messages_root(base_url)
    shown = shown_url(root)
    try:
        response = httpx.get(f"{root}/models", headers=_headers(api_key), params={"limit": 1000}, timeout=timeout)
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
