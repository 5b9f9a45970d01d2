"""Which inputs of a form are asked now, from the rules beside its request model (headless).

The form builder (:mod:`tui.resources.forms`) copies each model's ``shown_when`` rules onto its
inputs; this module evaluates them against what is typed so far. The widget hides the inputs
:func:`hidden_names` gives, :func:`~tui.resources.forms.build_body` leaves them out of the body
and asks for the ones a rule requires, and :func:`hint_note` gives the hint of the value chosen
(a DNS record's target reads "IPv6 address" for AAAA).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tui.resources.spec import dig

if TYPE_CHECKING:
    # The types alone (never the package: its body builder imports this module).
    from tui.resources.forms.spec import FormField, FormSpec


def deciding_values(
    form: FormSpec, values: Mapping[str, Any], context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Input name -> the value its rule is decided by, for every input that has a rule.

    Args:
        form: The form.
        values: Raw input values by name.
        context: The item an edit form is about: a rule whose deciding field is not an input
            (a record's ``type`` cannot change) reads it there.
    """
    names = {f.name for f in form.fields}
    out: dict[str, Any] = {}
    for f in form.fields:
        if f.rule is None:
            continue
        key = f.rule.field
        raw = values.get(key) if key in names else dig(context or {}, key)
        out[f.name] = f.rule.decider(raw)
    return out


def hidden_names(
    form: FormSpec, values: Mapping[str, Any], context: Mapping[str, Any] | None = None
) -> set[str]:
    """Inputs not asked now: their rule does not hold, or the input deciding them is hidden."""
    decided = deciding_values(form, values, context)
    hidden: set[str] = set()
    for f in form.fields:  # deciding inputs come first in model order
        if f.rule is None:
            continue
        if f.rule.field in hidden or not f.rule.shows(decided[f.name]):
            hidden.add(f.name)
    return hidden


def required_now(f: FormField, decided: Mapping[str, Any]) -> bool:
    """True when ``f`` must be filled: required by the model, or by its rule for this value."""
    if f.rule is None:
        return f.required
    return f.required or f.rule.needs(decided.get(f.name))


def hint_note(f: FormField, decided: Mapping[str, Any]) -> str:
    """The rule's hint for the value chosen now ('' when none)."""
    return f.rule.note(decided.get(f.name)) if f.rule is not None else ""
