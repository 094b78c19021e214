"""At exit mrsmith finds its children from the kernel's children lists, not by reading every
process on the machine (#26); both ways find the same children, zombies and other threads' too."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from mrsmith_tui.tools import jobs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")


def test_the_children_lists_and_the_full_scan_agree(monkeypatch):
    live = subprocess.Popen(["sleep", "30"])
    zombie = subprocess.Popen(["true"])
    started = threading.Event()
    others: list[subprocess.Popen[bytes]] = []

    def start_in_a_thread() -> None:
        others.append(subprocess.Popen(["sleep", "30"]))
        started.set()

    threading.Thread(target=start_in_a_thread).start()
    try:
        assert started.wait(90)
        deadline = time.monotonic() + 90  # the safety net
        while zombie.pid not in _states():  # until it has exited (a zombie: not reaped yet)
            assert time.monotonic() < deadline
        listed = jobs._listed_children()
        assert listed is not None
        fast = sorted(jobs._children())
        monkeypatch.setattr(jobs, "_listed_children", lambda: None)
        slow = sorted(jobs._children())
        assert fast == slow
        assert {live.pid, zombie.pid, others[0].pid} <= {pid for pid, _ in fast}
    finally:
        for proc in (live, zombie, *others):
            proc.kill()
            proc.wait()


def _states() -> set[int]:
    """Children that are zombies now."""
    out = set()
    for pid in jobs._listed_children() or []:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        if stat[stat.rfind(b")") + 2:].split()[0] == b"Z":
            out.add(int(pid))
    return out
