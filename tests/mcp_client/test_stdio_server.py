"""A real MCP server (the SDK's server API) over stdio, shared by this module: tools, calls, errors,
cancel, timeouts, a huge result, variables reaching the server, its stderr kept clean."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.mcp.service import McpServers
from mrsmith_tui.tools.registry import ToolRegistry

from .servers import call, hub_for, state_home, stdio_entry, tool


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    with state_home(tmp_path_factory):
        root = tmp_path_factory.mktemp("stdio-project")
        os.environ["MCP_TEST_SET_VALUE"] = "from-the-environment"
        try:
            entry = stdio_entry(toolTimeoutSec=3, env={"GREETING": "${MCP_TEST_UNSET_GREETING:-hello default}",
                                                       "SETVALUE": "${MCP_TEST_SET_VALUE}"})
            with hub_for(root, {"demo": entry}) as hub:
                yield hub
        finally:
            del os.environ["MCP_TEST_SET_VALUE"]


def test_lists_the_tools_with_their_schemas_and_hints(demo: McpServers):
    [status] = demo.statuses()
    assert status.state == "ready", status
    names = {t.name for t in demo.current_tools()}
    assert {"mcp__demo__echo", "mcp__demo__add", "mcp__demo__write_note", "mcp__demo__fail"} <= names
    echo = tool(demo, "mcp__demo__echo")
    assert echo.parameters["type"] == "object" and "text" in echo.parameters["properties"]
    assert "Echo the text back." in echo.description and echo.read_only
    assert not tool(demo, "mcp__demo__write_note").read_only  # no readOnlyHint: it asks


def test_a_call_with_arguments_answers(demo: McpServers):
    result = call(demo, "mcp__demo__add", {"a": 2, "b": 40})
    assert result.ok and result.content == "42"
    assert call(demo, "mcp__demo__echo", {"text": "hi"}).content == "echo: hi"


def test_an_error_result_is_readable_text(demo: McpServers):
    result = call(demo, "mcp__demo__fail", {"reason": "boom"})
    assert not result.ok and result.content.startswith("Error: ") and "fail" in result.content


def test_pictures_are_summarised_as_text(demo: McpServers):
    result = call(demo, "mcp__demo__picture", {})
    assert result.content.splitlines() == ["a red dot", "[image: image/png, 8 bytes]"]


def test_variables_reach_the_server_with_their_defaults(demo: McpServers):
    assert call(demo, "mcp__demo__env", {"name": "GREETING"}).content == "hello default"
    assert call(demo, "mcp__demo__env", {"name": "SETVALUE"}).content == "from-the-environment"


def test_a_slow_call_cancelled_ends_at_once_and_the_server_goes_on(demo: McpServers):
    cancel = CancelToken()
    out: list = []
    worker = threading.Thread(target=lambda: out.append(call(demo, "mcp__demo__slow", {"seconds": 30}, cancel)))
    worker.start()
    cancel.cancel()  # before or while it runs: either way the call ends now, not in 30 s
    worker.join(90)  # a safety net: the call ends at once, and at its 3 s timeout (which would fail the next line) anyway
    assert not worker.is_alive()
    assert "cancelled by the person" in out[0].content and not out[0].ok
    assert call(demo, "mcp__demo__echo", {"text": "still here"}).content == "echo: still here"


def test_a_call_that_never_returns_ends_at_its_timeout(demo: McpServers):
    result = call(demo, "mcp__demo__slow", {"seconds": 60})
    assert not result.ok and "no answer within 3 s (toolTimeoutSec)" in result.content
    assert call(demo, "mcp__demo__echo", {"text": "after"}).ok


def test_a_result_line_over_the_limit_is_an_error_not_a_memory_spike(demo: McpServers):
    result = call(demo, "mcp__demo__huge", {"n": 9 * 1024 * 1024})
    assert not result.ok and "over the limit of 8 MiB; it was dropped" in result.content
    assert call(demo, "mcp__demo__echo", {"text": "after"}).ok  # the connection survived it


def test_a_big_result_is_cut_to_the_output_limit(demo: McpServers):
    result = call(demo, "mcp__demo__huge", {"n": 200_000})
    assert result.ok and len(result.content) < 40_000 and "characters cut from the middle" in result.content


def test_escape_sequences_on_stderr_never_reach_the_screen_raw(demo: McpServers):
    assert call(demo, "mcp__demo__noisy", {}).ok
    text = "\n".join(demo.log_tail("demo", 3))
    assert "cleared?" in text and "\x1b" not in text and "\x07" not in text
    log = demo.statuses()[0].log  # the private log keeps the raw bytes, for the person to read
    assert log and oct(os.stat(log).st_mode & 0o777) == "0o600"
    raw = Path(log).read_bytes()
    assert b"fixture starting \x1b[31mRED" in raw


def test_the_registry_reads_the_servers_tools_before_each_request(demo: McpServers):
    registry = ToolRegistry(sources=[demo])
    assert "mcp__demo__echo" in registry and registry.get("mcp__demo__echo") is not None
    specs = {s["function"]["name"]: s for s in registry.specs()}
    assert specs["mcp__demo__echo"]["function"]["parameters"]["required"] == ["text"]
