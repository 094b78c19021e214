"""The session's drop-in tools: found when first needed, trusted, listed, reloaded.

    ~/.config/mrsmith/tools/*.py   the person's own: loaded as they are
    <root>/.mrsmith/tools/*.py     the project's: loaded only once trusted (trust.py)

Nothing is read when the session starts: the first request (or /tools) reads the folders, within
the bounds of files.py, and each file's contract (contract.py). Every problem is one warning naming
the file; the other tools still load. A name taken by a built-in tool (or a tool added to the
session), or by an earlier file, is refused with one warning: built-in first, then the user's, then
the project's. The service is a tool source of the registry (asked before each request) and the
`tools` service of the session (/tools, /tools reload).

Trust modes: "ask" (the TUI) asks for each untrusted project file in the thread that needs the
tools (a run's worker; from the UI thread, in a thread of its own), "yes" (--trust-project-tools)
loads them for this run, "stored" (headless) loads those already trusted and names the others in one
warning.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from mrsmith_tui import msgs
from mrsmith_tui.security.trust_store import TrustStore
from mrsmith_tui.tools.base import Approver, Tool
from mrsmith_tui.tools.dropin.contract import ContractError, read_contract
from mrsmith_tui.tools.dropin.files import ToolFile, list_folder
from mrsmith_tui.tools.dropin.tool import DropInTool, RunSettings, ToolPlace
from mrsmith_tui.tools.dropin.trust import KIND, trust_query, unshowable

__all__ = ["MAX_ASKS", "DropInTools", "TrustMode", "places"]

TrustMode = Literal["ask", "yes", "stored"]
MAX_ASKS = 8  # trust prompts in one load; the rest wait for /tools reload
PROJECT_PARTS = (".mrsmith", "tools")


def places(root: Path, user_dir: Path | None) -> list[ToolPlace]:
    out: list[ToolPlace] = []
    if user_dir is not None:
        shown = str(user_dir).replace(str(Path.home()), "~", 1) if str(user_dir).startswith(str(Path.home())) else str(user_dir)
        out.append(ToolPlace("user", user_dir, (), shown))
    out.append(ToolPlace("project", root, PROJECT_PARTS, "/".join(PROJECT_PARTS)))
    return out


class DropInTools:
    def __init__(self, *, root: Path, user_dir: Path | None, mode: TrustMode, approver: Approver | None,
                 emit: Callable[[msgs.Msg], None], settings: RunSettings | None = None,
                 reserved: Callable[[], Iterable[str]] = tuple, store: TrustStore | None = None,
                 every_tool: Callable[[], Iterable[Tool]] | None = None) -> None:
        self.root = root
        self.places = places(root, user_dir)
        self.mode = mode
        self.approver = approver
        self.emit = emit
        self.settings = settings or RunSettings()
        self.reserved = reserved
        self.store = store or TrustStore()
        self.every_tool = every_tool
        self._lock = threading.RLock()
        self._tools: dict[str, DropInTool] | None = None  # None: not read yet
        self._session_yes: set[str] = set()  # digests trusted for this session
        self._session_no: set[str] = set()  # digests refused this session (asked again after /tools reload)
        self.warnings: list[str] = []  # the last load's

    # ------------------------------------------------------------------ the registry's tool source

    def current_tools(self) -> list[Tool]:
        with self._lock:
            if self._tools is None:
                self._load()
            assert self._tools is not None
            return list(self._tools.values())

    # ------------------------------------------------------------------ /tools

    def reload(self) -> str:
        """Read the folders again (a refused project file asks again); the line to show."""
        with self._lock:
            self._tools = None
            self._session_no.clear()
            self._load()
            assert self._tools is not None
            names = [f"{t.name} ({t.origin})" for t in self._tools.values()]
        loaded = ", ".join(names) if names else "none"
        said = f"; {len(self.warnings)} warning{'s' if len(self.warnings) != 1 else ''} above" if self.warnings else ""
        return f"drop-in tools reloaded: {loaded}{said}"

    def listing(self) -> list[tuple[str, str, str]]:
        """(name, origin, description) of every tool the person's agent has: built-in, MCP server, user, project."""
        tools: Iterable[Tool] = self.every_tool() if self.every_tool is not None else self.current_tools()
        rows = []
        for tool in tools:
            origin: str
            if isinstance(tool, DropInTool):
                origin = tool.origin
            elif isinstance(server := getattr(tool, "server", None), str):
                origin = f"MCP server {server}"
            else:
                origin = "built-in"
            rows.append((tool.name, origin, tool.description))
        return sorted(rows, key=lambda r: (_ORDER.get(r[1].split(" ")[0], 1), r[0]))

    # ------------------------------------------------------------------ loading

    def _warn(self, text: str) -> None:
        self.warnings.append(text)
        self.emit(msgs.Warning(text=text, code="dropin"))

    def _trusted(self, tool_file: ToolFile) -> bool:
        return (self.mode == "yes" or tool_file.digest in self._session_yes
                or self.store.is_trusted(self.root, KIND, tool_file.digest))

    def _load(self) -> None:
        self.warnings = []
        try:
            taken = set(self.reserved())
        except Exception:  # the built-in names could not be listed
            taken = set()
        tools: dict[str, DropInTool] = {}
        self._tools = tools
        unsure: list[tuple[ToolFile, ToolPlace]] = []
        for place in self.places:
            files, problems = list_folder(place.base, place.parts)
            for text in problems:
                self._warn(f"drop-in tools: {text}")
            for tool_file in files:
                if place.origin == "project" and not self._trusted(tool_file):
                    if tool_file.digest not in self._session_no:
                        unsure.append((tool_file, place))
                    continue
                self._add(tool_file, place, taken, tools)
        if self.store.problem:
            self._warn(self.store.problem)
        if unsure:
            self._untrusted(unsure, taken)

    def _add(self, tool_file: ToolFile, place: ToolPlace, taken: set[str], tools: dict[str, DropInTool]) -> DropInTool | None:
        shown = place.shown_file(tool_file.path.name)
        try:
            contract = read_contract(tool_file.data)
        except ContractError as e:
            self._warn(f"drop-in tool {shown} not loaded: {e}")
            return None
        if contract.name in taken:
            self._warn(f"drop-in tool {shown} not loaded: its NAME {contract.name} is a built-in tool's")
            return None
        if contract.name in tools:
            self._warn(f"drop-in tool {shown} not loaded: {tools[contract.name].shown_path} is already called {contract.name}")
            return None
        tool = DropInTool(contract, tool_file, place, self.settings)
        tools[contract.name] = tool
        return tool

    def _untrusted(self, unsure: list[tuple[ToolFile, ToolPlace]], taken: set[str]) -> None:
        names = [place.shown_file(f.path.name) for f, place in unsure]
        if self.mode != "ask" or self.approver is None:
            shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
            self._warn(f"project tool{'s' if len(names) > 1 else ''} {shown} not loaded: not trusted in this folder; "
                       'rerun with --trust-project-tools, or start mrsmith here and answer "always"')
            return
        if len(unsure) > MAX_ASKS:
            self._warn(f"{len(unsure) - MAX_ASKS} more project tools not asked about now: /tools reload asks about them")
            unsure = unsure[:MAX_ASKS]
        if threading.current_thread() is threading.main_thread():  # never wait for the person on the UI thread
            threading.Thread(target=self._ask_each, args=(unsure, taken), name="mrsmith-tool-trust", daemon=True).start()
            return
        self._ask_each(unsure, taken)

    def _ask_each(self, unsure: list[tuple[ToolFile, ToolPlace]], taken: set[str]) -> None:
        assert self.approver is not None
        with self._lock:
            tools = self._tools
            if tools is None:
                return
            for tool_file, place in unsure:
                shown = place.shown_file(tool_file.path.name)
                text = tool_file.data.decode("utf-8", "replace")
                why = unshowable(text)
                if why is not None:
                    self._warn(f"project tool {shown} not loaded: it cannot be shown whole in the trust prompt ({why}); "
                               "read it yourself, then run with --trust-project-tools")
                    self._session_no.add(tool_file.digest)
                    continue
                try:
                    read_contract(tool_file.data)
                except ContractError as e:
                    self._warn(f"drop-in tool {shown} not loaded: {e}")
                    continue
                answer = self.approver.approve(trust_query(shown, text))
                if answer not in ("yes", "always"):
                    self._session_no.add(tool_file.digest)
                    self.emit(msgs.Notice(text=f"project tool {shown} left off (/tools reload asks again)"))
                    continue
                if answer == "always":
                    try:
                        self.store.trust(self.root, KIND, tool_file.digest, name=shown)
                    except OSError as e:
                        self._warn(f"could not remember the trust in {self.store.path}: {e.strerror or e}")
                self._session_yes.add(tool_file.digest)
                tool = self._add(tool_file, place, taken, tools)
                if tool is not None:
                    self.emit(msgs.Notice(text=f"project tool {tool.name} loaded from {shown}"))


_ORDER = {"built-in": 0, "MCP": 1, "user": 2, "project": 3}

