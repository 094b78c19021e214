"""Tool names the provider accepts: `mcp__<server>__<tool>`, at most 64 of [A-Za-z0-9_-].

A server's name never contains `__` (runs of `_` become one), so `mcp__<server>` is an exact
prefix for the approval specs (tools.approval.spec_matches). Two names that clean to the same
text, or a name cut to fit, get a suffix made from a digest of the name as the server wrote it,
so the same tool has the same name from run to run.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from mrsmith_tui.security.redact import PROCESS

__all__ = ["MAX_NAME", "PREFIX", "server_key", "tool_names"]

PREFIX = "mcp__"
MAX_NAME = 64
MAX_SERVER = 24
_BAD = re.compile(r"[^A-Za-z0-9_-]+")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:6]


def server_key(name: str) -> str:
    """The server's part of its tools' names: cleaned, without `__`, at most 24 characters."""
    key = re.sub(r"_+", "_", _BAD.sub("_", name)).strip("_-") or "server"
    if len(key) > MAX_SERVER:
        key = key[: MAX_SERVER - 7].rstrip("_-") + "_" + _digest(name)
    return key


def server_keys(names: Iterable[str]) -> dict[str, str]:
    """Every configured server's key, each unique: a clash gets the digest suffix, and a suffixed key that is
    taken too (another server may be named like one) gets another, so no spec ever covers two servers."""
    names = list(names)
    out: dict[str, str] = {}
    taken: set[str] = set()
    plain = {server_key(n) for n in names}  # a suffixed key never takes a key some server has by its own name
    for name in names:
        key = server_key(name)
        attempt = 0
        while key in taken or (attempt and key in plain):
            key = server_key(name)[: MAX_SERVER - 7].rstrip("_-") + "_" + _digest(name if not attempt else f"{name}#{attempt}")
            attempt += 1
        taken.add(key)
        out[name] = key
    return out


def tool_names(server: str, tools: Iterable[str]) -> dict[str, str]:
    """{the server's tool name: the name the model sees}. Names taken in sorted order (stable)."""
    prefix = f"{PREFIX}{server}__"
    room = MAX_NAME - len(prefix)
    out: dict[str, str] = {}
    taken: set[str] = set()
    for tool in sorted(set(tools)):
        clean = _BAD.sub("_", PROCESS.redact(tool)) or "tool"  # a server may put an expanded secret in a name
        name = prefix + clean
        if len(name) > MAX_NAME or name in taken:
            name = prefix + clean[: room - 7] + "_" + _digest(tool)
        while name in taken:  # two digests alike: practically never, but names stay unique
            name = prefix + clean[: room - 7] + "_" + _digest(name)
        taken.add(name)
        out[tool] = name
    return out
