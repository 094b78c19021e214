"""What a recursive search would read: no search prints a secret without a yes.

`grep -r`, `rg` and `git grep` read every file of their scope, so a scope that holds a
sensitive file (`.env`, any repository's config, a key), a hard link (its other name may be
outside or a secret) asks, naming the file and how to leave it out. The scope is worked out as
the program would: grep's `--include`/`--exclude`/`--exclude-dir` are applied; rg lists its own
scope (`rg --files` with the command's filtering options: hidden and ignored files stay out
unless told); git grep's are the tracked files (and untracked ones with `--untracked`, every file
with `--no-index`, a tree's with a revision). A search that prints only names or counts
(`-l`, `-L`, `-c`, `-q`) shows no content and runs. Everyday searches of folders without
secrets (`grep -rn foo src`, `rg TODO` in a repository whose `.env` is ignored) run at once.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable

from mrsmith_tui.security.environment import child_environment
from mrsmith_tui.security.sensitive import is_repository_config
from mrsmith_tui.tools.shell.context import Context, Problem
from mrsmith_tui.tools.shell.gnu_glob import gnu_match
from mrsmith_tui.tools.shell.options import Opt, given
from mrsmith_tui.tools.shell.repo_config import helper_git_read as helper_git
from mrsmith_tui.tools.shell.words import Word

MAX_SCOPE = 50_000  # names looked at; more asks
NAMES_ONLY_OPTS = frozenset({"-l", "-L", "--files-with-matches", "--files-without-match", "-c", "--count",
                             "--count-matches", "-q", "--quiet", "--silent", "--files", "--type-list", "--name-only"})
# rg's options that change which files it reads (passed to `rg --files` as they were given)
RG_SCOPE_OPTS = frozenset({"-u", "--unrestricted", "--hidden", "--no-hidden", "--no-ignore", "--no-ignore-vcs",
                           "--no-ignore-parent", "--no-ignore-dot", "--no-ignore-global", "--no-ignore-exclude",
                           "--no-ignore-files", "-g", "--glob", "--iglob", "--glob-case-insensitive", "-t", "--type",
                           "-T", "--type-not", "--max-depth", "-d", "--one-file-system", "--max-filesize", "--binary",
                           "-a", "--text"})


def secret_in(names: Iterable[str], ctx: Context) -> str | None:
    """The first root-relative name that is a secret, a repository config or a hard link; a name
    under a linked folder is judged by where it leads too (`kk/config`, kk -> .kube)."""
    real_root = os.path.realpath(ctx.root)
    real_dirs: dict[str, str] = {}
    for rel in names:
        full = os.path.join(ctx.root, rel)
        if ctx.sensitive.matches(rel) or is_repository_config(full):
            return rel
        folder = os.path.dirname(full)
        if folder not in real_dirs:
            real_dirs[folder] = os.path.realpath(folder)
        real = os.path.join(real_dirs[folder], os.path.basename(full))
        if real != os.path.normpath(full):
            real_rel = os.path.relpath(real, real_root)
            if real_rel == ".." or real_rel.startswith("../"):
                return f"{rel} (outside the working directory)"
            if ctx.sensitive.matches(real_rel):
                return f"{rel} ({real_rel})"
        try:
            st = os.lstat(full)
        except OSError:
            continue
        if st.st_nlink > 1 and not os.path.isdir(full) and not os.path.islink(full):
            return f"{rel} (a hard link)"
    return None


def _ask(name: str, where: str, hit: str, hint: str) -> list[Problem]:
    if not hit:
        return [Problem("other", f"{name} would search more files under `{where}` than can be checked first")]
    return [Problem("secret", f"{name} would search `{hit}` (under `{where}`), which looks like a secret; {hint}")]


def _names_only_of_a_word(opts: list[Opt], operands: list[Word], pattern_set: frozenset[str]) -> bool:
    """A names-only or count search (`-l`, `-c`, `-q`) shows no content, but one for a pattern that
    is more than a plain word tells whether a secret starts so (`grep -rl 'API_KEY=sk-c' .`): only
    a plain word's runs without its scope judged."""
    if not any(o.name in NAMES_ONLY_OPTS for o in opts):
        return False
    if any(o.name == "--files" for o in opts):
        return True  # rg --files: no pattern at all
    if any(o.name in ("-f", "--file") for o in opts):
        return False
    patterns = [o.value.value for o in opts if o.name.lstrip("-") in pattern_set and o.name not in ("-f", "--file")
                and o.value is not None] if given(opts, pattern_set) else [operands[0].value if operands else ""]
    return all(p is not None and _PLAIN_WORD.match(p) for p in patterns)


