"""Base classes of every API model.

Responses use :class:`ApiModel`: unknown fields are kept and unknown enum values are accepted
(statuses are plain ``str``), so a newer server never breaks the client. Request bodies use
:class:`RequestModel`: unknown fields are refused and the reference's limits are ``Field``
constraints, so bad input is caught before it is sent. A request model's attribute docstrings
become form help (:func:`tui.models.docs.field_help`; a response model's are documentation
only). Both build their validators on first use, so importing a models module stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, SecretStr, StringConstraints, model_validator
from pydantic_core import to_jsonable_python

from tui.models.rules import Part, When


class ApiModel(BaseModel):
    """A resource as the API returns it: tolerant of new fields and values."""

    # Built on first validation, not at import (defer_build): a listing needs one model of a
    # module of forty. Attribute docstrings stay documentation here: nothing reads a response
    # field's description, and extracting them (pydantic tokenizes each class's source) was
    # half of importing a models module.
    model_config = ConfigDict(extra="allow", populate_by_name=True, frozen=False, defer_build=True)

    def raw(self) -> dict[str, Any]:
        """The resource as JSON-ready data (including fields this client does not know)."""
        return self.model_dump(mode="json")


class RequestModel(BaseModel):
    """A request body: strict, with the reference's limits as constraints."""

    # Attribute docstrings are form help, read when a form asks (tui.models.docs): pydantic's
    # use_attribute_docstrings made each models import look up the path of every module.
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        validate_assignment=True,
        defer_build=True,  # built when a form or a call first uses it, not at import
    )

    required_when: ClassVar[Mapping[str, str]] = {}
    """Fields the model's own checks require in some cases -> when, in words (``"required for
    a master zone"``). Forms show this instead of "optional", so a field shown optional is
    never then reported missing."""

    irreversible: ClassVar[Mapping[str, tuple[Any, str]]] = {}
    """Fields whose value, once sent, cannot be taken back -> (that value, what it means).
    Forms ask for a typed confirmation before sending it."""

    confirm_sent: ClassVar[Mapping[str, str]] = {}
    """Fields whose sending is confirmed first, whatever the value -> what it does, in words
    (``{value}`` is the value sent): a Kubernetes upgrade cannot be taken back and leaves the
    nodes on the old version until they are recycled."""

    warn_when_empty: ClassVar[Mapping[str, str]] = {}
    """Fields whose absence (or empty value) in a body has a consequence worth a second look
    -> that consequence, in words. Forms confirm before sending such a body, saying it."""

    shown_when: ClassVar[Mapping[str, When]] = {}
    """Fields asked only while another field holds certain values -> the rule (see
    :mod:`tui.models.rules`). Forms hide the others, and a hidden input is never sent."""

    choices_from: ClassVar[Mapping[str, str]] = {}
    """Fields whose choices come from the API under another name than their own -> that
    name in the form builder's choice sources (a balancer node's ``address`` is picked among
    the instances' private addresses; a managed service's ``address`` is typed)."""

    parts: ClassVar[Mapping[str, Part]] = {}
    """Form inputs that are no field of the request -> how their value travels inside one
    (see :class:`~tui.models.rules.Part`): a balancer node's port, sent in its ``address``."""

    never_null: ClassVar[frozenset[str]] = frozenset()
    """Optional fields the API refuses as ``null``: left out they take the server's default,
    sent they must hold a value (an access key's ``bucket_access``, where null would be
    neither "unlimited" nor "no buckets")."""

    several_only: ClassVar[frozenset[str]] = frozenset()
    """Choice fields asked only when their choices offer more than one value (a boot's
    configuration profile): with one, the server's default is that one, and an action whose
    form has nothing else to ask is a plain confirmation."""

    @model_validator(mode="before")
    @classmethod
    def _refuse_null(cls, data: Any) -> Any:
        if cls.never_null and isinstance(data, Mapping):
            for name in sorted(cls.never_null):
                if name in data and data[name] is None:
                    raise ValueError(f"{name}: cannot be removed (null is not a value here)")
        return data

    def body(self) -> dict[str, Any]:
        """The JSON body with only the fields that were set; secrets revealed for sending."""
        data = self.model_dump(mode="python", exclude_unset=True, by_alias=True)
        revealed: dict[str, Any] = to_jsonable_python(_reveal(data))
        return revealed


def _reveal(value: Any) -> Any:
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    if isinstance(value, dict):
        return {k: _reveal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_reveal(v) for v in value]
    return value


Label3to64 = Annotated[str, StringConstraints(min_length=3, max_length=64)]
Label3to32 = Annotated[str, StringConstraints(min_length=3, max_length=32)]
Password = Annotated[SecretStr, Field(json_schema_extra={"secret": True})]
"""A secret string: masked in forms, repr and logs; revealed only in :meth:`RequestModel.body`."""
