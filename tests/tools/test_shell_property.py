"""Property: a command judged read-only uses only options from its program's table.

For every program of the read-only set (and every git subcommand and wrapper), a seeded
generator builds commands from option words of many shapes — known, abbreviated, clustered,
braced, ANSI-C quoted, with attached or separate values, known-but-given-a-value — and keeps
a label of whether each word is in the table. Any command holding a word outside the table
must ask; a command of known words only must run at once (the tables are usable as written).
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from pathlib import Path

import pytest

from mrsmith_tui.tools.shell.allow_bash import WRAPPERS
from mrsmith_tui.tools.shell.allow_git import GIT
from mrsmith_tui.tools.shell.allow_scripts import JQ_TWO_VALUES
from mrsmith_tui.tools.shell.allowlist import PROGRAMS
from mrsmith_tui.tools.shell.classify import classify
from mrsmith_tui.tools.shell.program import Program

from .test_shell_classify import make_project

SAMPLES = 60
# Real options that write, run or follow links somewhere; the generator mixes them in.
DANGEROUS_LONG = ["output=x", "pre=./p", "exec", "in-place", "compress-program=sh", "files0-from=x", "follow",
                  "hostname-bin=./p", "search-zip", "split-string=x", "chdir=/", "ext-diff", "textconv", "open-files-in-pager",
                  "temporary-directory=/tmp", "arg-file=x", "rawfile", "from-file=x", "paginate", "dereference-recursive"]


@dataclass
class Tok:
    words: list[str]
    known: bool


def _skip(prog: Program) -> bool:
    return prog.check in ("anything", "find", "printf", "test")


def _shorts(prog: Program) -> tuple[list[str], list[str]]:
    flags = [k for k, a in prog.shorts.items() if a == 0]
    valued = [k for k, a in prog.shorts.items() if a >= 1]
    return flags, valued


def _value_for(name: str, prog: Program) -> str:
    if name in prog.path_set:
        return "f"
    return "p" if prog.check == "sed" and name in ("e", "expression") else "1"


def _token(rng: random.Random, prog: Program) -> Tok:
    flags, valued = _shorts(prog)
    longs = list(prog.longs.items())
    unknown_letters = [c for c in string.ascii_letters + ("" if prog.numeric else "0123456789") if c not in prog.shorts]
    kind = rng.randrange(12)
    if kind == 0 and flags:
        return Tok(["-" + rng.choice(flags)], True)
    if kind == 1 and valued:
        k = rng.choice(valued)
        arity = prog.shorts[k]
        if arity == 2 or rng.random() < 0.5:
            return Tok([f"-{k}{_value_for(k, prog)}"], True)
        return Tok([f"-{k}", _value_for(k, prog)], True)
    if kind == 2 and longs:
        name, arity = rng.choice(longs)
        if arity == 0:
            return Tok([f"--{name}"], True)
        if arity == 2 or rng.random() < 0.5:
            return Tok([f"--{name}={_value_for(name, prog)}"], True)
        extra = [_value_for(name, prog)] * (2 if name in JQ_TWO_VALUES else 1)
        return Tok([f"--{name}", *extra], True)
    if kind == 3 and len(flags) >= 2:
        cluster = "".join(rng.sample(flags, min(len(flags), rng.randint(2, 4))))
        if valued and rng.random() < 0.5:
            k = rng.choice(valued)
            return Tok([f"-{cluster}{k}{_value_for(k, prog)}"], True)
        return Tok([f"-{cluster}"], True)
    if kind == 4 and longs:  # an abbreviation: GNU would accept it, we must not
        name, arity = rng.choice(longs)
        cut = name[: rng.randint(1, max(1, len(name) - 1))]
        if cut not in prog.longs:
            return Tok([f"--{cut}" + ("=1" if arity else "")], False)
    if kind == 5:
        opt = rng.choice(DANGEROUS_LONG)
        if opt.split("=")[0] not in prog.longs:
            return Tok([f"--{opt}"], False)
    if kind == 6:
        return Tok([f"-{rng.choice(unknown_letters)}"], False)
    if kind == 7 and flags:  # a cluster with one unknown letter hidden inside
        letters = rng.sample(flags, min(len(flags), 2)) + [rng.choice(unknown_letters)]
        rng.shuffle(letters)
        if not any(prog.shorts.get(c, 0) >= 1 for c in letters[: letters.index(next(c for c in letters if c not in prog.shorts))]):
            return Tok(["-" + "".join(letters)], False)
    if kind == 8 and flags:  # brace expansion producing an unknown option
        return Tok([f"{{-{rng.choice(flags)},-{rng.choice(unknown_letters)}}}"], False)
    if kind == 9 and flags:
        return Tok([f"{{-{rng.choice(flags)},-{rng.choice(flags)}}}"], True)
    if kind == 10:
        hidden = "".join(f"\\x{ord(c):02x}" for c in f"-{rng.choice(unknown_letters)}")
        return Tok([f"$'{hidden}'"], False)
    if kind == 11 and longs:
        zero = [n for n, a in longs if a == 0]
        if zero:
            return Tok([f"--{rng.choice(zero)}=x"], False)
    return Tok(["-" + flags[0]] if flags else [], True)


def _command(rng: random.Random, head: list[str], prog: Program, tail: list[str]) -> tuple[str, bool]:
    toks = [_token(rng, prog) for _ in range(rng.randint(1, 4))]
    words = head + [w for t in toks for w in t.words] + tail
    return " ".join(words), all(t.known for t in toks)


def _operands(name: str, prog: Program) -> list[str]:
    if prog.max_operands == 0:
        return []
    if name == "sed":
        return ["p", "f"]
    if name == "jq":
        return [".", "f"]
    if prog.operands == "pattern":
        return ["x", "f"]
    if prog.operands == "date":
        return ["+%s"]
    if prog.operands == "none":
        return ["1"]
    return ["f"]


TARGETS: list[tuple[str, list[str], Program, list[str]]] = []
for _name, _prog in sorted(PROGRAMS.items()):
    if not _skip(_prog):
        TARGETS.append((_name, [_name], _prog, _operands(_name, _prog)))
for _key, _prog in sorted(GIT.items()):
    _tail = ["--get", "user.name"] if _key == "config" else []
    TARGETS.append((f"git {_key}", ["git", *_key.split()], _prog, _tail))
for _name, _wrap in sorted(WRAPPERS.items()):
    TARGETS.append((_name, [_name], _wrap.options, ["1"] * _wrap.leading + ["echo"]))


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("prop"))


@pytest.mark.parametrize(("label", "head", "prog", "tail"), TARGETS, ids=[t[0] for t in TARGETS])
def test_only_table_options_run(label: str, head: list[str], prog: Program, tail: list[str], project: Path) -> None:
    rng = random.Random(f"{label}-seed-11")
    unknown_seen = 0
    for _ in range(SAMPLES):
        command, all_known = _command(rng, head, prog, tail)
        verdict = classify(command, root=project)
        if not all_known:
            unknown_seen += 1
            assert not verdict.read_only, f"{command!r} uses an option outside {label}'s table but ran"
        elif label not in ("git branch", "git tag", "git config", "git reflog", "command"):
            # listing forms depend on their operands; `command -v` looks up without running
            assert verdict.read_only, f"{command!r} uses only table options but asks: {verdict.reason}"
    assert unknown_seen >= 5  # the generator really tried options outside the table
