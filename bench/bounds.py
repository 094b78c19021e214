"""Bounds under hostile input, each measured in a child process so its peak RSS is its own.

`python -m bench --only bounds` prints: a 1 GB file read (first page and a page in the
middle), 100 MB of shell output through the real headless CLI (peak RSS and stderr size),
the pathological glob `"*"*22+"x"` and `**/*.txt` over 10,000 files, 1,000 tool calls in one
model answer through the real CLI (how many ran), the containment race (escapes in
100,000 operations; `--race-ops` changes that), and the runaway cases of the #12 review
(`_REVIEW`: edit on a million matching lines, the indentation-blind match, a hostile
.gitignore, one long SSE line, a background job flooding its log).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.report import Figure

REPO = Path(__file__).resolve().parent.parent


def _child(code: str, *args: str) -> dict:
    """Run `code` in a fresh interpreter; it prints one JSON line; add its peak RSS in MB."""
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": f"{REPO}:{REPO / 'tests'}"})
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


_PEAK = "int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0]) / 1024"

_READ = f"""
import json, sys, time
from pathlib import Path
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.read_file import ReadFileTool
root = Path(sys.argv[1])
ctx = ToolContext(root=root, cancel=CancelToken(), approver=None)
t = time.perf_counter(); first = ReadFileTool().run({{"path": "big.txt"}}, ctx); t1 = time.perf_counter() - t
t = time.perf_counter(); mid = ReadFileTool().run({{"path": "big.txt", "offset": 5_000_000, "limit": 10}}, ctx)
t2 = time.perf_counter() - t
assert first.ok and mid.ok and "5000000\\t" in mid.content, (first.content[-200:], mid.content[:200])
print(json.dumps({{"first": t1, "middle": t2, "peak": {_PEAK}}}))
"""

_GLOB = f"""
import json, sys, time
from pathlib import Path
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.glob_tool import GlobTool
ctx = ToolContext(root=Path(sys.argv[1]), cancel=CancelToken(), approver=None)
out = {{}}
for key, pattern in (("evil", "*" * 22 + "x"), ("evil_deep", "**/" + "*" * 22 + "x"), ("all", "**/*.txt")):
    t = time.perf_counter(); r = GlobTool().run({{"pattern": pattern}}, ctx); out[key] = time.perf_counter() - t
out["peak"] = {_PEAK}
print(json.dumps(out))
"""

_RACE = """
import json, sys
from pathlib import Path
from tools.race import run_race
r = run_race(Path(sys.argv[1]), int(sys.argv[2]))
print(json.dumps({"escapes": r.escapes, "ops": r.ops, "swaps": r.swaps, "refused": r.refused, "details": r.details[:3]}))
"""


_REVIEW = f"""
import json, os, sys, threading, time
from pathlib import Path
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.ledger import FileLedger
from mrsmith_tui.tools.read_file import ReadFileTool
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.glob_tool import GlobTool
from mrsmith_tui.tools.shell.tool import ShellTool
from mrsmith_tui.provider.sse import SSEParser
root = Path(sys.argv[1])
ended = threading.Event()
ctx = ToolContext(root=root, cancel=CancelToken(), approver=None, ledger=FileLedger(),
                  emit=lambda m: ended.set() if isinstance(m, msgs.JobEnded) else None)
