"""The tests never read or write the person's own home: from before the first test module is imported
(conftest's pytest_configure) HOME and the XDG folders are a fresh folder of the run's, and each test
gets a fresh one of its own on top (conftest's _isolated_home)."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

_KEYS = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
AT_IMPORT = {key: os.environ.get(key) for key in _KEYS}  # at collection: no fixture has run yet


def _inside(path: str | None, home: Path) -> bool:
    return path is not None and (Path(path) == home or home in Path(path).parents)


def test_the_run_has_its_own_home_from_collection_on():
    home = Path(AT_IMPORT["HOME"] or "")
    assert home.name.startswith("mrsmith-tests-home-") and home != Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert all(_inside(AT_IMPORT[key], home) for key in _KEYS), AT_IMPORT


def test_each_test_has_a_home_of_its_own(_isolated_home):
    assert all(_inside(os.environ.get(key), _isolated_home) for key in _KEYS)
    assert Path(os.environ["HOME"]) != Path(AT_IMPORT["HOME"] or "")
