"""``E``: edit the item under the cursor, the marked items or the item shown as one TOML
document in ``$VISUAL``/``$EDITOR`` (the flow is :mod:`screens.editors.text_edit`).

Which objects can be edited is read from their spec (:func:`tui.textedit.document.edit_target`:
the update action driven by the generic form); a spec whose own action has the key ``E`` (a
domain's zone, a script's text) keeps it. The update action's rules (grants, statuses, the
read-only mode) say which items may be edited: marked items that may not are left out of the
document and named.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

from screens.actions.start import check_availability, start_action
from tui.resources.spec import Action, ResourceSpec
from tui.textedit.action import edit_action
from tui.untrusted import shown

EDIT_KEY = "E"

LIST_BINDING = Binding(
    EDIT_KEY,
    "edit_text",
    "Edit text",
    id="list.edit_text",
    tooltip="Edit the row (or the marked rows) as TOML in $EDITOR",
)
"""Bound on lists of objects that can be updated."""
DETAIL_BINDING = Binding(
    EDIT_KEY,
    "edit_text",
    "Edit text",
    id="detail.edit_text",
    tooltip="Edit the item as TOML in $EDITOR",
)
"""Bound on the detail screen of an object that can be updated."""

FLOW = "screens.editors.text_edit:edit_as_text"
"""The flow, imported on first use (the editors sit above this package)."""


def text_action(spec: ResourceSpec) -> Action | None:
    """The update action a text document of ``spec``'s objects drives; None when they cannot
    be edited as text, or when the spec has an action of its own on ``E`` (it is kept)."""
    if spec.id not in _TEXT_ACTIONS:  # asked on every footer refresh: worked out once
        own_key = any(action.key == EDIT_KEY for action in spec.actions)
        _TEXT_ACTIONS[spec.id] = None if own_key else edit_action(spec)
    return _TEXT_ACTIONS[spec.id]


_TEXT_ACTIONS: dict[str, Action | None] = {}


@runtime_checkable
class _ShowsRecord(Protocol):
    """A detail screen, as :class:`screens.actions.context.ShowsRecord` says it (that module
    loads the forms and the API: not wanted before the first frame)."""

    def subject(self) -> tuple[ResourceSpec, dict[str, Any]] | None:
        """The record shown."""
        ...


def pane_text_action(node: DOMNode, spec: ResourceSpec) -> Action | None:
    """:func:`text_action` for a list on ``node``'s screen; None in a child tab of a record
    whose own action has ``E`` (a domain's records: ``E`` there is the record's, the zone)."""
    screen = node.screen
    parent = screen.subject() if isinstance(screen, _ShowsRecord) else None
    own_edit = parent is not None and any(a.key == EDIT_KEY for a in parent[0].actions)
    if own_edit and parent is not None and parent[0].id != spec.id:
        return None
    return text_action(spec)


def editable(
    node: DOMNode, spec: ResourceSpec, items: Sequence[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The items the user may edit now, and the reasons the others may not ("web-2: it is
    being resized")."""
    action = text_action(spec)
    if action is None:
        return [], []
    allowed: list[dict[str, Any]] = []
    refused: list[str] = []
    for item in items:
        ok, reason = check_availability(node, spec, action, item)
        if ok:
            allowed.append(dict(item))
        else:
            refused.append(f"{spec.label_of(item)}: {reason}")
    return allowed, refused


def start_text_edit(
    node: DOMNode,
    host: Screen[Any],
    spec: ResourceSpec,
    items: Sequence[Mapping[str, Any]],
    params: Mapping[str, Any],
    then: Callable[[bool], Any] | None = None,
) -> None:
    """Edit ``items`` (listed under the parent's path ``params``) as one document.

    Items the update action does not allow are left out and named; with none left, nothing
    opens and the user is told why.
    """
    action = text_action(spec)
    if action is None:
        return
    if not items:
        node.app.notify("Nothing selected to edit.", title="Edit as text")
        return
    allowed, refused = editable(node, spec, items)
    if refused:
        said = "; ".join(refused[:5]) + (f"; {len(refused) - 5} more" if len(refused) > 5 else "")
        node.app.notify(
            shown(said), title="Not editable, left out" if allowed else "Not editable", markup=False
        )
    if not allowed:
        return
    module_name, _, function = FLOW.partition(":")
    flow = getattr(importlib.import_module(module_name), function)

    async def run() -> bool:
        from screens.actions.context import ActionContext  # the forms and the API: on use

        first = allowed[0]
        ctx = ActionContext(host, spec, action, first, spec.params_for(first, params))
        changed: bool = await flow(ctx, allowed, dict(params))
        return changed

    start_action(node, host, spec, action, allowed[0], params, then, run)
