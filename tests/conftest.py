from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from loopback import LoopbackServer

_HOME_VARS = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")


def _home_env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_STATE_HOME": str(home / ".local" / "state"), "XDG_CACHE_HOME": str(home / ".cache")}


def pytest_configure(config):
    """The whole run's HOME is a fresh folder too, from before the first import to the end: what runs
    at collection, in a module or session fixture, or in a daemon thread that outlives its test (the
    test's HOME is restored by then) never reads or writes the person's ~/.config, ~/.local or ~/.cache."""
    home = Path(tempfile.mkdtemp(prefix="mrsmith-tests-home-"))
    config._mrsmith_saved_home = {k: os.environ.get(k) for k in _HOME_VARS}, home
    os.environ.update(_home_env(home))


def pytest_unconfigure(config):
    saved, home = getattr(config, "_mrsmith_saved_home", ({}, None))
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def loopback():
    """Start a LoopbackServer with the given turns: `srv = loopback([text_turn("hi")])`."""
    servers: list[LoopbackServer] = []

    def start(turns=None, **kw) -> LoopbackServer:
        srv = LoopbackServer(turns, **kw).start()
        servers.append(srv)
        return srv

    yield start
    for srv in servers:
        srv.stop()


@pytest.fixture(scope="session")
def _homes(tmp_path_factory) -> Path:
    """The folder of the tests' homes, apart from the tmp_paths: pytest numbers a new tmp_path by
    listing its siblings, so ten thousand homes beside them made every tmp_path a few ms slower."""
    homes = tmp_path_factory.getbasetemp() / "homes"
    homes.mkdir()
    return homes


@pytest.fixture(autouse=True)
def _isolated_home(_homes, monkeypatch):
    """No test reads or writes the real ~/.config or ~/.local: HOME is a fresh folder. (mkdtemp, not
    tmp_path_factory.mktemp: that numbers the folder by listing every earlier home, a cost that grew
    with each test.)"""
    home = Path(tempfile.mkdtemp(prefix="home-", dir=_homes))
    for key, value in _home_env(home).items():
        monkeypatch.setenv(key, value)
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "MODEL", "MRSMITH_SESSIONS_DIR",
                "MRSMITH_CONTEXT_BUILDER", "MRSMITH_CONTEXT_WINDOW_RATIO", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    yield home


@pytest.fixture(autouse=True)
def _process_redactor_restored():
    """What a test's tool calls taught the process redactor (the values of its tree's secret files,
    security.tree_secrets) is forgotten after it: a later test's text must not be held or redacted
    because an earlier test's `.env` held a value beginning the same way."""
    from mrsmith_tui.security import tree_secrets
    from mrsmith_tui.security.redact import PROCESS

    saved = (PROCESS._secrets, PROCESS._forms, PROCESS._pattern)
    yield
    with PROCESS._lock:
        PROCESS._secrets, PROCESS._forms, PROCESS._pattern = saved
    tree_secrets.forget_learned_roots()
