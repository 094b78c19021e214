"""How one program's read-only words are written down: the `Program` and `Wrapper` records.

The tables themselves are data in the shell_allow_*.py modules, one per family of programs,
and allowlist.py joins them into the read-only set; argv.py reads them.

Program fields:
- `short`: getopt letters; `x:` takes a value (attached `-xV` or next word), `x::` takes an
  optional value attached only (`-M50`). Letters may be clustered (`-la`).
- `long`: long options spelled in full: `name` (no value), `name=` (value as `--name=V` or
  `--name V`), `name=?` (optional value, only as `--name=V`), `name=*` (the next word if there
  is one: git's "last argument default", `git branch --merged [commit]`).
- `operands`: what the non-option words are: "paths" (read, so checked against the working
  directory and the sensitive list), "none" (not paths), "pattern" (the first one is a pattern
  unless a `pattern_opts` option gave one; the rest are paths), "date" (`+FORMAT` only).
- `max_operands`: more operands than this ask (`uniq IN OUT` writes OUT); with `dash_output`,
  one more operand may be `-` (standard output).
- `path_opts`: options whose value is a path that is read (checked like a path operand).
- `pattern_opts`: options that supply the pattern (then every operand is a path).
- `numeric`: `-NUM` is an option (`head -20`, `git log -5`).
- `permute`: options may follow operands (GNU getopt); builtins stop at the first operand.
- `dashdash`: `--` ends the options.
- `dynamic_ok`: every option the real program has only reads, so a word whose value is only
  known when it runs (`$(git ls-files)`) cannot turn into a writing or running option.
- `check`: a further check of the words' content (a sed script, a find expression, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Program:
    short: str = ""
    long: str = ""
    operands: str = "paths"
    max_operands: int | None = None
    dash_output: bool = False
    path_opts: str = ""
    pattern_opts: str = ""
    numeric: bool = False
    permute: bool = True
    dashdash: bool = True
    dynamic_ok: bool = False
    check: str = ""

    @cached_property
    def shorts(self) -> dict[str, int]:
        """letter -> 0 no value, 1 value, 2 optional attached value (longs: 3 the next word if any)."""
        out: dict[str, int] = {}
        i = 0
        while i < len(self.short):
            letter = self.short[i]
            arity = 0
            if self.short[i + 1 : i + 3] == "::":
                arity, i = 2, i + 2
            elif self.short[i + 1 : i + 2] == ":":
                arity, i = 1, i + 1
            out[letter] = arity
            i += 1
        return out

    @cached_property
    def longs(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for item in self.long.split():
            if item.endswith("=?"):
                out[item[:-2]] = 2
            elif item.endswith("=*"):
                out[item[:-2]] = 3
            elif item.endswith("="):
                out[item[:-1]] = 1
            else:
                out[item] = 0
        return out

    @cached_property
    def path_set(self) -> frozenset[str]:
        return frozenset(self.path_opts.split())

    @cached_property
    def pattern_set(self) -> frozenset[str]:
        return frozenset(self.pattern_opts.split())


GNU = "help version"  # every GNU tool has these two


@dataclass(frozen=True)
class Wrapper:
    options: Program
    leading: int = 0  # operands before the command (timeout's DURATION)
    needs_command: bool = True
    lookup_opts: str = ""  # options that make it look a name up instead of running it
