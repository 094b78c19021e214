"""The pure data of the TUI: what is on screen, as immutable values.

    state.py      the Model and its slices (ChatLog, StatusLedger, Sidebar, Pending, ...)
    ui_msgs.py    the Msgs the shell makes of keys and clicks (Submit, Answer, Tick, ...)
    prompt_state.py  `@path` completion's file names, the Ctrl-R history search, their Msgs
    readouts.py   what the views read off the model (status fields, spinner, compact numbers)

No widgets, no clock, no I/O. Views import this package only; `update` folds Msgs into it.
"""

from __future__ import annotations

from mrsmith_tui.tui.model.prompt_state import *  # noqa: F403
from mrsmith_tui.tui.model.readouts import *  # noqa: F403 - the package is the model's one name
from mrsmith_tui.tui.model.state import *  # noqa: F403
from mrsmith_tui.tui.model.ui_msgs import *  # noqa: F403
