"""Permission modes at the gate: each mode runs, asks or refuses the right calls, before any permission."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.approval import ApprovalGate, Permission
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.permission_mode import PLAN_NOTE, PermissionMode, next_mode, protected_part
from mrsmith_tui.tools.read_file import ReadFileTool
from mrsmith_tui.tools.shell.tool import ShellTool
from mrsmith_tui.tools.write_file import WriteFileTool


class Answers:
    def __init__(self, decision: str = "no") -> None:
        self.decision = decision
        self.asked: list[str] = []

    def approve(self, query):
        self.asked.append(query.spec)
        return self.decision


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = (tmp_path / "root").resolve()
    (r / "src").mkdir(parents=True)
    (r / "src" / "a.py").write_text("print('a')\n")
    (r / "notes.txt").write_text("notes\n")
    (r / ".env").write_text("TOKEN=abc123secretvalue\n")
    (r / ".git").mkdir()
    (r / ".git" / "config").write_text("[core]\n")
    return r


def ctx(root: Path, approver: Answers) -> ToolContext:
    return ToolContext(root=root, cancel=CancelToken(), approver=approver)


def gate(mode: str, approver: Answers, *allowed: Permission) -> ApprovalGate:
    return ApprovalGate(approver, allowed, PermissionMode(mode))


def call(g: ApprovalGate, tool, args: dict, root: Path) -> str | None:
    return g.authorize(tool, args, repr(args), ctx(root, g.approver))  # type: ignore[arg-type]


class ReadOnlyMcp(BaseTool):
    name = "mcp__docs__search"
    read_only = True


class WritingMcp(BaseTool):
    name = "mcp__docs__publish"
    read_only = False


class DropIn(BaseTool):
    name = "shout"
    read_only = True  # even a drop-in that says so: plan mode never runs one
    drop_in = True


# --------------------------------------------------------------------------- ask (today) and auto


def test_ask_mode_asks_for_a_write_and_an_always_answer_covers_the_next(root: Path) -> None:
    a = Answers("always")
    g = gate("ask", a)
    args = {"path": "new.txt", "content": "x"}
    assert call(g, WriteFileTool(), args, root) is None
    assert call(g, WriteFileTool(), args, root) is None
    assert a.asked == ["write_file"]


def test_auto_mode_approves_everything_without_asking(root: Path) -> None:
    a = Answers("no")
    g = gate("auto", a)
    assert call(g, WriteFileTool(), {"path": ".git/config", "content": "x"}, root) is None
    assert call(g, ShellTool(), {"command": "rm -rf src"}, root) is None
    assert call(g, ReadFileTool(), {"path": ".env"}, root) is None
    assert g.confirm("web_fetch", ApprovalNeed("a new host", "web_fetch:example.org", rule="network"), "{}",
                     ctx(root, a)) is None
    assert a.asked == []


# --------------------------------------------------------------------------- plan


@pytest.mark.parametrize("allowed", [
    (), (Permission("write_file", "--allow"),), (Permission("write_file", "config"),),
    (Permission("write_file", "answer"),),
])
def test_plan_refuses_a_write_even_when_allowed(allowed: tuple[Permission, ...], root: Path) -> None:
    a = Answers("yes")
    g = gate("plan", a, *allowed)
    refusal = call(g, WriteFileTool(), {"path": "new.txt", "content": "x"}, root)
    assert refusal is not None and refusal.startswith("plan mode: write_file was not run")
    assert a.asked == [] and not (root / "new.txt").exists()


def test_plan_refuses_an_edit_and_a_writing_mcp_tool_and_any_drop_in_tool(root: Path) -> None:
    a = Answers("yes")
    g = gate("plan", a, Permission("mcp__docs", "--allow"), Permission("shout", "--allow"))
    assert str(call(g, EditTool(), {"path": "notes.txt", "old": "notes", "new": "n"}, root)).startswith("plan mode:")
    assert str(call(g, WritingMcp(), {}, root)).startswith("plan mode: mcp__docs__publish")
    assert str(call(g, DropIn(), {}, root)).startswith("plan mode: shout was not run (a drop-in tool)")
    assert a.asked == []


def test_plan_runs_read_only_tools_and_a_secret_read_still_asks(root: Path) -> None:
    a = Answers("no")
    g = gate("plan", a)
    assert call(g, ReadFileTool(), {"path": "notes.txt"}, root) is None
    assert call(g, ReadOnlyMcp(), {}, root) is None
    assert call(g, ShellTool(), {"command": "git status && ls src | wc -l"}, root) is None
    refusal = call(g, ReadFileTool(), {"path": ".env"}, root)
    assert a.asked == ["read_file:.env"] and refusal is not None and not refusal.startswith("plan mode")


def test_plan_ignores_the_person_s_harmless_commands_which_may_write(root: Path) -> None:
    shell = ShellTool(harmless=["touch"])
    a = Answers("yes")
    assert call(gate("ask", a), shell, {"command": "touch made"}, root) is None  # harmless: runs unasked in ask
    refusal = call(gate("plan", a), shell, {"command": "touch made"}, root)
    assert refusal is not None and refusal.startswith("plan mode: shell was not run (touch") and a.asked == []


def test_plan_lets_a_mid_run_read_ask_but_refuses_a_mid_run_write(root: Path) -> None:
    a = Answers("yes")
    g = gate("plan", a, Permission("web_fetch", "--allow"))
    assert g.confirm("web_fetch", ApprovalNeed("new host", "web_fetch:example.org", rule="network"), "{}", ctx(root, a)) is None
    refusal = g.confirm("thing", ApprovalNeed("it writes", "thing", rule="writes"), "{}", ctx(root, a))
    assert refusal is not None and refusal.startswith("plan mode: thing")


def test_the_plan_note_is_in_the_system_prompt_only_in_plan_mode() -> None:
    mode = PermissionMode("ask")
    assert mode.framed("base") == "base"
    mode.set("plan")
    assert mode.framed("base") == f"base\n\n{PLAN_NOTE}" and "present" in PLAN_NOTE
    mode.set("accept-edits")
    assert mode.framed("base") == "base"


# --------------------------------------------------------------------------- accept-edits


@pytest.mark.parametrize("path", ["new.txt", "src/a.py", "src/deep/new.py", "./notes.txt", "gitnotes/x.txt", "x.git"])
def test_accept_edits_writes_inside_the_root_without_asking(path: str, root: Path) -> None:
    a = Answers("no")
    g = gate("accept-edits", a)
    assert call(g, WriteFileTool(), {"path": path, "content": "x\n"}, root) is None
    assert a.asked == []


def test_accept_edits_runs_an_edit_without_asking(root: Path) -> None:
    a = Answers("no")
    assert call(gate("accept-edits", a), EditTool(), {"path": "notes.txt", "old": "notes", "new": "n"}, root) is None
    assert a.asked == []


@pytest.mark.parametrize("path", [
    ".git/config", ".git/hooks/pre-commit", "sub/.git/config", ".GIT/config", ".mrsmith/tools/x.py",
    ".mrsmith/commands/go.md", ".mcp.json", "AGENTS.md", "docs/../AGENTS.md", ".envrc", ".vscode/settings.json",
    ".github/workflows/ci.yml", ".gitattributes", ".gitmodules", ".husky/pre-commit", ".pre-commit-config.yaml",
])
def test_accept_edits_still_asks_for_configuration_and_trust_files(path: str, root: Path) -> None:
    a = Answers("no")
    refusal = call(gate("accept-edits", a), WriteFileTool(), {"path": path, "content": "x"}, root)
    assert refusal is not None and len(a.asked) == 1 and a.asked[0].startswith("write_file"), path


def test_accept_edits_still_asks_for_a_secret_a_link_into_git_and_a_hard_link(root: Path) -> None:
    a = Answers("no")
    g = gate("accept-edits", a)
    assert call(g, WriteFileTool(), {"path": ".env", "content": "x"}, root) is not None
    os.symlink(root / ".git", root / "looks-plain")
    assert call(g, WriteFileTool(), {"path": "looks-plain/config", "content": "x"}, root) is not None
    os.link(root / "notes.txt", root / "also-notes.txt")
    assert call(g, EditTool(), {"path": "notes.txt", "old": "notes", "new": "n"}, root) is not None
    assert len(a.asked) == 3


def test_accept_edits_keys_on_the_tool_not_on_the_writes_rule(root: Path) -> None:
    """A shell redirection carries the "writes" rule too: it still asks."""
    a = Answers("no")
    g = gate("accept-edits", a)
    assert call(g, ShellTool(), {"command": "echo x > notes.txt"}, root) is not None

    class Impostor(BaseTool):  # another module's tool that takes write_file's name
        name = "write_file"
        read_only = False

    assert call(g, Impostor(), {"path": "new.txt"}, root) is not None
    assert len(a.asked) == 2


# --------------------------------------------------------------------------- the mode itself


def test_a_change_posts_one_msg_and_the_cycle_reaches_auto_only_from_an_auto_start() -> None:
    posted: list[msgs.Msg] = []
    mode = PermissionMode("ask", posted.append)
    assert mode.set("plan") and not mode.set("plan")
    assert [m.mode for m in posted if isinstance(m, msgs.PermissionModeChanged)] == ["plan"]
    assert msgs.from_json(msgs.to_json(posted[0])) == posted[0]
    with pytest.raises(ValueError, match="unknown permission mode 'yolo'"):
        mode.set("yolo")
    seq = ["ask"]
    for _ in range(4):
        seq.append(next_mode(seq[-1]))
    assert seq == ["ask", "accept-edits", "plan", "ask", "accept-edits"]
    assert next_mode("plan", with_auto=True) == "auto" and next_mode("auto", with_auto=True) == "ask"


@pytest.mark.parametrize(("path", "part"), [(".git/x", ".git"), ("a/.Mrsmith/b", ".Mrsmith"), ("src/a.py", None),
                                            ("a.git/b", None), ("agents.md", "agents.md")])
def test_protected_parts(path: str, part: str | None) -> None:
    assert protected_part(path) == part
