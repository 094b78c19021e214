"""The impure glue between Textual, the worker threads and the pure model/update.

    link.py             the session and the channel its Msgs come through (generations, /sessions)
    bridge.py           the channel's two doors: the frame throttle (CoalescingSink) and the approver
    worker.py           the worker threads: a turn, or a command's job
    effect_runner.py    carries out update's effects
    command_context.py  what a /command may touch (commands/registry.py's CommandContext)
    painter.py          draws the model onto the widgets; spinner and wake-up timers
    screen_routes.py    pushes and dismisses the agent screen, the request modal, the review
    request_keys.py     keys reaching a request's modal: answers, or the person's typing
    history_file.py     the prompt history on disk
    theming.py          the theme, and Rich's Markdown colours that follow it
    theme_file.py       the theme /theme chose, kept for the next start
    welcome.py          gathers what the welcome shows (off the UI thread)
    host.py             AppHost: what the glue may use of the app (a protocol)

The app (tui/app.py) owns one of each and the model, and hands itself to them as an AppHost: these
modules act on it and never import it (an import-linter contract holds that).
"""
