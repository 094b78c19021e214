from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.dropin.helpers import Env


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return Env(tmp_path)
