"""The shell tool: real bash processes, timeouts and cancel kill the whole group."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from mrsmith_tui.tools.shell.tool import MAX_OUTPUT, ShellTool, cap_output


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie waiting for its reaper counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def _wait_gone(pid: int, within: float = 60.0) -> bool:  # a safety net, not a budget
    end = time.monotonic() + within
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.02)
    return False


def test_stdout_stderr_exit_code_and_cwd(ctx, root: Path) -> None:
    r = ShellTool().run({"command": "pwd; echo oops >&2; exit 3"}, ctx)
    assert str(root) in r.content and "[stderr]\noops" in r.content
    assert r.exit_code == 3 and not r.ok and "[exit code 3]" in r.content
    assert any(str(root) in chunk for chunk in ctx.outputs)  # streamed live


def test_stdin_is_closed(ctx) -> None:
    r = ShellTool().run({"command": "cat; echo done", "timeout_ms": 5000}, ctx)
    assert r.ok and "done" in r.content


def test_timeout_kills_children(ctx, root: Path) -> None:
    # The timeout has to come after the child started (its pid written): a loaded machine can take longer
    # than a short timeout to get there, so a run that timed out before it is tried again with a longer one.
    pidfile = root / "child.pid"
    for timeout_ms in (300, 1_000, 3_000, 10_000, 30_000):
        pidfile.unlink(missing_ok=True)
        r = ShellTool().run({"command": "sleep 600 & echo $! > child.pid; sleep 600", "timeout_ms": timeout_ms}, ctx)
        assert "timed out" in r.content and not r.ok
        if pidfile.exists() and pidfile.read_text().strip():
            break
    assert _wait_gone(int(pidfile.read_text()))


def test_cancel_kills_within_a_second(ctx, root: Path) -> None:
    def cancel_once_started() -> None:  # the child's pid file shows the command is running
        while not (root / "child.pid").exists() or not (root / "child.pid").read_text().strip():
            threading.Event().wait(0.01)
        ctx.cancel.cancel()

    threading.Thread(target=cancel_once_started, daemon=True).start()
    r = ShellTool().run({"command": "sleep 600 & echo $! > child.pid; sleep 600"}, ctx)
    assert "cancelled" in r.content
    assert _wait_gone(int((root / "child.pid").read_text()))


def test_output_capped_head_and_tail(ctx) -> None:
    r = ShellTool().run({"command": "echo START; head -c 200000 /dev/zero | tr '\\0' x; echo; echo END"}, ctx)
    assert r.content.startswith("START") and "END" in r.content and "characters cut" in r.content
    assert len(r.content) < MAX_OUTPUT + 500
    assert cap_output("short") == "short"


def test_background_returns_pid_and_log(ctx) -> None:
    r = ShellTool().run({"command": "echo bg-started; sleep 30", "background": True}, ctx)
    pid = int(r.content.split("pid ")[1].split(";")[0])
    log = Path(r.content.split("go to ")[1].split(". ")[0])
    try:
        end = time.monotonic() + 60  # a safety net, not a budget
        while "bg-started" not in log.read_text() and time.monotonic() < end:
            time.sleep(0.02)
        assert "bg-started" in log.read_text() and _alive(pid)
    finally:
        os.killpg(pid, 9)
        log.unlink()


def test_bad_arguments(ctx) -> None:
    assert not ShellTool().run({"command": "  "}, ctx).ok
    assert "timeout_ms" in ShellTool().run({"command": "ls", "timeout_ms": 10**9}, ctx).content


def test_approval_uses_classifier_and_agent_lists(ctx) -> None:
    assert ShellTool().approval({"command": "git status"}, ctx) is None
    need = ShellTool().approval({"command": "git commit -m x"}, ctx)
    assert need.spec == "shell:git commit"
    assert ShellTool(harmless=["pytest"]).approval({"command": "pytest -q"}, ctx) is None
    assert ShellTool(dangerous=["ls"]).approval({"command": "ls"}, ctx) is not None


def test_approval_names_the_rule_and_uses_the_configured_secrets(ctx, root: Path) -> None:
    from mrsmith_tui.config.schema import AgentConfig, Config
    from mrsmith_tui.tools.builtin import builtin_tools

    (root / "notes.txt").write_text("x\n")
    (root / ".env").write_text("K=v\n")
    plain = ShellTool()
    assert plain.approval({"command": "cat notes.txt"}, ctx) is None
    need = plain.approval({"command": "cat .env"}, ctx)
    assert need.rule == "secret" and ".env" in need.reason and need.spec == "shell:cat .env"
    assert plain.approval({"command": "cat ../x"}, ctx).rule == "outside"
    assert plain.approval({"command": "rm x"}, ctx).rule == "runs"
    agent = AgentConfig(name="a", provider="p", model="m", tools=["shell"])
    shell = next(t for t in builtin_tools(agent, Config(sensitive_paths=["notes.txt"])) if t.name == "shell")
    assert shell.approval({"command": "cat notes.txt"}, ctx).rule == "secret"
