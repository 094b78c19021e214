from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from loopback import LoopbackServer


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


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """No test reads or writes the real ~/.config or ~/.local: HOME is a fresh folder."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
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
