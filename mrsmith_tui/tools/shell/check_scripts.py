"""Checks of the scripts sed and jq are given: only printing and editing the stream, no
command, file, environment or module."""

from __future__ import annotations

from mrsmith_tui.tools.shell.allow_scripts import JQ_FORBIDDEN, SED_EXIT, SED_LABEL, SED_PLAIN, SED_S_FLAGS, SED_TEXT
from mrsmith_tui.tools.shell.context import Context, Problem
from mrsmith_tui.tools.shell.options import Opt
from mrsmith_tui.tools.shell.words import Word


def check_sed(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    scripts = [o.value for o in opts if o.name in ("-e", "--expression") and o.value is not None]
    if not scripts and operands:
        scripts = [operands[0]]
    for s in scripts:
        if s.value is None:
            return [Problem("runs", f"sed script `{s.text}` is only known when it runs", "sed")]
        bad = sed_script_problem(s.value)
        if bad:
            return [Problem("runs", f"sed script {s.value!r}: {bad}", "sed")]
    return []


def sed_script_problem(script: str) -> str | None:
    """None when the script only prints and edits its stream; else what it does beyond."""
    i, n = 0, len(script)

    def skip_ws(k: int) -> int:
        while k < n and script[k] in " \t":
            k += 1
        return k

    def delimited(k: int, delim: str) -> int | None:
        """Index after the closing delimiter of a part starting at k."""
        while k < n:
            if script[k] == "\\":
                k += 2
                continue
            if script[k] == delim:
                return k + 1
            if script[k] == "\n" and delim != "\n":
                return None
            k += 1
        return None

    def address(k: int) -> int | None:
        if k < n and script[k].isdigit():
            while k < n and script[k].isdigit():
                k += 1
            if k < n and script[k] == "~":
                k += 1
                while k < n and script[k].isdigit():
                    k += 1
            return k
        if k < n and script[k] == "$":
            return k + 1
        if k < n and script[k] in "/\\":
            if script[k] == "\\":
                if k + 1 >= n:
                    return None
                delim, k = script[k + 1], k + 2
            else:
                delim, k = "/", k + 1
            k2 = delimited(k, delim)
            if k2 is None:
                return None
            while k2 < n and script[k2] in "IM":
                k2 += 1
            return k2
        return k

    while i < n:
        i = skip_ws(i)
        if i >= n:
            break
        c = script[i]
        if c in ";\n}":
            i += 1
            continue
        if c == "#":
            while i < n and script[i] != "\n":
                i += 1
            continue
        a = address(i)
        if a is None:
            return "an address it cannot read"
        i = skip_ws(a)
        if i < n and script[i] == ",":
            i = skip_ws(i + 1)
            if i < n and script[i] in "+~":
                i += 1
                while i < n and script[i].isdigit():
                    i += 1
            else:
                a = address(i)
                if a is None:
                    return "an address it cannot read"
                i = a
            i = skip_ws(i)
        while i < n and script[i] == "!":
            i = skip_ws(i + 1)
        if i >= n:
            return "a missing command"
        c = script[i]
        i += 1
        if c == "{" or c in SED_PLAIN:
            continue
        if c in SED_EXIT:
            i = skip_ws(i)
            while i < n and script[i].isdigit():
                i += 1
            continue
        if c in SED_LABEL:  # GNU sed ends a label at a blank too: `b end w file` writes
            i = skip_ws(i)
            while i < n and script[i] not in "; \t\n":
                i += 1
            continue
        if c in SED_TEXT:
            while i < n and script[i] != "\n":
                if script[i] == "\\":
                    i += 1
                i += 1
            continue
        if c in "sy":
            if i >= n or script[i] in "\\\n":
                return f"a {c} command it cannot read"
            delim = script[i]
            k = delimited(i + 1, delim)
            k = delimited(k, delim) if k is not None else None
            if k is None:
                return f"a {c} command it cannot read"
            i = k
            if c == "s":
                while i < n and script[i] not in ";\n}":
                    if script[i] in " \t":
                        i += 1
                        continue
                    if script[i] not in SED_S_FLAGS:
                        f = script[i]
                        return {"e": "the s///e flag runs the pattern space as a command",
                                "w": "the s///w flag writes a file"}.get(f, f"the s flag {f!r} is not read-only")
                    i += 1
            continue
        what = {"e": "runs a command", "w": "writes a file", "W": "writes a file", "r": "reads another file",
                "R": "reads another file"}.get(c)
        return f"the {c} command {what}" if what else f"the command {c!r} is not known to be read-only"
    return None


def check_jq(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if not operands:
        return []
    f = operands[0]
    if f.value is None:
        return [Problem("runs", f"jq program `{f.text}` is only known when it runs", "jq")]
    m = JQ_FORBIDDEN.search(f.value)
    if m:
        return [Problem("secret", f"jq program uses {m.group(0)} (environment, files or modules)", "jq")]
    return []
