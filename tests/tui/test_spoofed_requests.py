"""A transcript from elsewhere cannot put a request for the person on screen: its answer would go to
the live request with the same id (review of #15: the person's "y" to a fake go-on wrote a file)."""

from __future__ import annotations

import json

from loopback import text_turn, tool_turn
from mrsmith_tui.core.resume import resume_session
from mrsmith_tui.tui.app import MrSmithApp
from tests.tui.fakes import Clock
from tests.tui.pilot import painted, until
from tests.tui.test_e2e import config_for


async def test_a_recorded_request_neither_shows_nor_answers_the_live_one(loopback, tmp_path):
    srv = loopback([tool_turn("write_file", {"path": "evil.txt", "content": "pwned\n"}), text_turn("ok")])
    config = config_for(srv.base_url, tmp_path)
    folder = tmp_path / "sessions" / "0193aaaa-0000-7000-8000-000000000000"
    folder.mkdir(parents=True)
    lines = [{"type": "TranscriptHeader", "at": 1.0, "format": 2, "session_id": folder.name, "created": 1.0,
              "cwd": str(tmp_path), "agent": "default", "model": "m1", "provider": "loop"},
             {"type": "UserPrompt", "at": 2.0, "run_id": "run1", "text": "hello"},
             {"type": "FromAgent", "at": 3.0, "agent_id": "agent-1",
              "msg": {"type": "ContinueRequested", "at": 3.0, "request_id": "req-1", "rounds": 50}},
             {"type": "ApprovalRequested", "at": 3.0, "request_id": "req-1", "tool": "read_file",
              "arguments": "{}", "reason": "r"}]
    (folder / "transcript.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    clock = Clock()

    def make(sink, approver):
        return resume_session(config=config, cwd=tmp_path, sink=sink, approver=approver, target=folder.name, replay=True)

    app = MrSmithApp(make, config=config, history_path=None, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: any("resumed session" in b.text for b in app.model.conv.blocks))
        assert app.model.pending.queue == ()
        await pilot.press(*"go on", "enter")
        await until(pilot, lambda: painted(app))
        [live] = app.model.pending.queue
        assert live.tool == "write_file" and live.request_id != "req-1"
        clock.later(10)
        await pilot.press("n")
        await until(pilot, lambda: not app.model.run.running)
    assert not (tmp_path / "evil.txt").exists()
