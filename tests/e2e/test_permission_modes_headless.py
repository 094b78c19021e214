"""Permission modes headless, through the real CLI subprocess: --permission-mode, --yes, defaultMode."""

from __future__ import annotations

import json

import pytest

from loopback import text_turn, tool_turn

pytest.importorskip("mrsmith_tui.tools.builtin")


def turns():
    return [tool_turn("write_file", {"path": "out.txt", "content": "W\n"}, call_id="w"),
            tool_turn("shell", {"command": "echo x > shell.txt"}, call_id="s"), text_turn("done")]


def test_plan_refuses_even_what_allow_and_yes_style_flags_allowed(cli, loopback):
    srv = loopback(turns())
    done = cli.using(srv.base_url).run("-p", "do it", "--permission-mode", "plan", "--allow", "write_file",
                                       "--allow", "shell", "--json")
    assert done.code == 0, done.err
    assert not (cli.cwd / "out.txt").exists() and not (cli.cwd / "shell.txt").exists()
    lines = [json.loads(line) for line in done.out.splitlines()]
    assert {"type": "PermissionModeChanged", "mode": "plan"}.items() <= next(
        ln for ln in lines if ln["type"] == "PermissionModeChanged").items()
    results = [ln["result"] for ln in lines if ln["type"] == "ToolCallFinished"]
    assert len(results) == 2 and all(r.startswith("plan mode: ") for r in results)
    assert "# Plan mode" in srv.requests[0]["messages"][0]["content"]


def test_accept_edits_writes_the_file_and_the_shell_write_is_refused(cli, loopback):
    srv = loopback(turns())
    done = cli.using(srv.base_url).run("-p", "do it", "--permission-mode", "accept-edits")
    assert done.code == 0, done.err
    assert (cli.cwd / "out.txt").read_text() == "W\n" and not (cli.cwd / "shell.txt").exists()
    assert "permission mode: accept-edits" in done.err and "shell refused" in done.err


@pytest.mark.parametrize("flags", [["--yes"], ["--permission-mode", "auto"], ["--permission-mode", "AUTO"]])
def test_yes_is_auto(cli, loopback, flags):
    srv = loopback(turns())
    done = cli.using(srv.base_url).run("-p", "do it", *flags)
    assert done.code == 0, done.err
    assert (cli.cwd / "out.txt").exists() and (cli.cwd / "shell.txt").exists()
    assert "permission mode: auto" in done.err


@pytest.mark.parametrize(("flags", "line"), [
    (["--permission-mode", "yolo"], "--permission-mode: unknown mode 'yolo' (the modes: ask, accept-edits, plan, auto)"),
    (["--yes", "--permission-mode", "plan"], "--yes is --permission-mode auto"),
])
def test_a_bad_mode_flag_is_one_line_exit_2(cli, flags, line):
    done = cli.using("http://127.0.0.1:9/v1").run("-p", "hi", *flags)
    assert done.code == 2 and len(done.err_lines) == 1 and line in done.err


@pytest.mark.parametrize(("value", "words"), [
    ('"yolo"', "defaultMode"), ('"auto"', "auto is never a default"), ("3", "defaultMode"),
])
def test_a_bad_default_mode_is_one_line_naming_it(cli, value, words):
    config = cli.cwd.parent / "config.toml"
    config.write_text(f"defaultMode = {value}\n")
    done = cli.using("http://127.0.0.1:9/v1").run("-p", "hi", "--config", str(config))
    assert done.code == 2 and len(done.err_lines) == 1 and words in done.err, done.err


def test_default_mode_from_the_config_and_the_flag_beats_it(cli, loopback):
    config = cli.cwd.parent / "config.toml"
    config.write_text('defaultMode = "plan"\n')
    srv = loopback(turns())
    done = cli.using(srv.base_url).run("-p", "do it", "--config", str(config), "--model", "m", "--base-url", srv.base_url)
    assert "permission mode: plan" in done.err and not (cli.cwd / "out.txt").exists()
    srv = loopback(turns())
    done = cli.using(srv.base_url).run("-p", "do it", "--config", str(config), "--model", "m", "--base-url", srv.base_url,
                                       "--permission-mode", "accept-edits")
    assert "permission mode: accept-edits" in done.err and (cli.cwd / "out.txt").exists()
