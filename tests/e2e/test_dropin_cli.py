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
    ok = subprocess.run([sys.executable, str(TRY), str(path), '{"text": "yo"}'], capture_output=True, text=True, cwd=cli.cwd,
                        env={"PATH": "/usr/bin:/bin"}, timeout=90)
    assert (ok.returncode, ok.stdout) == (0, "contract ok: shout\nYO!\n"), ok.stderr
    wrong = subprocess.run([sys.executable, str(TRY), str(path), '{"text": 5}'], capture_output=True, text=True, cwd=cli.cwd,
                           timeout=90)
    assert wrong.returncode == 1 and wrong.stderr == "mrsmith would refuse these arguments: 'text' must be string, got int\n"
    path.write_text(SHOUT.replace('"shout"', "0x" + "f" * 4000))
    broken = subprocess.run([sys.executable, str(TRY), str(path)], capture_output=True, text=True, cwd=cli.cwd, timeout=90)
    assert broken.returncode == 1 and broken.stderr == "not a tool: shout.py: NAME must be a string, not int\n"
    path.write_text(SHOUT.replace('return args["text"].upper() + "!"', 'raise KeyError("nope")'))
    failing = subprocess.run([sys.executable, str(TRY), str(path), '{"text": "x"}'], capture_output=True, text=True,
                             cwd=cli.cwd, timeout=90)
    assert failing.returncode == 1 and failing.stderr.startswith("drop-in tool shout failed: KeyError: 'nope'")
