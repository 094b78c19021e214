"""glob: find files by a path pattern, skipping what .gitignore ignores."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any

import pathspec

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.secret_paths import secret_listing

MAX_RESULTS = 500


@lru_cache(maxsize=64)
def pattern_regex(pattern: str) -> re.Pattern[str]:
    """A glob over '/'-separated relative paths: `**` spans directories, `*` and `?` do not,
    `[abc]` classes and `{a,b}` alternatives work."""
    out, i, depth = [], 0, 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        elif c == "{":
            out.append("(?:")
            depth += 1
        elif c == "}" and depth:
            out.append(")")
            depth -= 1
        elif c == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(c))
        i += 1
    out.append(")" * depth)
    return re.compile("".join(out) + r"\Z")


class _Ignores:
    """The .gitignore files met so far on the walk, each applying below its own directory."""

    def __init__(self) -> None:
        self._specs: dict[str, pathspec.PathSpec] = {}

    def load(self, rel_dir: str, abs_dir: str) -> None:
        try:
            with open(os.path.join(abs_dir, ".gitignore"), encoding="utf-8", errors="replace") as f:
                self._specs[rel_dir] = pathspec.GitIgnoreSpec.from_lines(f)
        except OSError:
            pass

    def ignored(self, rel: str, is_dir: bool) -> bool:
        for base, spec in self._specs.items():
            if base and not rel.startswith(base + "/"):
                continue
            sub = rel[len(base) + 1 :] if base else rel
            if spec.match_file(sub + "/" if is_dir else sub):
                return True
        return False


class GlobTool(BaseTool):
    name = "glob"
    read_only = True
    description = (
        "Find files inside the working directory whose path matches a glob pattern, e.g. '**/*.py', "
        "'src/**/test_*.py', '*.{md,txt}'. `**` matches any number of directories, `*` any part of one "
        "name. Paths are relative to the working directory and sorted; files ignored by .gitignore and "
        f"the .git directory are skipped; at most {MAX_RESULTS} results. Use read_file to read a match."
    )
    parameters = {
        "type": "object",
        "properties": {"pattern": {"type": "string", "description": "Glob pattern relative to the working directory"}},
        "required": ["pattern"],
        "additionalProperties": False,
    }

    def __init__(self, sensitive: SensitivePaths | None = None) -> None:
        self.sensitive = sensitive or SensitivePaths()

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        pattern = args.get("pattern")
        if not isinstance(pattern, str) or not pattern.strip():
            return ToolResult.error("pattern must be a non-empty string")
        pattern = pattern.strip()
        if pattern.startswith("./"):
            pattern = pattern[2:]
        if pattern.startswith(("/", "~")) or "\\" in pattern or ".." in pattern.split("/"):
            return ToolResult.error(
                f"pattern {pattern!r} must be relative to the working directory, without '..', '~' or backslashes"
            )
        regex = pattern_regex(pattern)
        root = os.path.realpath(ctx.root)
        ignores = _Ignores()
        matches: list[str] = []
        for dirpath, dirnames, filenames in os.walk(root):  # followlinks=False: no walking out via links
            ctx.cancel.check()
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            rel_dir = "" if rel_dir == "." else rel_dir
            ignores.load(rel_dir, dirpath)
            prefix = rel_dir + "/" if rel_dir else ""
            dirnames[:] = sorted(
                d for d in dirnames if d != ".git" and not ignores.ignored(prefix + d, is_dir=True)
            )
            for name in filenames:
                rel = prefix + name
                if regex.match(rel) and not ignores.ignored(rel, is_dir=False):
                    matches.append(rel)
        matches.sort()
        matches, hidden = secret_listing(matches, self.sensitive)
        note = (f"[{hidden} secret-looking path{'s' if hidden != 1 else ''} (.env, keys, .ssh/, ...) left out; "
                "read_file asks the person for one you name]") if hidden else ""
        if not matches:
            return ToolResult(content=note or f"no files match {pattern!r}")
        shown = matches[:MAX_RESULTS]
        body = "\n".join(shown)
        if len(matches) > MAX_RESULTS:
            body += f"\n[truncated: {len(matches)} files match, the first {MAX_RESULTS} shown; narrow the pattern]"
        return ToolResult(content=body + ("\n" + note if note else ""))
