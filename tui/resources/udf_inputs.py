"""A deployment script's user-defined fields as form inputs (without a terminal).

:mod:`tui.resources.udf` reads the ``<UDF ...>`` tags; this module turns them into
:class:`~tui.resources.forms.FormField` inputs for the generic form builder. It is apart from
the parser because the parser sits below :mod:`tui.resources.format` (which previews a
script's fields), and the form builder sits above it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tui.resources.forms import FieldKind, FormField
from tui.resources.udf import Udf, choices_of, help_of, initial_value, input_name
from tui.untrusted import shown


def udf_form_fields(udfs: Sequence[Udf], script_label: str = "") -> tuple[FormField, ...]:
    """Form inputs for ``udfs`` under a group named after the script.

    A ``oneof`` becomes a choice, a ``manyof`` a multi-choice, a secret-looking one a masked
    input, the rest text; the default is the input's default (prefilled by the form), and an
    input without one is required.
    """
    # Labels, help and the script's name are written by whoever wrote the script.
    group = f"Script fields: {shown(script_label)}" if script_label else "Script fields"
    out: list[FormField] = []
    for udf in udfs:
        kind: FieldKind = "text"
        if udf.oneof:
            kind = "choice"
        elif udf.manyof:
            kind = "multi"
        elif udf.secret:
            kind = "secret"
        out.append(
            FormField(
                input_name(udf),
                shown(udf.label),
                kind,
                required=udf.required,
                help=shown(help_of(udf)),
                choices=tuple((v, v) for v in choices_of(udf)),
                group=group,
                default=initial_value(udf),
                max_length=None,
            )
        )
    return tuple(out)
