"""web_fetch: GET an http(s) URL and return readable text; each new host asks first.

Outbound requests are a way out for whatever the model has read, so the first fetch from a
host asks (spec `web_fetch:<host>`; config `webFetchAllowedHosts` pre-approves hosts), and a
host resolving to a loopback, private, link-local or otherwise non-public address says so.
The connection goes to the address that was checked: the name is resolved once, the
addresses judged, and the request sent to that IP with the name in the Host header and TLS
SNI, so a DNS answer that changes in between (rebinding) cannot redirect it. Every redirect
hop is judged again (a new host asks), at most MAX_REDIRECTS of them. The resolver is
injectable so tests never touch real DNS.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import threading
from collections.abc import Callable, Iterable
from fnmatch import fnmatchcase
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from mrsmith_tui.errors import MrSmithError
from mrsmith_tui.tools.base import PRIVATE_SUFFIX, ApprovalNeed, ApprovalQuery, BaseTool, ToolContext, ToolResult

MAX_BYTES = 1024 * 1024
MAX_REDIRECTS = 5
MAX_TEXT = 200_000
TIMEOUT = httpx.Timeout(20.0, connect=10.0)

Resolver = Callable[[str], list[str]]


def system_resolver(host: str) -> list[str]:
    return sorted({str(info[4][0]) for info in socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)})


class FetchError(MrSmithError):
    pass


def _host(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise FetchError(f"{url!r}: only http and https URLs can be fetched")
    try:
        host = parts.hostname
        parts.port  # noqa: B018 - a bad port raises here, not in the middle of the fetch
    except ValueError as e:
        raise FetchError(f"{url!r}: {e}") from None
    if not host:
        raise FetchError(f"{url!r} has no host")
    return host


def resolve_host(host: str, resolver: Resolver) -> list[str]:
    """The addresses `host` stands for (itself when it is an IP), or FetchError."""
    try:
        addresses = [host] if _is_ip(host) else resolver(host)
    except (OSError, UnicodeError) as e:
        raise FetchError(f"cannot resolve {host}: {e}") from None
    if not addresses:
        raise FetchError(f"cannot resolve {host}: no addresses")
    return list(addresses)


def non_public_reason(host: str, resolver: Resolver, addresses: list[str] | None = None) -> str | None:
    """Why `host` (at `addresses`, else resolved now) is not a plain public internet address, or None."""
    if addresses is None:
        addresses = resolve_host(host, resolver)
    for text in addresses:
        ip = _embedded_ipv4(ipaddress.ip_address(text.split("%")[0]))
        if ip.is_loopback:
            return f"{host} is a loopback address ({ip})"
        if ip.is_link_local:
            return f"{host} is a link-local address ({ip})"
        if ip.is_private:
            return f"{host} is a private network address ({ip})"
        if not ip.is_global or ip.is_multicast:
            return f"{host} is not a public address ({ip})"
    return None


_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _embedded_ipv4(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The IPv4 address an IPv6 one carries and is routed to (mapped, NAT64, 6to4, Teredo): [64:ff9b::a00:1]
    reaches 10.0.0.1 through a NAT64 gateway, so it is checked as 10.0.0.1."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return ip
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    return ip


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%")[0])
        return True
    except ValueError:
        return False


def _readable(content_type: str, body: bytes) -> str | None:
    charset = "utf-8"
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.lower() == "charset" and value:
            charset = value.strip('"')
    try:
        text = body.decode(charset, errors="replace")
    except LookupError:
        text = body.decode("utf-8", errors="replace")
    kind = content_type.split(";")[0].strip().lower()
    if kind in ("text/html", "application/xhtml+xml") or (not kind and text.lstrip()[:1] == "<"):
        import html2text  # here: only a fetched HTML page needs it (start-up time)

        converter = html2text.HTML2Text()
        converter.body_width = 0
        converter.ignore_images = True
        return converter.handle(text)
    if kind.startswith("text/") or kind.endswith(("json", "xml", "javascript")) or not kind:
        if "\x00" in text[:4096]:
            return None
        return text
    return None


class WebFetchTool(BaseTool):
    name = "web_fetch"
    read_only = True
    description = (
        "Fetch a web page or file over http/https (GET) and return it as readable text (HTML is converted to "
        f"Markdown-like text). At most {MAX_BYTES // 1024} KiB is downloaded and {MAX_REDIRECTS} redirects "
        "followed. Use it for documentation, issues and API references the person points you to. Addresses "
        "on this machine or a private network (localhost, 10.x, 192.168.x, 169.254.x, ...) need the "
        "person's approval, and so does the first fetch from each host. Binary content is refused."
    )
    parameters = {
        "type": "object",
        "properties": {"url": {"type": "string", "description": "An http:// or https:// URL"}},
        "required": ["url"],
        "additionalProperties": False,
    }

    def __init__(self, resolver: Resolver = system_resolver, transport: httpx.BaseTransport | None = None,
                 allowed_hosts: Iterable[str] = ()) -> None:
        self.resolver = resolver
        self.transport = transport
        self.allowed_hosts = tuple(h.strip().lower() for h in allowed_hosts if h and h.strip())
        self._checked = threading.local()  # approval() -> run() of one call, on one thread: the addresses judged

    def allowed(self, host: str, *, private: bool = False) -> bool:
        """Whether config's webFetchAllowedHosts names the host (`*.python.org` patterns too). A
        non-public answer needs an entry that says so (`intranet.example@private`)."""
        if private:
            return any(p.endswith(PRIVATE_SUFFIX) and fnmatchcase(host.lower(), p.removesuffix(PRIVATE_SUFFIX))
                       for p in self.allowed_hosts)
        return any(not p.endswith(PRIVATE_SUFFIX) and fnmatchcase(host.lower(), p) for p in self.allowed_hosts)

    def _need(self, host: str, addresses: list[str], *, redirected: bool = False) -> ApprovalNeed | None:
        # Allowing a host allows its public addresses only: a name that answers 127.0.0.1 or
        # 169.254.169.254 later (DNS rebinding across calls) asks again, under its own spec.
        reason = non_public_reason(host, self.resolver, addresses)
        if self.allowed(host, private=reason is not None):
            return None
        how = "was redirected to" if redirected else "reaches"
        if reason:
            return ApprovalNeed(reason=f"web_fetch {how} a non-public address: {reason}",
                                spec=f"web_fetch:{host}{PRIVATE_SUFFIX}", rule="network")
        return ApprovalNeed(reason=f"web_fetch {how} {host}, a host not yet allowed", spec=f"web_fetch:{host}", rule="network")

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        self._checked.value = None
        url = args.get("url")
        url = url.strip() if isinstance(url, str) else ""
        try:
            host = _host(url)
            addresses = resolve_host(host, self.resolver)
        except FetchError:
            return None  # run() reports it
        self._checked.value = (url, host, addresses)
        return self._need(host, addresses)

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        url = args.get("url")
        if not isinstance(url, str) or not url.strip():
            return ToolResult.error("url must be a non-empty string")
        try:
            return self._fetch(url.strip(), ctx)
        except FetchError as e:
            return ToolResult.error(str(e))
        except httpx.TimeoutException:
            return ToolResult.error(f"{url}: timed out")
        except httpx.HTTPError as e:
            return ToolResult.error(f"{url}: {type(e).__name__}: {e}")

    def _confirm(self, need: ApprovalNeed, url: str, ctx: ToolContext) -> None:
        """Ask mid-run, through the session's gate (so "always" answers count) when there is one."""
        gate = ctx.services.approval_gate
        raw = json.dumps({"url": url})
        if gate is not None:
            refusal = gate.confirm(self.name, need, raw, ctx)
        else:
            query = ApprovalQuery(tool=self.name, arguments=raw, reason=need.reason, spec=need.spec,
                                  agent_id=ctx.agent_id, rule=need.rule)
            refusal = None if ctx.approver.approve(query) in ("yes", "always") else "the person did not approve it"
        if refusal is not None:
            raise FetchError(f"{url} not fetched: {need.reason}; {refusal.splitlines()[0]}")

    def _pinned_addresses(self, url: str, hop: int, first_host: str, ctx: ToolContext) -> list[str]:
        """The addresses this hop connects to, judged (and asked about) right here."""
        host = _host(url)
        checked: tuple[str, str, list[str]] | None = getattr(self._checked, "value", None)
        self._checked.value = None
        if hop == 0 and checked is not None and checked[0] == url and checked[1] == host:
            return checked[2]  # judged by approval(), which the gate acted on: no second lookup
        addresses = resolve_host(host, self.resolver)
        need = self._need(host, addresses, redirected=hop > 0)
        # The first host was asked about (or allowed) already; it asks again only at a non-public address.
        if need is not None and (hop == 0 or host != first_host or non_public_reason(host, self.resolver, addresses)):
            self._confirm(need, url, ctx)
        return addresses

    def _fetch(self, url: str, ctx: ToolContext) -> ToolResult:
        first_host = _host(url)
        with httpx.Client(timeout=TIMEOUT, follow_redirects=False, transport=self.transport, trust_env=False,
                          headers={"User-Agent": "mrsmith-web-fetch/1"}) as client:
            unregister = ctx.cancel.on_cancel(client.close)
            try:
                for hop in range(MAX_REDIRECTS + 1):
                    ctx.cancel.check()
                    addresses = self._pinned_addresses(url, hop, first_host, ctx)
                    with client.stream("GET", _pinned_url(url, addresses[0]), headers={"Host": _netloc(url)},
                                       extensions=_sni(url)) as response:
                        if response.is_redirect and "location" in response.headers:
                            if hop == MAX_REDIRECTS:
                                raise FetchError(f"more than {MAX_REDIRECTS} redirects; stopped at {url}")
                            url = urljoin(url, response.headers["location"])
                            continue
                        return self._result(url, response)
            finally:
                unregister()
        raise FetchError("unreachable")  # pragma: no cover

    def _result(self, url: str, response: httpx.Response) -> ToolResult:
        """(`url` is the name-based URL; the response's own URL has the pinned IP in it.)"""
        body = bytearray()
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > MAX_BYTES:
                break
        cut = len(body) > MAX_BYTES
        text = _readable(response.headers.get("content-type", ""), bytes(body[:MAX_BYTES]))
        kind = response.headers.get("content-type", "unknown")
        if text is None:
            return ToolResult.error(f"{url}: {kind} is binary content; web_fetch returns text only")
        notes = []
        if cut:
            notes.append(f"only the first {MAX_BYTES} bytes were downloaded")
        if len(text) > MAX_TEXT:
            text = text[:MAX_TEXT]
            notes.append(f"the text was cut at {MAX_TEXT} characters")
        header = f"{url} — HTTP {response.status_code}, {kind}"
        content = header + "\n\n" + text + ("\n[truncated: " + "; ".join(notes) + "]" if notes else "")
        return ToolResult(content=content, ok=response.status_code < 400)


def _pinned_url(url: str, address: str) -> str:
    """`url` with its host replaced by the checked address (the port, path and query kept)."""
    parts = urlsplit(url)
    ip = address.split("%")[0]
    host = f"[{ip}]" if ":" in ip else ip
    netloc = host + (f":{parts.port}" if parts.port else "")
    return parts._replace(netloc=netloc).geturl()


def _netloc(url: str) -> str:
    """The Host header: the name as the URL gives it, with its port, without user info."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    return host + (f":{parts.port}" if parts.port else "")


def _sni(url: str) -> dict[str, Any]:
    """TLS to the pinned IP still names the host (SNI) and checks the certificate against it."""
    parts = urlsplit(url)
    return {"sni_hostname": parts.hostname} if parts.scheme == "https" and parts.hostname else {}
