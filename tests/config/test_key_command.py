"""apiKeyCommand: the key from a command's first line, or one line saying what went wrong."""
from __future__ import annotations

import pytest

from mrsmith_tui.config.load import ConfigError, run_key_command
from mrsmith_tui.config.schema import ProviderConfig


def provider(command: str) -> ProviderConfig:
    return ProviderConfig(name="groq", api_key_command=command)


def test_the_first_line_is_the_key():
    assert run_key_command(provider("printf '  sk-from-cmd  \\nsecond\\n'")) == "sk-from-cmd"


@pytest.mark.parametrize(("command", "says"), [
    ("echo locked >&2; exit 3", "exited with 3: 'locked'"),
    ("true", "printed no key"),
])
def test_failures_are_one_line(command, says):
    with pytest.raises(ConfigError) as e:
        run_key_command(provider(command))
    assert e.value.message.startswith("providers.groq.apiKeyCommand: ") and says in e.value.message
    assert "\n" not in e.value.message
