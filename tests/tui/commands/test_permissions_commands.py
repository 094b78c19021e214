"""`/permissions` on a real gate: long specs listed on one line, revoking by number, clean errors."""

from __future__ import annotations

from mrsmith_tui.tools.approval import ApprovalGate, Permission, PolicyApprover
from mrsmith_tui.tui.permissions import KeepPermissionsModal, permissions_command
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
