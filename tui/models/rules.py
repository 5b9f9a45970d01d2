"""Fields that follow the choice: data beside a request model saying when an input is asked.

A request model lists its conditional fields in ``RequestModel.shown_when`` (field -> a
:class:`When`): a DNS record's ``weight`` is asked only for SRV records and is then required; a
load balancer config's ``ssl_cert`` only for https. One mechanism reads these rules: the form
builder hides the inputs (:mod:`tui.resources.forms`), the client-side check drops hidden
inputs from the body and reports a missing required one, and so the request preview shows
only what will be sent. Each rule's values come from the reference (the spec text).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
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