_PLAIN_WORD = re.compile(r"^[A-Za-z0-9_]+$")


def check_search_scope(name: str, opts: list[Opt], operands: list[Word], ctx: Context, pattern_set: frozenset[str]) -> list[Problem]:
    if _names_only_of_a_word(opts, operands, pattern_set):
        return []
    paths = operands if given(opts, pattern_set) else operands[1:]
    if any(w.value is None for w in paths):
        return []  # asked about as a path already
    if name == "rg":
        return _rg_scope(opts, [w.value or "" for w in paths], ctx)
    recursive = any(o.name in ("-r", "--recursive") or (o.name in ("-d", "--directories") and o.value is not None
                                                         and o.value.value == "recurse") for o in opts)
    if not recursive:
        return []
    return _grep_scope(name, opts, [w.value or "" for w in paths] or ["."], ctx)


def _grep_scope(name: str, opts: list[Opt], paths: list[str], ctx: Context) -> list[Problem]:
    def values(*names: str) -> list[str]:
        return [o.value.value for o in opts if o.name in names and o.value is not None and o.value.value is not None]

    includes, excludes, exclude_dirs = values("--include"), values("--exclude"), values("--exclude-dir")
    for pattern_file in values("--exclude-from"):
        try:
            with open(os.path.join(ctx.cwds[0], pattern_file), encoding="utf-8", errors="replace") as f:
                excludes += [line.strip() for line in f.read(65536).splitlines() if line.strip()]
        except OSError:
            pass

    def skipped_file(base: str) -> bool:  # glibc's reading; unsure: the side that reads more
        if any(gnu_match(base, g) for g in excludes):
            return True
        return bool(includes) and not any(gnu_match(base, g) is not False or "/" in g for g in includes)

    for cwd in ctx.cwds:
        for path in paths:
            top = os.path.normpath(os.path.join(cwd, path))
            if not os.path.isdir(top):
                continue
            names: list[str] = []
            for folder, dirs, files in os.walk(top, followlinks=False):
                dirs[:] = [d for d in dirs if not any(gnu_match(d, g) for g in exclude_dirs)]
                rel_folder = os.path.relpath(folder, ctx.root)
                names += [os.path.normpath(os.path.join(rel_folder, f)) for f in files
                          if not skipped_file(f) and not os.path.islink(os.path.join(folder, f))]
                if len(names) > MAX_SCOPE:
                    return _ask(name, path, "", "")
            hit = secret_in(names, ctx)
            if hit is not None:
                return _ask(name, path, hit, "name the folders to search, or leave it out with "
                                             "--exclude=NAME / --exclude-dir=DIR")
    return []


def _rg_scope(opts: list[Opt], paths: list[str], ctx: Context) -> list[Problem]:
    helper_env = child_environment(root=ctx.root, helper=True)
    rg = shutil.which("rg", path=helper_env.get("PATH"))
    if rg is None:
        return _rg_scope_without_rg(opts, paths, ctx)
    # the person's own ripgrep config (`--follow`, `--hidden`, `--no-ignore`) widens what rg reads:
    # listed with the environment the command gets, so with the same config
    env = {**child_environment(root=ctx.root), "PATH": helper_env.get("PATH", "")}
    argv = [rg, "--files", "--null", "--no-messages"]
    for o in opts:
        if o.name not in RG_SCOPE_OPTS:
            continue
        if o.value is None:
            argv.append(o.name)
        elif o.value.value is not None:
            argv += [o.name, o.value.value] if not o.name.startswith("--") else [f"{o.name}={o.value.value}"]
    argv += ["--", *paths]
    for cwd in ctx.cwds:
        try:
            done = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=10, stdin=subprocess.DEVNULL, env=env)
        except (OSError, subprocess.SubprocessError):
            return [Problem("other", "rg's files could not be listed first")]
        if done.returncode not in (0, 1):
            return [Problem("other", "rg's files could not be listed first")]
        listed = [n for n in done.stdout.decode("utf-8", "replace").split("\0") if n]
        if len(listed) > MAX_SCOPE:
            return _ask("rg", " ".join(paths) or ".", "", "")
        names = [os.path.relpath(os.path.normpath(os.path.join(cwd, n)), ctx.root) for n in listed]
        hit = secret_in(names, ctx)
        if hit is not None:
            return _ask("rg", " ".join(paths) or ".", hit, "leave it out with -g '!NAME' or name the folders to search")
    return []


