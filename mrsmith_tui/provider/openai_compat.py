"""The OpenAI-compatible `/chat/completions` provider: httpx (sync) + SSE + assembly.

A run happens in a worker thread, so the client is synchronous. Each `stream()` call uses
its own client (one connection): on cancel we shut that connection's socket down, which
wakes a read blocked for minutes on a slow model at once.
"""

from __future__ import annotations

import email.utils
import itertools
import json
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx

from mrsmith_tui import __version__
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import ProviderConfig
from mrsmith_tui.provider.assemble import StreamAssembler
from mrsmith_tui.provider.chat_wire import request_messages
from mrsmith_tui.provider.server_errors import context_exceeded, error_text, one_line
from mrsmith_tui.provider.sse import SSEEvent, SSELineTooLong, SSEParser
from mrsmith_tui.provider.tls import shared_tls_context
from mrsmith_tui.provider.types import ChatRequest, ProviderError, StreamEvent, StreamNotice, joined
from mrsmith_tui.security.redact import shown_url

RETRYABLE_STATUS = frozenset({408, 409, 429}) | frozenset(range(500, 600))
MAX_RETRY_AFTER = 60.0  # seconds; a longer wait is not worth blocking a person's turn for
BACKOFF_BASE = 1.0


class _RetryableFailure(Exception):
    """A failure before the first byte of the answer: safe to try again."""

    def __init__(self, error: ProviderError, retry_after: float | None = None) -> None:
        self.error = error
        self.retry_after = retry_after


