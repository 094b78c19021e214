"""`@path` completion's names, read off the UI thread (tools.file_index) and handed to update as a
FilesIndexed Msg through the session channel (its outbound filter shows names as text)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mrsmith_tui.tui import model as ui

if TYPE_CHECKING:
    from mrsmith_tui.tui.shell.host import AppHost


def index_in_background(app: AppHost) -> None:
    session = app.session
    root = session.cwd if session is not None else Path.cwd()
    extra = tuple(session.config.sensitive_paths) if session is not None else ()
    sink, clock = app.sink, app.clock

    def work() -> None:
        from mrsmith_tui.security.sensitive import SensitivePaths
        from mrsmith_tui.tools.file_index import index_files

        try:
            paths = index_files(root, SensitivePaths(extra))
        except OSError:
            paths = ()
        sink(ui.FilesIndexed(paths=paths, at=clock()))

    app.run_worker(work, thread=True, exit_on_error=False, group="files", name="file-index")
