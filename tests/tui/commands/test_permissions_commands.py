"""`/permissions` on a real gate: long specs listed on one line, revoking by number, clean errors."""

from __future__ import annotations

from mrsmith_tui.tools.approval import ApprovalGate, Permission, PolicyApprover
from mrsmith_tui.tui.commands.permissions import permissions_command
from mrsmith_tui.tui.screens.keep_permissions import KeepPermissionsModal
from tests.tui.pilot import until

HEREDOC = "shell:cat > notes.txt <<'EOF'\n" + "".join(f"line {i}\n" for i in range(50)) + "EOF"


def gate() -> ApprovalGate:
    return ApprovalGate(PolicyApprover(), [Permission("write_file", "config"), Permission(HEREDOC, "answer")])


def test_a_long_spec_is_listed_on_one_short_line_and_revoked_by_its_number():
    g = gate()
    text, kind = permissions_command(g, "")
    lines = text.splitlines()
    assert kind == "notice" and len(lines) == 3 and max(len(line) for line in lines[1:]) < 110
    assert lines[2].startswith("2. shell:cat > notes.txt <<'EOF' line 0") and "…" in lines[2]
    text, kind = permissions_command(g, "revoke 2")
    assert kind == "notice" and text.startswith("revoked shell:cat") and "\n" not in text
    assert [p.spec for p in g.permissions()] == ["write_file"]


def test_revoking_with_odd_numbers_or_unknown_specs_is_one_clean_line():
    for arg in ("revoke ²", "revoke 7", "revoke nothing-like-it", "revoke", "frobnicate"):
        text, kind = permissions_command(gate(), arg)
        assert kind == "warning" and "\n" not in text and "int()" not in text and text.startswith("/permissions")


def test_an_unknown_mode_is_named_with_the_modes_there_are():
    g = gate()
    before = g.mode.current
    assert permissions_command(g, "mode yolo") == (
        "/permissions mode: no mode 'yolo' (modes: ask, accept-edits, plan, auto)", "warning")
    assert permissions_command(g, "mode")[0] == "/permissions mode: which one? (ask, accept-edits, plan, auto)"
    assert g.mode.current == before


async def test_the_reset_question_keeps_its_keys_on_a_60x20_screen_with_long_specs():
    from textual.app import App

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(KeepPermissionsModal([HEREDOC] * 8))

    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, KeepPermissionsModal) and app.screen.query(".keys"))
        keys = app.screen.query_one(".keys")
        await until(pilot, lambda: keys.region.height > 0)
        assert app.screen.region.contains_region(keys.region)
        assert app.screen.get_widget_at(keys.region.x, keys.region.y)[0] is keys


def test_the_command_lists_and_revokes_through_the_sessions_gate():
    from mrsmith_tui.tui.commands import REGISTRY, run_command
    from mrsmith_tui.tui.update import initial_model
    from tests.tui.commands.fake_context import FakeContext
    from tests.tui.fakes import fake_session

    command = REGISTRY.find("/permissions")
    assert command.summary and command.complete(initial_model(), "r") == ("/permissions revoke",)
    ctx = FakeContext(session=fake_session(gate=gate()))
    run_command(REGISTRY, ctx, "/permissions", "")
    assert ctx.last_note[0].startswith("Permissions: these run without asking")
    run_command(REGISTRY, ctx, "/permissions", "revoke 1")
    assert ctx.last_note == ("revoked write_file (from the config's allow list) · such calls ask again", "notice")
