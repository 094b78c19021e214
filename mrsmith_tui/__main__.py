from __future__ import annotations

import gc

gc.disable()  # from the first import on; cli.startup_gc turns it back on once the session is built

from mrsmith_tui.cli import main  # noqa: E402

raise SystemExit(main())
