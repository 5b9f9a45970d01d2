"""Every change the user can send goes through a dialog with its own confirm or send key."""

from __future__ import annotations

from tui.api.endpoints import REGISTRY
from tui.resources.areas import SPECS


def test_every_mutating_action_has_a_form_a_flow_or_a_confirmation() -> None:
    unguarded = [
        f"{spec.id}: {action.id}"
        for spec in SPECS.values()
        for action in spec.actions
        if REGISTRY[action.endpoint].method != "GET"
        and not action.form
        and not action.screen
        and action.confirm == "none"
    ]
    assert not unguarded, f"these send a change on a bare key press: {unguarded}"