out = {{}}
(root / "f.txt").write_text("a\\n" * 1_000_000)
ReadFileTool().run({{"path": "f.txt"}}, ctx)
t = time.perf_counter(); r = EditTool().run({{"path": "f.txt", "old": "a", "new": "b"}}, ctx)
out["edit_exact"], out["edit_chars"] = time.perf_counter() - t, len(r.content)
(root / "g.txt").write_text("a\\n" * 200_000)
ReadFileTool().run({{"path": "g.txt"}}, ctx)
t = time.perf_counter(); EditTool().run({{"path": "g.txt", "old": "x\\n" + " a\\n" * 198 + "x", "new": "b"}}, ctx)
out["edit_loose"] = time.perf_counter() - t
(root / "gi").mkdir()
line = "{{a,b,c,d,e,f,g,h}}{{a,b,c,d,e,f,g,h}}/**/q*w*e*r*t*y/**/z"
(root / "gi" / ".gitignore").write_text("\\n".join(line + str(i) for i in range(256 * 1024 // (len(line) + 1))))
for i in range(300):
    (root / "gi" / f"f{{i}}.py").write_text("x")
t = time.perf_counter(); GlobTool().run({{"pattern": "gi/**/*.py"}}, ctx); out["glob_gitignore"] = time.perf_counter() - t
p = SSEParser(); chunk = b"x" * 1024
t = time.perf_counter(); p.feed(b"data: ")
for _ in range(8 * 1024):
    p.feed(chunk)
p.feed(b"\\n\\n"); out["sse_8mb_line"] = time.perf_counter() - t
ShellTool().run({{"command": "head -c 200000000 /dev/zero", "background": True}}, ctx)
ended.wait(120)
for th in threading.enumerate():
    if th.name.startswith("mrsmith-log-"):
        th.join(120)
log = [p for p in Path(os.environ.get("XDG_RUNTIME_DIR") or "/tmp").glob("mrsmith*/bg-*.log")]
newest = max(log, key=lambda p: p.stat().st_mtime)
out["bg_log_mb"] = newest.stat().st_size / 2**20
newest.unlink()
out["peak"] = {_PEAK}
print(json.dumps(out))
"""


def _make_big_file(path: Path, size: int) -> None:
    line = b"x" * 99 + b"\n"
    block = line * 10_000
    with open(path, "wb") as f:
        for _ in range(size // len(block)):
            f.write(block)


def _cli(base_url: str, cwd: Path, prompt: str, *flags: str) -> tuple[int, int, int, str]:
    """(exit code, peak RSS in KB, stderr bytes, stdout) of the real headless CLI."""
    env = {**os.environ, "OPENAI_BASE_URL": base_url, "MODEL": "bench-model", "OPENAI_API_KEY": "sk-bench",
           "NO_COLOR": "1", "PYTHONPATH": str(REPO), "MRSMITH_SESSIONS_DIR": str(cwd.parent / "sessions")}
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-m", "mrsmith_tui", "-p", prompt, "--yes", *flags],
                                cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return proc.returncode, usage.ru_maxrss, err.seek(0, 2), out.read().decode("utf-8", "replace")


def measure(race_ops: int = 100_000) -> list[Figure]:
    import bench.workload  # noqa: F401  (puts tests/ on sys.path)
    from loopback import LoopbackServer, text_turn, tool_calls_turn, tool_turn

    figures: list[Figure] = []
    work = Path(tempfile.mkdtemp(prefix="mrsmith-bounds-"))

    # 1 GB read
    (work / "read").mkdir()
    _make_big_file(work / "read" / "big.txt", 1 << 30)
    r = _child(_READ, str(work / "read"))
    (work / "read" / "big.txt").unlink()
    figures += [Figure("read_file 1 GB: first page", r["first"] * 1000, "ms", ""),
                Figure("read_file 1 GB: page at line 5,000,000", r["middle"] * 1000, "ms", ""),
                Figure("read_file 1 GB: peak RSS", r["peak"], "MB", "< 150")]

    # 100 MB of shell output through the real CLI
    (work / "out").mkdir()
    command = "head -c 100000000 /dev/zero | tr '\\0' 'x' | fold -w 99"
    with LoopbackServer([tool_turn("shell", {"command": command, "timeout_ms": 600000}), text_turn("done")]) as srv:
        t = time.perf_counter()
        code, peak_kb, err_bytes, _ = _cli(srv.base_url, work / "out", "print a lot")
        took = time.perf_counter() - t
    figures += [Figure("100 MB shell output: peak RSS (headless CLI)", peak_kb / 1024, "MB", "< 150",
                       f"exit {code}, {took:.1f} s"),
                Figure("100 MB shell output: stderr", err_bytes / 1024, "KB", "< 1024")]

    # glob over 10k files
    (work / "glob").mkdir()
    for d in range(100):
        sub = work / "glob" / f"dir{d:02}"
        sub.mkdir()
        for f in range(100):
            (sub / f"file_with_a_longer_name_{f:03}.txt").touch()
    g = _child(_GLOB, str(work / "glob"))
    figures += [Figure('glob "*"*22+"x" over 10k files', g["evil"], "s", "< 2"),
                Figure('glob "**/"+"*"*22+"x" over 10k files', g["evil_deep"], "s", "< 2"),
                Figure("glob **/*.txt over 10k files", g["all"], "s", ""),
                Figure("glob: peak RSS", g["peak"], "MB", "")]

    # 1,000 tool calls in one answer
    (work / "turn").mkdir()
    (work / "turn" / "a.txt").write_text("hello\n")
    many = tool_calls_turn([("read_file", {"path": "a.txt"})] * 1000)
    with LoopbackServer([many, text_turn("done")]) as srv:
        code, _, _, out = _cli(srv.base_url, work / "turn", "read it a lot", "--json")
        sent = srv.requests[1]["messages"] if len(srv.requests) > 1 else []
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    ran = sum(e["type"] == "ToolCallFinished" for e in events)
    refused = sum(m.get("role") == "tool" and "not run: at most" in m.get("content", "") for m in sent)
    figures += [Figure("1,000 calls in one turn: run", ran, "calls", "<= 32", f"exit {code}, {refused} refused")]

    # the containment race
    (work / "race").mkdir()
    t = time.perf_counter()
    race = _child(_RACE, str(work / "race"), str(race_ops))
    figures += [Figure(f"race: escapes in {race['ops']:,} operations", race["escapes"], "", "<= 0",
                       f"{race['swaps']:,} swaps, {race['refused']:,} refused, {time.perf_counter() - t:.0f} s")]

    # the #12 review's runaway cases
    (work / "review").mkdir()
    v = _child(_REVIEW, str(work / "review"))
    figures += [Figure('edit old "a" on 1,000,000 matching lines', v["edit_exact"], "s", "< 2",
                       f"answer {v['edit_chars']} characters"),
                Figure("edit, indentation-blind, 200k lines x 200-line old", v["edit_loose"], "s", "< 2"),
                Figure("glob under a 256 KB brace-heavy .gitignore", v["glob_gitignore"], "s", "< 2"),
                Figure("SSE: one 8 MB line in 1 KB chunks", v["sse_8mb_line"], "s", "< 2"),
                Figure("background job printing 200 MB: log size", v["bg_log_mb"], "MB", "<= 11"),
                Figure("review cases: peak RSS", v["peak"], "MB", "")]
    return figures
