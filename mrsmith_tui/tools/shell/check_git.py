"""Checks of git's words beyond their options: format placeholders that verify signatures,
`branch`/`tag` forms that create, `log -L` paths, and which `git config` forms only read."""

from __future__ import annotations

import re

from mrsmith_tui.tools.shell.allow_bash import SECRET_VARIABLE
from mrsmith_tui.tools.shell.allow_git import GIT_CONFIG_SECRET_KEY, GIT_FORMAT_RUNS
from mrsmith_tui.tools.shell.context import Context, Problem
from mrsmith_tui.tools.shell.options import Opt, given
from mrsmith_tui.tools.shell.words import Word


def check_git_format(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    for o in opts:
        value = o.value.value if o.value is not None else None
        if o.name in ("--format", "--pretty") and value is not None and GIT_FORMAT_RUNS.search(value):
            return [Problem("runs", f"{name} {o.name}={value} verifies signatures (runs gpg)", "x")]
    return []


def check_git_list(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if operands and not given(opts, {"l", "list"}):
        return [Problem("runs", f"{name} {operands[0].text} creates or changes a {name.split()[-1]}", "x")]
    return check_git_format(name, opts, operands, ctx)  # %(signature) verifies with gpg


def check_git_log(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    """`git log -L 1,9:.env`: the file after the last colon is read like a path operand."""
    for o in opts:
        if o.name == "-L" and o.value is not None:
            if o.value.value is None:
                return [Problem("runs", f"{name} -L `{o.value.text}` is only known when it runs", "x")]
            path = o.value.value.rsplit(":", 1)[-1]
            if path.startswith(("/", "~")) or ".." in path.split("/") or ctx.sensitive.matches(re.sub(r"^(\./)+", "", path) or "."):
                return [Problem("secret", f"{name} -L reads `{path}`, a secret or a file outside the working directory")]
    return check_git_format(name, opts, operands, ctx)


def check_git_config(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    given = {o.name.lstrip("-") for o in opts}
    if given & {"get", "get-all"}:
        if len(operands) > 2:
            return [Problem("runs", "git config with a value sets it", "x")]
        key = operands[0] if operands else None
        if key is not None and (key.value is None or GIT_CONFIG_SECRET_KEY.search(key.value) or SECRET_VARIABLE.search(key.value)):
            return [Problem("secret", f"git config --get {key.text} may print a token", "x")]
        return []
    if given & {"list", "l", "get-regexp"}:
        if "local" in given:
            return []
        return [Problem("secret", "git config --list/--get-regexp without --local prints your global config (it can hold tokens)", "x")]
    return [Problem("runs", "git config without --get or --list --local may change the configuration", "x")]
