"""Two optional parts of libraries mrsmith never uses, kept out of the process (start-up time, #26).

- httpx's package init imports its command-line client (`httpx._main`: click, rich's console and
  progress, pygments) whenever those happen to be installed, and Textual installs rich: ~30 ms of
  every run, a one-shot's included. Marked absent, httpx defines the stub it uses when they are not
  installed; mrsmith never runs httpx's command line.
- pydantic looks for plugins (the `pydantic` entry-point group) the first time it builds a model,
  importing importlib.metadata and reading every installed package's metadata: ~20 ms. mrsmith loads
  no pydantic plugins, on purpose too: a plugin is code from whatever package is installed beside
  mrsmith, run inside the agent on every validation.

`trim()` runs when the mrsmith_tui package is imported, before anything imports httpx or builds a
model; where those are already loaded (a host that imported them first) it changes nothing.
"""

from __future__ import annotations

import sys
import types

HTTPX_CLI = "httpx._main"
PYDANTIC_PLUGIN_LOADER = "pydantic.plugin._loader"


def _no_plugins() -> tuple[()]:
    return ()


def trim() -> None:
    if "httpx" not in sys.modules:
        sys.modules.setdefault(HTTPX_CLI, None)  # type: ignore[arg-type]  # None: "not installed"
    if PYDANTIC_PLUGIN_LOADER not in sys.modules:  # not imported yet: no plugin is loaded yet either
        loader = types.ModuleType(PYDANTIC_PLUGIN_LOADER, "mrsmith: no pydantic plugins are loaded")
        loader.get_plugins = _no_plugins  # type: ignore[attr-defined]  # the one name pydantic imports from it
        sys.modules[PYDANTIC_PLUGIN_LOADER] = loader
