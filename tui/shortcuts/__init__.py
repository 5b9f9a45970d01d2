"""The user's own ways in: ``[aliases]`` (``:`` words) and ``[hotkeys]`` (a key runs a ``:``
command), checked against the commands the app knows, and key names as Textual spells them.

:mod:`tui.shortcuts.keys` normalises key names (shared with plugins);
:mod:`tui.shortcuts.commands` resolves aliases and hotkeys and says what is wrong with them.
"""
