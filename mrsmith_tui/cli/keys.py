"""The API keys at the command line: read once, kept in the config, out of every child's environment,
and redacted from everything mrsmith prints (`shown`).

What these need (the redactor, the environment scrubber, the key commands) is imported where used:
importing this module costs the CLI's start-up nothing.
"""

from __future__ import annotations

import os

from mrsmith_tui.cli import first_child
from mrsmith_tui.config.schema import Config

__all__ = ["know_keys", "shown", "take_keys"]


def shown(text: str) -> str:
    """Text for the terminal: secrets redacted, control characters made visible."""
    from mrsmith_tui.security.redact import PROCESS
    from mrsmith_tui.security.terminal_text import clean

    return clean(PROCESS.redact(text))


def know_keys(config: Config) -> None:
    """The redactor learns the configured keys (`mrsmith export` needs no endpoint, but still redacts them)."""
    from mrsmith_tui.security.redact import PROCESS, url_secrets

    PROCESS.add(*(pc.api_key for pc in config.providers if pc.api_key))
    # A password or key written into a base URL (http://user:PW@host/v1, ?api_key=…) is a key too.
    PROCESS.add(*(s for pc in config.providers for s in url_secrets(pc.base_url)))


def take_keys(config: Config) -> Config:
    """Read every provider's key now (flag, environment, file, apiKeyCommand), keep them in the
    config, and take them and every other secret-looking variable out of the environment: no
    child process mrsmith starts sees them, and every output redacts them."""
    from mrsmith_tui.config.load import IMPLICIT_PROVIDER, api_key_for, api_key_variable, run_key_command
    from mrsmith_tui.security.environment import scrub_process_environment
    from mrsmith_tui.security.tree_paths import neutralise

    helper_env, _ = neutralise(os.environ, os.getcwd(), helper=True)  # no PATH entry or config in the tree
    providers = []
    for pc in config.providers:
        key = api_key_for(config, pc.name)
        if not key and pc.api_key_command:
            first_child.guard()  # a child process, maybe before the TUI's first frame (cli.first_child)
            key = run_key_command(pc, env=helper_env)
        providers.append(pc.model_copy(update={"api_key": key}) if key and key != pc.api_key else pc)
    config = config.model_copy(update={"providers": providers})
    know_keys(config)
    names = [api_key_variable(pc.name) for pc in providers] + [api_key_variable(IMPLICIT_PROVIDER), "OPENAI_API_KEY"]
    scrub_process_environment(names, [pc.api_key for pc in providers if pc.api_key])
    return config
