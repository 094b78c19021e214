"""Permission modes: how much of what would ask runs without the person, session-wide.

    ask           (the default) every call that needs approval asks, unless an "always" answer,
                  `--allow` or the config's `allow` covers it
    accept-edits  the file tools' (write_file, edit) writes inside the working directory run without
                  asking; the shell is judged as in ask, even when it writes through a redirection
                  (the mode keys on the tool, not on the "writes" rule); a secret, a file with other
                  names (hard links) and the repository's configuration and trust files (.git/,
                  .mrsmith/, .mcp.json, AGENTS.md, ... PROTECTED) still ask, and so do mrsmith's own folders
                  (config, tools, trust store, sessions) and, started in $HOME, its dotfiles
    plan          only read-only tools run: a shell command only when the allowlist judges it read-only
                  (without the person's `shellHarmlessCommands`), an MCP tool only when its server marked it
                  read-only and is trusted for that; a drop-in tool never. Anything else is refused with
                  "plan mode: …", and the system prompt tells the model to present a plan instead
    auto          every call is approved (a red badge); never a default: `--permission-mode auto` or `--yes`

The gate (tools.approval) asks the mode first, BEFORE remembered "always" answers, `--allow` and the
config's `allow`: plan mode refuses even what was allowed. The mode is one value per session (every
agent of the session works in it), changed from any thread; each change posts PermissionModeChanged.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, Final

from mrsmith_tui import msgs
from mrsmith_tui.tools.outcome import ApprovalNeed
from mrsmith_tui.tools.services import ToolContext

__all__ = [
    "ASK",
    "CYCLE",
    "MODES",
    "PLAN_NOTE",
    "PROTECTED",
    "Ask",
    "PermissionMode",
    "mode_problem",
    "next_mode",
    "protected_part",
]

MODES: Final = ("ask", "accept-edits", "plan", "auto")
CYCLE: Final = ("ask", "accept-edits", "plan")  # Shift-Tab; "auto" joins only when the session started in it
FILE_TOOLS: Final = frozenset({"write_file", "edit"})
# Names (any part of the path, case-insensitive) that accept-edits never writes unasked: what makes
# programs run, or tells the agent or the person's tools what to trust.
PROTECTED: Final = frozenset({
    ".git", ".mrsmith", ".mcp.json", ".envrc", ".gitmodules", ".gitattributes", ".gitconfig", ".githooks", ".husky",
    ".vscode", ".idea", ".devcontainer", ".github", ".gitlab-ci.yml", ".pre-commit-config.yaml", ".claude", ".cursor",
    "agents.md", "claude.md",
    # other agents' and editors' instruction and settings files, and Mercurial's (its hgrc runs hooks)
    ".cursorrules", ".windsurfrules", "gemini.md", ".aider.conf.yml", ".continue", ".zed", ".direnv", ".hg",
})
# Rules that read (a secret, a path outside the root, a new host): plan mode lets such a call ask as usual.
READ_RULES: Final = frozenset({"secret", "outside", "network"})
PLAN_NOTE = (
    "# Plan mode\n\n"
    "The person has put this session in plan mode: only read-only tools run (reading, searching, listing, "
    "read-only shell commands); every write, edit and other command is refused with \"plan mode: …\". "
    "Explore what you need, then present a concise, numbered plan of the changes you would make, and stop. "
    "Do not try to make the changes or to work around the refusals: the person leaves plan mode to carry the plan out."
)


class Ask:
    """The mode has no say: the gate goes on as in ask mode."""

    def __repr__(self) -> str:
        return "ASK"


ASK: Final = Ask()
Ruling = str | None | Ask  # None: run without asking; a str: refused, with this text for the model


def mode_problem(mode: str) -> str | None:
    if mode in MODES:
        return None
    return f"unknown permission mode {mode!r} (the modes: {', '.join(MODES)})"


def next_mode(mode: str, *, with_auto: bool = False) -> str:
    order = CYCLE + (("auto",) if with_auto else ())
    return order[(order.index(mode) + 1) % len(order)] if mode in order else order[0]


class PermissionMode:
    """One session's mode. Thread-safe: the UI thread changes it while agents' threads ask it."""

    def __init__(self, mode: str = "ask", sink: Callable[[msgs.Msg], None] | None = None) -> None:
        problem = mode_problem(mode)
        if problem:
            raise ValueError(problem)
        self._mode = mode
        self.started = mode  # Shift-Tab reaches "auto" only when the session started in it
        self._sink = sink
        self._lock = threading.Lock()

    @property
    def current(self) -> str:
        with self._lock:
            return self._mode

    def set(self, mode: str) -> bool:
        """Switch to `mode` (a ValueError for an unknown one); True, and a PermissionModeChanged, when it changed."""
        problem = mode_problem(mode)
        if problem:
            raise ValueError(problem)
        with self._lock:
            changed, self._mode = mode != self._mode, mode
        if changed and self._sink is not None:
            self._sink(self.announce())
        return changed

    def announce(self) -> msgs.PermissionModeChanged:
        return msgs.PermissionModeChanged(mode=self.current)

    def framed(self, system_prompt: str) -> str:
        """The system prompt as this mode needs it (plan mode: the plan note at the end)."""
        return f"{system_prompt}\n\n{PLAN_NOTE}" if self.current == "plan" else system_prompt

    # ------------------------------------------------------------------ the gate's questions

    def judge(self, tool: Any, args: dict[str, Any], need: ApprovalNeed | None, ctx: ToolContext) -> Ruling:
        """Before anything else the gate knows: run (None), refuse (the text), or ASK (go on as in ask mode)."""
        mode = self.current
        if mode == "auto":
            return None
        if mode == "plan":
            return _plan(tool, args, need, ctx)
        if mode == "accept-edits" and need is not None and need.rule == "writes" and _file_tool(tool):
            return None if _plain_edit(args, ctx) else ASK
        return ASK

    def judge_need(self, tool_name: str, need: ApprovalNeed) -> Ruling:
        """A need found mid-run (web_fetch redirected to a new host): only its rule is known."""
        mode = self.current
        if mode == "auto":
            return None
        if mode == "plan" and need.rule not in READ_RULES:
            return _refusal(tool_name, need.reason)
        return ASK


def _refusal(tool_name: str, why: str) -> str:
    return (f"plan mode: {tool_name} was not run ({why}). Only read-only tools run in plan mode: "
            "present your plan instead; the person leaves plan mode to carry it out.")


def _plan(tool: Any, args: dict[str, Any], need: ApprovalNeed | None, ctx: ToolContext) -> Ruling:
    name = str(getattr(tool, "name", "tool"))
    if getattr(tool, "drop_in", False) or type(tool).__module__.startswith("mrsmith_tui.tools.dropin"):
        return _refusal(name, "a drop-in tool")
    strict = getattr(tool, "plan_read_only", None)
    if callable(strict):  # the shell: its allowlist's own judgement, without the person's harmless commands
        verdict = strict(args, ctx)
        return None if verdict is None else _refusal(name, verdict)
    if getattr(tool, "read_only", False) is not True:
        return _refusal(name, need.reason if need is not None else "it is not read-only")
    if need is not None and need.rule not in READ_RULES:
        return _refusal(name, need.reason)
    return ASK  # read-only: runs, or asks for a secret, an outside path or a new host as in ask mode


def _file_tool(tool: Any) -> bool:
    """write_file and edit themselves (a tool by another module with their name is not one of them)."""
    return getattr(tool, "name", "") in FILE_TOOLS and type(tool).__module__ in (
        "mrsmith_tui.tools.write_file", "mrsmith_tui.tools.edit")


def protected_part(relative: str) -> str | None:
    """The first part of a root-relative path that names a configuration or trust file, or None."""
    for part in relative.replace("\\", "/").split("/"):
        if part.casefold() in PROTECTED:
            return part
    return None


def _own_folders() -> tuple[str, ...]:
    """mrsmith's own folders (config with its tools and commands, state with the trust store, sessions), resolved:
    started in $HOME (or with XDG_CONFIG_HOME inside the project) they are inside the root, and a write there
    changes what runs next time or what is trusted."""
    from mrsmith_tui.paths import config_dir, default_sessions_dir, state_dir

    return tuple(os.path.realpath(p) for p in (config_dir(), state_dir(), default_sessions_dir().parent))


def _home_under(root: str) -> str:
    """$HOME, resolved, when the root holds it (mrsmith started in $HOME or above); otherwise ""."""
    try:
        home = os.path.realpath(os.path.expanduser("~"))
        return home if os.path.commonpath([root, home]) == root else ""
    except (OSError, ValueError):
        return ""


def _plain_edit(args: dict[str, Any], ctx: ToolContext) -> bool:
    """The write lands inside the root, on no protected name (as written, and where links lead), on a
    file with no other name (a hard link would change it elsewhere too)."""
    path = args.get("path")
    if not isinstance(path, str) or not path.strip() or "\0" in path:
        return False
    try:
        root = os.path.realpath(ctx.root)
        lexical = os.path.normpath(os.path.join(root, path))
        real = os.path.realpath(lexical)
        own = _own_folders()
        home = _home_under(root)
        for where in (lexical, real):
            if os.path.commonpath([root, where]) != root or where == root:
                return False
            if protected_part(os.path.relpath(where, root)) is not None:
                return False
            if any(os.path.commonpath([folder, where]) == folder for folder in own):
                return False  # mrsmith's own config, tools, trust store, sessions: in a root that is $HOME
            if home and os.path.commonpath([home, where]) == home and where != home \
                    and os.path.relpath(where, home).startswith("."):
                return False  # started in $HOME: its dotfiles and dot folders are the person's configuration
        st = os.lstat(real) if os.path.lexists(real) else None
    except (OSError, ValueError):
        return False
    return st is None or st.st_nlink <= 1
