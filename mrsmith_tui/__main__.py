from mrsmith_tui.cli import main

raise SystemExit(main())
