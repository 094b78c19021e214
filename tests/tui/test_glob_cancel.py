"""Esc stops a glob that would otherwise never end, like every other tool."""

from __future__ import annotations

import threading

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui.tools import glob_tool
from tests.tui.pilot import until
from tests.tui.test_e2e import app_for, config_for


class _Entry:
    def __init__(self, n: int) -> None:
        self.name = f"file{n}.txt"

    def is_dir(self, follow_symlinks: bool = True) -> bool:
        return False

    def is_symlink(self) -> bool:
        return False


@pytest.fixture
def endless_directory(monkeypatch) -> threading.Event:
    """The root holds an endless directory and the glob's budgets are off: only a cancel ends the walk."""
    started = threading.Event()

    def entries(fd):
        n = 0
        while True:
            n += 1
            if n == 1000:
                started.set()
            yield _Entry(n)

    monkeypatch.setattr(glob_tool, "entries", entries)
    monkeypatch.setattr(glob_tool, "MAX_STEPS", float("inf"))
    monkeypatch.setattr(glob_tool, "MAX_SECONDS", float("inf"))
    return started


async def test_esc_cancels_a_pathological_glob(loopback, tmp_path, endless_directory):
    srv = loopback([tool_turn("glob", {"pattern": "*" * 22 + "x"}), text_turn("not reached")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"find it", "enter")
        await until(pilot, endless_directory.is_set)
        assert app.model.run.running
        await pilot.press("escape")
        await until(pilot, lambda: not app.model.run.running)
        tool = next(b for b in app.model.conv.blocks if b.kind == "tool")
        assert tool.done and tool.ok is False and "cancelled" in tool.text
        assert len(srv.requests) == 1  # the run stopped; the model was not asked again



async def test_jobs_lists_background_jobs(loopback, tmp_path):
    import subprocess

    from mrsmith_tui.tools.jobs import JOBS, JobRegistry

    srv = loopback([text_turn("hi")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    registry = JobRegistry()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await pilot.press(*"/jobs", "enter")
        await until(pilot, lambda: any("ackground jobs" in b.text for b in app.model.conv.blocks))  # none, or earlier ones
        proc = subprocess.Popen(["sleep", "300"], start_new_session=True)
        job = JOBS.add(proc, "sleep 300", "/tmp/x.log", detach=False)
        try:
            await pilot.press(*"/jobs", "enter")
            await until(pilot, lambda: any(f"pid {job.pid}  running" in b.text for b in app.model.conv.blocks))
        finally:
            registry._jobs = [job]
            registry.stop_all(grace=1.0)
            JOBS._jobs.remove(job)
