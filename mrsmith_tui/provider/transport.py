"""The one HTTP transport both wires stream over: httpx (sync) + SSE + retries + error mapping.

A run happens in a worker thread, so the client is synchronous. Each `stream()` call uses
its own client (one connection): on cancel we shut that connection's socket down, which
wakes a read blocked for minutes on a slow model at once.

A wire adapter gives the transport a URL, a body, headers and an `Assembler` (the wire's
event assembly: `assemble.StreamAssembler` for Chat Completions, `messages_assemble` for the
Messages API); the transport owns everything else: tries and backoff (429, 5xx including
Anthropic's 529, a stream whose first event says the server is overloaded, and a connection
refused, reset or timed out while connecting; never a read timeout, which already waited the
whole `read_timeout`), the socket
tracker, the read loop, and turning an HTTP failure into one line.
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
from typing import Any, Protocol
from urllib.parse import urlsplit

import httpx

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.provider.server_errors import context_exceeded, error_text, one_line
from mrsmith_tui.provider.sse import SSEEvent, SSELineTooLong, SSEParser
from mrsmith_tui.provider.tls import tls_context_for
from mrsmith_tui.provider.types import ProviderError, StreamDone, StreamEvent, StreamNotice, joined
from mrsmith_tui.security.redact import shown_url
from mrsmith_tui.security.terminal_text import clean

__all__ = ["RETRYABLE_STATUS", "Assembler", "HttpStreamer", "error_detail", "retry_after"]

RETRYABLE_STATUS = frozenset({408, 409, 429}) | frozenset(range(500, 600))  # 529: Anthropic's "overloaded"
MAX_RETRY_AFTER = 60.0  # seconds; a longer wait is not worth blocking a person's turn for
BACKOFF_BASE = 1.0
SNIPPET_BYTES = 2048  # of a body that was not an event stream, kept to show its start
SNIPPET_CHARS = 120
# A whole JSON answer (a server that ignored `stream: true`) has one of these: a Chat completion's
# choices, a Messages answer's content or type, or an error object; anything else is not an answer.
_WHOLE_ANSWER_KEYS = frozenset({"choices", "content", "type", "object", "error"})


class Assembler(Protocol):
    """One wire's assembly of one answer from its SSE events (pure; see assemble.py)."""

    @property
    def content(self) -> str: ...

    @property
    def reasoning(self) -> str: ...

    @property
    def started(self) -> bool:
        """Whether any of the answer has come (a failure after that cannot be retried)."""
        ...

    def feed_data(self, data: str, event: str = "message") -> list[StreamEvent]: ...

    def finish(self) -> StreamDone: ...


class _RetryableFailure(Exception):
    """A failure before the first byte of the answer: safe to try again."""

    def __init__(self, error: ProviderError, retry_after: float | None = None) -> None:
        self.error = error
        self.retry_after = retry_after


