"""web_fetch: GET an http(s) URL and return readable text; private addresses need approval.

Every redirect hop is checked again (scheme, and whether the host resolves to a loopback,
private, link-local or otherwise non-public address), at most MAX_REDIRECTS of them. The
resolver is injectable so tests never touch real DNS.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from typing import Any, Callable
from urllib.parse import urljoin, urlsplit

import html2text
import httpx

from mrsmith_tui.tools.base import ApprovalNeed, ApprovalQuery, BaseTool, ToolContext, ToolResult

MAX_BYTES = 1024 * 1024
MAX_REDIRECTS = 5
MAX_TEXT = 200_000
TIMEOUT = httpx.Timeout(20.0, connect=10.0)

Resolver = Callable[[str], list[str]]


def system_resolver(host: str) -> list[str]:
    return sorted({info[4][0] for info in socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)})


class FetchError(Exception):
    pass


def _host(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise FetchError(f"{url!r}: only http and https URLs can be fetched")
    if not parts.hostname:
        raise FetchError(f"{url!r} has no host")
    return parts.hostname


def non_public_reason(host: str, resolver: Resolver) -> str | None:
    """Why `host` is not a plain public internet address, or None when it is."""
    try:
        addresses = [host] if _is_ip(host) else resolver(host)
    except (OSError, UnicodeError) as e:
        raise FetchError(f"cannot resolve {host}: {e}") from None
    if not addresses:
        raise FetchError(f"cannot resolve {host}: no addresses")
    for text in addresses:
        ip = ipaddress.ip_address(text.split("%")[0])
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if ip.is_loopback:
            return f"{host} is a loopback address ({ip})"
        if ip.is_link_local:
            return f"{host} is a link-local address ({ip})"
        if ip.is_private:
            return f"{host} is a private network address ({ip})"
        if not ip.is_global or ip.is_multicast:
            return f"{host} is not a public address ({ip})"
    return None


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
        "person's approval. Binary content is refused."
    )
    parameters = {
        "type": "object",
        "properties": {"url": {"type": "string", "description": "An http:// or https:// URL"}},
        "required": ["url"],
        "additionalProperties": False,
    }

    def __init__(self, resolver: Resolver = system_resolver, transport: httpx.BaseTransport | None = None) -> None:
        self.resolver = resolver
        self.transport = transport

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        try:
            host = _host(args.get("url") or "")
            reason = non_public_reason(host, self.resolver)
        except FetchError:
            return None  # run() reports it
        if reason is None:
            return None
        return ApprovalNeed(reason=f"web_fetch reaches {reason}", spec=f"web_fetch:{host}", rule="network")

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

    def _hop_allowed(self, url: str, ctx: ToolContext) -> None:
        """A redirect target must pass the same check as the first URL; the person decides."""
        host = _host(url)
        reason = non_public_reason(host, self.resolver)
        if reason is None:
            return
        query = ApprovalQuery(
            tool=self.name, arguments=json.dumps({"url": url}), reason=f"web_fetch was redirected to {reason}",
            spec=f"web_fetch:{host}", agent_id=ctx.agent_id,
        )
        if ctx.approver is None or ctx.approver.approve(query) not in ("yes", "always"):
            raise FetchError(f"redirected to {url}, which is not a public address ({reason}); not followed")

    def _fetch(self, url: str, ctx: ToolContext) -> ToolResult:
        # The first URL passed the approval gate already (a non-public host was approved);
        # resolving it here only turns an unknown name into a clear error.
        non_public_reason(_host(url), self.resolver)
        with httpx.Client(timeout=TIMEOUT, follow_redirects=False, transport=self.transport,
                          headers={"User-Agent": "mrsmith-web-fetch/1"}) as client:
            unregister = ctx.cancel.on_cancel(client.close)
            try:
                for hop in range(MAX_REDIRECTS + 1):
                    ctx.cancel.check()
                    with client.stream("GET", url) as response:
                        if response.is_redirect and "location" in response.headers:
                            if hop == MAX_REDIRECTS:
                                raise FetchError(f"more than {MAX_REDIRECTS} redirects; stopped at {url}")
                            url = urljoin(url, response.headers["location"])
                            self._hop_allowed(url, ctx)
                            continue
                        return self._result(url, response)
            finally:
                unregister()
        raise FetchError("unreachable")  # pragma: no cover

    def _result(self, url: str, response: httpx.Response) -> ToolResult:
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
