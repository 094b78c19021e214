"""The CLI imports before the UI starts only what the UI's start needs (start-up time, issue #4),
and still turns every fixable mistake into one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mrsmith_tui import cli, headless

REPO = Path(__file__).resolve().parents[2]


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env}, stdin=subprocess.DEVNULL)


def test_importing_the_cli_loads_no_session_tool_provider_or_ui_module():
    proc = _python("import json, sys, mrsmith_tui.cli\n"
                   "print(json.dumps(sorted(k for k, v in sys.modules.items()\n"
                   "                        if getattr(v, '__spec__', None) is not None)))")  # not lean_imports' stubs
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    heavy = [name for name in loaded
             if name.split(".")[0] in ("httpx", "textual", "html2text", "pathspec", "pydantic", "pydantic_core")
             or name.startswith(("mrsmith_tui.core", "mrsmith_tui.provider", "mrsmith_tui.tools",
                                 "mrsmith_tui.session", "mrsmith_tui.headless", "mrsmith_tui.tui"))]
    assert heavy == []
    assert "mrsmith_tui.config.schema" in loaded  # the config is checked before the UI, without pydantic (#26)


def test_exit_codes_are_the_headless_ones():
    assert (cli.EXIT_FAILED, cli.EXIT_USAGE, cli.EXIT_INTERRUPTED) == (
        headless.EXIT_FAILED, headless.EXIT_USAGE, headless.EXIT_INTERRUPTED)


def test_a_missing_session_is_still_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["export", "nosuchsession", "--sessions-dir", str(tmp_path / "sessions")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mrsmith: error: ") and err.count("\n") == 1


def test_a_bad_config_exits_2_with_one_line_before_any_ui_module_loads(tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_text('[[providers]]\nname = "x"\nbase_url = "ftp://nowhere"\n', encoding="utf-8")
    proc = _python(
        "import sys, mrsmith_tui.cli as c\n"
        f"code = c.main(['--config', {str(bad)!r}])\n"
        "sys.stderr.write('UI LOADED\\n' if 'mrsmith_tui.tui.app' in sys.modules else '')\n"
        "sys.stderr.write('PYDANTIC LOADED\\n' if 'pydantic' in sys.modules else '')\n"
        "sys.exit(code)\n"
    )
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert lines == [f"mrsmith: error: {bad}: providers[0].baseUrl: 'ftp://nowhere' is not an http(s) URL"]


# What a one-shot (`mrsmith -p`, a new session) never uses, so never imports (issue #26): the UI
# (Textual, Rich, the Markdown renderer), the resume and replay of recorded sessions, the HTML
# converter of web_fetch (loaded when a page is fetched), the session export, the MCP client (no
# server configured), the shell command's parser and rules (at the first shell call), pathspec (at
# the first path judged), PyYAML (plain skill frontmatter is read without it), httpx's command line
# (click, pygments) and pydantic's plugin search (importlib.metadata): mrsmith_tui.lean_imports. Nor
# pydantic at all: the config is checked by config.fields, Msgs and history entries are plain records
# (mrsmith_tui.records), checked with pydantic only when read back from a transcript.
NOT_IN_A_ONE_SHOT = ("textual", "mrsmith_tui.tui", "mrsmith_tui.core.resume", "mrsmith_tui.session.replay",
                     "mrsmith_tui.session.export", "html2text", "rich", "markdown_it", "mcp", "mrsmith_tui.mcp.hub",
                     "tree_sitter", "mrsmith_tui.tools.shell.classify", "pathspec", "yaml", "httpx._main", "click",
                     "pygments", "importlib.metadata", "pydantic", "annotated_types", "typing_inspection",
                     "mrsmith_tui.records_check", "ctypes.util")


def test_a_one_shot_imports_nothing_it_does_not_use(loopback, tmp_path):
    from loopback import text_turn

    srv = loopback([text_turn("the answer")])
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c",
         "import json, sys\n"
         "from mrsmith_tui.cli import main\n"
         f"code = main(['--base-url', {srv.base_url!r}, '--model', 'm', '--api-key', 'none', '-p', 'hi'])\n"
         "mods = [name for name, module in sys.modules.items() if getattr(module, '__spec__', None) is not None]  # not the stubs of lean_imports\n"
         "sys.stderr.write('MODULES ' + json.dumps(sorted(mods)) + '\\n')\n"
         "sys.exit(code)\n"],
        cwd=work, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        env={**os.environ, "MRSMITH_NO_CONTEXT_PROBE": "1", "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr
    assert "the answer" in proc.stdout
    loaded = json.loads(next(line for line in proc.stderr.splitlines() if line.startswith("MODULES "))[8:])
    unexpected = [name for name in loaded if name.startswith(NOT_IN_A_ONE_SHOT)]
    assert unexpected == []
    assert "mrsmith_tui.core.session" in loaded and "mrsmith_tui.tools.web_fetch" in loaded  # it did compose the session
