"""Which action of a spec a text document drives: its update (``PUT``) with the generic form.

Apart from :mod:`tui.textedit.document` so a screen can tell whether ``E`` applies without
loading the document's machinery (TOML, the request models) before the first frame.
"""

from __future__ import annotations

from tui.api.endpoints import endpoint
from tui.resources.spec import Action, ResourceSpec


def edit_action(spec: ResourceSpec) -> Action | None:
    """The spec's update action driven by the generic form, if it has one."""
    for action in spec.actions:
        ep = endpoint(action.endpoint)
        if ep.method == "PUT" and ep.request and action.form == ep.request and not action.screen:
            return action
    return None