class HttpStreamer:
    """POSTs one streamed request and yields the assembled events, trying again while that is safe."""

    def __init__(
        self,
        *,
        name: str,
        base_url: str,
        connect_timeout: float = 15.0,
        read_timeout: float = 600.0,
        max_tries: int = 3,
        sleep: Callable[[float], None] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        """`sleep` waits between tries; by default it waits on the cancel token, so Esc ends a backoff."""
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.timeout = httpx.Timeout(read_timeout, connect=connect_timeout)
        self.read_timeout = read_timeout
        self.max_tries = max(1, max_tries)
        self._sleep = sleep
        self._transport = transport

    def stream(self, url: str, body: dict[str, Any], headers: dict[str, str],
               assembler: Callable[[], Assembler], cancel: CancelToken) -> Iterator[StreamEvent]:
        for attempt in range(1, self.max_tries + 1):
            if cancel.cancelled:
                return
            try:
                yield from self._attempt(url, body, headers, assembler(), cancel)
                return
            except _RetryableFailure as failure:
                if cancel.cancelled:
                    return
                if attempt == self.max_tries:
                    raise failure.error from None
                delay = self._delay(attempt, failure.retry_after)
                yield StreamNotice("retry", f"retrying in {_seconds(delay)} s ({self._why(failure.error)})")
                self._wait(delay, cancel)

    def _why(self, error: ProviderError) -> str:
        host = urlsplit(self.base_url).hostname or self.base_url
        if error.status:
            return f"{error.status} from {host}"
        return f"{host} is overloaded" if error.retryable else f"cannot reach {host}"

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, MAX_RETRY_AFTER)
        return BACKOFF_BASE * 2.0 ** (attempt - 1) + random.uniform(0, BACKOFF_BASE / 2)

    def _wait(self, seconds: float, cancel: CancelToken) -> None:
        if self._sleep is not None:
            self._sleep(seconds)
        else:
            cancel.wait(seconds)

    def _attempt(self, url: str, body: dict[str, Any], headers: dict[str, str], assembler: Assembler,
                 cancel: CancelToken) -> Iterator[StreamEvent]:
        sockets = SocketTracker()
        unregister = cancel.on_cancel(sockets.shutdown)
        client = httpx.Client(timeout=self.timeout, transport=self._transport, verify=tls_context_for(url))
        response: httpx.Response | None = None
        try:
            try:
                http_request = client.build_request(
                    "POST", url, json=body, headers=headers, extensions={"trace": sockets.trace}
                )
                response = client.send(http_request, stream=True)
            except httpx.TransportError as exc:
                if cancel.cancelled:
                    return
                raise self._failed_before_answer(exc) from None
            sockets.add_from(response)
            if response.status_code != 200:
                raise self._http_error(response)
            yield from self._read(response, assembler, cancel)
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
        detail = error_detail(raw, response.reason_phrase or "")
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
            return _RetryableFailure(error, retry_after(response.headers.get("retry-after")))
        return error

    def _failed_before_answer(self, exc: httpx.TransportError) -> Exception:
        """A refused, reset or unconnectable request is tried again; one the server took and then left
        unanswered for the whole read timeout is not: another try would only wait as long again."""
        if isinstance(exc, httpx.TimeoutException) and not isinstance(exc, httpx.ConnectTimeout):
            return ProviderError(f"provider '{self.name}' at {shown_url(self.base_url)} took the request but sent "
                                 f"nothing in {self.read_timeout:g} s (readTimeout; not tried again)")
        return _RetryableFailure(self._unreachable(exc))

    def _unreachable(self, exc: httpx.TransportError) -> ProviderError:
        if isinstance(exc, httpx.ConnectTimeout):
            reason = f"no connection after {self.timeout.connect:g} s"
        else:
            reason = one_line(str(exc) or type(exc).__name__, 200)
        return ProviderError(f"cannot reach provider '{self.name}' at {shown_url(self.base_url)}: {reason}")

    def _read(self, response: httpx.Response, assembler: Assembler, cancel: CancelToken) -> Iterator[StreamEvent]:
        content_type = response.headers.get("content-type", "")
        if "json" in content_type and "event-stream" not in content_type:
            # A server that ignored `stream: true` and answered one whole completion.
            yield from self._read_whole(response, assembler)
            return
        parser = SSEParser()
        got_bytes = False
        head = b""  # the body's first bytes, shown when it was no event stream at all
        saw_event = False
        try:
            for raw in itertools.chain(response.iter_bytes(), [None]):  # None: the end, where the parser is closed
                if cancel.cancelled:
                    return
                if raw is not None:
                    got_bytes = True
                    if not saw_event and len(head) < SNIPPET_BYTES:
                        head += raw[: SNIPPET_BYTES - len(head)]
                read = parser.feed(raw) if raw is not None else parser.close()
                saw_event = saw_event or bool(read)
                events, failure = _events_of(read, assembler, cancel)
                for event in events:
                    if cancel.cancelled:  # nothing more once cancelled, as the Provider port promises
                        return
                    yield event
                if failure is not None:
                    if isinstance(failure, ProviderError) and failure.retryable and not assembler.started:
                        raise _RetryableFailure(failure) from None  # "overloaded" before any of the answer
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
                raise self._failed_before_answer(exc) from None
            reason = f"no data for {self.read_timeout:g} s" if isinstance(exc, httpx.ReadTimeout) else one_line(str(exc) or type(exc).__name__, 200)
            raise ProviderError(
                f"provider '{self.name}' stream was cut mid-way: {reason}",
                partial_content=assembler.content,
                partial_reasoning=assembler.reasoning,
            ) from None
        if cancel.cancelled:
            return
        if not saw_event:
            # An HTML page from a proxy or a captive portal is not an empty answer: say what came instead.
            raise ProviderError(self._not_a_stream(content_type, head))
        yield assembler.finish()

    def _not_a_stream(self, content_type: str, head: bytes) -> str:
        kind = content_type.split(";")[0].strip() or "with no content type"
        what = "with an event stream that held no event" if "event-stream" in kind else f"{kind}, not an event stream"
        snippet = clean(one_line(head.decode("utf-8", errors="replace"), SNIPPET_CHARS))
        return f"provider '{self.name}' answered 200 {what}: {snippet or '(an empty body)'}"

    def _read_whole(self, response: httpx.Response, assembler: Assembler) -> Iterator[StreamEvent]:
        try:
            raw = response.read()
        except httpx.TransportError as exc:
            raise ProviderError(f"provider '{self.name}' answer was cut mid-way: {one_line(str(exc), 200)}") from None
        text = raw.decode("utf-8", errors="replace")
        try:
            whole = json.loads(text)
        except ValueError:
            whole = None
        if not isinstance(whole, dict) or not whole.keys() & _WHOLE_ANSWER_KEYS:
            kind = response.headers.get("content-type", "").split(";")[0].strip()
            raise ProviderError(f"provider '{self.name}' answered 200 {kind}, not an event stream or a completion: "
                                f"{clean(one_line(text, SNIPPET_CHARS)) or '(an empty body)'}")
        yield from assembler.feed_data(text)
        yield assembler.finish()


def _events_of(read: list[SSEEvent], assembler: Assembler,
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


class SocketTracker:
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


def error_detail(raw: bytes, reason_phrase: str) -> str:
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


def retry_after(value: str | None) -> float | None:
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
