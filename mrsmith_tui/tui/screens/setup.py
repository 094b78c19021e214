"""The first-run setup screen: find a model server, pick a model, write config.toml.

    run_setup(config_path) -> bool        # a small App of its own (True: a config was written)
    SetupScreen(config_path)              # the same screen, for an app to push; dismisses
                                          # with the written Path, or None when cancelled

On mount it probes the usual local servers (Ollama, LM Studio, llama.cpp, vLLM on
127.0.0.1) in a worker thread (provider/probe.py) and lists those that answered. Picking one
fills the form; otherwise the person types a base URL (and a key), and the model list is fetched
from that endpoint. Save writes the file
with `config.write.write_config`. Which ports are probed and the HTTP call are parameters,
so tests point them at the loopback server.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from mrsmith_tui.config.load import ConfigError
from mrsmith_tui.config.vendors import VENDORS, vendor
from mrsmith_tui.config.write import write_config
from mrsmith_tui.provider.openai_compat import list_models
from mrsmith_tui.provider.probe import LOCAL_SERVERS, FetchModels, Found, LocalServer, probe_servers, provider_name_for
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui.view.clean_input import CleanInput

QUIT_WINDOW = 2.0  # a second Ctrl-C within this quits, as in the app
KEY_REFUSED = (401, 403)


def _label(path: Path) -> str:
    try:
        return "~/" + str(path.expanduser().resolve().relative_to(Path.home().resolve()))
    except ValueError:
        return str(path)


class SetupScreen(Screen[Path | None]):
    """Find an endpoint, choose a model, write the config."""

    DEFAULT_CSS = """
    SetupScreen { align: center top; }
    SetupScreen #setup-body { width: 84; max-width: 100%; height: auto; padding: 1 2; }
    SetupScreen .title { text-style: bold; color: $primary; }
    SetupScreen .hint { color: $text-muted; }
    SetupScreen .section { margin-top: 1; text-style: bold; }
    SetupScreen #found { height: auto; max-height: 8; border: round $panel-lighten-2; }
    SetupScreen #found:focus { border: round $primary; }
    SetupScreen .row { height: 3; }
    SetupScreen .row Label { width: 10; padding: 1 0 0 0; }
    SetupScreen .row Input, SetupScreen .row Select { width: 1fr; }
    /* A row is 3 high: a choice too long for a narrow screen is cut, not wrapped onto the row below */
    SetupScreen .row SelectCurrent Static#label { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    SetupScreen #fetch { min-width: 16; margin-left: 1; }
    SetupScreen #actions { height: 3; margin-top: 1; }
    SetupScreen #target { width: 1fr; padding: 1 0 0 0; color: $text-muted; }
    SetupScreen #message { height: auto; margin-top: 1; }
    SetupScreen #message.error { color: $error; }
    SetupScreen #message.warning { color: $warning; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Cancel"),
        # The app's quit keys (Textual's own Ctrl-C only says "press ctrl+q"; an Input takes Ctrl-D)
        Binding("ctrl+c", "interrupt", show=False, priority=True),
        Binding("ctrl+d", "quit_key", show=False, priority=True),
    ]

    class Probed(Message):
        def __init__(self, found: list[Found]) -> None:
            super().__init__()
            self.found = found

    class ModelsFetched(Message):
        def __init__(self, base_url: str, models: list[str], error: str | None, status: int | None = None) -> None:
            super().__init__()
            self.base_url = base_url
            self.models = models
            self.error = error
            self.status = status  # the HTTP status of a refusal, when there was one

    def __init__(self, config_path: Path, *, servers: Sequence[LocalServer] = LOCAL_SERVERS,
                 fetch_models: FetchModels = list_models, probe_timeout: float = 0.8,
                 fetch_timeout: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self._interrupted_at: float | None = None
        self.config_path = Path(config_path).expanduser()
        self.servers = tuple(servers)
        self.fetch_models = fetch_models
        self.probe_timeout = probe_timeout
        self.fetch_timeout = fetch_timeout
        self.found: list[Found] | None = None  # None while the probe runs
        self.models: list[str] = []
        self.fetching = False
        self._auto_name = ""
        self._confirm_overwrite = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        ports = ", ".join(f"{s.label} :{s.port}" for s in self.servers) or "none"
        with VerticalScroll(id="setup-body"):
            yield Static("mrsmith · first run", classes="title")
            yield Static("No model provider is configured yet. Pick a server found on this machine, "
                         "or enter any OpenAI-compatible endpoint.", classes="hint")
            yield Static("Found on this machine", classes="section")
            yield Static(Content(f"Looking for local servers ({ports}) …"), id="probe-status", classes="hint")
            yield OptionList(id="found")
            yield Static("Endpoint", classes="section")
            with Horizontal(classes="row"):
                yield Label("Protocol")
                yield Select([(Content(f"{v.protocol:<10} {v.label}"), v.protocol) for v in VENDORS.values()],
                             value="openai", allow_blank=False, id="protocol")
            with Horizontal(classes="row"):
                yield Label("Base URL")
                yield CleanInput(placeholder="https://api.openai.com/v1", id="base-url")
                yield Button("Fetch models", id="fetch")
            with Horizontal(classes="row"):
                yield Label("API key")
                yield Input(placeholder="optional for local servers", password=True, id="api-key")
            with Horizontal(classes="row"):
                yield Label("Name")
                yield CleanInput(placeholder="provider name, e.g. openai", id="name")
            with Horizontal(classes="row"):
                yield Label("Model")
                yield Select([], prompt="fetch the list, or type a name below", id="model-list")
            with Horizontal(classes="row"):
                yield Label("")
                yield CleanInput(placeholder="model name", id="model")
            with Horizontal(id="actions"):
                yield Static(Content(f"Saves {_label(self.config_path)}"), id="target")
                yield Button("Save", variant="primary", id="save")
            yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        for field in self.query(Input):
            field.cursor_blink = False
        self.query_one("#found", OptionList).display = False
        self.query_one("#base-url", Input).focus()
        self.run_worker(self._probe, thread=True, group="probe", exit_on_error=False)

    # ------------------------------------------------------------------ probing and fetching (threads)

    def _probe(self) -> None:
        self.post_message(self.Probed(probe_servers(self.servers, self.fetch_models, self.probe_timeout)))

    def _fetch(self, base_url: str, api_key: str | None, protocol: str = "openai") -> None:
        try:
            if vendor(protocol).wire == "messages":
                from mrsmith_tui.provider.messages import list_messages_models

                models = list_messages_models(base_url, api_key, self.fetch_timeout)
            else:
                models = list(self.fetch_models(base_url, api_key, self.fetch_timeout))
            self.post_message(self.ModelsFetched(base_url, models, None))
        except Exception as e:
            status = getattr(e, "status", None)
            self.post_message(self.ModelsFetched(base_url, [], str(e).splitlines()[0] if str(e) else type(e).__name__,
                                                 status if isinstance(status, int) else None))

    @on(Probed)
    def _probed(self, event: Probed) -> None:
        self.found = event.found
        status = self.query_one("#probe-status", Static)
        listing = self.query_one("#found", OptionList)
        if not event.found:
            ports = ", ".join(str(s.port) for s in self.servers)
            status.update(Content(f"No local server answered on 127.0.0.1 (ports {ports}). Enter an endpoint below."))
            return
        status.update(Content("Choose one with ↑ ↓ and Enter, or fill in the form."))
        for f in event.found:
            count = f"{len(f.models)} model" + ("" if len(f.models) == 1 else "s")
            listing.add_option(Option(Content(clean(f"{f.server.label:<10} {f.server.host}:{f.server.port:<6}  {count}"))))
        listing.display = True
        listing.highlighted = 0
        if not self.query_one("#base-url", Input).value:  # never take focus from someone typing
            listing.focus()

    @on(ModelsFetched)
    def _models_fetched(self, event: ModelsFetched) -> None:
        if event.base_url != self._base_url():
            return  # the person changed the URL meanwhile
        self.fetching = False
        if event.error and event.status in KEY_REFUSED:  # the key is the problem: no model name helps
            typed = self.query_one("#api-key", Input).value.strip()
            problem = "The API key was refused" if typed else "This endpoint needs an API key"
            self._say(f"{problem} ({event.error}). Enter the key in API key and press Enter to fetch again.", "error")
            return
        if event.error:
            self._say(f"Could not list models: {event.error}. Type the model name instead.", "error")
            return
        self._show_models(event.models)
        if event.models:
            self._say(f"{len(event.models)} model{'s' if len(event.models) != 1 else ''} at {event.base_url}.", "")
        else:
            self._say("The endpoint lists no models; type the model name.", "warning")

    # ------------------------------------------------------------------ form

    @on(OptionList.OptionSelected, "#found")
    def _server_chosen(self, event: OptionList.OptionSelected) -> None:
        found = (self.found or [])[event.option_index]
        self.query_one("#base-url", Input).value = found.server.base_url
        self._set_name(found.server.name)
        self._show_models(list(found.models))
        self._say(f"{found.server.label}: choose a model, then Save (ctrl+s).", "")
        (self.query_one("#model-list", Select) if found.models else self.query_one("#model", Input)).focus()

    @on(Input.Changed, "#base-url")
    def _url_changed(self, event: Input.Changed) -> None:
        url = event.value.strip().rstrip("/")
        known = {f.server.base_url: f.server.name for f in self.found or []}
        self._set_name(known.get(url) or (provider_name_for(url) if url else ""))

    @on(Input.Submitted, "#base-url")
    @on(Input.Submitted, "#api-key")
    @on(Button.Pressed, "#fetch")
    def _fetch_requested(self) -> None:
        base_url = self._base_url()
        if not base_url.startswith(("http://", "https://")):
            self._say("Base URL: enter an http:// or https:// URL first.", "error")
            self.query_one("#base-url", Input).focus()
            return
        self.fetching = True
        self._say(f"Fetching models from {base_url} …", "")
        key = self.query_one("#api-key", Input).value.strip() or None
        protocol = self._protocol()
        self.run_worker(lambda: self._fetch(base_url, key, protocol), thread=True, group="fetch", exclusive=True,
                        exit_on_error=False)

    @on(Select.Changed, "#protocol")
    def _protocol_picked(self, event: Select.Changed) -> None:
        """A vendor protocol fills in its documented endpoint and flagship model (a URL typed by hand stays)."""
        v = vendor(self._protocol())
        url = self.query_one("#base-url", Input)
        if url.value.strip().rstrip("/") in ("", *(x.base_url for x in VENDORS.values())):
            url.value = v.base_url if v.protocol != "openai" else ""
        if v.protocol != "openai":
            self._set_name(v.protocol)
        model = self.query_one("#model", Input)
        if model.value.strip() in ("", *(x.model for x in VENDORS.values() if x.model)):
            model.value = v.model
        wire = "Messages (/v1/messages)" if v.wire == "messages" else "Chat Completions"
        self._say(f"{v.label}: {wire} at {v.base_url}" + (", an API key is needed." if v.protocol != "openai" else "."), "")

    @on(Select.Changed, "#model-list")
    def _model_picked(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL:
            self.query_one("#model", Input).value = str(event.value)

    @on(Input.Submitted, "#model")
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        base_url, model = self._base_url(), self.query_one("#model", Input).value.strip()
        name = self.query_one("#name", Input).value.strip() or provider_name_for(base_url)
        if not base_url:
            return self._say("Base URL: pick a server above or enter a URL.", "error")
        if not model:
            return self._say("Model: choose one from the list or type its name.", "error")
        overwrite = self._confirm_overwrite
        if self.config_path.exists() and not overwrite:
            self._confirm_overwrite = True
            return self._say(f"{_label(self.config_path)} already exists: Save again to replace it.", "warning")
        try:
            written = write_config(self.config_path, provider_name=name, base_url=base_url,
                                   api_key=self.query_one("#api-key", Input).value.strip() or None,
                                   model=model, overwrite=overwrite, protocol=self._protocol())
        except ConfigError as e:
            return self._say(e.message, "error")
        self.dismiss(written)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_interrupt(self) -> None:
        now = self.clock()
        if self._interrupted_at is not None and now - self._interrupted_at <= QUIT_WINDOW:
            self.dismiss(None)
            return
        self._interrupted_at = now
        self._say("Ctrl-C again to quit (nothing is saved).", "warning")

    def action_quit_key(self) -> None:
        """Ctrl-D as in the app: quits from an empty field; in a field with text it deletes the character
        under the cursor."""
        field = self.focused
        if not isinstance(field, Input) or not field.value:
            self.dismiss(None)
        elif field.cursor_position < len(field.value):
            field.action_delete_right()
        else:
            self._say("Ctrl-D quits from an empty field · Ctrl-C twice quits.", "warning")

    # ------------------------------------------------------------------ helpers

    def _protocol(self) -> str:
        value = self.query_one("#protocol", Select).value
        return value if isinstance(value, str) and value in VENDORS else "openai"

    def _base_url(self) -> str:
        return self.query_one("#base-url", Input).value.strip().rstrip("/")

    def _set_name(self, name: str) -> None:
        field = self.query_one("#name", Input)
        if field.value in ("", self._auto_name):  # keep a name the person typed
            field.value = name
        self._auto_name = name

    def _show_models(self, models: list[str]) -> None:
        self.models = models
        select = self.query_one("#model-list", Select)
        select.set_options([(Content(clean(m)), m) for m in models])  # a server's names: text, never markup
        if models:
            select.value = models[0]
            self.query_one("#model", Input).value = models[0]

    def _say(self, text: str, kind: str) -> None:
        message = self.query_one("#message", Static)
        message.set_classes(kind)
        message.update(Content(clean(text)))


class SetupApp(App[Path | None]):
    """The setup screen on its own, before the main app exists."""

    TITLE = "mrsmith setup"

    def __init__(self, config_path: Path, *, theme: str | None = None, **screen_options) -> None:
        super().__init__()
        self.animation_level = "none"
        self._screen = SetupScreen(config_path, **screen_options)
        self._theme_name = theme

    def on_mount(self) -> None:
        from mrsmith_tui.tui.themes import load_themes, pick_theme

        for theme in load_themes():
            self.register_theme(theme)
        name, _ = pick_theme(self._theme_name, no_color=self.no_color, available=set(self.available_themes))
        if name:
            self.theme = name
        self.push_screen(self._screen, callback=self.exit)


def run_setup(config_path: Path, *, theme: str | None = None, **screen_options) -> bool:
    """Show the setup screen; True when a config file was written at `config_path`."""
    return SetupApp(config_path, theme=theme, **screen_options).run() is not None
