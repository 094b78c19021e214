"""A bound on what an HTTP MCP server's plain JSON answer may hold.

The SDK reads an `application/json` response body whole (`response.aread()`), however long: one
50 MB result peaked near 330 MB. The hub's HTTP client uses this transport, which hands the SDK that
body through a counting stream: past the bound it raises an `httpx2.StreamError`, which the SDK turns
into a JSON-RPC error for that request alone (the server stays connected), and memory stays flat.
Event streams (`text/event-stream`) are bounded per event by the SDK itself (`max_sse_event_size`).
The bound counts the bytes as they arrive on the wire (before any content decoding).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2

__all__ = ["BodyTooLarge", "BoundedTransport"]


class BodyTooLarge(httpx2.StreamError):
    pass


class _Counted(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, limit: int) -> None:
        self.inner = inner
        self.limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self.inner:
            seen += len(chunk)
            if seen > self.limit:
                raise BodyTooLarge(f"the server sent a JSON answer over {self.limit // (1024 * 1024)} MiB; it was dropped")
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


class BoundedTransport(httpx2.AsyncBaseTransport):
    def __init__(self, limit: int) -> None:
        self.inner = httpx2.AsyncHTTPTransport()
        self.limit = limit

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        if response.headers.get("content-type", "").lower().startswith("application/json"):
            assert isinstance(response.stream, httpx2.AsyncByteStream)
            response.stream = _Counted(response.stream, self.limit)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()
