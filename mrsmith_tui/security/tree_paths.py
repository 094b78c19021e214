"""Environment variables that would make a child load code or config from the working tree.

The model can write the tree (with a yes) and a repository brings files of its own, so a
child's environment must not point a program there without the person knowing: a sloppy
`LD_LIBRARY_PATH=/opt/lib:` (its empty entry is the current directory) makes `git log` load a
`libc` from the tree; an exported `RIPGREP_CONFIG_PATH=.ripgreprc` makes a plain `rg` read
`--pre=./x` from the tree and run it. `neutralise` takes such entries out:

- loader and interpreter search lists (LOADER_LISTS): empty and relative entries, and entries
  inside the root, are dropped;
- search lists (SEARCH_LISTS, PATH among them): empty and relative entries are dropped (an
  absolute folder inside the root stays on PATH for your own commands; the shell classifier asks
  before it runs a program found there, and mrsmith's own helpers drop it too: `helper=True`);
- file and command variables (FILE_VARIABLES, COMMAND_VARIABLES, every `GIT_*`): dropped whole
  when the value is a relative path or any of its words is a path inside the root or relative;
- bash's own options and exported functions (SHELL_BEHAVIOUR, `BASH_FUNC_*`): dropped, since they
  change what the judged words mean (`BASHOPTS=dotglob` makes `cat *` read `.env`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

LOADER_LISTS = frozenset({
    "LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT", "DYLD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "DYLD_FRAMEWORK_PATH",
    "DYLD_FALLBACK_LIBRARY_PATH", "PYTHONPATH", "PERL5LIB", "PERLLIB", "RUBYLIB", "NODE_PATH", "GCONV_PATH",
    "CLASSPATH", "GEM_PATH", "LUA_PATH", "LUA_CPATH", "BASH_LOADABLES_PATH", "GIT_EXEC_PATH", "TCLLIBPATH",
    "GUILE_LOAD_PATH", "R_LIBS", "R_LIBS_USER", "JULIA_LOAD_PATH", "OCAMLPATH", "LOCPATH",
})
SEARCH_LISTS = frozenset({
    "PATH", "MANPATH", "INFOPATH", "XDG_CONFIG_DIRS", "XDG_DATA_DIRS", "PKG_CONFIG_PATH", "TERMINFO_DIRS", "CDPATH",
})
# One file or folder a program reads its configuration (or code) from.
FILE_VARIABLES = frozenset({
    "RIPGREP_CONFIG_PATH", "BASH_ENV", "ENV", "INPUTRC", "LESSKEY", "LESSKEYIN", "LESSKEY_SYSTEM", "PYTHONSTARTUP",
    "PYTHONHOME", "PYTHONUSERBASE", "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "MAGIC", "GNUPGHOME",
    "XDG_CONFIG_HOME", "ZDOTDIR", "WGETRC", "CURL_HOME", "NPM_CONFIG_USERCONFIG", "NPM_CONFIG_GLOBALCONFIG",
    "PIP_CONFIG_FILE", "DOCKER_CONFIG", "KUBECONFIG", "TERMINFO", "NODE_REPL_EXTERNAL_MODULE", "JQ_LIBRARY_PATH",
    "SCREENRC", "MYVIMRC", "TZDIR", "HOSTALIASES", "TERMCAP",
})
# Options or commands whose words may name a file to load (`NODE_OPTIONS=--require ./x`).
COMMAND_VARIABLES = frozenset({
    "NODE_OPTIONS", "PERL5OPT", "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "LESSOPEN",
    "LESSCLOSE", "LESS", "TAR_OPTIONS", "GREP_OPTIONS", "PROMPT_COMMAND", "PYTHONWARNINGS", "MAKEFLAGS", "NLSPATH", "EDITOR",
    "VISUAL", "PAGER", "MANPAGER", "BROWSER", "SSH_ASKPASS", "SUDO_ASKPASS", "SHELL", "VIMINIT", "EXINIT",
})
# Shell options bash reads from its environment: `BASHOPTS=dotglob` or a set `GLOBIGNORE` makes `cat *`
# match `.env` after the judge matched it without; `SHELLOPTS=xtrace` runs `PS4`'s substitutions.
SHELL_BEHAVIOUR = frozenset({"BASHOPTS", "SHELLOPTS", "GLOBIGNORE", "GLOBSORT", "BASH_XTRACEFD", "PS4", "BASH_COMPAT",
                             "EXECIGNORE", "POSIXLY_CORRECT"})
_WORD_SPLIT = re.compile(r"[\s'\"=:,;|]+")
_GLIBC_SEPARATORS = {"LD_LIBRARY_PATH": r"[:;]", "LD_AUDIT": r"[:;]", "LD_PRELOAD": r"[\s:]",
                     "DYLD_LIBRARY_PATH": r"[:;]", "DYLD_INSERT_LIBRARIES": r"[\s:]"}


def _inside(path: str, real_root: str) -> bool:
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip("/") + "/")


def _entry_kept(entry: str, real_root: str, *, drop_inside: bool) -> bool:
    entry = entry.strip()
    if not entry or not os.path.isabs(entry):
        return False  # "" and "." are the current directory; "lib" is relative to it
    return not (drop_inside and _inside(entry, real_root))


def _points_at_tree(value: str, real_root: str, *, whole_is_path: bool) -> bool:
    value = value.strip()
    if whole_is_path and value and not os.path.isabs(value):
        return True  # RIPGREP_CONFIG_PATH=.ripgreprc (or ~/.ripgreprc: no program expands ~) is read from wherever it runs
    for word in _WORD_SPLIT.split(value):
        word = word.strip()
        if word in (".", ".."):
            return True
        if "/" in word and not word.startswith(("~", "$")) and "://" not in word:  # a shell runs most: ~ is home
            option = re.match(r"^-{1,2}[A-Za-z][A-Za-z_-]*(/.*)$", word)  # -I/usr/lib: the path after the letters
            path = option.group(1) if option else word
            if not os.path.isabs(path) or _inside(path, real_root):
                return True
    return False


def neutralise(env: Mapping[str, str], root: str | os.PathLike[str], *, helper: bool = False) -> tuple[dict[str, str], list[str]]:
    """(the environment without what points a program at the tree, the names changed or dropped)."""
    real_root = os.path.realpath(root)
    out: dict[str, str] = {}
    changed: list[str] = []
    for name, value in env.items():
        if name in SHELL_BEHAVIOUR or name.startswith("BASH_FUNC_"):
            changed.append(name)  # exported functions too: `cat` would not be cat
            continue
        if name in LOADER_LISTS or name in SEARCH_LISTS:
            separator = " " if name in ("LD_PRELOAD", "DYLD_INSERT_LIBRARIES") and ":" not in value else ":"
            if name in ("LUA_PATH", "LUA_CPATH"):
                separator = ";"
            # glibc splits LD_LIBRARY_PATH on `;` too, LD_PRELOAD on spaces, tabs and colons alike
            entries = re.split(_GLIBC_SEPARATORS[name], value) if name in _GLIBC_SEPARATORS else value.split(separator)
            drop_inside = name in LOADER_LISTS or helper
            kept = [e for e in entries if _entry_kept(e.split("?")[0] if separator == ";" else e, real_root,
                                                     drop_inside=drop_inside)
                    or (name == "CDPATH" and e.strip() in ("", "."))]  # bash's own `.`: where cd is
            if name in _GLIBC_SEPARATORS:
                entries = value.split(separator)  # compared as given: a split one is changed
            if kept != entries:
                changed.append(name)
            if kept:
                out[name] = separator.join(kept)
            continue
        if name in FILE_VARIABLES or name in COMMAND_VARIABLES or name.startswith("GIT_"):
            whole = name in FILE_VARIABLES or (name.startswith("GIT_") and _GIT_PATH_VALUE.search(name) is not None)
            if value and _points_at_tree(value, real_root, whole_is_path=whole):
                changed.append(name)
                continue
        out[name] = value
    if any(n.startswith(("GIT_CONFIG_VALUE_", "GIT_CONFIG_KEY_")) for n in changed):
        # git refuses to start when GIT_CONFIG_COUNT names a pair that is gone: all of them go
        for name in [n for n in out if n == "GIT_CONFIG_COUNT" or n.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))]:
            del out[name]
            changed.append(name)
    return out, changed


# GIT_* variables whose whole value is a path (relative ones are read from wherever git runs)
_GIT_PATH_VALUE = re.compile(
    r"^GIT_(?:CONFIG(?:_GLOBAL|_SYSTEM)?|DIR|WORK_TREE|COMMON_DIR|INDEX_FILE|OBJECT_DIRECTORY|"
    r"ALTERNATE_OBJECT_DIRECTORIES|TEMPLATE_DIR|EXEC_PATH)$"
)
