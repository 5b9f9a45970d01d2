"""How dialogs name what an action acts on: the record's type, its label and its parent.

``Delete volume "pg-data"``, ``Delete config "My config" of instance "web-1"``,
``New config of instance "web-1"``: read from each spec's ``singular`` and ``label_field`` so
no screen spells out a resource's name. Headless: the text is display text (labels come from
the API and pass the text boundary; callers render it literally, never as markup).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui.resources.spec import Action, ResourceSpec
from tui.untrusted import Shown


def describe(spec: ResourceSpec, item: Mapping[str, Any] | None) -> Shown:
    """``volume "pg-data"``: the record's type and quoted label (just the type without one)."""
    label = spec.display_label(item) if item else ""
    return f'{spec.singular} "{label}"' if label else spec.singular


def action_title(
    action: Action,
    spec: ResourceSpec,
    item: Mapping[str, Any] | None,
    parent: tuple[ResourceSpec, Mapping[str, Any]] | None = None,
) -> Shown:
    """The heading of an action's dialog.

    Args:
        action: The action.
        spec: The resource it belongs to.
        item: The item it acts on (None for collection actions such as create).
        parent: The parent resource and item of a child resource (an instance's config).

    Returns:
        ``<action> <type> "<label>"`` plus ``of <parent type> "<parent label>"``.
    """
    words = [action.label]
    if item:
        label = spec.display_label(item)
        # "Delete certificate" on a TLS certificate: the action already names the type.
        names_type = action.label.lower().split()[-1] == spec.singular.lower().split()[-1]
        if names_type:
            words.append(f'"{label}"' if label else "")
        else:
            words.append(describe(spec, item))
    if parent is not None:
        words.append(f"of {describe(*parent)}")
    return " ".join(w for w in words if w)
