"""The shell tool (tool.py) and its judgement: is a command read-only?

classify.py is the entry point; parse.py, syntax.py, redirects.py and argv.py walk what bash
would run; words.py and options.py read words as bash and the programs would; check_*.py hold
the content checks; context.py what a command meets (the root, its secrets, its repository).
The allowlist tables are data beside them: allow_*.py, joined in allowlist.py.
"""
