"""The read-only set of the shell tool, as data: which programs, which options, spelled exactly.

A command runs without asking only when its program is here and every word it passes fits
the program's table (argv.py reads these tables; classify.py and syntax.py
walk the shell syntax). An option that is not listed — an abbreviation, a typo, a flag that
writes or runs something — makes the command ask. To allow more, add the exact option to its
family's table: allow_files.py, allow_search.py, allow_scripts.py,
allow_bash.py (builtins, wrappers), allow_git.py. program.py says how an
entry is written.
"""

from __future__ import annotations

from mrsmith_tui.tools.shell.allow_bash import BUILTIN_PROGRAMS, WRAPPERS
from mrsmith_tui.tools.shell.allow_files import FILE_AND_TEXT_PROGRAMS
from mrsmith_tui.tools.shell.allow_git import GIT, GIT_GLOBAL
from mrsmith_tui.tools.shell.allow_scripts import SCRIPT_PROGRAMS
from mrsmith_tui.tools.shell.allow_search import FIND_PRIMARIES, SEARCH_PROGRAMS
from mrsmith_tui.tools.shell.program import Program

# Every program the read-only set knows by its first word (git and the wrappers have tables of their own).
PROGRAMS: dict[str, Program] = {**FILE_AND_TEXT_PROGRAMS, **SEARCH_PROGRAMS, **BUILTIN_PROGRAMS, **SCRIPT_PROGRAMS}

# --------------------------------------------------------------------------- the README's table


def markdown() -> str:
    """The read-only set as a Markdown table (docs/tools.md "Approvals"; a test keeps them equal)."""

    def opts(p: Program) -> str:
        short = " ".join(f"-{k}" + {0: "", 1: " V", 2: "[V]"}[a] for k, a in p.shorts.items())
        long = " ".join(f"--{k}" + {0: "", 1: "=V", 2: "[=V]", 3: " [V]"}[a] for k, a in p.longs.items() if k not in ("help", "version"))
        extra = ["-NUM"] if p.numeric else []
        return " ".join(x for x in (short, " ".join(extra), long) if x) or "(none)"

    def notes(p: Program) -> str:
        out = {"paths": "operands are paths", "none": "operands are not paths", "pattern": "pattern, then paths",
               "date": "only +FORMAT operands"}[p.operands]
        if p.max_operands is not None:
            out += f"; at most {p.max_operands}" + (" (+ `-`)" if p.dash_output else "")
        if p.path_opts:
            out += "; values of " + ", ".join(f"`{o}`" for o in p.path_opts.split()) + " are paths"
        if p.check:
            out += f"; content check `{p.check}`"
        if p.dynamic_ok:
            out += "; run-time option values ok"
        return out

    rows = ["| program | options allowed, spelled exactly | operands |", "|---|---|---|"]
    for name, p in sorted(PROGRAMS.items()):
        shown = "(any words)" if p.check == "anything" else "(checked by content)" if p.check in ("printf", "test", "find") else opts(p)
        rows.append(f"| `{name}` | {shown} | {notes(p)} |")
    rows.append(f"| `git` (global) | {opts(GIT_GLOBAL)} | then one subcommand below |")
    for key, p in sorted(GIT.items()):
        rows.append(f"| `git {key}` | {opts(p)} | {notes(p)} |")
    for name, w in sorted(WRAPPERS.items()):
        rows.append(f"| `{name}` (wrapper) | {opts(w.options)} | the command it runs is judged again |")
    rows.append("| `find` expression | " + " ".join(f"`{k}`" for k in FIND_PRIMARIES) + " `-newerXY` | leading `-P` `-H` |")
    return "\n".join(rows)
