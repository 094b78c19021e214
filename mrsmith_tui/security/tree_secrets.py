"""The values in the working tree's sensitive files, made known to the redactor.

Whatever prints them — a search that slipped past the classifier, a `cat` the person allowed,
a build log — they reach neither the model, the screen nor the transcript unredacted. Read once
per root, before the first tool of a session runs: the tree is walked with directory fds
(`os.fwalk`, links not followed; installed packages and caches — SKIPPED_FOLDERS — left out),
each sensitive file (security.sensitive, and every
repository's own config) opened with O_NOFOLLOW relative to its folder's fd and read at most
MAX_FILE_BYTES; the values stay in the redactor's memory only, never on disk.

What counts as a value (`secret_values`): the value of a `KEY=VALUE`, `key: value`,
`"key": "value"` or `<key>value</key>` line whose key names a secret (`API_KEY`, `password`,
`_authToken`, ...), any value or bare line that looks random (12+ characters, letters and
digits, high entropy: a token under an innocent name), a password inside a URL, a value in a
well-known key format, and every line of a PEM block. Plain words (`NODE_ENV=production`) are
left alone: redacting them would blank ordinary text.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import threading
from collections import Counter
from collections.abc import Iterable

from mrsmith_tui.security.environment import looks_secret, secret_value, url_password
from mrsmith_tui.security.redact import PROCESS, Redactor
from mrsmith_tui.security.sensitive import SensitivePaths, is_repository_config

MAX_FILE_BYTES = 256 * 1024
MAX_ENTRIES = 200_000  # names looked at in one walk
MAX_SECRET_FILES = 2_000
MAX_VALUES = 5_000  # the redactor compiles them into one expression
# Folders of installed packages and caches: their `*.pem` are public CA bundles, their `.env` not yours.
SKIPPED_FOLDERS = frozenset({"node_modules", ".venv", "venv", "site-packages", "__pycache__", ".tox", ".nox",
                             ".mypy_cache", ".ruff_cache", ".pytest_cache", "objects"})
MIN_VALUE = 8  # as the environment's values: shorter ones would be redacted out of ordinary text
MIN_RANDOM = 12
# A value under a key that plainly names a secret is one whatever its shape (correct-horse-battery,
# Zx9#q): from this length on, and not a placeholder.
MIN_NAMED = 4
_STRONG_KEY = re.compile(r"pass|pwd|pw\b|pw_|secret|token|key|auth|cred", re.I)
_NOT_A_VALUE = frozenset({"true", "false", "none", "null", "nil", "empty", "undefined", "changeme_later"})

_KEY_VALUE = re.compile(r"""^\s*(?:export\s+)?["']?([^"'=:\s][^"'=]*?)["']?\s*(?:=|:(?!//))\s*(.*?)\s*[,;]?\s*$""")
_XML_VALUE = re.compile(r"<([\w:.-]+)[^>]*>([^<]{4,})</\1>")
_SECRET_KEY_WORD = re.compile(r"pass|secret|token|auth|cred|private|key|pwd|signature|cookie|session|dsn", re.I)
_PEM = re.compile(r"-----BEGIN [A-Z0-9 ]+-----(.*?)-----END [A-Z0-9 ]+-----", re.S)
_PLAIN = re.compile(r"^[a-z]+(?:[-_.][a-z]+)*$")  # production, my-project, en_us: words, not keys


def _random_looking(value: str) -> bool:
    if len(value) < MIN_RANDOM or " " in value or value.startswith(("/", "./", "../", "~")):
        return False
    if not re.search(r"[A-Za-z]", value):
        return False
    if not (re.search(r"\d", value) or (re.search(r"[a-z]", value) and re.search(r"[A-Z].*[A-Z]", value))):
        return False  # a plain word, or one capital (Production): not a key
    counts = Counter(value)
    entropy = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    return entropy >= 3.0


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
        value = value[1:-1]
    return value.strip()