def _rg_scope_without_rg(opts: list[Opt], paths: list[str], ctx: Context) -> list[Problem]:
    """rg's scope when mrsmith cannot run rg itself: every file but hidden ones (unless -uu or
    --hidden) and `.git`, ignore files not applied: more than rg reads, never less."""
    hidden = any(o.name == "--hidden" for o in opts) or sum(o.name in ("-u", "--unrestricted") for o in opts) >= 2
    names: list[str] = []
    for cwd in ctx.cwds:
        for path in paths or ["."]:
            top = os.path.normpath(os.path.join(cwd, path))
            if os.path.isfile(top):
                names.append(os.path.relpath(top, ctx.root))
                continue
            for folder, dirs, files in os.walk(top, followlinks=False):
                dirs[:] = [d for d in dirs if d != ".git" and (hidden or not d.startswith("."))]
                names += [os.path.relpath(os.path.join(folder, f), ctx.root) for f in files if hidden or not f.startswith(".")]
                if len(names) > MAX_SCOPE:
                    return _ask("rg", " ".join(paths) or ".", "", "")
    hit = secret_in(names, ctx)
    return [] if hit is None else _ask("rg", " ".join(paths) or ".", hit, "leave it out with -g '!NAME' or name the folders to search")


def check_git_grep_scope(opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if _names_only_of_a_word(opts, operands, frozenset({"e"})):
        return []
    rest = operands if given(opts, frozenset({"e", "f"})) else operands[1:]
    if any(w.value is None for w in rest):
        return []
    flags = {o.name for o in opts}
    for cwd in ctx.cwds:
        trees: list[str] = []
        specs: list[str] = []
        for w in rest:
            value = w.value or ""
            is_tree = not os.path.exists(os.path.join(cwd, value)) and (
                (done := helper_git(cwd, ctx.root, "rev-parse", "--verify", "-q", f"{value}^{{tree}}")) is not None
                and done.returncode == 0)
            (trees if is_tree else specs).append(value)
        names: list[str] = []
        if "--no-index" in flags:
            # its pathspecs as plain folders and files; one with glob or magic: the whole folder
            tops = [cwd] if not specs or any(re.search(r"[*?\[\\]|^:", v) for v in specs) else \
                [os.path.normpath(os.path.join(cwd, v)) for v in specs]
            for top in tops:
                if os.path.isfile(top):
                    names.append(os.path.relpath(top, ctx.root))
                for folder, _dirs, files in os.walk(top, followlinks=False):
                    names += [os.path.relpath(os.path.join(folder, f), ctx.root) for f in files]
                    if len(names) > MAX_SCOPE:
                        return _ask("git grep", ".", "", "")
        else:
            submodules = ["--recurse-submodules"] if "--recurse-submodules" in flags else []
            listings = [["ls-files", "-z", *submodules]] if not trees else []
            if "--untracked" in flags:
                listings.append(["ls-files", "-z", "--others"] + ([] if "--no-exclude-standard" in flags else ["--exclude-standard"]))
            listings += [["ls-tree", "-r", "-z", "--name-only", tree] for tree in trees]
            for listing in listings:
                done = helper_git(cwd, ctx.root, *listing, "--", *specs)
                if done is not None and done.returncode != 0 and "not a git repository" in done.stderr.lower():
                    break  # git grep fails the same way, printing nothing
                if done is None or done.returncode != 0:
                    return [Problem("other", "git grep's files could not be listed first")]
                names += [os.path.relpath(os.path.join(cwd, n), ctx.root) for n in done.stdout.split("\0") if n]
        hit = secret_in(names, ctx)
        if hit is not None:
            return _ask("git grep", " ".join(w.text for w in rest) or ".", hit, "leave it out with a pathspec like ':!NAME'")
    return []
