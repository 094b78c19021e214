"""The fixture server over streamable HTTP on 127.0.0.1: tools, a call, an error, headers expanded
from the environment, and the server killed mid-session."""

from __future__ import annotations

import pytest

from mrsmith_tui.security.redact import PROCESS

from .servers import call, http_server, hub_for, state_home


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with state_home(tmp_path_factory), http_server("web") as (url, proc):
        root = tmp_path_factory.mktemp("http-project")
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("MCP_TEST_WEB_TOKEN", "tok-9f8e7d6c5b4a")
            entry = {"url": url, "headers": {"Authorization": "Bearer ${MCP_TEST_WEB_TOKEN}"}, "toolTimeoutSec": 5}
            with hub_for(root, {"web": entry}) as hub:
                yield hub, proc


def test_lists_tools_and_calls_one_over_http(web):
    hub, _ = web
    [status] = hub.statuses()
    assert status.state == "ready" and status.transport == "http"
    assert "mcp__web__echo" in status.tools
    assert call(hub, "mcp__web__echo", {"text": "over http"}).content == "echo: over http"


def test_an_error_result_over_http(web):
    hub, _ = web
    result = call(hub, "mcp__web__fail", {"reason": "nope"})
    assert not result.ok and result.content.startswith("Error: ")


def test_an_expanded_header_value_is_a_secret(web):
    assert PROCESS.redact("token tok-9f8e7d6c5b4a here") != "token tok-9f8e7d6c5b4a here"


def test_an_oversized_event_fails_that_call_only(web):  # adversary 11
    hub, _ = web
    result = call(hub, "mcp__web__huge", {"n": 9 * 1024 * 1024})
    assert not result.ok and "SSE" in result.content
    assert hub.statuses()[0].state == "ready"
    assert call(hub, "mcp__web__echo", {"text": "still here"}).content == "echo: still here"


def test_an_oversized_json_body_fails_that_call_only(tmp_path):  # adversary 7
    with http_server("plain", json_response=True) as (url, _proc), hub_for(tmp_path / "p", {"plain": {"url": url}}) as hub:
        assert call(hub, "mcp__plain__echo", {"text": "small"}).content == "echo: small"
        result = call(hub, "mcp__plain__huge", {"n": 9 * 1024 * 1024})
        assert not result.ok and "over 8 MiB" in result.content
        assert hub.statuses()[0].state == "ready"
        assert call(hub, "mcp__plain__echo", {"text": "after"}).content == "echo: after"


def test_the_server_killed_mid_session(web):  # last: it ends the module's server
    hub, proc = web
    proc.kill()
    proc.wait(10)
    result = call(hub, "mcp__web__echo", {"text": "anyone?"})
    assert not result.ok
    assert result.content == "error: mcp server web is not connected; /mcp reconnect web", result.content
    assert hub.statuses()[0].state == "failed"
