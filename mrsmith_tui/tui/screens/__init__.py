"""The screens and modals the app pushes over the main one.

    agent_screen.py      one agent's own conversation
    modals.py            a request waiting for the person: approval, go-on, question
    review.py            the whole conversation unfolded, searchable (Ctrl-O)
    sessions_picker.py   /sessions: this folder's sessions
    keep_permissions.py  /reset's question: keep the permissions "always" answers gave?
    setup.py             the first-run setup (also a small App of its own)

Each draws what it is given and reports keys as messages; the app owns the model.
"""
