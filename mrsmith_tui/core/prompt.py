"""The system prompt: the agent's prompt, where and when it works, the project's AGENTS.md,
and the sections added at composition (the skills list)."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Iterable

from mrsmith_tui.config.schema import AgentConfig

AGENTS_MD_CAP = 64 * 1024  # characters of AGENTS.md taken into the prompt


def read_agents_md(cwd: Path) -> str | None:
    path = cwd / "AGENTS.md"
    try:
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if len(text) > AGENTS_MD_CAP:
        text = text[:AGENTS_MD_CAP] + "\n[AGENTS.md truncated]"
    return text.strip() or None


def build_system_prompt(
    agent: AgentConfig, cwd: Path, sections: Iterable[str] = (), *, today: _dt.date | None = None
) -> str:
    today = today or _dt.date.today()
    parts = [
        agent.system_prompt.strip(),
        f"Working directory: {cwd}\nToday's date: {today.isoformat()}",
    ]
    agents_md = read_agents_md(cwd)
    if agents_md:
        parts.append(f"# Project instructions (AGENTS.md)\n\n{agents_md}")
    parts += [s.strip() for s in sections if s and s.strip()]
    return "\n\n".join(p for p in parts if p)
