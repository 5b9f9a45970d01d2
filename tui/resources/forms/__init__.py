"""Forms generated from request models (headless).

:func:`form_for` reads a :class:`~tui.models.base.RequestModel` and describes one input per field:
its kind (text, number, choice, switch, secret, list, JSON, multi-line text), whether it is
required, its bounds, help text (the field's docstring) and, where the API has them, where its
choices come from (regions, types, images ...). Nested objects become groups of inputs; short
lists of objects (interfaces: at most 3) become repeated groups; anything else structured is
edited as JSON.

:func:`build_body` turns what the user typed back into a request body and validates it with the
same model, so client-side errors name the same fields as the inputs; :func:`field_errors`
places a server's ``errors[].field`` on those inputs too. Widgets only ever hold strings, bools
and chosen values; every conversion lives here where it is tested without a terminal.

The package's modules, one job each: :mod:`~tui.resources.forms.spec` (what a form is),
:mod:`~tui.resources.forms.choices` (where choices come from),
:mod:`~tui.resources.forms.describe` (a form from a model), :mod:`~tui.resources.forms.body`
(a body from the inputs), :mod:`~tui.resources.forms.errors` (errors placed on inputs) and
:mod:`~tui.resources.forms.passwords`. Callers import from the package.
"""

from __future__ import annotations

from tui.resources.forms.body import build_body, display_value, initial_values
from tui.resources.forms.choices import (
    CHOICE_SOURCES,
    SUGGESTION_SOURCES,
    ChoiceSource,
    choice_context,
    next_minor,
)
from tui.resources.forms.describe import (
    add_row,
    asks_only_per_item,
    empty_cautions,
    form_for,
    form_title,
    irreversible_changes,
    sent_notes,
    with_pickers,
)
from tui.resources.forms.errors import field_errors, humanize, place, validation_message
from tui.resources.forms.passwords import generate_password
from tui.resources.forms.spec import FieldKind, FormField, FormResult, FormSpec, Repeat

__all__ = [
    "CHOICE_SOURCES",
    "SUGGESTION_SOURCES",
    "ChoiceSource",
    "FieldKind",
    "FormField",
    "FormResult",
    "FormSpec",
    "Repeat",
    "add_row",
    "asks_only_per_item",
    "build_body",
    "choice_context",
    "display_value",
    "empty_cautions",
    "field_errors",
    "form_for",
    "form_title",
    "generate_password",
    "humanize",
    "initial_values",
    "irreversible_changes",
    "next_minor",
    "place",
    "sent_notes",
    "validation_message",
    "with_pickers",
]
