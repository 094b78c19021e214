"""Drop-in tools: found, run in a child process, bounded; a broken or hanging one is one line."""

from __future__ import annotations

import os
import signal
import threading
import time

from mrsmith_tui.tools.approval import ApprovalGate, PolicyApprover
from tests.tools.dropin.helpers import GOOD, tool_source


def test_a_user_tool_loads_and_runs_in_a_child(env):
    env.user_tool("shout.py", GOOD)
    tools = env.service().current_tools()
    assert [t.name for t in tools] == ["shout"]
    result = tools[0].run({"text": "hi"}, env.ctx())
    assert result.ok and result.content == "HI!"  # its prints went to stderr, not into the result
    assert env.warnings() == []


def test_nothing_is_read_before_the_tools_are_needed(env, monkeypatch):
    from mrsmith_tui.tools.dropin import service

    env.user_tool("shout.py", GOOD)
    read: list = []
    monkeypatch.setattr(service, "list_folder", lambda *a: read.append(a) or ([], []))
    svc = env.service()
    assert read == []
    svc.current_tools()
    svc.current_tools()
    assert len(read) == 2  # the user's folder and the project's, once


def test_the_child_runs_in_the_root_with_a_scrubbed_environment(env, monkeypatch):
    monkeypatch.setenv("MY_API_KEY", "sk-verysecretvalue-123456")
    monkeypatch.setenv("PLAIN_SETTING", "visible")
    env.user_tool("where.py", tool_source(
        "where", 'import os\n    return os.getcwd() + "|" + os.environ.get("MY_API_KEY", "-") + "|" + os.environ.get("PLAIN_SETTING", "-")'))
    tool = env.service().current_tools()[0]
    result = tool.run({}, env.ctx())
    assert result.content == f"{env.root}|-|visible"


def test_a_tool_always_asks_unless_its_name_is_allowed(env):
    env.user_tool("shout.py", GOOD)
    tool = env.service().current_tools()[0]
    need = tool.approval({"text": "x"}, env.ctx())
    assert need is not None and need.spec == "shout" and need.rule == "runs"
    refused = ApprovalGate(PolicyApprover()).authorize(tool, {"text": "x"}, "{}", env.ctx())
    assert refused is not None and "--allow 'shout'" in refused
    gate = ApprovalGate(PolicyApprover(allow=["shout"]))
    assert gate.authorize(tool, {"text": "x"}, "{}", env.ctx()) is None


def test_an_exception_in_run_is_one_error_with_the_trace_tail(env):
    env.user_tool("boom.py", tool_source("boom", 'raise ValueError("no good")'))
    result = env.service().current_tools()[0].run({}, env.ctx())
    assert not result.ok
    first = result.content.splitlines()[0]
    assert first == "Error: drop-in tool boom failed: ValueError: no good"
    assert "boom.py" in result.content  # the traceback names the file


def test_a_result_that_is_not_a_string_is_an_error(env):
    env.user_tool("num.py", tool_source("num", "return 42"))
    result = env.service().current_tools()[0].run({}, env.ctx())
    assert not result.ok and "run() returned int, not str" in result.content


def test_a_hanging_tool_is_killed_at_its_timeout_with_one_line(env):
    env.user_tool("hang.py", tool_source("hang", "import time\n    time.sleep(600)"))
    result = env.service(timeout=0.5).current_tools()[0].run({}, env.ctx())
    assert not result.ok
    assert result.content.splitlines()[0].startswith("Error: drop-in tool hang timed out after 0.5 s (dropInToolTimeout): "
                                                     "its process group (")


