"""mcp.json and .mcp.json: the project's win, ${VAR} and ${VAR:-default} from the held environment (never
re-exported), a problem is that server's only, secrets join the redactor, both files are sensitive."""

from __future__ import annotations

import os

from mrsmith_tui.mcp.config import load_specs
from mrsmith_tui.security.environment import child_environment, scrub_process_environment
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.sensitive import SensitivePaths

from .servers import write_config


def _load(tmp_path, project, user=None):
    write_config(tmp_path / "root" / ".mcp.json", project)
    user_path = write_config(tmp_path / "user.json", user or {})
    return load_specs(tmp_path / "root", user_path=user_path)


def test_the_project_file_overrides_the_user_file_by_name(tmp_path):
    specs, warnings = _load(tmp_path, {"shared": {"command": "project-cmd"}},
                            {"shared": {"command": "user-cmd"}, "mine": {"url": "http://127.0.0.1:9/mcp"}})
    by_name = {s.name: s for s in specs}
    assert not warnings
    assert by_name["shared"].command == "project-cmd" and by_name["shared"].source == "project"
    assert by_name["mine"].source == "user" and by_name["mine"].transport == "http"


def test_defaults_and_set_variables_are_expanded_in_every_string_field(tmp_path, monkeypatch):
    monkeypatch.setenv("MCP_CFG_DIR", "sub")
    monkeypatch.delenv("MCP_CFG_MISSING", raising=False)
    specs, _ = _load(tmp_path, {"demo": {
        "command": "${MCP_CFG_MISSING:-python3}", "args": ["--dir=${MCP_CFG_DIR}", "${MCP_CFG_MISSING:-}x"],
        "env": {"A": "${MCP_CFG_DIR}/${MCP_CFG_MISSING:-d}"}, "cwd": "${MCP_CFG_DIR}"}})
    [spec] = specs
    assert spec.command == "python3" and spec.args == ("--dir=sub", "x") and spec.env == (("A", "sub/d"),)
    assert spec.cwd == str(tmp_path / "root" / "sub")
    assert sorted(spec.variables) == ["MCP_CFG_DIR", "MCP_CFG_MISSING"]


def test_a_missing_variable_is_that_servers_error_only(tmp_path, monkeypatch):
    monkeypatch.delenv("MCP_CFG_NOPE", raising=False)
    specs, _ = _load(tmp_path, {"bad": {"command": "x", "args": ["${MCP_CFG_NOPE}"]}, "good": {"command": "y"}})
    by_name = {s.name: s for s in specs}
    assert by_name["bad"].error == "config: ${MCP_CFG_NOPE} is not set (set it, or write ${MCP_CFG_NOPE:-default})"
    assert by_name["good"].error == "" and by_name["bad"].digest


def test_a_held_secret_is_expanded_redacted_and_never_put_back(tmp_path, monkeypatch):
    environ = {"MCP_CFG_API_TOKEN": "tok-aaaabbbbccccdddd1234", "PATH": os.environ.get("PATH", "")}
    held: dict[str, str] = {}
    scrub_process_environment(environ=environ, held=held)
    assert "MCP_CFG_API_TOKEN" not in environ
    monkeypatch.setattr("mrsmith_tui.mcp.expand.child_environment",
                        lambda names: child_environment(names, environ=environ, held=held))
    specs, _ = _load(tmp_path, {"gh": {"command": "srv", "env": {"GITHUB_TOKEN": "${MCP_CFG_API_TOKEN}"}}})
    assert specs[0].env == (("GITHUB_TOKEN", "tok-aaaabbbbccccdddd1234"),)
    assert "MCP_CFG_API_TOKEN" not in os.environ and "MCP_CFG_API_TOKEN" not in environ
    assert specs[0].secrets == ("tok-aaaabbbbccccdddd1234",)  # redacted once the server starts (test_adversary)


def test_literal_values_written_in_a_file_never_join_the_redactor(tmp_path):
    specs, _ = _load(tmp_path, {"web": {"url": "https://x.test/mcp", "headers": {"Authorization": "Bearer lit-0123456789abcdef"}},
                                "x": {"command": "/nonexistent", "env": {"API_KEY": "import os"}}})
    assert all(not s.secrets for s in specs)
    assert PROCESS.redact("import os lit-0123456789abcdef") == "import os lit-0123456789abcdef"


def test_wrong_shapes_are_one_line_each(tmp_path):
    specs, _ = _load(tmp_path, {
        "both": {"command": "x", "url": "http://a"}, "none": {}, "sse": {"type": "sse", "url": "http://a"},
        "args": {"command": "x", "args": "not a list"}, "ftp": {"url": "ftp://a"}, "num": {"command": "x", "toolTimeoutSec": -1},
        "entry": "just a string"})
    errors = {s.name: s.error for s in specs}
    assert errors == {
        "both": 'config: give either "command" (stdio) or "url" (streamable HTTP)',
        "none": 'config: give either "command" (stdio) or "url" (streamable HTTP)',
        "sse": "config: the SSE transport is not supported; use the server's streamable HTTP endpoint",
        "args": 'config: "args" must be a list of strings',
        "ftp": 'config: "url" must start with http:// or https://',
        "num": 'config: "toolTimeoutSec" must be a number of seconds from 0 to 3600',
        "entry": "config: its entry is not an object",
    }


def test_a_broken_file_is_one_warning_and_the_other_file_still_counts(tmp_path):
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / ".mcp.json").write_text("{broken")
    user = write_config(tmp_path / "user.json", {"mine": {"command": "x"}})
    specs, warnings = load_specs(tmp_path / "root", user_path=user)
    assert [s.name for s in specs] == ["mine"]
    assert len(warnings) == 1 and ".mcp.json: not valid JSON" in warnings[0]


def test_both_files_are_sensitive_paths():
    paths = SensitivePaths()
    assert paths.matches(".mcp.json") and paths.matches("a/b/.mcp.json")
    assert paths.matches("home/me/.config/mrsmith/mcp.json")
