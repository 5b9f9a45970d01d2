"""The account check: risks and waste found by rules kept as data, each with its fix (headless).

:mod:`tui.check.rules` holds the one table of rules; :mod:`tui.check.gather` fetches only the
listings the chosen rules need; :mod:`tui.check.run` applies the rules and the silences
(:mod:`tui.check.silences`) and applies a fix; :mod:`tui.check.report` writes the result as
text, Markdown or JSON; :mod:`tui.check.cli` is ``cloudtui check``.
"""
