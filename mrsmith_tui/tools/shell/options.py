"""Read an argv the way the program's own option parser would, against its allowlist table."""

from __future__ import annotations

from dataclasses import dataclass

from mrsmith_tui.tools.shell.allow_scripts import JQ_TWO_VALUES
from mrsmith_tui.tools.shell.context import Problem
from mrsmith_tui.tools.shell.program import Program
from mrsmith_tui.tools.shell.words import Word


@dataclass
class Opt:
    name: str  # "-x" or "--name"
    value: Word | None  # the value word, when the option takes one


def parse_options(prog: Program, name: str, args: list[Word]) -> tuple[list[Opt], list[Word], list[Problem]]:
    """(options, operands, problems) as the program's own option parser would see `args`."""
    opts: list[Opt] = []
    operands: list[Word] = []
    problems: list[Problem] = []
    ended = False
    i = 0
    while i < len(args):
        w = args[i]
        i += 1
        v = w.value
        if ended or w.origin == "procsub":  # <(…) is one /dev/fd/N path, never an option
            operands.append(w)
            continue
        if v is None:
            if not prog.dynamic_ok:
                problems.append(Problem("runs", f"{name} gets `{w.text}`, a word only known when it runs (it could be any option)", name))
            operands.append(w)
            if not prog.permute:
                ended = True
            continue
        if v == "--" and prog.dashdash:
            ended = True
            continue
        if v == "-" or not v.startswith("-"):
            operands.append(w)
            if not prog.permute:
                ended = True
            continue
        if v.startswith("--"):
            key, eq, attached = v[2:].partition("=")
            arity = prog.longs.get(key)
            if arity is None:
                problems.append(Problem("runs", f"{name} option --{key} is not in its read-only table (options must be spelled in full)", name))
                continue
            if arity == 0 and eq:
                problems.append(Problem("runs", f"{name} option --{key} takes no value (`{v}`)", name))
                continue
            value = None
            if eq:
                value = Word(attached, w.text, w.origin)
            elif arity == 3:
                if i < len(args):
                    value = args[i]
                    i += 1
            elif arity == 1:
                if i >= len(args):
                    problems.append(Problem("runs", f"{name} option --{key} lacks its value", name))
                    continue
                value = args[i]
                i += 1
            opts.append(Opt("--" + key, value))
            if name == "jq" and key in JQ_TWO_VALUES:
                if i >= len(args):
                    problems.append(Problem("runs", f"{name} option --{key} lacks its value", name))
                i += 1  # --arg NAME VALUE
            continue
        if prog.numeric and v[1:].isdigit():
            opts.append(Opt("-NUM", Word(v[1:], w.text)))
            continue
        j = 1
        while j < len(v):
            letter = v[j]
            arity = prog.shorts.get(letter)
            if arity is None:
                shown = f"-{letter}" if len(v) == 2 else f"-{letter} (in `{v}`)"
                problems.append(Problem("runs", f"{name} option {shown} is not in its read-only table", name))
                break
            if arity == 0:
                opts.append(Opt("-" + letter, None))
                j += 1
                continue
            rest = v[j + 1 :]
            if rest or arity == 2:
                opts.append(Opt("-" + letter, Word(rest, w.text, w.origin) if rest else None))
            elif i < len(args):
                opts.append(Opt("-" + letter, args[i]))
                i += 1
            else:
                problems.append(Problem("runs", f"{name} option -{letter} lacks its value", name))
            break
    return opts, operands, problems


def one_word(w: Word) -> bool:
    """A double-quoted expansion stays one word whatever its value (but "$@" may be none or many)."""
    return len(w.text) >= 2 and w.text[0] == '"' and w.text[-1] == '"' and "@" not in w.text


def given(opts: list[Opt], names: frozenset[str] | set[str]) -> bool:
    return any(o.name.lstrip("-") in names for o in opts)