def secret_values(text: str) -> list[str]:
    """The values in one sensitive file's text that the redactor should know (see the module)."""
    found: list[str] = []

    def add(value: str, *, named: bool, strong: bool = False) -> None:
        value = _unquote(value)
        if strong and len(value) >= MIN_NAMED and "://" not in value and value.lower() not in _NOT_A_VALUE \
                and not value.startswith(("$", "/", "./", "../", "~", "<", "{", "[", "%")):
            found.append(value)
            return
        if len(value) < MIN_VALUE:
            return
        if (password := url_password(value)) is not None:
            found.append(password)
            return
        if "://" in value:
            return  # a URL without a password is an address, not a secret
        if secret_value(value) or _random_looking(value):
            found.append(value)
        elif named and not _PLAIN.match(value) and not value.startswith(("/", "./", "../", "~")):
            found.append(value)
        if " " in value or "\\n" in value:  # `AUTHORIZATION: basic XXXX`, a JSON-escaped key
            for part in re.split(r"\s+|\\n", value):
                if part != value and (secret_value(part) or _random_looking(part)):
                    found.append(part)

    for block in _PEM.finditer(text):
        if "PRIVATE" in block.group(0)[:60]:  # a certificate or a public key is no secret
            found += [line.strip() for line in re.split(r"\n|\\n", block.group(1)) if len(line.strip()) >= MIN_VALUE]
    text = _PEM.sub("", text)
    for match in _XML_VALUE.finditer(text):
        add(match.group(2), named=bool(_SECRET_KEY_WORD.search(match.group(1))),
            strong=bool(_STRONG_KEY.search(match.group(1))))
    for key, value in _json_strings(text):  # a minified JSON file (client_secret.json) is one long line
        add(value, named=bool(_SECRET_KEY_WORD.search(key)), strong=bool(_STRONG_KEY.search(key)))
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(("#", ";", "-----")):
            continue
        head, eq, tail = line.rpartition("=")
        if eq and ("=" in head or ":" in head) and tail.strip():  # //registry.npmjs.org/:_authToken=npm_…
            add(tail, named=bool(_SECRET_KEY_WORD.search(head)))
        m = _KEY_VALUE.match(line)
        if m and m.group(2):
            key = m.group(1).strip().rsplit("/", 1)[-1]
            add(m.group(2), named=looks_secret(key.upper().replace("-", "_").replace(".", "_"))
                or bool(_SECRET_KEY_WORD.search(key)), strong=bool(_STRONG_KEY.search(key)))
        else:
            add(line, named=False)
    return list(dict.fromkeys(v for v in found if len(v) >= MIN_NAMED))


def _json_strings(text: str) -> list[tuple[str, str]]:
    """(key, value) of every string in `text` when it is JSON (a list's item under its list's key); [] when not."""
    if not text.lstrip().startswith(("{", "[")):
        return []
    try:
        data = json.loads(text)
    except ValueError:
        return []
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, object, int]] = [("", data, 0)]
    while stack and len(found) < MAX_VALUES:
        key, item, depth = stack.pop()
        if isinstance(item, str):
            found.append((key, item))
        elif isinstance(item, dict) and depth < 32:
            stack += [(str(k), v, depth + 1) for k, v in item.items()]
        elif isinstance(item, list) and depth < 32:
            stack += [(key, v, depth + 1) for v in item]
    return found


_lock = threading.Lock()
_learned: set[str] = set()


def learn_tree_secrets(root: str | os.PathLike[str], sensitive: SensitivePaths | None = None,
                       redactor: Redactor = PROCESS) -> int:
    """Read the root's sensitive files once and add their values to `redactor`; the number of
    files read (0 when this root was read before)."""
    real_root = os.path.realpath(root)
    with _lock:
        if real_root in _learned:
            return 0
        _learned.add(real_root)
    sensitive = sensitive or SensitivePaths()
    values: list[str] = []
    files = 0
    for text in _sensitive_texts(real_root, sensitive):
        files += 1
        values += secret_values(text)
    redactor.add(*values[:MAX_VALUES], min_length=MIN_NAMED)
    return files


def forget_learned_roots() -> None:
    """For tests: the next learn_tree_secrets reads every root again."""
    with _lock:
        _learned.clear()


def _sensitive_texts(real_root: str, sensitive: SensitivePaths) -> Iterable[str]:
    seen = files = 0
    try:
        walker = os.fwalk(real_root, follow_symlinks=False)
        for top, dirs, names, dir_fd in walker:
            dirs[:] = [d for d in dirs if d not in SKIPPED_FOLDERS or (d == "objects" and not top.endswith(".git"))]
            rel_top = os.path.relpath(top, real_root)
            seen += len(dirs) + len(names)
            if seen > MAX_ENTRIES or files >= MAX_SECRET_FILES:
                return
            for name in names:
                rel = name if rel_top == "." else f"{rel_top}/{name}"
                if not (sensitive.matches(rel) or is_repository_config(os.path.join(top, name))):
                    continue
                text = _read_at(dir_fd, name)
                if text is not None:
                    files += 1
                    yield text
    except OSError:
        return


def _read_at(dir_fd: int, name: str) -> str | None:
    """A regular file's text, opened without following a link (a link swapped in is not read)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, MAX_FILE_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data.decode("utf-8", "replace")
