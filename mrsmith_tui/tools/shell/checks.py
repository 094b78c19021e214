"""Every content check by the name a table's `check` field gives (program.py), for
argv.py to run once a program's options are parsed."""

from __future__ import annotations

from collections.abc import Callable

from mrsmith_tui.tools.shell.check_builtins import check_cd, check_printf, check_test
from mrsmith_tui.tools.shell.check_files import check_diff_dirs, check_find, check_no_response_file, check_search_globs
from mrsmith_tui.tools.shell.check_git import check_git_config, check_git_format, check_git_list, check_git_log
from mrsmith_tui.tools.shell.check_scripts import check_jq, check_sed
from mrsmith_tui.tools.shell.context import Context, Problem
from mrsmith_tui.tools.shell.options import Opt
from mrsmith_tui.tools.shell.scope import check_search_scope
from mrsmith_tui.tools.shell.words import Word


def check_search(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    """grep's and rg's globs aimed at a secret, then the scope a recursive search reads."""
    from mrsmith_tui.tools.shell.allow_search import SEARCH_PROGRAMS

    return check_search_globs(name, opts, operands, ctx) or check_search_scope(
        name, opts, operands, ctx, SEARCH_PROGRAMS[name].pattern_set)


# A check reads the options and operands parse_options found ...
CHECKS: dict[str, Callable[[str, list[Opt], list[Word], Context], list[Problem]]] = {
    "sed": check_sed, "jq": check_jq, "no_response_file": check_no_response_file, "cd": check_cd,
    "git_format": check_git_format, "git_log": check_git_log, "diff_dirs": check_diff_dirs, "search_globs": check_search, "git_list": check_git_list, "git_config": check_git_config,
}
# ... or, for a program with a grammar of its own, the raw words.
RAW_CHECKS: dict[str, Callable[[str, list[Word], Context], list[Problem]]] = {
    "find": check_find, "printf": check_printf, "test": check_test,
}
