"""Regressions from the adversary's report against #24 (runtime): listings redacted, a hung server never
holds a headless run, an unreadable line answers its request at once, a broken untrusted server is left
off."""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

import mcp_types as types
import pytest

from mrsmith_tui.agents import mcp_parts
from mrsmith_tui.mcp.listing import read_listing
from mrsmith_tui.mcp.names import tool_names
from mrsmith_tui.mcp.stdio_transport import LineReader
from mrsmith_tui.security.redact import PROCESS

from .servers import Recorder, hub_for, stdio_entry

SECRET = "adv3-tokval-AAAA1111BBBB2222"


def test_tool_names_descriptions_and_schemas_are_redacted(monkeypatch):  # adv 3
    PROCESS.add(SECRET)
    leaky = SimpleNamespace(name=f"echo_{SECRET}", description=f"uses {SECRET}", annotations=None,
                            input_schema={"type": "object", "properties": {SECRET: {"description": SECRET,
                                                                                    "enum": [SECRET]}}})
    [info] = read_listing([leaky]).tools
    assert SECRET not in info.name + info.description + json.dumps(info.schema)
    assert info.original == f"echo_{SECRET}"  # the call still uses the server's own name
    assert not any("AAAA1111" in n for n in tool_names("h", [info.original]).values())


def test_a_line_the_parser_cannot_read_answers_its_request_at_once():  # adv 10
    deep = "[" * 300 + "]" * 300
    line = f'{{"jsonrpc":"2.0","id":7,"result":{{"content":[],"structuredContent":{{"x":{deep}}}}}}}\n'.encode()
    [message] = LineReader().feed(line)
    assert not isinstance(message, Exception)
    assert isinstance(message.message, types.JSONRPCError) and message.message.id == 7
    assert "could not be read" in message.message.error.message
    [ok] = LineReader().feed(b'{"jsonrpc":"2.0","id":8,"result":{}}\n')
    assert isinstance(ok.message, types.JSONRPCResponse)


def test_headless_never_waits_out_a_server_that_never_answers_initialize(tmp_path, monkeypatch):  # adv 8
    monkeypatch.setattr(mcp_parts, "HEADLESS_START_GRACE", 0.3)
    with hub_for(tmp_path / "p", {"mute": {"command": "sleep", "args": ["60"], "startupTimeoutSec": 600}}, wait=0) as servers:
        sink = Recorder()
        mcp_parts.start_mcp(servers, sink, [], wait=True)  # returns after the grace, not the 600 s
        assert servers.statuses()[0].state == "starting"
        [note] = sink.warnings("mcp")
        assert "mute still starting: left out of this request" in note


def test_an_untrusted_server_with_a_config_error_is_left_off_with_its_transport(tmp_path, monkeypatch):  # adv 16
    monkeypatch.delenv("NOPE_UNSET", raising=False)
    with hub_for(tmp_path / "p", {"bad": {"url": "${NOPE_UNSET}"}, "off": {"command": "/nonexistent"}}, mode="stored") as servers:
        status, off = servers.statuses()
        assert status.state == "untrusted" and status.transport == "http"
        [line] = servers.sink.warnings("mcp-untrusted")
        assert "bad, off (.mcp.json) left off" in line
        assert off.log and not os.path.exists(off.log)  # adv 5: a server never started leaves nothing on disk


@pytest.mark.parametrize(("value", "grace", "said"), [
    ("", 5.0, False), ("  ", 5.0, False), ("0", 0.0, False), ("12.5", 12.5, False), ("600", 600.0, False),
    ("601", 5.0, True), ("-1", 5.0, True), ("nan", 5.0, True), ("inf", 5.0, True), ("ten", 5.0, True),
    ("1e400", 5.0, True), ("x" * 500, 5.0, True)])
def test_the_headless_start_grace_is_the_default_unless_the_variable_says_a_number_of_seconds(value, grace, said):
    got, problem = mcp_parts.start_grace({"MRSMITH_MCP_START_GRACE": value})
    assert got == grace and bool(problem) == said
    if said:
        assert problem.startswith("MRSMITH_MCP_START_GRACE=") and "waiting 5 s" in problem and len(problem) < 160


def test_headless_waits_for_a_slow_server_as_long_as_the_variable_says(tmp_path, monkeypatch):
    monkeypatch.setenv("MRSMITH_MCP_START_GRACE", "90")  # a safety net: it returns once the server is ready
    monkeypatch.setattr(mcp_parts, "HEADLESS_START_GRACE", 0.0)  # the default alone would never wait
    with hub_for(tmp_path / "p", {"demo": stdio_entry()}, wait=0) as servers:
        sink = Recorder()
        mcp_parts.start_mcp(servers, sink, [], wait=True)
        assert servers.statuses()[0].state == "ready" and sink.warnings("mcp") == []
