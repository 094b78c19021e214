"""The environment a child process gets: without the API keys and anything named like a secret.

At start the program reads its keys, then `scrub_process_environment` takes every
secret-looking variable (and the key variables it read) out of `os.environ`, keeps the
values aside and adds them to the redactor, so a later `env` in a tool finds nothing and an
echo of a value that slipped through is redacted anyway. `child_environment(passthrough)`
is what every child gets: the current environment, filtered again by name (a variable set
later, or a program that never scrubbed), plus the held variables the agent config lists in
`shellEnvPassthrough`, with pagers and editors set so that none waits for a terminal (NO_TERMINAL).

This cannot hide what the kernel keeps: /proc/<pid>/environ and `ps eww` show a process's
*initial* environment. That is why the README says to prefer the config file or
`apiKeyCommand` over exporting keys.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Mapping, MutableMapping
from fnmatch import fnmatchcase

from mrsmith_tui.security.redact import PROCESS, Redactor
from mrsmith_tui.security.tree_paths import neutralise

MIN_REDACTED_VALUE = 8  # a shorter value ("1", "true", "us-east") would be redacted out of ordinary text

# Whole `_`-separated words, so TOKENIZERS_PARALLELISM and SSH_AUTH_SOCK stay.
_SECRET_NAME = re.compile(
    r"API_?KEY|PASSWORD|PASSPHRASE"
    r"|(?:^|_)(?:TOKEN|SECRET|CREDENTIALS?|PASSWD|PRIVATE_KEY|ACCESS_KEY|SECRET_KEY)S?(?:_|$)"
    r"|_(?:PWD|PAT|PASS)$"  # MYSQL_PWD, GITHUB_PAT, DB_PASS; not PWD, the working directory
    r"|(?:^|_)DSN$"  # SENTRY_DSN carries its key in the URL
    r"|(?:^|_)KEY(?:_ID)?$"
    # Carriers known by name: a vault's unlocked session (Bitwarden, 1Password), sshpass's password, a webhook
    # URL (the URL is the secret), registry credentials, a cookie. Not DESKTOP_SESSION nor DBUS_SESSION_BUS_ADDRESS.
    r"|^BW_SESSION$|^OP_SESSION_|^SSHPASS$|(?:^|_)WEBHOOK(?:_URL)?$|(?:^|_)AUTH_CONFIG$|(?:^|_)COOKIE$",
    re.IGNORECASE,
)
# Kept from children but not redacted: AWS_REGION=us-east-1 is configuration, not a secret.
_SCRUB_ONLY = re.compile(r"^AWS_", re.IGNORECASE)
# A value in a well-known key format, under any name (DEPLOY_HELPER=ghp_…, NOTES=sk-proj-…).
_SECRET_VALUE = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{16,}|sk_(?:live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"
    r"|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}"
    r"|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,})"
    r"|https://(?:hooks\.slack\.com/services|(?:discord|discordapp)\.com/api/webhooks)/[A-Za-z0-9/_-]{16,}"
    r"|-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----"
)


def secret_value(value: str) -> bool:
    """Whether a value looks like a key whatever its variable is called."""
    return bool(_SECRET_VALUE.search(value))


# A URL with a password in it (DATABASE_URL=postgres://app:PW@db/x), under any name.
_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:([^/\s@]+)@")


def url_password(value: str) -> str | None:
    match = _URL_PASSWORD.search(value)
    return match.group(1) if match else None


def worth_redacting(value: str, environ: Mapping[str, str]) -> bool:
    """Whether a scrubbed value is secret-like enough to redact from every output: long enough and
    not a path or part of PATH/HOME (PASSWORD_STORE_DIR=/usr/bin would blank PATH otherwise)."""
    value = value.strip()
    if len(value) < MIN_REDACTED_VALUE or value.startswith(("/", "~", "./", "../")):
        return False
    common = (environ.get("PATH", ""), environ.get("HOME", ""), os.environ.get("PATH", ""), os.environ.get("HOME", ""))
    if any(value in c for c in common):
        return False
    try:
        return not os.path.exists(value)
    except (OSError, ValueError):
        return True

# No child of mrsmith has a terminal: stdin is /dev/null or a pipe, the output is captured, and it runs in a
# session of its own. A pager or an editor started there (`git log`, `git commit` without -m, `crontab -e`)
# would wait for keys that never come and fill the output, and so the model's context, with screen codes.
# Pagers become `cat`, so the text still comes back; an editor fails at once, saying why, so git stops with
# "There was a problem with the editor" and nothing is committed on a message nobody saw; git never asks
# for a password (it fails, naming the remote, instead of waiting for one).
NO_EDITOR = "sh -c 'echo \"no terminal here for an editor: pass the text another way (-m MSG, -F FILE)\" >&2; exit 1'"
NO_TERMINAL = {"PAGER": "cat", "GIT_PAGER": "cat", "MANPAGER": "cat", "SYSTEMD_PAGER": "cat",
               "EDITOR": NO_EDITOR, "VISUAL": NO_EDITOR, "GIT_EDITOR": NO_EDITOR, "GIT_SEQUENCE_EDITOR": NO_EDITOR,
               "GIT_TERMINAL_PROMPT": "0"}

_lock = threading.Lock()
_held: dict[str, str] = {}


def looks_secret(name: str) -> bool:
    """Whether an environment variable's name says it holds a secret (or is kept from children anyway)."""
    return bool(_SECRET_NAME.search(name) or _SCRUB_ONLY.search(name))


