"""The wire flags (--protocol, --thinking, --effort, --cache, --max-tokens) applied to the config.

They beat the file and the environment, like every flag, and apply to the chosen agent and its
provider. A vendor protocol brings its documented endpoint (unless --base-url or the config
names one) and its flagship model (unless --model or an agent names one), so a key is all a
vendor needs. The knobs are then checked against the protocol (config.knobs): a forbidden
combination is a UsageError, one line naming the rule, exit 2, before anything is sent.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from mrsmith_tui.cli.args import UsageError
from mrsmith_tui.config.knobs import knob_problem
from mrsmith_tui.config.load import DEFAULT_BASE_URL, IMPLICIT_AGENT, IMPLICIT_PROVIDER, resolve_agent
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.config.vendors import VENDORS, vendor

__all__ = ["apply_wire_flags", "check_knobs"]


def apply_wire_flags(config: Config, args: argparse.Namespace) -> Config:
    protocol: str | None = getattr(args, "protocol", None)
    if protocol is not None:
        config = _with_protocol(config, protocol, agent_name=args.agent, base_url_given=bool(args.base_url),
                                key_given=bool(getattr(args, "api_key", None)))
    config = _vendor_agent(config)
    knobs: dict[str, Any] = {}
    if getattr(args, "thinking", None):
        knobs["thinking"] = args.thinking
    if getattr(args, "effort", None):
        knobs["reasoning_effort"] = args.effort
    if getattr(args, "cache", None):
        knobs["cache"] = args.cache
    if getattr(args, "max_tokens", None):
        knobs["max_tokens"] = args.max_tokens
    if knobs and config.agents:
        chosen = resolve_agent(config, args.agent)
        agents = [a.model_copy(update=knobs) if a.name == chosen.name else a for a in config.agents]
        config = config.model_copy(update={"agents": agents})
    check_knobs(config, args.agent)
    return config


def check_knobs(config: Config, agent_name: str | None) -> None:
    """UsageError (exit 2) when the chosen agent's knobs break a rule of its protocol."""
    if not config.agents:
        return
    agent = resolve_agent(config, agent_name)
    problem = knob_problem(agent, config.provider(agent.provider).protocol)
    if problem:
        raise UsageError(problem)


def _with_protocol(config: Config, protocol: str, *, agent_name: str | None, base_url_given: bool,
                   key_given: bool = False) -> Config:
    v = vendor(protocol)
    if config.agents:
        name = resolve_agent(config, agent_name).provider
    elif config.providers:
        name = next((p.name for p in config.providers if p.name == IMPLICIT_PROVIDER), config.providers[0].name)
    else:
        name = IMPLICIT_PROVIDER
        config = config.model_copy(update={"providers": [ProviderConfig(name=name, base_url=v.base_url)]})
    old = config.provider(name)
    update: dict[str, Any] = {"protocol": protocol}
    if not base_url_given and old.base_url in (DEFAULT_BASE_URL, *(x.base_url for x in VENDORS.values())):
        update["base_url"] = v.base_url  # the vendor's documented endpoint, unless one was named
    if (protocol != "openai" and not key_given and old.api_key
            and old.api_key == os.environ.get("OPENAI_API_KEY")):
        update["api_key"] = None  # OPENAI_API_KEY is OpenAI's key: never sent to another vendor's endpoint
    taken = {p.name for p in config.providers}
    if name == IMPLICIT_PROVIDER and protocol != IMPLICIT_PROVIDER and protocol not in taken:
        update["name"] = protocol  # the implicit provider is named after what it speaks (MRSMITH_<PROTOCOL>_API_KEY)
    providers = [p.model_copy(update=update) if p.name == name else p for p in config.providers]
    agents = [a.model_copy(update={"provider": update.get("name", name)}) if a.provider == name else a
              for a in config.agents]
    return config.model_copy(update={"providers": providers, "agents": agents})


def _vendor_agent(config: Config) -> Config:
    """No agent, and a provider whose vendor names a flagship model: an agent on that model."""
    if config.agents:
        return config
    for p in config.providers:
        model = vendor(p.protocol).model
        if model and p.protocol != "openai":
            agent = AgentConfig(name=IMPLICIT_AGENT, provider=p.name, model=model)  # its context: the vendor's
            return config.model_copy(update={"agents": [agent]})
    return config