class OpenAICompatProvider:
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
    ) -> None:
        """`sleep` waits between tries; by default it waits on the cancel token, so Esc ends a backoff."""
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.include_usage = include_usage
        self._api_key = api_key
        self._timeout = httpx.Timeout(read_timeout, connect=connect_timeout)
        self._read_timeout = read_timeout
        self._max_tries = max(1, max_tries)
        self._sleep = sleep
        self._transport = transport

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAICompatProvider(name={self.name!r}, base_url={shown_url(self.base_url)!r})"

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def request_body(self, request: ChatRequest) -> dict[str, Any]:
        body: dict[str, Any] = {"model": request.model, "messages": request_messages(request), "stream": True}
        if request.tools:
            body["tools"] = request.tools
        if self.include_usage and request.include_usage:
            body["stream_options"] = {"include_usage": True}
        if request.reasoning_effort and request.reasoning_effort.strip():
            body["reasoning_effort"] = request.reasoning_effort.strip()
        return body

    def headers(self) -> dict[str, str]:
        headers = {"Accept": "text/event-stream", "User-Agent": f"mrsmith_tui/{__version__}"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def stream(self, request: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        body = self.request_body(request)
        for attempt in range(1, self._max_tries + 1):
            if cancel.cancelled:
                return
            try:
                yield from self._attempt(body, request, cancel)
                return
            except _RetryableFailure as failure:
                if cancel.cancelled:
                    return
                if attempt == self._max_tries:
                    raise failure.error from None
                delay = self._delay(attempt, failure.retry_after)
                yield StreamNotice("retry", f"retrying in {_seconds(delay)} s ({self._why(failure.error)})")
                self._wait(delay, cancel)

    def _why(self, error: ProviderError) -> str:
        host = urlsplit(self.base_url).hostname or self.base_url
        return f"{error.status} from {host}" if error.status else f"cannot reach {host}"

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, MAX_RETRY_AFTER)
        return BACKOFF_BASE * 2.0 ** (attempt - 1) + random.uniform(0, BACKOFF_BASE / 2)

    def _wait(self, seconds: float, cancel: CancelToken) -> None:
        if self._sleep is not None:
            self._sleep(seconds)
        else:
            cancel.wait(seconds)

    def _attempt(self, body: dict[str, Any], request: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        sockets = _SocketTracker()
        unregister = cancel.on_cancel(sockets.shutdown)
        client = httpx.Client(timeout=self._timeout, transport=self._transport, verify=shared_tls_context())
        response: httpx.Response | None = None
        try:
            try:
                http_request = client.build_request(
                    "POST", self.url, json=body, headers=self.headers(), extensions={"trace": sockets.trace}
                )
                response = client.send(http_request, stream=True)
            except httpx.TransportError as exc:
                if cancel.cancelled:
                    return
                raise _RetryableFailure(self._unreachable(exc)) from None
            sockets.add_from(response)
            if response.status_code != 200:
                raise self._http_error(response)
            yield from self._read(response, request, cancel)
        finally:
            unregister()
            if response is not None:
                response.close()
            client.close()

    def _http_error(self, response: httpx.Response) -> Exception:
        try:
            raw = response.read()
        except httpx.HTTPError:
            raw = b""
        status = response.status_code
        detail = _error_detail(raw, response.reason_phrase or "")
        exceeded, limit = (False, 0)
        if status in (400, 413, 422, 500):
            try:
                exceeded, limit = context_exceeded(json.loads(raw))
            except ValueError:
                exceeded, limit = context_exceeded(raw.decode("utf-8", errors="replace"))
        error = ProviderError(f"provider '{self.name}' answered {status}: {detail}", status=status,
                              context_exceeded=exceeded, context_limit=limit)
        if exceeded:
            return error  # trying the same request again cannot help
        if status in RETRYABLE_STATUS:
            return _RetryableFailure(error, _retry_after(response.headers.get("retry-after")))
        return error

    def _unreachable(self, exc: httpx.TransportError) -> ProviderError:
        if isinstance(exc, httpx.ConnectTimeout):
            reason = f"no connection after {self._timeout.connect:g} s"
        elif isinstance(exc, httpx.ReadTimeout):
            reason = f"no answer after {self._read_timeout:g} s"
        else:
            reason = one_line(str(exc) or type(exc).__name__, 200)
        return ProviderError(f"cannot reach provider '{self.name}' at {shown_url(self.base_url)}: {reason}")

    def _read(self, response: httpx.Response, request: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        assembler = StreamAssembler(self.name, request)
        content_type = response.headers.get("content-type", "")
        if "json" in content_type and "event-stream" not in content_type:
            # A server that ignored `stream: true` and answered one whole completion.
            yield from self._read_whole(response, assembler)
            return
        parser = SSEParser()
        got_bytes = False
        try:
            for raw in itertools.chain(response.iter_bytes(), [None]):  # None: the end, where the parser is closed
                if cancel.cancelled:
                    return
                if raw is not None:
                    got_bytes = True
                events, failure = _events_of(parser.feed(raw) if raw is not None else parser.close(), assembler, cancel)
                for event in events:
                    if cancel.cancelled:  # nothing more once cancelled, as the Provider port promises
                        return
                    yield event
                if failure is not None:
                    raise failure
        except SSELineTooLong as exc:
            raise ProviderError(
                f"provider '{self.name}' sent a line of more than {exc.size // (1024 * 1024)} MiB; stopped reading it",
                partial_content=assembler.content,
                partial_reasoning=assembler.reasoning,
            ) from None
        except httpx.TransportError as exc:
            if cancel.cancelled:
                return
            if not got_bytes:
                raise _RetryableFailure(self._unreachable(exc)) from None
            reason = f"no data for {self._read_timeout:g} s" if isinstance(exc, httpx.ReadTimeout) else one_line(str(exc) or type(exc).__name__, 200)
            raise ProviderError(
                f"provider '{self.name}' stream was cut mid-way: {reason}",
                partial_content=assembler.content,
                partial_reasoning=assembler.reasoning,
            ) from None
        if cancel.cancelled:
            return
        yield assembler.finish()


    def _read_whole(self, response: httpx.Response, assembler: StreamAssembler) -> Iterator[StreamEvent]:
        try:
            raw = response.read()
        except httpx.TransportError as exc:
            raise ProviderError(f"provider '{self.name}' answer was cut mid-way: {one_line(str(exc), 200)}") from None
        yield from assembler.feed_data(raw.decode("utf-8", errors="replace"))
        yield assembler.finish()


def _events_of(read: list[SSEEvent], assembler: StreamAssembler,
               cancel: CancelToken) -> tuple[list[StreamEvent], Exception | None]:
    """The events one read's SSE events make, adjacent pieces of text joined (`types.joined`), and the
    error that ended them, if one did: what the read brought before a mid-stream error still goes out."""
    events: list[StreamEvent] = []
    for sse in read:
        try:
            events += assembler.feed_data(sse.data, sse.event)
        except Exception as error:  # a ProviderError, or a defect: either way the text before it is the run's
            return joined(events), error
        if cancel.cancelled:
            break
    return (joined(events) if len(events) > 1 else events), None


class _SocketTracker:
    """Remembers the sockets of one request, so a cancel from another thread can shut them down."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._shut = False

    def trace(self, event: str, info: dict[str, Any]) -> None:
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            self._add_stream(info.get("return_value"))

    def add_from(self, response: httpx.Response) -> None:
        self._add_stream(response.extensions.get("network_stream"))

    def _add_stream(self, stream: Any) -> None:
        get_extra_info = getattr(stream, "get_extra_info", None)
        sock = get_extra_info("socket") if get_extra_info else None
        if isinstance(sock, socket.socket):
            with self._lock:
                self._sockets.append(sock)
                shut = self._shut
            if shut:
                _shutdown(sock)

    def shutdown(self) -> None:
        with self._lock:
            self._shut = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shutdown(sock)


def _shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)  # wakes a recv blocked in another thread; close() would not
    except OSError:
        pass


def _error_detail(raw: bytes, reason_phrase: str) -> str:
    text = raw.decode("utf-8", errors="replace").strip()
    if not text:
        return reason_phrase or "(no message)"
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, (dict, list)):
        return error_text(parsed)
    if text.startswith("<"):  # an HTML error page from a proxy
        return reason_phrase or "(an HTML error page)"
    return one_line(text)


def _seconds(delay: float) -> str:
    return f"{delay:.0f}" if delay >= 1 else f"{delay:.1f}"


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def make_provider(pc: ProviderConfig, api_key: str | None, include_usage: bool) -> OpenAICompatProvider:
    return OpenAICompatProvider(
        name=pc.name,
        base_url=pc.base_url,
        api_key=api_key,
        include_usage=include_usage,
        connect_timeout=pc.connect_timeout,
        read_timeout=pc.read_timeout,
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
        detail = _error_detail(response.content, response.reason_phrase or "")
        raise ProviderError(f"{shown}/models answered {response.status_code}: {detail}", status=response.status_code)
    try:
        data = response.json().get("data")
        return sorted({str(m["id"]) for m in data if isinstance(m, dict) and m.get("id")})
    except (ValueError, AttributeError, TypeError):
        raise ProviderError(f"{shown}/models sent an unexpected answer: {one_line(response.text, 80)}") from None
