"""One provider per configured provider, on the wire its protocol speaks (config.vendors)."""

from __future__ import annotations

from mrsmith_tui.config.schema import ProviderConfig
from mrsmith_tui.config.vendors import vendor
from mrsmith_tui.provider.types import Provider

__all__ = ["make_provider", "models_of"]


def make_provider(pc: ProviderConfig, api_key: str | None, include_usage: bool) -> Provider:
    if vendor(pc.protocol).wire == "messages":
        from mrsmith_tui.provider.messages import MessagesProvider

        return MessagesProvider(name=pc.name, base_url=pc.base_url, api_key=api_key, protocol=pc.protocol,
                                connect_timeout=pc.connect_timeout, read_timeout=pc.read_timeout)
    from mrsmith_tui.provider.openai_compat import make_provider as chat_provider

    return chat_provider(pc, api_key, include_usage)


def models_of(pc: ProviderConfig, api_key: str | None, timeout: float = 5.0) -> list[str]:
    """The models the provider's server lists (GET /models on its wire). Raises ProviderError."""
    if vendor(pc.protocol).wire == "messages":
        from mrsmith_tui.provider.messages import list_messages_models

        return list_messages_models(pc.base_url, api_key, timeout)
    from mrsmith_tui.provider.openai_compat import list_models

    return list_models(pc.base_url, api_key, timeout)
