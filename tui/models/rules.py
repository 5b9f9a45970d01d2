"""Fields that follow the choice: data beside a request model saying when an input is asked.

A request model lists its conditional fields in ``RequestModel.shown_when`` (field -> a
:class:`When`): a DNS record's ``weight`` is asked only for SRV records and is then required; a
load balancer config's ``ssl_cert`` only for https. One mechanism reads these rules: the form
builder hides the inputs (:mod:`tui.resources.forms`), the client-side check drops hidden
inputs from the body and reports a missing required one, and so the request preview shows
only what will be sent. Each rule's values come from the reference (the spec text).

A model may also ask for an input that is no field of its own (``RequestModel.parts``, a
:class:`Part`): a balancer node's port, sent inside its ``address``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

NOT_SENT: Any = object()
"""Marker of :attr:`When.blank`: a blank input is left out of the body (the usual case)."""

GIVEN = "<given>"
"""A value of :attr:`When.values` that matches any value filled in (an image chosen)."""


@dataclass(frozen=True, eq=False)
class When:
    """An input asked only while another input of the same request holds certain values.

    Attributes:
        field: The input that decides (a sibling field name; dotted once read by a form).
        values: The values of ``field`` that show this input.
        required: True: required whenever shown; a tuple: required for those values only.
        unset: The value ``field`` has when left blank (the server's default, per the spec):
            a load balancer config without ``protocol`` is http.
        blank: Value of ``field`` -> what a blank input sends instead of nothing (an MX
            record's empty target is the spec's Null MX, sent as ``""``).
        notes: Value of ``field`` -> the hint shown for that value (``IPv6 address`` for AAAA).
    """

    field: str
    values: tuple[Any, ...]
    required: bool | tuple[Any, ...] = False
    unset: Any = None
    blank: Mapping[Any, Any] = dataclasses.field(default_factory=dict)
    notes: Mapping[Any, str] = dataclasses.field(default_factory=dict)

    def decider(self, raw: Any) -> Any:
        """The deciding value for the deciding input's raw value (blank: :attr:`unset`)."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return self.unset
        return raw

    def shows(self, value: Any) -> bool:
        """True when the deciding value ``value`` shows the input."""
        if GIVEN in self.values and value is not None:
            return True
        return value in self.values

    def needs(self, value: Any) -> bool:
        """True when the input is shown and required for ``value``."""
        if not self.shows(value):
            return False
        if isinstance(self.required, tuple):
            return value in self.required or (GIVEN in self.required and value is not None)
        return self.required

    def blank_value(self, value: Any) -> Any:
        """What a blank input sends for ``value`` (:data:`NOT_SENT`: nothing)."""
        return self.blank.get(value, NOT_SENT)

    def note(self, value: Any) -> str:
        """The hint for ``value`` ('' when none)."""
        return self.notes.get(value, "")

    def at(self, prefix: str) -> When:
        """This rule with its deciding field read under ``prefix`` (a nested or repeated row)."""
        return When(
            f"{prefix}{self.field}",
            self.values,
            self.required,
            self.unset,
            self.blank,
            self.notes,
        )

    def describe(self, value: Any) -> str:
        """``when type is SRV``: why the input is required, in words."""
        name = self.field.rsplit(".", 1)[-1]
        if GIVEN in self.values and value not in self.values:
            return f"with {name}"
        return f"when {name} is {value}"


Join = Callable[[Any, Any], Any]
"""``(the field's value, the part's value) -> the value sent``; raises ValueError with a
message for the part's input when they cannot be joined."""

Split = Callable[[Any], tuple[Any, Any]]
"""``stored value -> (the field's value, the part's value)`` (None for a part not given)."""


@dataclass(frozen=True, eq=False)
class Part:
    """A form input that is no field of the request: its value travels inside another field.

    A balancer node's ``address`` is ``ip`` or ``ip:port``; the form asks for the address
    (chosen among the instances' private ones) and the port (typed), and sends them joined.
    The model lists its parts in ``RequestModel.parts`` (input name -> this rule); the form
    builder adds the input after :attr:`into`, the body builder joins it in, and an edit form's
    stored value is split back into both.

    Attributes:
        into: The field the value joins (a sibling field name).
        title: The input's label.
        help: The input's help text.
        ge: Smallest accepted number.
        le: Largest accepted number.
        join: Builds the value sent from both inputs.
        split: Splits a stored value into both inputs.
    """

    into: str
    title: str
    help: str
    join: Join
    split: Split
    ge: int | None = None
    le: int | None = None


OFFERED = "offered"
"""``json_schema_extra`` key of the ``(text, value)`` pairs a form offers as a drop-down (see
:func:`offered`)."""


def offered(choices: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The ``json_schema_extra`` of a field whose form offers ``choices`` as a drop-down.

    For values the model does not bound to a list: the server rounds any other value to a
    valid one, or the reference names the usual values without refusing others. The form
    offers the values; the model still accepts what it accepted.

    Args:
        choices: ``(text, value)`` pairs, in the order offered.
    """
    return {OFFERED: [[text, value] for text, value in choices]}


SUGGESTED = "suggested"
"""``json_schema_extra`` key naming where a free field's likely values come from (see
:func:`suggested`)."""


def suggested(source: str) -> dict[str, Any]:
    """The ``json_schema_extra`` of a free field whose form suggests values it may take.

    The value stays free (a new contact group, an address outside the account): the form
    completes what is typed from the values named and offers them in a chooser, and the model
    still decides what it accepts.

    Args:
        source: Name of the listing in
            :data:`tui.resources.forms.choices.SUGGESTION_SOURCES`.
    """
    return {SUGGESTED: source}
