"""/init on screen, through the scripted loopback model: the facts go out, AGENTS.md is written only after
the approval showing its diff, and an existing AGENTS.md is improved (the diff shows what changes)."""

from __future__ import annotations

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui.tui.screens.modals import ApprovalModal
from tests.tui.fakes import Clock
from tests.tui.pilot import painted, until
from tests.tui.test_e2e import _turn_over, app_for, config_for

pytest.importorskip("mrsmith_tui.tools.builtin")

NOTES = "# AGENTS.md\n\n- build: `make build`\n- test: `make test`\n"


@pytest.mark.parametrize(("existing", "answer"), [(None, "y"), ("# Old notes\n", "y"), (None, "n")])
async def test_init_writes_agents_md_after_approval_with_a_diff(loopback, tmp_path, existing, answer):
    (tmp_path / "Makefile").write_text("build:\n\tcc main.c\ntest:\n\t./t\n")
    if existing is not None:
        (tmp_path / "AGENTS.md").write_text(existing)
    srv = loopback([tool_turn("write_file", {"path": "AGENTS.md", "content": NOTES}), text_turn("written")])
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"/init", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        req = app.screen.req
        assert req.tool == "write_file" and "+- build: `make build`" in req.diff
        if existing is not None:
            assert "-# Old notes" in req.diff
        clock.later(10)
        await pilot.press(answer)
        await until(pilot, lambda: _turn_over(app))
    sent = srv.requests[0]["messages"][-1]["content"]
    assert sent.startswith("/init: write the project's notes for coding agents.")
    assert "targets: build, test" in sent
    assert ("AGENTS.md exists: improve it." in sent) == (existing is not None)
    if answer == "y":
        assert (tmp_path / "AGENTS.md").read_text() == NOTES
    else:
        assert (tmp_path / "AGENTS.md").exists() is False
