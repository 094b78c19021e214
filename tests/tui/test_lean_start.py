"""The TUI's first frame, started as a person starts it (`mrsmith`: cli.main() with a config file),
waits for nothing it does not draw (start-up time, issue #26): the session's modules load in the
composing worker after it, and garbage collection stays paused until it is on screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mrsmith_tui.tui.commands import FAMILIES

REPO = Path(__file__).resolve().parents[2]

# Imported before the first frame, they would delay it: the session's API and the
# tools' services (loaded with the session), a turn's runner, the secrets scan of a turn's prompt,
# the provider and its HTTP client, importlib.metadata (the welcome's version is the package's own),
# pydantic (the Msgs are records; only a person's own theme file is checked with it) and OpenSSL
# through `secrets` (a request id's random prefix is read from os.urandom).
# The welcome's reading of the recorded sessions and the custom commands' scan of their folders start
# once the first frame is on screen too, and so does what must be in place before the first child process
# (cli.first_child: the background jobs' module, ctypes for prctl). The prompt's editor (Textual's
# TextArea and its document) is mounted after it, in its stand-in's place (shell/early_input.py).
NOT_BEFORE_THE_FIRST_FRAME = ("mrsmith_tui.core.session_api", "mrsmith_tui.core.session", "mrsmith_tui.core.prompt_run",
                              "mrsmith_tui.security.tree_secrets", "mrsmith_tui.provider", "mrsmith_tui.agents.compose",
                              "mrsmith_tui.tools.registry", "mrsmith_tui.tools.builtin", "mrsmith_tui.tools.base",
                              "mrsmith_tui.tools.services", "mrsmith_tui.mcp", "httpx", "importlib.metadata",
                              "mrsmith_tui.tui.screens", "mrsmith_tui.session", "mrsmith_tui.core.command_files",
                              "pydantic", "mrsmith_tui.records_check",  # the config, Msgs and themes need none
                              "secrets", "hashlib", "mrsmith_tui.tools.outcome", "mrsmith_tui.tools.jobs", "ctypes",
                              "textual.widgets._text_area", "textual.document", "mrsmith_tui.tui.view.prompt_box",
                              *(f"mrsmith_tui.tui.commands.{family}" for family in FAMILIES))  # at the first `/`

CHILD = """
import gc, json, os, sys, asyncio
from textual.app import App

original = App._display

def display(self, screen, renderable):
    original(self, screen, renderable)
    if renderable is None:
        return
    mods = sorted(name for name, module in sys.modules.items() if getattr(module, "__spec__", None) is not None)
    sys.stdout.write(json.dumps({"gc": gc.isenabled(), "modules": mods}) + "\\n")
    sys.stdout.flush()
    os._exit(0)

def run(self, *args, **kwargs):
    asyncio.run(self.run_async(headless=True, size=(120, 40)))

App._display = display
App.run = run
from mrsmith_tui.cli import command as cli

cli._stdin_is_terminal = lambda: True
sys.argv = ["mrsmith"]
cli.main()
"""


def test_the_first_frame_loads_no_session_module_and_collects_no_garbage(tmp_path):
    home = tmp_path / "home"
    config = home / ".config" / "mrsmith" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[[providers]]\nname = "p"\nbase_url = "http://127.0.0.1:9/v1"\napi_key = "none"\n\n'
                      '[[agents]]\nname = "a"\nprovider = "p"\nmodel = "m"\n', encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "MODEL")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-c", CHILD], cwd=work, env=env, capture_output=True, text=True,
                          timeout=90, stdin=subprocess.DEVNULL)
    assert proc.stdout.strip(), proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    loaded = [name for name in seen["modules"] if name.startswith(NOT_BEFORE_THE_FIRST_FRAME)]
    assert loaded == []
    assert "mrsmith_tui.tui.app" in seen["modules"]  # it did start the TUI
    assert seen["gc"] is False  # cli.startup_gc: resumed once the first frame is on screen
