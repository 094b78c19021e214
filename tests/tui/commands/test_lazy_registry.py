"""REGISTRY imports the command families on its first use, once, whichever thread comes first
(the custom commands' check runs in a thread while the person may type a `/`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

CHILD = """
import sys, threading
from mrsmith_tui.tui.commands import FAMILIES, REGISTRY

assert not any(f"mrsmith_tui.tui.commands.{f}" in sys.modules for f in FAMILIES), "loaded at import"
start = threading.Barrier(8)
seen = []

def use():
    start.wait()
    seen.append((REGISTRY.names(), REGISTRY.find("/help") is not None, len(list(REGISTRY))))

threads = [threading.Thread(target=use) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert len(seen) == 8 and len(set(seen)) == 1, seen
names, found, count = seen[0]
assert found and count == len(names) and "/help" in names
print("OK", count)
"""


def test_the_families_load_on_first_use_once_from_any_thread():
    for _ in range(5):  # a fresh process each time: the first use is the race
        proc = subprocess.run([sys.executable, "-c", CHILD], cwd=REPO, capture_output=True, text=True, timeout=90,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("OK ")
