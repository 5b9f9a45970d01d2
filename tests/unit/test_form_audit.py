"""No form asks the user to type an id the app could offer: every input that holds one has a
choice source (or fixed choices), but for the few listed here with the reason.

docs/form-audit.md is the audit in words, field by field; this test keeps its first rule true
for every form an action opens, today's and tomorrow's.
"""

from __future__ import annotations

from tui.resources.areas import SPECS
from tui.resources.forms import FormField, form_for, with_pickers

ID_NAMES = frozenset(
    {"image", "region", "type", "kernel", "cluster", "engine", "k8s_version", "bucket_name"}
)
"""Fields the reference calls an id without saying so in their name (``image``: an image id,
``type``: an instance type id, ``cluster``: an object storage cluster id ...)."""

IDS_BY_MODEL: dict[str, frozenset[str]] = {
    # An object's name is its key in the bucket: the id of the object.
    "object_storage:ObjectUrlCreate": frozenset({"name"}),
    "object_storage:ObjectAclUpdate": frozenset({"name"}),
}
"""Fields that are ids in one model only."""

TYPED_IDS: dict[tuple[str, str], str] = {
    ("object_storage:ObjectUrlCreate", "name"): (
        "prefilled with the object the action runs on; a pre-signed URL may also name an "
        "object that does not exist yet (an upload), so the name stays editable text"
    ),
    ("object_storage:ObjectAclUpdate", "name"): (
        "prefilled by its screen with the object it was opened on; the object ACL endpoint "
        "takes any object name of the bucket"
    ),
}
"""(model, field) -> why the id is typed (or prefilled) rather than chosen from a list."""


def forms_of_actions() -> dict[str, set[str]]:
    """Every request model an action opens a form of -> the actions that do."""
    forms: dict[str, set[str]] = {}
    for spec in SPECS.values():
        for action in spec.actions:
            if action.form:
                forms.setdefault(action.form, set()).add(action.id)
    return forms


def is_id(model: str, f: FormField) -> bool:
    """True when the input holds an id (or a list of ids)."""
    name = f.name.rsplit(".", 1)[-1]
    return (
        name.endswith(("_id", "_ids"))
        or name in ID_NAMES
        or name in IDS_BY_MODEL.get(model, frozenset())
        or (f.kind in ("list", "picks") and f.item_type is int)
    )


def typed_ids() -> dict[tuple[str, str], str]:
    """Every id input without a choice source or fixed choices -> the actions showing it."""
    found: dict[tuple[str, str], str] = {}
    for model, actions in forms_of_actions().items():
        # Pickers are added for path values an action may lack (an image's disk's instance).
        form = with_pickers(form_for(model), {})
        for f in form.fields:
            if is_id(model, f) and f.source is None and not f.choices:
                found[(model, f.name)] = ", ".join(sorted(actions))
    return found


def test_every_id_a_form_asks_for_is_chosen_from_a_list() -> None:
    unexplained = {key: where for key, where in typed_ids().items() if key not in TYPED_IDS}
    assert not unexplained, (
        "these inputs ask for an id the app could offer: give them a choice source "
        f"(tui/resources/forms/choices.py) or explain them in TYPED_IDS: {unexplained}"
    )


def test_the_typed_ids_listed_are_still_typed() -> None:
    stale = set(TYPED_IDS) - set(typed_ids())
    assert not stale, f"these now have a choice source: remove them from TYPED_IDS: {stale}"


def test_the_audit_finds_an_id_without_a_source() -> None:
    # The check itself: an id input with neither a source nor fixed choices is found.
    bare = FormField("computes", "Computes", "list", item_type=int)
    assert is_id("tags:TagCreate", bare)
    assert is_id("any", FormField("devices.sda.disk_id", "Disk", "int"))
    assert not is_id("any", FormField("label", "Label", "text"))
