"""A plain-http endpoint's clients get a TLS context that trusts nobody (no certificate store loaded,
any TLS connection refused); https, or a proxy in the environment, the full shared one (#26)."""

from __future__ import annotations

import ssl

import pytest

from mrsmith_tui.provider import tls

PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@pytest.fixture
def no_proxy(monkeypatch):
    for name in PROXIES:
        monkeypatch.delenv(name, raising=False)


def test_a_plain_http_endpoint_loads_no_certificates_and_verifies_everything(no_proxy):
    ctx = tls.tls_context_for("http://127.0.0.1:8080/v1")
    assert ctx.cert_store_stats()["x509_ca"] == 0
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname  # closed, never open
    assert ctx is tls.tls_context_for("HTTP://localhost/v1")  # made once


@pytest.mark.parametrize("url", ["https://api.openai.com/v1", "HTTPS://x/v1", "ftp://x", ""])
def test_anything_but_plain_http_gets_the_shared_verified_context(no_proxy, url):
    assert tls.tls_context_for(url) is tls.shared_tls_context()


@pytest.mark.parametrize("name", PROXIES)
def test_a_proxy_in_the_environment_keeps_the_full_context(no_proxy, monkeypatch, name):
    monkeypatch.setenv(name, "https://proxy.example:3128")
    assert tls.tls_context_for("http://127.0.0.1:8080/v1") is tls.shared_tls_context()
