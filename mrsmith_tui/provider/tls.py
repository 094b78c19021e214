"""One TLS context for every HTTP client of the process (issue #26).

`httpx.Client()` builds a fresh SSL context each time, loading the whole certificate store: about
20-40 ms of CPU, under the interpreter lock. The provider makes a client per request, so 100
agents starting at once spent seconds there while the screen waited. A context is safe to share
between threads and clients; it is made once, the way httpx makes its own (`SSL_CERT_FILE` and
`SSL_CERT_DIR` honoured, else certifi's store), with the same verification.
"""

from __future__ import annotations

import ssl
import threading

_lock = threading.Lock()
_context: ssl.SSLContext | None = None


def shared_tls_context() -> ssl.SSLContext:
    global _context
    with _lock:
        if _context is None:
            import httpx

            _context = httpx.create_ssl_context(verify=True, trust_env=True)
        return _context
