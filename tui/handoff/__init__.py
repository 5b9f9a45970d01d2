"""Hand-offs: run another program (ssh, k9s, a database client, an editor) on a resource.

Headless: :mod:`tui.handoff.settings` holds the ``[handoff.*]`` config tables,
:mod:`tui.handoff.launch` turns a :class:`~tui.handoff.launch.Launch` into argv and environment
with its secret files written 0600 in a private folder (removed afterwards, even on error), and
:mod:`tui.handoff.targets` builds the launch for each kind of resource. The screen side
(``screens.editors.handoff``) suspends the app while the program runs.

This package's ``__init__`` imports nothing: ``tui.session.config`` imports the settings module.
"""
