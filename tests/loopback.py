"""A loopback OpenAI-compatible server for end-to-end tests: a real socket, chunked SSE.

Each POST to `/v1/chat/completions` takes the next scripted `Turn` (the last one repeats
when the script runs out) and records the request body and headers. `GET /v1/models`
lists `models`.

    with LoopbackServer([text_turn("hello"), tool_turn("read_file", {"path": "a"})]) as srv:
        run(base_url=srv.base_url)
        srv.requests[1]["messages"][-1]["tool_call_id"]
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Turn:
    """One scripted answer.

    events: SSE payloads; a dict is sent as `data: <json>`, a str is sent verbatim (so a
    test can send comments, `event:` lines, CRLF, broken JSON). `done` appends
    `data: [DONE]`. `status` != 200 sends `body` (a dict becomes JSON) instead of a stream.
    `cut_after` closes the socket after that many events without ending the stream.
    `content_type` replaces the response's own (a 200 with a `body` sends that body, not a stream).
    `split` re-chunks the whole byte stream into pieces of that many bytes (cuts anywhere).
    `gate` holds the stream until the test sets it: before the response starts when `gate_at`
    is 0, else after that many events (so a test decides when a scripted answer goes on or
    ends, instead of racing a delay). The server sets every gate it holds when it stops.
    """

    events: list[dict[str, Any] | str] = field(default_factory=list)
    done: bool = True
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = ""
    delay: float = 0.0  # seconds between events
    cut_after: int | None = None
    split: int | None = None
    hang: float = 0.0  # seconds to wait before sending anything
    gate: threading.Event | None = None
    gate_at: int = 0


def held(turn: Turn, gate: threading.Event, at: int = 0) -> Turn:
    """`turn` held on `gate` (see Turn.gate): before anything is sent, or after `at` events."""
    turn.gate, turn.gate_at = gate, at
    return turn


def chunk(
    content: str | None = None,
    *,
    reasoning: str | None = None,
    reasoning_field: str = "reasoning_content",
    tool_calls: list[dict] | None = None,
    finish: str | None = None,
    role: str | None = None,
    usage: dict | None = None,
    model: str = "test-model",
) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    if role:
        delta["role"] = role
    if content is not None:
        delta["content"] = content
    if reasoning is not None:
        delta[reasoning_field] = reasoning
    if tool_calls is not None:
        delta["tool_calls"] = tool_calls
    out: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage is not None:
        out["usage"] = usage
    return out


def usage_chunk(prompt: int = 10, completion: int = 5, cached: int = 0) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "choices": [],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached},
        },
    }


def text_turn(text: str, *, reasoning: str | None = None, pieces: int = 3, usage: bool = True) -> Turn:
    """A plain answer streamed in a few pieces, with optional reasoning first."""
    events: list[dict[str, Any] | str] = [chunk(role="assistant", content="")]
    if reasoning:
        step = max(1, len(reasoning) // pieces)
        for i in range(0, len(reasoning), step):
            events.append(chunk(reasoning=reasoning[i : i + step]))
    step = max(1, len(text) // pieces)
    for i in range(0, len(text), step):
        events.append(chunk(text[i : i + step]))
    events.append(chunk(finish="stop"))
    if usage:
        events.append(usage_chunk())
    return Turn(events=events)


def tool_turn(name: str, arguments: dict[str, Any] | str, *, call_id: str = "call_1", content: str | None = None) -> Turn:
    """The model calls one tool (arguments streamed in two fragments)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    half = len(args) // 2
    events: list[dict[str, Any] | str] = [chunk(role="assistant", content=content)]
    events.append(
        chunk(tool_calls=[{"index": 0, "id": call_id, "type": "function", "function": {"name": name, "arguments": args[:half]}}])
    )
    events.append(chunk(tool_calls=[{"index": 0, "function": {"arguments": args[half:]}}]))
    events.append(chunk(finish="tool_calls"))
    events.append(usage_chunk())
    return Turn(events=events)