def test_a_child_that_escaped_the_group_is_not_claimed_killed_and_does_not_hold_the_call(env, tmp_path):
    pidfile = tmp_path / "escaped.pid"
    body = (f"import subprocess, time\n    p = subprocess.Popen(['setsid', 'sleep', '300'])\n"
            f"    open({str(pidfile)!r}, 'w').write(str(p.pid))\n    time.sleep(600)")
    env.user_tool("escape.py", tool_source("escape", body))
    # The call is stopped once the child has escaped (its pid is written), by a cancel: a timeout of a
    # second could come before a loaded machine had started it. A cancel ends the call as a timeout does
    # (the group killed, the pipes the escaped child holds drained without waiting; the timeout's own
    # line is test_a_hanging_tool_is_killed_at_its_timeout_with_one_line's).
    ctx = env.ctx()

    def cancel_once_escaped() -> None:
        deadline = time.monotonic() + 90  # a safety net, not a budget
        while not (pidfile.exists() and pidfile.read_text().strip().isdigit()) and time.monotonic() < deadline:
            time.sleep(0.01)
        ctx.cancel.cancel()

    threading.Thread(target=cancel_once_escaped, daemon=True).start()
    try:
        result = env.service().current_tools()[0].run({}, ctx)
        assert "cancelled" in result.content
        assert "a process it moved out of that group (setsid) was not" in result.content
        pid = int(pidfile.read_text())
        os.kill(pid, 0)  # still alive: the message did not over-claim
    finally:
        if pidfile.exists():
            try:
                os.kill(int(pidfile.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_a_cancel_kills_the_call(env):
    env.user_tool("hang.py", tool_source("hang", "import time\n    time.sleep(600)"))
    tool = env.service().current_tools()[0]
    ctx = env.ctx()
    ctx.cancel.cancel()
    result = tool.run({}, ctx)
    assert not result.ok and "cancelled" in result.content


def test_a_huge_result_is_bounded(env):
    env.user_tool("big.py", tool_source("big", 'return "x" * 3_000_000'))
    result = env.service().current_tools()[0].run({}, env.ctx())
    assert not result.ok and "its answer passed 1024 KiB" in result.content


def test_a_long_result_keeps_its_head_and_tail(env):
    env.user_tool("long.py", tool_source("long", 'return "a" * 30000 + "b" * 30000'))
    result = env.service().current_tools()[0].run({}, env.ctx())
    assert result.ok and result.content.startswith("a") and result.content.endswith("b")
    assert "characters cut from the middle" in result.content and len(result.content) < 51_000


def test_control_sequences_in_a_result_are_data(env):
    env.user_tool("esc.py", tool_source("esc", r'return "\x1b]52;c;AAAA\x07red\x1b[31m"'))
    result = env.service().current_tools()[0].run({}, env.ctx())
    assert result.ok and "\x1b" not in result.content and "\x07" not in result.content


def test_a_file_changed_after_loading_is_not_run(env):
    path = env.user_tool("shout.py", GOOD)
    tool = env.service().current_tools()[0]
    path.write_text(GOOD.replace('+ "!"', '+ "?"'))
    result = tool.run({"text": "x"}, env.ctx())
    assert not result.ok and "changed on disk since it was loaded" in result.content and "/tools reload" in result.content


def test_a_file_swapped_for_a_link_or_a_fifo_is_not_run(env, tmp_path):
    path = env.user_tool("shout.py", GOOD)
    tool = env.service().current_tools()[0]
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_text(GOOD)
    path.unlink()
    path.symlink_to(elsewhere)
    assert "a link, not read" in tool.run({"text": "x"}, env.ctx()).content
    path.unlink()
    os.mkfifo(path)
    assert "not a regular file" in tool.run({"text": "x"}, env.ctx()).content  # and it did not block


def test_a_name_of_a_builtin_tool_is_refused_with_one_warning(env):
    env.user_tool("shell.py", tool_source("shell"))
    env.user_tool("shout.py", GOOD)
    assert [t.name for t in env.service().current_tools()] == ["shout"]
    assert env.warnings() == [f"drop-in tool {env.user}/shell.py not loaded: its NAME shell is a built-in tool's"]


def test_the_same_name_twice_keeps_the_first(env):
    env.user_tool("a.py", tool_source("dup"))
    env.user_tool("b.py", tool_source("dup"))
    assert len(env.service().current_tools()) == 1
    assert env.warnings() == [f"drop-in tool {env.user}/b.py not loaded: {env.user}/a.py is already called dup"]


def test_reload_picks_up_new_and_changed_files(env):
    svc = env.service()
    assert svc.current_tools() == []
    env.user_tool("shout.py", GOOD)
    assert svc.current_tools() == []  # read once, until a reload
    assert svc.reload() == "drop-in tools reloaded: shout (user)"
    assert [t.name for t in svc.current_tools()] == ["shout"]


def test_a_tool_is_a_module_of_its_own_so_dataclasses_and_type_hints_work(env):
    body = ('from dataclasses import dataclass\n    import typing\n\n    @dataclass\n    class P:\n        x: "int | None" = 1\n\n'
            '    return repr(P()) + str(typing.get_type_hints(P)["x"])')
    env.user_tool("dc.py", "from __future__ import annotations\n" + tool_source("dc", body))
    result = env.service().current_tools()[0].run({}, env.ctx())
    assert result.ok and result.content == "run.<locals>.P(x=1)int | None", result.content


def test_the_trace_starts_in_the_tool_not_in_mrsmith(env):
    env.user_tool("boom.py", tool_source("boom", 'raise ValueError("no good")'))
    content = env.service().current_tools()[0].run({}, env.ctx()).content
    assert "child.py" not in content and 'boom.py", line 7, in run' in content
