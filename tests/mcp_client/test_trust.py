"""Project servers need trust: asked once through the Approver, remembered by folder and digest, asked
again when edited; headless starts only trusted ones and says which it left off."""

from __future__ import annotations

import json
import os
import stat

from mrsmith_tui.mcp.config import load_specs
from mrsmith_tui.mcp.trust import trust_query
from mrsmith_tui.security.trust_store import TrustStore

from .servers import ScriptedApprover, hub_for, write_config

BROKEN = {"command": "/nonexistent/mcp-server", "args": ["--token", "${MCP_TRUST_TEST_TOKEN:-none}"]}


def test_headless_leaves_an_untrusted_project_server_off_and_says_so_in_one_line(tmp_path):
    with hub_for(tmp_path / "p", {"demo": BROKEN}, mode="stored") as hub:
        [status] = hub.statuses()
        assert status.state == "untrusted"  # never started: a started one would have failed on its command
        [line] = hub.sink.warnings("mcp-untrusted")
        assert "demo (.mcp.json) left off" in line and "--mcp-trust" in line


def test_a_users_own_servers_start_without_asking(tmp_path):
    approver = ScriptedApprover()
    with hub_for(tmp_path / "p", {}, mode="ask", approver=approver, user={"mine": BROKEN}) as hub:
        assert hub.statuses()[0].state == "failed" and not approver.asked


def test_always_is_remembered_and_an_edited_server_asks_again(tmp_path):
    root = tmp_path / "p"
    approver = ScriptedApprover("always")
    with hub_for(root, {"demo": BROKEN}, mode="ask", approver=approver) as hub:
        assert _settled_state(hub) == "failed"  # it was started: trusted
    [query] = approver.asked
    assert query.tool == "project MCP server demo"
    assert "/nonexistent/mcp-server --token '${MCP_TRUST_TEST_TOKEN:-none}'" in query.arguments  # as written
    assert "${MCP_TRUST_TEST_TOKEN}" in query.arguments  # every variable it expands, by name
    store = TrustStore()
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    # the same server, headless: trusted now, so it starts without a word
    with hub_for(root, {"demo": BROKEN}, mode="stored") as hub:
        assert hub.statuses()[0].state == "failed" and not hub.sink.warnings("mcp-untrusted")
    # edited (one more argument): asked again
    edited = {**BROKEN, "args": [*BROKEN["args"], "--more"]}
    again = ScriptedApprover("no")
    with hub_for(root, {"demo": edited}, mode="ask", approver=again) as hub:
        assert _settled_state(hub) == "untrusted"
        assert "/mcp enable demo asks again" in hub.statuses()[0].error
    assert len(again.asked) == 1


def test_a_value_change_in_the_environment_does_not_ask_again_but_a_new_variable_name_does(tmp_path, monkeypatch):
    root = tmp_path / "p"
    write_config(root / ".mcp.json", {"demo": {"command": "x", "env": {"TOKEN": "${A_TOKEN:-1}"}}})
    first = load_specs(root, user_path=tmp_path / "none.json")[0][0].digest
    monkeypatch.setenv("A_TOKEN", "another value")
    assert load_specs(root, user_path=tmp_path / "none.json")[0][0].digest == first
    write_config(root / ".mcp.json", {"demo": {"command": "x", "env": {"TOKEN": "${A_TOKEN:-1}", "MORE": "1"}}})
    assert load_specs(root, user_path=tmp_path / "none.json")[0][0].digest != first


def test_yes_holds_for_the_session_only(tmp_path):
    root = tmp_path / "p"
    with hub_for(root, {"demo": BROKEN}, mode="ask", approver=ScriptedApprover("yes")) as hub:
        assert _settled_state(hub) == "failed"
    assert not TrustStore().is_trusted(root, "mcp", load_specs(root, user_path=tmp_path / "none.json")[0][0].digest)


def test_the_trust_store_survives_a_broken_file_and_keys_by_folder(tmp_path):
    store = TrustStore(tmp_path / "state" / "trusted.json")
    store.path.parent.mkdir()
    store.path.write_text("{not json")
    assert not store.is_trusted(tmp_path, "mcp", "d1")
    store.trust(tmp_path / "a", "mcp", "d1", name="demo")
    assert store.is_trusted(tmp_path / "a", "mcp", "d1")
    assert not store.is_trusted(tmp_path / "b", "mcp", "d1") and not store.is_trusted(tmp_path / "a", "mcp", "d2")
    assert not store.is_trusted(tmp_path / "a", "tool", "d1")  # #25's project tools share the store by kind
    assert json.loads(store.path.read_text())["entries"][0]["name"] == "demo"
    assert store.forget(tmp_path / "a", "mcp", "demo") == 1 and not store.is_trusted(tmp_path / "a", "mcp", "d1")


def test_the_prompt_shows_urls_and_header_names_never_their_values(tmp_path, monkeypatch):
    monkeypatch.setenv("WEB_TOKEN_FOR_TEST", "s3cr3t-value-123")
    write_config(tmp_path / ".mcp.json", {"web": {"url": "https://example.test/mcp",
                                                   "headers": {"Authorization": "Bearer ${WEB_TOKEN_FOR_TEST}"}}})
    [spec], _ = load_specs(tmp_path, user_path=tmp_path / "none.json")
    query = trust_query(spec)
    assert "https://example.test/mcp" in query.arguments and "Authorization" in query.arguments
    assert "s3cr3t" not in query.arguments + query.reason and "${WEB_TOKEN_FOR_TEST}" in query.arguments


def _settled_state(hub) -> str:
    assert hub.wait_settled(90)  # a safety net; the prompt is answered on a thread of its own
    return hub.statuses()[0].state
