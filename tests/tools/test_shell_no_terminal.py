"""The shell tool's children have no terminal (stdin /dev/null, output captured, a session of their own):
nothing they start may wait for one. Pagers print like cat, editors fail at once saying why, and git asks
for no password (security.environment.NO_TERMINAL)."""

from __future__ import annotations

import subprocess

from mrsmith_tui.tools.shell.tool import ShellTool

SHOW = 'for v in PAGER GIT_PAGER MANPAGER GIT_TERMINAL_PROMPT; do printf "%s=%s\\n" "$v" "${!v}"; done'


def test_the_child_sees_pagers_that_print_and_editors_that_fail_at_once(ctx, monkeypatch) -> None:
    monkeypatch.setenv("PAGER", "less")
    monkeypatch.setenv("EDITOR", "vim")
    monkeypatch.setenv("GIT_EDITOR", "vim")
    # As git, crontab or system() start it: the value is a shell command, the file its last word.
    r = ShellTool().run({"command": SHOW + '; eval "$EDITOR notes.txt"; echo "editor exit $?"; '
                                           'sh -c "$VISUAL \\"\\$@\\"" editor x; echo "visual exit $?"'}, ctx)
    assert "PAGER=cat\nGIT_PAGER=cat\nMANPAGER=cat\nGIT_TERMINAL_PROMPT=0\n" in r.content
    assert "editor exit 1" in r.content and "visual exit 1" in r.content
    assert "no terminal here for an editor: pass the text another way (-m MSG, -F FILE)" in r.content
    assert not (ctx.root / "notes.txt").exists()


def test_git_commit_without_a_message_stops_at_once_and_commits_nothing(ctx, monkeypatch) -> None:
    monkeypatch.setenv("GIT_EDITOR", "vim")
    git = ["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "-q"], cwd=ctx.root, check=True)
    (ctx.root / "a.txt").write_text("a\n")
    subprocess.run([*git, "add", "a.txt"], cwd=ctx.root, check=True)
    r = ShellTool().run({"command": " ".join(git) + " commit"}, ctx)
    assert r.exit_code == 1 and "no terminal here for an editor" in r.content
    assert "[timed out" not in r.content
    log = subprocess.run(["git", "log", "--oneline"], cwd=ctx.root, capture_output=True, text=True)
    assert log.stdout == ""  # nothing committed on a message nobody wrote
