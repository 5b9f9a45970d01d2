"""Plugins: the user's own commands from ``[[plugins]]`` in the config file, run on an item.

:mod:`tui.plugins.settings` is the table's model (read with the settings, so it imports
little); :mod:`tui.plugins.templates` reads the ``{placeholders}`` of a command and fills them
from the selected item, one argument each, never through a shell;
:mod:`tui.plugins.shell_guard` finds arguments that a program runs as code (``sh -c``'s script)
and refuses placeholders there; :mod:`tui.plugins.run` builds the hand-off of a foreground
plugin and runs a background one; :mod:`tui.plugins.checks` is what ``doctor`` says about
them (unknown areas, missing programs, keys that clash with built-in bindings).
"""
