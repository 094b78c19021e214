"""One TLS context for every HTTP client of the process (issue #26).

`httpx.Client()` builds a fresh SSL context each time, loading the whole certificate store: about
20-40 ms of CPU, under the interpreter lock. The provider makes a client per request, so 100
agents starting at once spent seconds there while the screen waited. A context is safe to share
between threads and clients; it is made once, the way httpx makes its own (`SSL_CERT_FILE` and
`SSL_CERT_DIR` honoured, else certifi's store), with the same verification.

A plain-http endpoint (a local server) makes no TLS connection, so it needs no certificate store:
`tls_context_for` gives its clients a context that trusts no authority at all (any TLS connection
would fail verification: closed, never open), and a one-shot to a local server does not spend
~25 ms loading certificates it never uses. With a proxy in the environment the full context stays,
as the proxy may speak TLS.
"""

from __future__ import annotations

import os
import ssl
import threading

_lock = threading.Lock()
_context: ssl.SSLContext | None = None
_no_authorities: ssl.SSLContext | None = None
_PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")


def shared_tls_context() -> ssl.SSLContext:
    global _context
    with _lock:
        if _context is None:
            import httpx

            _context = httpx.create_ssl_context(verify=True, trust_env=True)
        return _context


def tls_context_for(url: str) -> ssl.SSLContext:
    """The context for a client that talks to `url` (see the module's text)."""
    global _no_authorities
    if not url.lower().startswith("http://") or any(k.lower() in _PROXY_VARIABLES for k in os.environ):
        return shared_tls_context()
    with _lock:
        if _no_authorities is None:
            _no_authorities = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies certificates and host names
        return _no_authorities