def tool_calls_turn(calls: list[tuple[str, dict[str, Any]]]) -> Turn:
    """The model calls several tools in one message."""
    events: list[dict[str, Any] | str] = [chunk(role="assistant")]
    for i, (name, arguments) in enumerate(calls):
        events.append(
            chunk(
                tool_calls=[
                    {"index": i, "id": f"call_{i + 1}", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
                ]
            )
        )
    events.append(chunk(finish="tool_calls"))
    events.append(usage_chunk())
    return Turn(events=events)


def encode_events(turn: Turn) -> bytes:
    out = []
    for ev in turn.events:
        if isinstance(ev, str):
            out.append(ev)
        else:
            out.append(f"data: {json.dumps(ev)}\n\n")
    if turn.done and turn.cut_after is None:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        extra = self.server.owner.get_routes.get(self.path)
        if extra is not None:
            self._plain(200, json.dumps(extra).encode(), "application/json")
        elif self.path.rstrip("/").endswith("/models"):
            body = json.dumps({"object": "list", "data": [{"id": m, "object": "model"} for m in self.server.owner.models]}).encode()
            self._plain(200, body, "application/json")
        else:
            self._plain(404, b'{"error":{"message":"not found"}}', "application/json")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        owner = self.server.owner
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw.decode(errors="replace")}
        owner.paths.append(self.path)
        turn = owner._next_turn(body, dict(self.headers))
        if turn.hang:
            time.sleep(turn.hang)
        if turn.gate is not None:
            owner.hold(turn.gate)
            if turn.gate_at == 0:
                turn.gate.wait()
        try:
            self._answer(turn)
        except OSError:  # the client went away (a cancel, a stop): nothing to answer
            self.close_connection = True

    def _answer(self, turn: Turn) -> None:
        if turn.status != 200 or turn.body is not None:
            payload = turn.body if turn.body is not None else {"error": {"message": f"scripted {turn.status}"}}
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            self._plain(turn.status, data, turn.content_type or "application/json", turn.headers)
            return
        self.send_response(200)
        self.send_header("Content-Type", turn.content_type or "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        for k, v in turn.headers.items():
            self.send_header(k, v)
        self.end_headers()
        self._stream(turn)

    def _stream(self, turn: Turn) -> None:
        if turn.cut_after is not None:
            cut = Turn(events=turn.events[: turn.cut_after], done=False)
            self._write_chunk(encode_events(cut))
            self.wfile.flush()
            # Close without the terminating zero-length chunk: a cut mid-stream.
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        if turn.split:
            data = encode_events(turn)
            for i in range(0, len(data), turn.split):
                self._write_chunk(data[i : i + turn.split])
                if turn.delay:
                    time.sleep(turn.delay)
        else:
            for i, ev in enumerate(turn.events):
                if turn.gate is not None and turn.gate_at and i == turn.gate_at:
                    turn.gate.wait()
                one = Turn(events=[ev], done=False)
                self._write_chunk(encode_events(one))
                if turn.delay:
                    time.sleep(turn.delay)
            if turn.done:
                self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        if not data:
            return
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _plain(self, status: int, body: bytes, ctype: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: LoopbackServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], OSError):  # a client that went away (a cancel, a closed session)
            return
        super().handle_error(request, client_address)


class LoopbackServer:
    def __init__(
        self,
        turns: list[Turn] | None = None,
        *,
        models: list[str] | None = None,
        responder: Callable[[dict[str, Any], int], Turn] | None = None,
        get_routes: dict[str, Any] | None = None,
    ) -> None:
        """`responder(body, n)` may build each turn from the request instead of a script;
        `get_routes` maps a GET path ("/props") to the JSON it answers (else 404, or the model list)."""
        self.get_routes = dict(get_routes or {})
        self.turns = list(turns or [])
        self.models = models or ["test-model"]
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []  # of each POST
        self._lock = threading.Lock()
        self._gates: list[threading.Event] = []
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        # A short poll interval: stop() returns in ~50 ms instead of 0.5 s (many tests stop a server).
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _next_turn(self, body: dict[str, Any], headers: dict[str, str]) -> Turn:
        with self._lock:
            n = len(self.requests)
            self.requests.append(body)
            self.headers.append(headers)
            if self.responder is not None:
                return self.responder(body, n)
            if not self.turns:
                return text_turn("(no more scripted turns)")
            return self.turns[n] if n < len(self.turns) else self.turns[-1]

    def hold(self, gate: threading.Event) -> None:
        with self._lock:
            self._gates.append(gate)

    def start(self) -> LoopbackServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._lock:
            for gate in self._gates:  # no handler thread stays parked on a gate the test never set
                gate.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
