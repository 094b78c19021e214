"""accept-edits when the root holds the person's own configuration (mrsmith started in $HOME, or XDG folders
inside the project): mrsmith's config, drop-in tools, commands, trust store and sessions, and $HOME's
dotfiles, still ask; so do other agents' instruction files. An ordinary file there still runs unasked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.approval import ApprovalGate
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.permission_mode import PermissionMode
from mrsmith_tui.tools.write_file import WriteFileTool

OWN = [  # inside mrsmith's folders: what runs next start, what it trusts, what it replays
    ".config/mrsmith/tools/evil.py", ".config/mrsmith/config.toml", ".config/mrsmith/config.json",
    ".config/mrsmith/commands/review.md", ".config/mrsmith/agents/x.md", ".config/mrsmith/skills/x/SKILL.md",
    ".config/mrsmith/themes/x.toml", ".config/mrsmith/new/deep/file.txt", ".local/state/mrsmith/trust.json",
    ".local/state/mrsmith/contexts.json", ".local/share/mrsmith/sessions/0190/transcript.jsonl",
]
DOTFILES = [  # $HOME's own configuration: each makes something run, or tells a program what to trust
    ".config/git/config", ".config/autostart/x.desktop", ".local/bin/ls", ".cargo/config.toml", ".bash_logout",
    ".inputrc", ".vimrc", ".config/nvim/init.lua", ".tmux.conf", ".config/fish/config.fish", ".xinitrc",
    ".config/systemd/user/x.service", ".pam_environment", ".hgrc", ".editorconfig", ".newdotfile",
]
AGENT_FILES = [".cursorrules", ".windsurfrules", "GEMINI.md", ".aider.conf.yml", ".continue/config.json",
               ".zed/settings.json", ".direnv/x", ".hg/hgrc"]
SPELLINGS = ["{p}", "./{p}", "proj/../{p}", "proj/./../{p}", "{home}/{p}"]
PLAIN = ["notes.txt", "proj/src/a.py", "proj/README.md", "Documents/todo.md", "proj/.gitignore.txt"]


class Answers:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def approve(self, query):
        self.asked.append(query.spec)
        return "no"


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    (h / "proj").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(h))
    for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    return h


def _asks(root: Path, path: str, tool: object = None) -> bool:
    a = Answers()
    g = ApprovalGate(a, (), PermissionMode("accept-edits"))
    ctx = ToolContext(root=root, cancel=CancelToken(), approver=a)
    args = {"path": path, "content": "x\n"} if tool is None else {"path": path, "old": "x", "new": "y"}
    g.authorize(tool or WriteFileTool(), args, "{}", ctx)
    return len(a.asked) == 1


ROWS = [(s, p) for p in OWN + DOTFILES + AGENT_FILES for s in SPELLINGS]


def test_the_table_is_wide() -> None:
    assert len(ROWS) >= 150


@pytest.mark.parametrize(("spelling", "path"), ROWS)
def test_started_in_home_a_write_to_its_configuration_asks(spelling: str, path: str, home: Path) -> None:
    assert _asks(home, spelling.format(p=path, home=home)), path


@pytest.mark.parametrize("path", OWN + DOTFILES)
def test_an_existing_file_there_asks_for_an_edit_too(path: str, home: Path) -> None:
    (home / path).parent.mkdir(parents=True, exist_ok=True)
    (home / path).write_text("x\n")
    assert _asks(home, path, EditTool())


@pytest.mark.parametrize("path", ["tools/evil.py", "config.toml", "commands/x.md"])
def test_xdg_config_home_inside_a_project_asks(path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "proj"
    (root / "cfg").mkdir(parents=True)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "cfg"))
    assert _asks(root, f"cfg/mrsmith/{path}")
    os.symlink(root / "cfg" / "mrsmith", root / "innocent")
    assert _asks(root, f"innocent/{path}")  # where the link leads counts


@pytest.mark.parametrize("path", PLAIN)
def test_an_ordinary_file_in_home_still_runs_unasked(path: str, home: Path) -> None:
    assert not _asks(home, path)


def test_a_project_kept_in_a_dot_folder_of_home_is_not_home_s_configuration(home: Path) -> None:
    root = home / ".dotfiles"
    root.mkdir()
    assert not _asks(root, "vimrc") and not _asks(root, "src/install.sh")
