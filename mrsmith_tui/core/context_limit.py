"""Where a session's context size comes from: the server's when it tells, else the config's
maxContextTokens, else the default.

What a server told is remembered per endpoint and model (provider.context_size); only what is
not known is asked, in the background, and no run waits for it: its answer counts from the
moment it is in. The ledger's `context_source` names the source for /usage. The session applies
a size it is handed (`found`); this module only finds it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from mrsmith_tui.config.load import api_key_for
from mrsmith_tui.config.schema import AgentConfig, Config
from mrsmith_tui.config.vendors import protocol_of, vendor
from mrsmith_tui.core.usage import UsageLedger
from mrsmith_tui.provider.types import Provider

if TYPE_CHECKING:
    from mrsmith_tui.provider.context_size import BackgroundProbe

__all__ = ["ContextLimit"]


class ContextLimit:
    """Finds one session's context size, again after every change of agent; `found(tokens, source)`
    is called with each size found, from the background probe's thread too."""

    def __init__(self, found: Callable[[int, str], None]) -> None:
        self._found = found
        self.probe: BackgroundProbe | None = None  # the question asked in the background, if one is
        self._closed = False

    def find(self, config: Config, agent: AgentConfig, provider: Provider, ledger: UsageLedger) -> None:
        configured = "max_context_tokens" in agent.model_fields_set
        ledger.context_source = "config (maxContextTokens)" if configured else "default (set maxContextTokens)"
        self.stop()
        documented = vendor(protocol_of(provider))
        if not configured and documented.context_tokens:  # the vendor documents it: nothing to ask
            self._found(documented.context_tokens, f"the {documented.protocol} protocol's documented size")
        base_url = getattr(provider, "base_url", None)
        if not documented.probe or not isinstance(base_url, str) or os.environ.get("MRSMITH_NO_CONTEXT_PROBE"):
            return  # only servers that can say their context size are asked (local ones, on the generic protocol)
        from mrsmith_tui.provider.context_size import BackgroundProbe, remembered

        known, fresh = remembered(base_url, agent.model)
        if known is not None and known[0]:
            self._found(known[0], f"the server ({known[1]}; remembered)")
        if fresh:
            return

        def answered(answer: tuple[int, str]) -> None:
            tokens, source = answer
            if tokens and self.probe is probe and not self._closed:
                self._found(tokens, f"the server ({source})")

        probe = BackgroundProbe(base_url, agent.model, api_key_for(config, agent.provider), answered)
        self.probe = probe
        probe.start()

    def wait(self, timeout: float | None = None) -> None:
        """Until the server's answer is in (or `timeout` seconds)."""
        probe = self.probe
        if probe is not None:
            probe.join(timeout)

    def stop(self) -> None:
        """Forget the question in flight: its late answer counts no more."""
        probe, self.probe = self.probe, None
        if probe is not None:
            probe.cancel()

    def close(self) -> None:
        """At the session's close: the probe's connections close, so it never holds the exit."""
        self._closed = True
        self.stop()
