"""web_fetch against a real local HTTP server; names resolve through a stub, never real DNS."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import httpx
import pytest

from mrsmith_tui.tools.web_fetch import MAX_BYTES, WebFetchTool

PUBLIC_IP = "93.184.216.34"


class _Handler(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def log_message(self, *a):  # keep the test output quiet
        pass

    def do_GET(self):
        self.hits.append(self.path)
        routes = {
            "/page": (200, "text/html; charset=utf-8", b"<html><body><h1>Title</h1><p>Hello <b>web</b></p></body></html>"),
            "/plain": (200, "text/plain", b"just text"),
            "/bin": (200, "application/octet-stream", b"\x00\x01\x02"),
            "/big": (200, "text/plain", b"y" * (MAX_BYTES + 5000)),
            "/missing": (404, "text/plain", b"nope"),
        }
        if self.path.startswith("/to-loopback"):
            port = self.server.server_address[1]
            self._send(302, "text/plain", b"", location=f"http://127.0.0.1:{port}/secret")
        elif self.path.startswith("/loop"):
            self._send(302, "text/plain", b"", location="/loop")
        elif self.path == "/hop":
            self._send(301, "text/plain", b"", location="/plain")
        else:
            self._send(*routes.get(self.path, (200, "text/plain", b"secret data")))

    def _send(self, code, kind, body, location=None):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if location:
            self.send_header("Location", location)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server():
    _Handler.hits = []
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


class _Internet(httpx.HTTPTransport):
    """Plays the internet: a request sent to PUBLIC_IP reaches the local server; a request sent to a
    name is resolved here, through `resolver` (as the operating system would), and goes where it says."""

    def __init__(self, port: int, resolver=None) -> None:
        super().__init__()
        self.port = port
        self.resolver = resolver
        self.seen: list[tuple[str, str | None]] = []  # (the host connected to, the Host header)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append((request.url.host, request.headers.get("host")))
        if request.url.host == PUBLIC_IP:
            request.url = request.url.copy_with(host="127.0.0.1", port=self.port)
        elif self.resolver is not None and not request.url.host[:1].isdigit():
            request.url = request.url.copy_with(host=self.resolver(request.url.host)[0])
        return super().handle_request(request)


def stub_resolver(table):
    def resolve(host: str) -> list[str]:
        if host not in table:
            raise OSError("name not known")
        return table[host]
    return resolve


TABLE = {"public.example": [PUBLIC_IP], "other.example": [PUBLIC_IP], "localhost": ["127.0.0.1", "::1"]}


def _tool(server, allowed=("public.example",)) -> WebFetchTool:
    return WebFetchTool(resolver=stub_resolver(TABLE), transport=_Internet(server.server_address[1]), allowed_hosts=allowed)


@pytest.mark.parametrize(
    ("url", "spec"),
    [
        ("http://127.0.0.1/", "web_fetch:127.0.0.1@private"),
        ("http://localhost:8080/x", "web_fetch:localhost@private"),
        ("http://[::1]/", "web_fetch:::1@private"),
        ("http://169.254.169.254/latest/meta-data/", "web_fetch:169.254.169.254@private"),
        ("http://10.0.0.1/", "web_fetch:10.0.0.1@private"),
        ("http://192.168.1.1/", "web_fetch:192.168.1.1@private"),
        ("http://[::ffff:127.0.0.1]/", "web_fetch:::ffff:127.0.0.1@private"),
        ("http://0.0.0.0/", "web_fetch:0.0.0.0@private"),
        # IPv6 forms that carry an IPv4 address and are routed to it (NAT64, 6to4, Teredo)
        ("http://[64:ff9b::a00:1]/", "web_fetch:64:ff9b::a00:1@private"),
        ("http://[64:ff9b::7f00:1]/", "web_fetch:64:ff9b::7f00:1@private"),
        ("http://[2002:a9fe:a9fe::]/", "web_fetch:2002:a9fe:a9fe::@private"),
        ("http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", "web_fetch:2001:0:4136:e378:8000:63bf:f5ff:fffe@private"),
    ],
)
def test_non_public_hosts_need_approval(server, ctx, url, spec) -> None:
    need = _tool(server).approval({"url": url}, ctx)
    assert need is not None and need.spec == spec


def test_allowed_host_needs_no_approval_and_html_becomes_text(server, ctx) -> None:
    tool = _tool(server)
    assert tool.approval({"url": "http://public.example/page"}, ctx) is None
    r = tool.run({"url": "http://public.example/page"}, ctx)
    assert r.ok and "# Title" in r.content and "Hello **web**" in r.content and "<p>" not in r.content
    # pinned: the connection went to the address that was checked, the name rode in the Host header
    assert tool.transport.seen == [(PUBLIC_IP, "public.example")]
    assert r.content.startswith("http://public.example/page — HTTP 200")


def test_a_new_public_host_asks_once_per_host(server, ctx) -> None:
    tool = _tool(server, allowed=())
    need = tool.approval({"url": "http://public.example/page"}, ctx)
    assert need is not None and need.spec == "web_fetch:public.example" and need.rule == "network"
    assert "public.example" in need.reason
    assert _tool(server, allowed=("*.example",)).approval({"url": "http://other.example/"}, ctx) is None


def test_redirect_to_a_new_host_asks_and_a_refusal_stops_it(server, ctx, approver) -> None:
    class Redirecting(_Internet):
        def handle_request(self, request):
            if request.headers["host"] == "public.example":
                return httpx.Response(302, headers={"location": "http://other.example/plain"})
            return super().handle_request(request)

    tool = WebFetchTool(resolver=stub_resolver(TABLE), transport=Redirecting(server.server_address[1]),
                        allowed_hosts=("public.example",))
    r = tool.run({"url": "http://public.example/x"}, ctx)
    assert not r.ok and "other.example" in r.content and "/plain" not in _Handler.hits
    assert [q.spec for q in approver.queries] == ["web_fetch:other.example"]
    approver.decision = "yes"
    assert tool.run({"url": "http://public.example/x"}, ctx).content.endswith("just text")


def test_dns_rebinding_cannot_reach_a_loopback_listener(server, ctx, approver) -> None:
    """The name answers a public address when checked and 127.0.0.1 after: the fetch must go to the
    public address it checked, never to the loopback listener."""
    private = ThreadingHTTPServer(("127.0.0.1", 0), _Private)
    threading.Thread(target=private.serve_forever, daemon=True).start()
    _Private.hits = []
    answers = [[PUBLIC_IP]]

    def rebinding(host: str) -> list[str]:
        assert host == "rebind.example"
        return answers.pop(0) if answers else ["127.0.0.1"]

    try:
        tool = WebFetchTool(resolver=rebinding, transport=_Internet(server.server_address[1], resolver=rebinding))
        url = f"http://rebind.example:{private.server_address[1]}/secret"
        approver.decision = "yes"  # the person allowed the (public) host
        need = tool.approval({"url": url}, ctx)
        assert need is not None and "not yet allowed" in need.reason
        r = tool.run({"url": url}, ctx)
    finally:
        private.shutdown()
        private.server_close()
    assert _Private.hits == []
    assert "PRIVATE" not in r.content and "secret data" in r.content
    assert tool.transport.seen[0][0] == PUBLIC_IP


class _Private(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def log_message(self, *a):
        pass

    def do_GET(self):
        self.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Length", "7")
        self.end_headers()
        self.wfile.write(b"PRIVATE")


def test_redirect_to_loopback_is_rechecked_and_refused(server, ctx, approver) -> None:
    r = _tool(server).run({"url": "http://public.example/to-loopback"}, ctx)
    assert not r.ok and "redirected to a non-public address: 127.0.0.1 is a loopback address" in r.content
    assert "/secret" not in _Handler.hits
    assert approver.queries and approver.queries[0].spec == "web_fetch:127.0.0.1@private"


def test_redirect_to_loopback_followed_when_approved(server, ctx, approver) -> None:
    approver.decision = "yes"
    r = _tool(server).run({"url": "http://public.example/to-loopback"}, ctx)
    assert r.ok and "secret data" in r.content


def test_redirects_capped_and_followed(server, ctx) -> None:
    r = _tool(server).run({"url": "http://public.example/loop"}, ctx)
    assert not r.ok and "more than 5 redirects" in r.content
    assert _tool(server).run({"url": "http://public.example/hop"}, ctx).content.endswith("just text")


def test_caps_binary_errors_and_schemes(server, ctx) -> None:
    tool = _tool(server)
    big = tool.run({"url": "http://public.example/big"}, ctx)
    assert "only the first" in big.content and big.content.count("y") <= MAX_BYTES + 10
    assert "binary" in tool.run({"url": "http://public.example/bin"}, ctx).content
    missing = tool.run({"url": "http://public.example/missing"}, ctx)
    assert not missing.ok and "HTTP 404" in missing.content
    for bad in ("file:///etc/passwd", "ftp://x/y", "gopher://x", "not a url"):
        r = tool.run({"url": bad}, ctx)
        assert not r.ok and "only http and https" in r.content
    assert "cannot resolve" in tool.run({"url": "http://unknown.example/"}, ctx).content


def test_an_allowed_host_that_later_answers_a_private_address_asks_again(server, ctx, approver) -> None:
    """Rebinding across calls: "always" for web_fetch:rebind.example (or the config's list) covers its
    public answers only; when the name later answers 127.0.0.1 the fetch asks under its own spec."""
    from mrsmith_tui.tools.approval import ApprovalGate
    from mrsmith_tui.tools.services import Services

    answers = {"rebind.example": [PUBLIC_IP]}
    resolver = stub_resolver(answers)
    gate = ApprovalGate(approver)
    gate.grant("web_fetch:rebind.example", "answer")
    gate.grant("web_fetch", "--allow")
    ctx.services = Services(approval_gate=gate)
    for allowed in ((), ("rebind.example",)):
        tool = WebFetchTool(resolver=resolver, transport=_Internet(server.server_address[1]), allowed_hosts=allowed)
        answers["rebind.example"] = [PUBLIC_IP]
        assert gate.authorize(tool, {"url": "http://rebind.example/plain"}, "{}", ctx) is None
        answers["rebind.example"] = ["127.0.0.1"]
        approver.queries.clear()
        refusal = gate.authorize(tool, {"url": "http://rebind.example/plain"}, "{}", ctx)
        assert refusal is not None and [q.spec for q in approver.queries] == ["web_fetch:rebind.example@private"]
    tool = WebFetchTool(resolver=resolver, transport=_Internet(server.server_address[1]),
                        allowed_hosts=("rebind.example@private",))
    assert gate.authorize(tool, {"url": "http://rebind.example/plain"}, "{}", ctx) is None
