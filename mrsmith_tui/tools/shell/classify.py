"""Is a shell command read-only? Parsed with tree-sitter-bash, judged by an allowlist.

A command runs without asking only when every part of it is known to be read-only:
- its syntax is from a small known set (lists, pipes, subshells, if/while/case/for, `[[ ]]`
  without code-evaluating operators, `$(…)`, `<(…)`): anything else asks;
- every simple command, after bash's own expansions (quotes, braces, `~`, globs against the
  root's files), fits its program's table in allowlist.py exactly (argv.py);
  wrappers (`xargs`, `env`, `timeout`, ...) are peeled and what they run is judged again;
- nothing is written (redirections only to /dev/null or between descriptors), nothing is
  assigned, no here-doc body expands, no `/dev/tcp` or `/dev/udp`;
- every path it reads is inside the working directory and does not look like a secret;
- a read-only git command runs only when the repository's own config sets no program git
  would run (core.fsmonitor, diff textconv/external, filters, gpg, ...).

The approval spec (what an "always" answer allows from then on):
- the programs that need approval, each as `binary` or `binary subcommand` for tools with
  subcommands (`shell:git commit`, `shell:rm`), joined with ", " when several do;
- the whole command text (`shell:echo hi > notes.txt`) when what needs approval is not a
  program (a redirection, an assignment, a path outside the root or a secret, a parse error).

Here: the entry point and the verdict. parse.py parses and checks the parse can be trusted,
syntax.py walks the tree, redirects.py judges redirections, argv.py each command.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import Rule
from mrsmith_tui.tools.shell.context import Context
from mrsmith_tui.tools.shell.parse import VARIABLE_REDIRECT, has_missing, parser, unseen_substitutions
from mrsmith_tui.tools.shell.repo_config import git_config_keys, git_toplevel
from mrsmith_tui.tools.shell.syntax import walk

RULE_ORDER: tuple[Rule, ...] = ("runs", "writes", "network", "secret", "outside", "other")


@dataclass(frozen=True)
class Verdict:
    read_only: bool
    spec: str = ""  # "shell:..." when approval is needed
    reason: str = ""
    rule: Rule = "other"


def classify(
    command: str,
    harmless: Iterable[str] = (),
    dangerous: Iterable[str] = (),
    *,
    root: str | os.PathLike[str] | None = None,
    sensitive: SensitivePaths | None = None,
) -> Verdict:
    try:
        return _classify(command, harmless, dangerous, root, sensitive)
    except (RecursionError, OSError, ValueError, UnicodeError) as e:  # nested too deep, an odd path: ask
        text = command.strip()
        return Verdict(False, f"shell:{text}", f"the command could not be judged ({type(e).__name__})", "other")


def _classify(
    command: str,
    harmless: Iterable[str],
    dangerous: Iterable[str],
    root: str | os.PathLike[str] | None,
    sensitive: SensitivePaths | None,
) -> Verdict:
    text = command.strip()
    if not text:
        return Verdict(False, "shell:", "the command is empty", "other")
    if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text):
        return Verdict(False, f"shell:{text}", "the command holds control characters (bash and the parser may split it differently)", "other")
    if VARIABLE_REDIRECT.search(text):  # the parser reads `{PATH}<a` as a word and a redirection
        return Verdict(False, f"shell:{text}", "a `{name}<…` redirection assigns a variable (`true {PATH}<a; ls` runs ./11/ls)", "runs")
    tree = parser().parse(text.encode("utf-8"))
    if tree.root_node.has_error or has_missing(tree.root_node):
        return Verdict(False, f"shell:{text}", "the command could not be parsed with certainty", "other")
    if unseen_substitutions(tree.root_node, text.encode("utf-8")):
        return Verdict(False, f"shell:{text}", "it has a command substitution the parser did not see", "runs")
    real_root = os.path.realpath(root if root is not None else os.getcwd())
    config_cache: dict[str, list[str]] = {}

    def git_config(cwd: str) -> list[str]:
        if cwd not in config_cache:
            config_cache[cwd] = git_config_keys(cwd, real_root)
            top = git_toplevel(cwd, real_root)  # a dotfiles repository in $HOME: `git log -p` shows files above the root
            if top is not None and os.path.commonpath([real_root, os.path.realpath(top)]) != real_root:
                config_cache[cwd] = [f"work tree at {top} (above the working directory)", *config_cache[cwd]]
        return config_cache[cwd]

    ctx = Context(real_root, sensitive or SensitivePaths(), [real_root], frozenset(_norm(harmless)),
                  frozenset(_norm(dangerous)), git_config=git_config)
    problems = walk(tree.root_node, ctx)
    # a `cd` inside the root moves where later relative paths point: judge again from there too
    for _ in range(3):
        targets = {os.path.normpath(t if os.path.isabs(t) else os.path.join(c, t)) for t in ctx.cd_targets for c in ctx.cwds}
        new = sorted(t for t in targets if t not in ctx.cwds and os.path.isdir(t))  # a cd elsewhere fails
        if not new:
            break
        ctx.cwds += new
        ctx.cd_targets = []
        problems = walk(tree.root_node, ctx)
    if not problems:
        return Verdict(True)
    reasons = "; ".join(dict.fromkeys(p.reason for p in problems))
    rule = min((p.rule for p in problems), key=RULE_ORDER.index)
    if any(p.spec is None for p in problems):
        return Verdict(False, f"shell:{text}", reasons, rule)
    specs = sorted({p.spec for p in problems if p.spec})
    return Verdict(False, ", ".join(f"shell:{s}" for s in specs), reasons, rule)


def _norm(specs: Iterable[str]) -> list[str]:
    return [" ".join(s.split()) for s in specs if s and s.strip()]


def specs_in(verdict: Verdict) -> Sequence[str]:
    """The individual specs of a verdict (one, or several joined by ', ')."""
    return [s for s in verdict.spec.split(", ") if s]
