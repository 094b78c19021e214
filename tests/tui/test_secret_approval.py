"""In the TUI a secret read asks, says why, and nothing reaches the model until the person says yes."""

from __future__ import annotations

import json

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui.tui.screens.modals import ApprovalModal
from tests.tui.fakes import Clock
from tests.tui.pilot import painted, until
from tests.tui.test_e2e import app_for, config_for

pytest.importorskip("mrsmith_tui.tools.builtin")

SECRET = "S3CRET-VALUE-tui-77"


# "y" runs the read, but the values of the tree's secret files are known to the redactor (#21): the model
# gets `TOKEN=[redacted]`, never the value, whatever the answer.
@pytest.mark.parametrize(("answer", "reaches_model"), [("n", False), ("y", True)])
async def test_reading_env_asks_because_it_looks_like_a_secret(loopback, tmp_path, answer, reaches_model):
    (tmp_path / ".env").write_text(f"TOKEN={SECRET}\n")
    srv = loopback([tool_turn("read_file", {"path": ".env"}), text_turn("ok")])
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"read it", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        req = app.screen.req
        assert req.reason == ".env looks like a secret" and req.spec == "read_file:.env"
        assert req.rule == "secret"
        clock.later(10)  # past the modal's grace for keys
        await pilot.press(answer)
        await until(pilot, lambda: not app.model.run.running and len(srv.requests) == 2)
    assert SECRET not in json.dumps(srv.requests)
    assert ("TOKEN=[redacted]" in json.dumps(srv.requests)) is reaches_model
