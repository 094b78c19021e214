"""The built wheel, installed into a fresh venv and run from an empty folder: it finds its bundled
skills and themes (package data), nothing from this source tree. Offline: the wheel is built
without build isolation and installed with --no-index --no-deps; its dependencies come from the
venv running the tests, put on the new venv's path by a .pth file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

from loopback import text_turn, tool_turn

REPO = Path(__file__).resolve().parents[2]


def run(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=300, **kw)


def test_an_installed_wheel_finds_its_bundled_skills_and_themes(tmp_path, loopback):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    shutil.copytree(REPO / "mrsmith_tui", src / "mrsmith_tui", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    built = run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                src, "-w", tmp_path / "dist")
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("mrsmith_tui-*.whl")

    target = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(target)
    py = target / "bin" / "python"
    site = Path(run(py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    (site / "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # textual, httpx, ... from here
    installed = run(py, "-m", "pip", "install", "-q", "--no-index", "--no-deps", wheel)
    assert installed.returncode == 0, installed.stderr

    empty = tmp_path / "empty"
    empty.mkdir()
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OPENAI_API_KEY", "MODEL", "VIRTUAL_ENV")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               NO_COLOR="1", MRSMITH_NO_CONTEXT_PROBE="1")

    where = run(py, "-c", "import mrsmith_tui, mrsmith_tui.tui.themes as t; print(mrsmith_tui.__file__); "
                "print(sorted(x.name for x in t.load_themes()))", cwd=empty, env=env)
    assert where.returncode == 0, where.stderr
    module_file, themes = where.stdout.splitlines()
    assert Path(module_file).is_relative_to(site)
    assert {"mrsmith", "mrsmith-light", "dusk", "ember", "high-contrast", "no-color"} <= set(eval(themes))

    srv = loopback([tool_turn("skill", {"name": "plan"}), text_turn("planned")])
    env.update(OPENAI_BASE_URL=srv.base_url, MODEL="test-model", OPENAI_API_KEY="sk-test")
    done = run(target / "bin" / "mrsmith", "-p", "use the plan skill", "--json", "--no-session", cwd=empty, env=env)
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    (loaded,) = [e for e in events if e["type"] == "SkillLoaded"]
    assert loaded["name"] == "plan" and Path(loaded["path"]).is_relative_to(site)
    assert "plan" in srv.requests[0]["messages"][0]["content"]  # listed in the system prompt
