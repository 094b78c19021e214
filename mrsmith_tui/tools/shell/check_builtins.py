"""Checks of bash builtins' words: printf's -v and %n (they assign), test/[ operators that
evaluate code or probe paths outside the working directory, and where cd goes."""

from __future__ import annotations

import os
import re

from mrsmith_tui.tools.shell.allow_bash import TEST_EVALUATES, TEST_FILE_BINARY, TEST_FILE_UNARY
from mrsmith_tui.tools.shell.context import Context, Problem, path_problem
from mrsmith_tui.tools.shell.options import Opt
from mrsmith_tui.tools.shell.words import Word


def check_cd(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if not operands:
        return [Problem("outside", "cd without a directory goes home, outside the working directory")]
    w = operands[0]
    if w.value is None:
        return [Problem("outside", f"cd `{w.text}`: a directory only known when it runs")]
    if w.value == "-":
        return [Problem("outside", "cd - goes back to a directory outside this command")]
    if not w.value.startswith(("/", ".")) and _cdpath_leads_elsewhere(w.value, ctx):
        return [Problem("outside", f"cd {w.value} may follow CDPATH outside the working directory")]
    if path_problem(w, ctx) is None:
        ctx.cd_targets.append(w.value)
    return []  # the operand itself was checked as a path


def _cdpath_leads_elsewhere(target: str, ctx: Context) -> bool:
    """bash's cd tries each CDPATH entry in turn (the command's own CDPATH: relative entries other
    than `.` are taken out of it) and goes to the first that holds the folder."""
    from mrsmith_tui.security.environment import child_environment

    cdpath = child_environment(root=ctx.root).get("CDPATH")
    if not cdpath:
        return False
    for cwd in ctx.cwds:
        for entry in cdpath.split(":"):
            base = cwd if entry in ("", ".") else entry
            if os.path.isdir(os.path.join(base, target)):
                if base != cwd:
                    return True
                break
    return False


def check_printf(name: str, args: list[Word], ctx: Context) -> list[Problem]:
    if not args:
        return []
    first = args[0]
    if first.value is None:
        return [Problem("runs", f"printf `{first.text}` could be -v, which assigns a variable", "printf")]
    if first.value.startswith("-") and first.value not in ("-", "--"):
        return [Problem("runs", f"printf {first.value} assigns a variable (bash evaluates its subscript as code)", "printf")]
    fmt = args[1] if first.value == "--" and len(args) > 1 else first
    if fmt.value is None:
        return [Problem("runs", f"printf format `{fmt.text}` is only known when it runs (%n assigns a variable)", "printf")]
    if re.search(r"%[-+ #0'*.0-9]*[hlLqjzt]*n", fmt.value.replace("%%", "")):
        return [Problem("runs", f"printf format {fmt.value!r} uses %n, which assigns a variable", "printf")]
    return []


def check_test(name: str, args: list[Word], ctx: Context) -> list[Problem]:
    for k, w in enumerate(args):
        if w.value is None:
            if not w.text.startswith('"'):
                return [Problem("runs", f"{name} gets `{w.text}`, which could split into an operator that runs code", name)]
            continue
        if w.value in TEST_EVALUATES:
            return [Problem("runs", f"{name} {w.value} evaluates its operand (an array subscript can run commands)", name)]
        if (w.value in TEST_FILE_UNARY and k + 1 < len(args)) or (w.value in TEST_FILE_BINARY and 0 < k < len(args) - 1):
            for operand in ([args[k - 1]] if w.value in TEST_FILE_BINARY else []) + [args[k + 1]]:
                if (p := test_path_problem(operand, ctx)) is not None:
                    return [p]
    return []


def test_path_problem(w: Word, ctx: Context) -> Problem | None:
    """`[ -r /etc/shadow ]` tells what exists outside the working directory (as `ls` would)."""
    if w.value is None:
        return None  # a variable's value: already judged by what set it
    return path_problem(w, ctx, names_only=True)
