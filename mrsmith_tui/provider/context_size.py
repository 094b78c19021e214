"""The context size of an endpoint's model, learnt without costing the answer (issue #26).

A small private cache (`context-sizes.json` in the state folder, 0600) remembers what each
endpoint said about each model, its "does not tell" too. What the cache knows is used at once;
only what it does not know (or knew more than a day ago) is asked, in a daemon thread that
nobody waits for: a one-shot sends its request at once, and `cancel` (at exit) closes the
probe's connections so it never holds the exit either.

The cache holds no URL and no key: an entry is named by a hash of the endpoint and the model,
since a base URL may carry a password (`http://user:PW@host/v1`, `?api_key=...`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mrsmith_tui.paths import state_dir

CACHE_NAME = "context-sizes.json"
FRESH_SECONDS = 24 * 3600  # older answers are asked again (in the background; the old one counts meanwhile)
MAX_ENTRIES = 256  # the oldest go first
MAX_CACHE_BYTES = 256 * 1024  # a larger file is not ours to trust: read as empty

Answer = tuple[int, str]  # (tokens, where it came from); (0, "") when the server does not tell


def cache_path() -> Path:
    return state_dir() / CACHE_NAME


def entry_key(base_url: str, model: str) -> str:
    return hashlib.sha256(f"{base_url.rstrip('/')}\n{model}".encode()).hexdigest()[:32]


def _read(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > MAX_CACHE_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _entry(raw: Any) -> tuple[Answer, float] | None:
    if not isinstance(raw, dict):
        return None
    tokens, source, at = raw.get("tokens"), raw.get("source"), raw.get("at")
    if (not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0 or not isinstance(source, str)
            or not isinstance(at, (int, float))):
        return None
    return (tokens, source[:200]), float(at)


def remembered(base_url: str, model: str, *, path: Path | None = None,
               now: Callable[[], float] = time.time) -> tuple[Answer | None, bool]:
    """(what the cache says, whether it is fresh); (None, False) when it knows nothing."""
    found = _entry(_read(path or cache_path()).get(entry_key(base_url, model)))
    if found is None:
        return None, False
    answer, at = found
    return answer, 0 <= now() - at < FRESH_SECONDS


_write_lock = threading.Lock()


def remember(base_url: str, model: str, answer: Answer, *, path: Path | None = None,
             now: Callable[[], float] = time.time) -> None:
    """Write the answer (atomically, 0600 in a 0700 folder); a failure to write is not an error."""
    path = path or cache_path()
    with _write_lock, contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = {k: v for k, v in _read(path).items() if _entry(v) is not None}
        data[entry_key(base_url, model)] = {"tokens": answer[0], "source": answer[1], "at": now()}
        if len(data) > MAX_ENTRIES:
            data = dict(sorted(data.items(), key=lambda kv: kv[1]["at"])[-MAX_ENTRIES:])
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise


Probe = Callable[..., Answer]  # probe_context_size's shape: (base_url, model, api_key, *, client=...) -> Answer


class BackgroundProbe:
    """One question to one endpoint about one model, in a daemon thread; `cancel` ends it."""

    def __init__(self, base_url: str, model: str, api_key: str | None, on_answer: Callable[[Answer], None], *,
                 path: Path | None = None, probe: Probe | None = None) -> None:
        self._base_url, self._model, self._api_key = base_url, model, api_key
        self._on_answer = on_answer
        self._path = path or cache_path()  # now: where this session's state is, whatever the environment says later
        self._probe = probe
        self._cancelled = threading.Event()
        self._client: Any = None
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="mrsmith-context-probe", daemon=True)

    def start(self) -> BackgroundProbe:
        self.thread.start()
        return self

    def _run(self) -> None:
        import httpx  # in the thread: never on the path to the first request

        from mrsmith_tui.provider.context_probe import PROBE_TIMEOUT, probe_context_size
        from mrsmith_tui.provider.tls import tls_context_for

        probe = self._probe or probe_context_size
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        with self._lock:
            if self._cancelled.is_set():
                return
            self._client = httpx.Client(timeout=PROBE_TIMEOUT, headers=headers, verify=tls_context_for(self._base_url))
        answer: Answer | None = None
        try:
            answer = probe(self._base_url, self._model, self._api_key, client=self._client)
        except Exception:  # a server that cannot tell leaves the size as it is
            pass
        finally:
            self._close_client()
        # A cancelled probe's "not told" is only its closed connections talking: never remembered.
        if answer is None or self._cancelled.is_set():
            return
        remember(self._base_url, self._model, answer, path=self._path)
        self._on_answer(answer)

    def _close_client(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()

    def cancel(self) -> None:
        """Stop asking (exit, another agent): the connections close, nothing more is reported."""
        self._cancelled.set()
        self._close_client()

    def join(self, timeout: float | None = None) -> None:
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout)
