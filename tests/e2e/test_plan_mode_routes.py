"""Plan mode through the real CLI: a sub-agent the model dispatches works in the session's mode (its write and
its writing command are refused too), and the writing routes a model reaches for (a here-doc into a file,
tee, sed -i, find -delete, git config, a wrapper, an eval) are each refused even with --allow shell."""

from __future__ import annotations

import json

import pytest

from loopback import text_turn, tool_turn

pytest.importorskip("mrsmith_tui.tools.builtin")

WRITES = ["cat > hd.txt <<EOF\nx\nEOF", "echo x | tee tee.txt", "sed -i s/a/b/ seed.txt", "find . -name seed.txt -delete",
          "git config user.name pwned", "env sh -c 'touch env.txt'", "eval 'touch eval.txt'", "echo x >| clob.txt",
          "python3 -c 'open(\"py.txt\",\"w\")'", "bash -c 'touch bash.txt'", "xargs touch <<< xargs.txt"]


def test_a_sub_agent_works_in_plan_mode_too(cli, loopback):
    srv = loopback([
        tool_turn("task", {"description": "write it", "prompt": "write sub.txt"}, call_id="t"),
        tool_turn("write_file", {"path": "sub.txt", "content": "S\n"}, call_id="w"),
        tool_turn("shell", {"command": "touch sub2.txt"}, call_id="s"),
        text_turn("sub-agent done"),
        text_turn("the plan"),
    ])
    done = cli.using(srv.base_url).run("-p", "do it", "--permission-mode", "plan", "--allow", "write_file",
                                       "--allow", "shell", "--json")
    assert done.code == 0, done.err
    assert not (cli.cwd / "sub.txt").exists() and not (cli.cwd / "sub2.txt").exists()
    sub_requests = [r for r in srv.requests if any(m.get("content") == "write sub.txt" for m in r["messages"])]
    assert sub_requests and all("# Plan mode" in r["messages"][0]["content"] for r in sub_requests)
    refusals = [m["content"] for r in sub_requests for m in r["messages"] if m.get("role") == "tool"]
    assert sum(c.startswith("plan mode: ") for c in refusals) >= 2, refusals


@pytest.mark.parametrize("command", WRITES)
def test_plan_refuses_a_writing_command_allowed_by_the_flag(command, cli, loopback):
    (cli.cwd / "seed.txt").write_text("a\n")
    srv = loopback([tool_turn("shell", {"command": command}, call_id="s"), text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "do it", "--permission-mode", "plan", "--allow", "shell", "--json")
    assert done.code == 0, done.err
    assert sorted(p.name for p in cli.cwd.iterdir() if not p.name.startswith(".")) == ["seed.txt"], command
    assert (cli.cwd / "seed.txt").read_text() == "a\n"
    results = [json.loads(x) for x in done.out.splitlines() if '"ToolCallFinished"' in x]
    assert len(results) == 1 and results[0]["result"].startswith("plan mode: shell was not run")
