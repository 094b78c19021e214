"""An "always" that remembers one exact command (#23): the spec `shell=COMMAND`.

A person answering "always" to `rm -rf build` means that command, not every rm: `a` remembers
`shell=rm -rf build`, which only the same command text (surrounding blanks aside) matches; the
broader rule the command falls under (`shell:rm`, every rm) is its own choice (`r` in the
approval modal). `--allow` and the config's `allow` list take the exact form too. A command whose
rule is already its whole text (`shell:echo hi > notes.txt`: a redirection, a parse error) has no
broader rule, and keeps that spec as before.
"""

from __future__ import annotations

EXACT = "="  # between the tool and the command: `shell=rm -rf build` (a rule has `:`, `shell:rm`)

__all__ = ["EXACT", "exact_spec", "is_exact", "offered", "shown_rule"]


def exact_spec(tool: str, command: str) -> str:
    """The spec that allows `command` of `tool`, and nothing else."""
    return f"{tool}{EXACT}{command.strip()}"


def is_exact(spec: str) -> bool:
    """`shell=...`: one exact command (a tool name never holds `=`)."""
    tool, sep, _ = spec.partition(EXACT)
    return bool(sep) and bool(tool) and ":" not in tool and " " not in tool


def offered(tool: str, command: str, rule_spec: str) -> str:
    """The exact spec to offer beside `rule_spec`, or "" when the rule is that command already."""
    text = command.strip()
    return "" if not text or rule_spec == f"{tool}:{text}" else exact_spec(tool, text)


def shown_rule(spec: str) -> str:
    """The rule in a person's words for a key label: `shell:git commit, shell:rm` -> `git commit, rm`."""
    return ", ".join(part.partition(":")[2] or part for part in spec.split(", "))