def _passes(name: str, passthrough: Iterable[str]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in passthrough)


def scrub_process_environment(
    names: Iterable[str] = (), values: Iterable[str] = (), *, environ: MutableMapping[str, str] = os.environ,
    redactor: Redactor = PROCESS, held: dict[str, str] | None = None,
) -> list[str]:
    """Take out of `environ` every secret-looking variable, the variables in `names` and any
    variable whose value is one of `values` (the keys, wherever they came from). Returns the
    names taken out, sorted. Their values are kept for `child_environment` and redacted."""
    extra = set(names)
    keys = {v for v in values if v}
    taken: dict[str, str] = {}
    passwords = []
    for name, value in list(environ.items()):
        password = url_password(value)
        if name in extra or looks_secret(name) or value in keys or password or secret_value(value):
            taken[name] = environ.pop(name)
            if password:
                passwords.append(password)
    with _lock:
        (_held if held is None else held).update(taken)
    redactor.add(*(v for k, v in taken.items()
                   if (k in extra or v in keys or _SECRET_NAME.search(k) or url_password(v) or secret_value(v))
                   and worth_redacting(v, environ)),
                 *passwords, min_length=MIN_REDACTED_VALUE)
    return sorted(taken)


def child_environment(passthrough: Iterable[str] = (), *, environ: Mapping[str, str] | None = None,
                      held: Mapping[str, str] | None = None, root: str | os.PathLike[str] | None = None,
                      helper: bool = False) -> dict[str, str]:
    """The environment for a child process: secrets out unless `passthrough` names them
    (exact names or shell-style patterns, e.g. `GITHUB_TOKEN`, `NPM_*`), and, given the `root`,
    nothing that makes a program load code or config from the tree (tree_paths.neutralise;
    `helper`: one of mrsmith's own processes, which gets no PATH entry inside the root either), and
    no pager or editor that would wait for a terminal (NO_TERMINAL)."""
    passthrough = tuple(p for p in passthrough if p)
    env = os.environ if environ is None else environ
    # By name, and by value: a key under an innocent name (MY_URL=...?key=sk-...) stays out too.
    out = {k: v for k, v in env.items()
           if ((not looks_secret(k) and not url_password(v) and not secret_value(v)) or _passes(k, passthrough))
           and PROCESS.redact(v) == v}
    if passthrough:
        with _lock:
            kept = dict(_held if held is None else held)
        out.update({k: v for k, v in kept.items() if _passes(k, passthrough) and k not in out})
    if root is not None:
        out, _ = neutralise(out, root, helper=helper)
    return out | NO_TERMINAL


def held_names() -> list[str]:
    with _lock:
        return sorted(_held)


PR_SET_DUMPABLE = 4


def keep_process_private() -> bool:
    """Mark this process non-dumpable (Linux, as ssh-agent does): /proc/<pid>/environ, mem, maps and
    fd/ become root's, so a child running as the same user (`cat /proc/$PPID/environ | base64`, a
    read of the parent's memory) cannot get the keys mrsmith holds, whatever it does to the bytes.
    Children are dumpable again after exec. True when it took effect."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        # The symbols the interpreter is linked with, libc's among them: find_library("c") would run
        # `ldconfig -p` in a child process on every start.
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = getattr(libc, "prctl", None) or ctypes.CDLL("libc.so.6", use_errno=True).prctl
        result: int = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
        return result == 0
    except (OSError, AttributeError):
        return False
