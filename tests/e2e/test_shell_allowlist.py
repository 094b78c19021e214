"""The shell allowlist end to end: headless without --yes, the real CLI against the loopback server.

The model sends the issue's escapes and its read-only examples. None of the escapes runs
(nothing they would write exists afterwards, nothing they would change is changed); the
read-only ones run at once and their output reaches the model. A repository whose own
config sets core.fsmonitor does not get its program run by `git status`.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from loopback import text_turn, tool_calls_turn

pytest.importorskip("mrsmith_tui.tools.builtin")

ESCAPES = [
    "find . {-delete,-print}",
    "sed s/a/X/ {-i,f}",
    "sort {-o,out1} f",
    "sort --out=out2 f",
    "env -iS 'touch out3'",
    "env --split='touch out4'",
    "xargs env touch out5",
    "xargs xargs touch out6",
    "command time --output=out7 true",
    "uniq f - out8",
    "printf -v 'a[$(touch out9)]' x",
    "test -v 'a[$(touch out10)]'",
    "[[ 'a[$(touch out11)]' -eq 0 ]]",
    "cat <<EOF\n$(touch out12)\n`touch out13`\nEOF",
    "git stash -m list",
    "git reflog --output=out14",
    "git grep -O'touch out15' a",
    "git stash show --output=out16",
    "cat .env",
    "printenv",
    "env",
]
READ_ONLY = {
    "ls -la": "keep.txt",
    "git log --oneline -20": "second commit",
    "git diff HEAD~1 -- src": "+print(2)",
    "grep -rn needle --exclude=.env --exclude-dir=.git .": "notes.txt:1:needle",
    "grep -rn print src": "src/x.py:1:print(2)",
    "find . -name '*.py' -newer a": "./src/x.py",
    "sed -n 1,40p f": "alpha",
    "head -c 200 f": "alpha",
    "wc -l a f src/x.py": "total",
    "jq .name package.json": '"demo"',
    "sort -u f | uniq -c": "1 alpha",
}


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)


def _project(root: Path) -> None:
    (root / "src").mkdir()
    (root / "a").write_text("a\n")
    (root / "f").write_text("alpha\nbeta\n")
    (root / "keep.txt").write_text("keep\n")
    (root / "notes.txt").write_text("needle\n")
    (root / "package.json").write_text('{"name": "demo"}\n')
    (root / ".env").write_text("API_KEY=sk-e2e-secret-value\n")
    (root / "src" / "x.py").write_text("print(1)\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "first commit")
    (root / "src" / "x.py").write_text("print(2)\n")
    _git(root, "commit", "-qam", "second commit")


def test_escapes_ask_and_read_only_commands_run(cli, loopback):
    _project(cli.cwd)
    before = {p.relative_to(cli.cwd): p.read_bytes() for p in cli.cwd.rglob("*") if p.is_file() and ".git" not in p.parts}
    srv = loopback([
        tool_calls_turn([("shell", {"command": c}) for c in ESCAPES]),
        tool_calls_turn([("shell", {"command": c}) for c in READ_ONLY]),
        text_turn("done"),
    ])
    done = cli.using(srv.base_url).run("-p", "try these")
    assert done.code == 0, done.err
    assert len(srv.requests) == 3
    escapes = {m["tool_call_id"]: m["content"] for m in srv.requests[1]["messages"] if m.get("role") == "tool"}
    assert len(escapes) == len(ESCAPES)
    for call_id, content in escapes.items():
        assert "approve" in content, (call_id, content)
    after = {p.relative_to(cli.cwd): p.read_bytes() for p in cli.cwd.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before  # nothing written, deleted or edited
    reads = [m["content"] for m in srv.requests[2]["messages"] if m.get("role") == "tool"][len(ESCAPES):]
    assert len(reads) == len(READ_ONLY)
    for (command, expected), content in zip(READ_ONLY.items(), reads, strict=True):
        assert expected in content and "[exit code 0]" in content, (command, content)
    assert all("sk-e2e-secret-value" not in str(r["messages"]) for r in srv.requests)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_repository_fsmonitor_does_not_run_on_git_status(cli, loopback):
    _project(cli.cwd)
    hook = cli.cwd / "hook.sh"
    marker = cli.cwd / "fsmonitor-ran"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    _git(cli.cwd, "config", "core.fsmonitor", str(hook))
    srv = loopback([tool_calls_turn([("shell", {"command": "git status"}), ("shell", {"command": "git diff"})]), text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "status please")
    assert done.code == 0, done.err
    results = [m["content"] for m in srv.requests[1]["messages"] if m.get("role") == "tool"]
    assert len(results) == 2 and all("approve" in r and "core.fsmonitor" in r for r in results), results
    assert not marker.exists()
    # the same repository without the setting: git status runs at once
    _git(cli.cwd, "config", "--unset", "core.fsmonitor")
    srv2 = loopback([tool_calls_turn([("shell", {"command": "git status --short"})]), text_turn("done")])
    done = cli.using(srv2.base_url).run("-p", "status please")
    assert done.code == 0, done.err
    result = next(m["content"] for m in srv2.requests[1]["messages"] if m.get("role") == "tool")
    assert "hook.sh" in result and not marker.exists()
