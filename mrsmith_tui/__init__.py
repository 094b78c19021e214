"""mrsmith_tui: a full-screen terminal coding agent for any OpenAI-compatible endpoint."""

__version__ = "0.1.0"
