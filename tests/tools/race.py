"""The containment race: another process swaps a directory for a symlink to outside (and a file for
a hard link from outside) in a tight loop while the file tools read, list, glob and write through it.

An escape is any byte from outside in a result, any name from outside in a listing, or any file
created or changed outside. Used by tests/tools/test_race.py (a few thousand operations) and by
`python -m bench --only bounds` (100,000).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.glob_tool import GlobTool
from mrsmith_tui.tools.list_dir import ListDirTool
from mrsmith_tui.tools.read_file import ReadFileTool
from mrsmith_tui.tools.write_file import WriteFileTool

SECRET = "OUTSIDE-SECRET"
MARKER = "outside-marker.txt"

SWAPPER = r"""
import os, sys
root, outside, stop = sys.argv[1:4]
d, real, h = os.path.join(root, "d"), os.path.join(root, "d.real"), os.path.join(root, "d", "h.txt")
secret = os.path.join(outside, "secret.txt")
print("ready", flush=True)
swaps = junk = 0

def take_name(make):                  # a tool may make `d` afresh meanwhile (write_file makes parents)
    global junk
    while True:
        try:
            return make()
        except OSError:
            junk += 1
            os.rename(d, os.path.join(root, f"junk{junk}"))

while not os.path.exists(stop):
    try:
        os.link(secret, h)            # a file linked in from outside
    except OSError:
        pass
    os.rename(d, real)                # the directory goes ...
    take_name(lambda: os.symlink(outside, d))  # ... and a symlink to outside takes its name
    os.unlink(d)
    take_name(lambda: os.rename(real, d))
    swaps += 1
    try:
        os.unlink(h)
    except OSError:
        pass
print(swaps, flush=True)
"""


@dataclass
class RaceResult:
    ops: int
    escapes: int
    refused: int  # operations refused or failed because the tree changed under them
    swaps: int  # directory/symlink swaps the other process made meanwhile
    details: list[str]


def _setup(base: Path) -> tuple[Path, Path]:
    root, outside = base / "root", base / "outside"
    (root / "d").mkdir(parents=True)
    outside.mkdir()
    (root / "d" / "f.txt").write_text("INSIDE\n")
    (outside / "f.txt").write_text(SECRET + "\n")
    (outside / "secret.txt").write_text(SECRET + "\n")
    (outside / MARKER).write_text(SECRET + "\n")
    return root.resolve(), outside.resolve()


def run_race(base: Path, ops: int) -> RaceResult:
    root, outside = _setup(base)
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    stop = base / "stop"
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root), str(outside), str(stop)],
                               stdout=subprocess.PIPE, text=True)
    assert swapper.stdout.readline().strip() == "ready"
    ctx = ToolContext(root=root, cancel=CancelToken(), approver=None)
    read, listing, glob, write = ReadFileTool(), ListDirTool(), GlobTool(), WriteFileTool()
    escapes, refused, details = 0, 0, []
    try:
        for i in range(ops):
            kind = i % 5
            if kind == 0:
                r = read.run({"path": "d/f.txt"}, ctx)
            elif kind == 1:
                r = read.run({"path": "d/h.txt"}, ctx)
            elif kind == 2:
                r = listing.run({"path": "d"}, ctx)
            elif kind == 3:
                name = "secret.txt" if i % 10 == 3 else f"w{i}.txt"
                r = write.run({"path": f"d/{name}", "content": f"written {i}\n"}, ctx)
            else:
                r = glob.run({"pattern": "d/*.txt"}, ctx) if i % 50 == 4 else read.run({"path": "d/secret.txt"}, ctx)
            refused += not r.ok
            if SECRET in r.content or MARKER in r.content:
                escapes += 1
                details.append(f"op {i}: {r.content[:120]!r}")
    finally:
        stop.touch()
        swapper.wait(timeout=30)
    swaps = int(swapper.stdout.read().strip() or 0)
    after = {p.name: p.read_bytes() for p in outside.iterdir()}
    for name in sorted(set(after) | set(before)):
        if after.get(name) != before.get(name):
            escapes += 1
            details.append(f"outside/{name} was created or changed")
    return RaceResult(ops, escapes, refused, swaps, details)
