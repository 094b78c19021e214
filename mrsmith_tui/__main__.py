from __future__ import annotations

from mrsmith_tui.cli import main

raise SystemExit(main())
