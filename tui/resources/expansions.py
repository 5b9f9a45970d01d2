"""Inputs that a chosen record adds to a form, declared as data (without a terminal).

Choosing a deployment script in "New instance" (or "New disk") adds one input per user-defined
field of that script, in place of the raw ``stackscript_data`` JSON: the form loads the record
named in :attr:`FieldExpansion.endpoint` and asks :attr:`FieldExpansion.fields` what to show.
The generic form builder nests the inputs (``stackscript_data.<name>``) into the body.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tui.resources.forms import FormField, FormSpec
from tui.resources.udf import DATA_FIELD, udfs_of
from tui.resources.udf_inputs import udf_form_fields


@dataclass(frozen=True)
class FieldExpansion:
    """Inputs that follow the record chosen in one field.

    Attributes:
        endpoint: Operation that reads the chosen record.
        param: Its path parameter, filled with the chosen value.
        prefix: Name prefix of the added inputs (replaced whenever the choice changes).
        replaces: An input the added ones stand for, left out of the form.
        fields: The inputs for a record.
        problems: What is wrong in the record (malformed tags), shown under the choice.
    """

    endpoint: str
    param: str
    prefix: str
    replaces: str
    fields: Callable[[Mapping[str, Any]], tuple[FormField, ...]]
    problems: Callable[[Mapping[str, Any]], list[str]]


def _script_fields(record: Mapping[str, Any]) -> tuple[FormField, ...]:
    return udf_form_fields(udfs_of(record).fields, str(record.get("label") or ""))


def _script_problems(record: Mapping[str, Any]) -> list[str]:
    return udfs_of(record).problems


EXPANSIONS: dict[str, FieldExpansion] = {
    "stackscript_id": FieldExpansion(
        endpoint="deployscripts.view",
        param="deployscriptId",
        prefix=f"{DATA_FIELD}.",
        replaces=DATA_FIELD,
        fields=_script_fields,
        problems=_script_problems,
    ),
}
"""Field name -> the inputs its chosen record adds."""


def with_expansions(form: FormSpec) -> FormSpec:
    """``form`` without the inputs an expansion stands for (the raw script answers)."""
    names = {f.name for f in form.fields}
    dropped = {e.replaces for name, e in EXPANSIONS.items() if name in names}
    if not dropped & names:
        return form
    return replace(form, fields=tuple(f for f in form.fields if f.name not in dropped))


def expanded(form: FormSpec, after: str, prefix: str, fields: tuple[FormField, ...]) -> FormSpec:
    """``form`` with the inputs named ``prefix...`` replaced by ``fields`` (after ``after``)."""
    kept = [f for f in form.fields if not f.name.startswith(prefix)]
    at = next((i + 1 for i, f in enumerate(kept) if f.name == after), len(kept))
    return replace(form, fields=(*kept[:at], *fields, *kept[at:]))
