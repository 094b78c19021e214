"""`mrsmith tools list|run` and the bundled `self` skill's try_tool.py, as a person (or the agent's shell) runs them."""

from __future__ import annotations

import json
import subprocess
import sys

from mrsmith_tui.paths import BUNDLED_SKILLS_DIR

SHOUT = '''NAME = "shout"
DESCRIPTION = "Shout the text back in capitals."
PARAMETERS = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def run(args):
    return args["text"].upper() + "!"
'''
TRY = BUNDLED_SKILLS_DIR / "self" / "try_tool.py"


def _project(cli, text: str = SHOUT):
    folder = cli.cwd / ".mrsmith" / "tools"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "shout.py").write_text(text)
    return folder / "shout.py"


def test_tools_list_names_every_tool_with_its_origin(cli):
    _project(cli)
    done = cli.run("tools", "list", "--json", "--trust-project-tools")
    assert done.code == 0, done.err
    rows = [json.loads(line) for line in done.out.splitlines()]
    assert {"name": "shout", "origin": "project", "path": ".mrsmith/tools/shout.py",
            "description": "Shout the text back in capitals."} in rows
    assert {r["name"] for r in rows if r["origin"] == "built-in"} >= {"shell", "read_file", "edit", "task", "skill"}
    assert [r["name"] for r in rows if not r["description"].strip()] == []  # skill and wait_agents were empty
    untrusted = cli.run("tools", "list")
    assert "shout" not in untrusted.out and "not trusted in this folder" in untrusted.err


def test_tools_run_calls_a_drop_in_tool(cli):
    _project(cli)
    done = cli.run("tools", "run", "shout", '{"text": "hi"}', "--trust-project-tools")
    assert (done.code, done.out) == (0, "HI!\n"), done.err
    bad = cli.run("tools", "run", "shout", '{"txt": 1}', "--trust-project-tools")
    assert bad.code == 2 and bad.err_lines[-1] == "mrsmith: error: tools run shout: 'text' is required"
    unknown = cli.run("tools", "run", "nope")
    assert unknown.code == 2 and unknown.err_lines[-1] == "mrsmith: error: no drop-in tool 'nope' here (the drop-in tools: none)"


def test_try_tool_checks_and_runs_a_file_as_mrsmith_would(cli):
    path = _project(cli)
    env = {**cli.env, "PATH": "/usr/bin:/bin"}  # no mrsmith on PATH: it finds the Python mrsmith is installed in

    def tried(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(TRY), *argv], capture_output=True, text=True, cwd=cli.cwd, env=env,
                              timeout=90)

    ok = tried(str(path), '{"text": "yo"}')
    assert (ok.returncode, ok.stdout) == (0, "contract ok: shout\nYO!\n"), ok.stderr
    wrong = tried(str(path), '{"text": 5}')
    assert wrong.returncode == 2 and wrong.stderr == (
        "mrsmith: error: tools try shout: mrsmith would refuse these arguments: 'text' must be a string, got 5\n")
    path.write_text(SHOUT.replace('"shout"', "0x" + "f" * 4000))
    broken = tried(str(path))
    assert broken.returncode == 1 and broken.stderr == "not a tool: shout.py: NAME must be a string, not int\n"
    path.write_text(SHOUT.replace('return args["text"].upper() + "!"', 'raise KeyError("nope")'))
    failing = tried(str(path), '{"text": "x"}')
    assert failing.returncode == 1 and failing.stderr.startswith("drop-in tool shout failed: KeyError: 'nope'")
    path.write_text(SHOUT.replace('return args["text"].upper() + "!"', "import time\n    time.sleep(600)"))
    hanging = tried(str(path), '{"text": "x"}', "--timeout", "0.5")
    assert hanging.returncode == 1 and hanging.stderr.startswith("drop-in tool shout timed out after 0.5 s")


def test_the_self_skill_writes_tests_and_asks_for_a_reload(cli, loopback):
    """The scripted model follows the skill: load it, write the tool, try it with try_tool.py, ask for /tools reload."""
    from loopback import text_turn, tool_turn

    command = f"python3 {TRY} .mrsmith/tools/shout.py '{{\"text\": \"hi\"}}'"
    srv = loopback([
        tool_turn("skill", {"name": "self"}, call_id="s"),
        tool_turn("write_file", {"path": ".mrsmith/tools/shout.py", "content": SHOUT}, call_id="w"),
        tool_turn("shell", {"command": command}, call_id="t"),
        text_turn("The tool works: please type /tools reload."),
    ])
    done = cli.using(srv.base_url).run("-p", "make me a shout tool", "--yes")
    assert done.code == 0, done.err
    assert "Writing your own drop-in tool" in srv.requests[1]["messages"][-1]["content"]  # the skill's body
    assert (cli.cwd / ".mrsmith" / "tools" / "shout.py").read_text() == SHOUT
    tried = srv.requests[3]["messages"][-1]["content"]
    assert tried.startswith("contract ok: shout\nHI!\n"), tried
