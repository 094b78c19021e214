"""What the person trusted to run in a folder: a per-user store of (folder, kind, digest).

A repository can carry configuration that runs programs (`.mcp.json`, and later project tools
and commands). Nothing of it runs before the person says yes; the yes is remembered here, keyed
by the folder and a digest of exactly what would run (`trust_digest`), so an edited entry asks
again. One JSON file, 0600, in a 0700 folder under `paths.state_dir()`; written whole to a
private temporary file and renamed, so a crash never leaves half a store. A store that cannot be
read counts as empty (everything asks again); it is never a reason not to start.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mrsmith_tui.paths import state_dir
from mrsmith_tui.security.private_files import open_private, private_dir

__all__ = ["TrustStore", "default_trust_store", "trust_digest"]

MAX_ENTRIES = 2000  # the oldest are forgotten first
MAX_STORE_BYTES = 4 * 1024 * 1024
_lock = threading.Lock()


def trust_digest(**parts: str | Iterable[str] | None) -> str:
    """A digest of what would run: every part by name (a list keeps its order; a list is sorted by the
    caller when order means nothing). Only this one-way digest is stored; give values as the file
    writes them (`${VAR}` unexpanded), never a value expanded from the environment."""
    canon: dict[str, Any] = {}
    for key, value in sorted(parts.items()):
        canon[key] = value if value is None or isinstance(value, str) else list(value)
    return hashlib.sha256(json.dumps(canon, sort_keys=True, ensure_ascii=True).encode()).hexdigest()


class TrustStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "trusted.json"
        self.problem = ""  # why the store counted as empty (said once, by the caller)

    def _read(self) -> list[dict[str, Any]]:
        """The entries; a store that is not a regular file of ours, private, counts as empty (a link to
        someone else's file, a FIFO that would block, a file others can write)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            return []
        except OSError as e:
            return self._refuse(f"cannot be read ({e.strerror or e})")
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return self._refuse("is not a regular file")
            if st.st_uid != os.getuid() or stat.S_IMODE(st.st_mode) & 0o077:
                return self._refuse("is not yours alone (owner or mode); trusting nothing from it")
            try:
                data = json.loads(f.read(MAX_STORE_BYTES).decode("utf-8"))
            except (OSError, ValueError):
                return []
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return []
        return [e for e in entries if isinstance(e, dict) and all(isinstance(e.get(k), str) for k in ("folder", "kind", "digest"))]

    def _refuse(self, why: str) -> list[dict[str, Any]]:
        self.problem = f"the MCP trust store {self.path} {why}"
        return []

    def is_trusted(self, folder: Path | str, kind: str, digest: str) -> bool:
        key = (_folder(folder), kind, digest)
        with _lock:
            return any((e["folder"], e["kind"], e["digest"]) == key for e in self._read())

    def trust(self, folder: Path | str, kind: str, digest: str, *, name: str = "") -> None:
        """Remember the yes. Raises OSError when the store cannot be written (the caller says so)."""
        key = (_folder(folder), kind, digest)
        with _lock:
            entries = [e for e in self._read() if (e["folder"], e["kind"], e["digest"]) != key]
            entries.append({"folder": key[0], "kind": kind, "digest": digest, "name": name[:200], "at": round(time.time())})
            self._write(entries[-MAX_ENTRIES:])

    def forget(self, folder: Path | str, kind: str, name: str) -> int:
        """Forget every digest trusted for `name` of `kind` in `folder`; how many were forgotten."""
        with _lock:
            entries = self._read()
            kept = [e for e in entries if not (e["folder"] == _folder(folder) and e["kind"] == kind and e.get("name") == name)]
            if len(kept) != len(entries):
                self._write(kept)
            return len(entries) - len(kept)

    def _write(self, entries: list[dict[str, Any]]) -> None:
        private_dir(self.path.parent)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        fd = open_private(tmp, os.O_WRONLY | os.O_TRUNC)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"version": 1, "entries": entries}, f, indent=1)
            os.replace(tmp, self.path)
        except BaseException:
            try:
                tmp.unlink()
            except OSError:
                pass
            raise


def _folder(folder: Path | str) -> str:
    return os.path.realpath(folder)


def default_trust_store() -> TrustStore:
    return TrustStore()
