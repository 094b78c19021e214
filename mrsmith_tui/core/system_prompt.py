"""The system prompt: the agent's prompt, where and when it works, the project's AGENTS.md,
and the sections added at composition (the skills list)."""

from __future__ import annotations

import datetime as _dt
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.sensitive import SensitivePaths

AGENTS_MD_CAP = 64 * 1024  # characters of AGENTS.md taken into the prompt


def _folders_down_to(cwd: Path) -> list[Path]:
    """From the repository root (the nearest folder up with a `.git`) down to `cwd`; without a
    repository, `cwd` alone."""
    cwd = cwd.resolve()
    chain = [cwd]
    for parent in cwd.parents:
        if (chain[-1] / ".git").exists():
            break
        chain.append(parent)
    if not (chain[-1] / ".git").exists():
        return [cwd]
    return list(reversed(chain))


def agents_md_files(cwd: Path) -> list[Path]:
    """The AGENTS.md files that apply in `cwd`, outermost first (the nearest one last)."""
    found = []
    for folder in _folders_down_to(cwd):
        try:
            if (folder / "AGENTS.md").is_file():
                found.append(folder / "AGENTS.md")
        except OSError:
            continue
    return found


def read_agents_md(cwd: Path, cap: int = AGENTS_MD_CAP) -> str | None:
    """Every applying AGENTS.md, outermost first, so the nearest has the last word. Each is read as
    read_instructions_file reads it, inside the repository (or cwd) it belongs to."""
    folders = _folders_down_to(cwd)
    root = folders[0]
    files = agents_md_files(cwd)
    parts = []
    for path in files:
        text = read_instructions_file(path, root)
        if text:
            label = str(path.parent.relative_to(root) / "AGENTS.md")
            parts.append(text if len(files) == 1 else f"## {label}\n\n{text}")
    text = "\n\n".join(parts)
    if len(text) > cap:
        text = text[:cap] + "\n[AGENTS.md truncated]"
    return text.strip() or None


def read_instructions_file(path: Path, root: Path) -> str | None:
    """The text of an instructions file, or None when it is missing or not safe to take in unasked:
    it must lead to a regular file inside `root` that does not look like a secret (an AGENTS.md
    linked to ~/.ssh/id_rsa or to mrsmith's own config is skipped). At most AGENTS_MD_CAP is read."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    if os.path.commonpath([real_root, real]) != real_root or real == real_root:
        return None
    if SensitivePaths().matches(os.path.relpath(real, real_root)):
        return None
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None  # a fifo or a device would hang or never end
        data = f.read(AGENTS_MD_CAP * 4 + 1)
    text = data.decode("utf-8", errors="replace")
    if len(text) > AGENTS_MD_CAP or len(data) > AGENTS_MD_CAP * 4:
        text = text[:AGENTS_MD_CAP] + "\n[AGENTS.md truncated]"
    return text.strip() or None


def build_system_prompt(
    agent: AgentConfig, cwd: Path, sections: Iterable[str] = (), *, today: _dt.date | None = None,
    compact: bool = False,
) -> str:
    """`compact` (a small context): no composed sections and a short AGENTS.md (core.small_context)."""
    from mrsmith_tui.core.small_context import COMPACT_AGENTS_MD_CAP

    today = today or _dt.date.today()
    parts = [
        agent.system_prompt.strip(),
        f"Working directory: {cwd}\nToday's date: {today.isoformat()}",
    ]
    agents_md = read_agents_md(cwd, COMPACT_AGENTS_MD_CAP if compact else AGENTS_MD_CAP)
    if agents_md:
        parts.append(f"# Project instructions (AGENTS.md)\n\n{agents_md}")
    if not compact:
        parts += [s.strip() for s in sections if s and s.strip()]
    return PROCESS.redact("\n\n".join(p for p in parts if p))  # a key pasted into AGENTS.md stays out
