"""Deployment scripts (run when an instance is provisioned).

:class:`DeployScript` is the tolerant response; :class:`DeployScriptCreate` and
:class:`DeployScriptUpdate` carry the reference's limits. The server parses the script's
``<UDF name="..." label="..." />`` tags into :attr:`DeployScript.user_defined_fields`, which an
instance-create form turns into inputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import Field, StringConstraints, field_validator

from tui.models.base import ApiModel, RequestModel

ANY_IMAGE = "any/all"
"""Image entry meaning every image, private ones included."""

ScriptLabel = Annotated[str, StringConstraints(min_length=3, max_length=128)]


def check_script_text(value: str) -> str:
    """Refuse a script that does not start with an interpreter line (``#!``).

    Raises:
        ValueError: The script does not start with ``#!``.
    """
    if not value.startswith("#!"):
        raise ValueError("the script must start with an interpreter line such as #!/bin/bash")
    return value


# -- responses ------------------------------------------------------------------------------


class UserDefinedField(ApiModel):
    """An input a script asks for at deployment (from a ``<UDF ... />`` tag)."""

    name: str | None = None
    """Variable name the script receives."""
    label: str | None = None
    """Question shown to the user."""
    default: str | None = None
    """Default value (the field is optional when present)."""
    example: str | None = None
    """Example value."""
    oneof: str | None = None
    """Comma-separated choices (pick one)."""
    manyof: str | None = None
    """Comma-separated choices (pick several)."""


class DeployScript(ApiModel):
    """A deployment script."""

    id: int | None = None
    """Script id."""
    label: str | None = None
    """Label, 3..128 characters."""
    description: str | None = None
    """What the script does."""
    images: list[str] = Field(default_factory=list)
    """Image ids the script can be deployed with (``any/all``: every image)."""
    is_public: bool | None = None
    """Public scripts are visible to everyone and can never become private again."""
    rev_note: str | None = None
    """Note about the latest revision."""
    script: str | None = None
    """The script itself, starting with ``#!``."""
    username: str | None = None
    """Owner."""
    deployments_total: int | None = None
    """Instances ever deployed with the script."""
    deployments_active: int | None = None
    """Instances deployed with it that still exist."""
    user_defined_fields: list[UserDefinedField] = Field(default_factory=list)
    """Inputs the script asks for at deployment."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


# -- requests -------------------------------------------------------------------------------


PUBLISHING = "A public script is visible to everyone and can never be made private or deleted."
"""What ticking "Is public" means (the typed confirmation says it)."""


class DeployScriptCreate(RequestModel):
    """A new deployment script."""

    irreversible: ClassVar[Mapping[str, tuple[Any, str]]] = {
        "is_public": (
            True,
            "A public script is visible to everyone and can never be made private or deleted.",
        ),
    }

    label: ScriptLabel
    """Label, 3 to 128 characters."""
    images: list[str] = Field(min_length=1)
    """Image ids the script works with, for example ``compute/debian12``; ``any/all`` for
    every image."""
    script: str
    """The script, starting with an interpreter line such as ``#!/bin/bash``; declare inputs
    with ``<UDF name="..." label="..." />`` tags."""
    description: str | None = None
    """What the script does."""
    rev_note: str | None = None
    """Note about this revision."""
    is_public: bool | None = None
    """Publish the script to everyone (default off); this cannot be undone."""

    @field_validator("script")
    @classmethod
    def _shebang(cls, value: str) -> str:
        return check_script_text(value)


class DeployScriptUpdate(RequestModel):
    """Changes to one of your deployment scripts."""

    irreversible: ClassVar[Mapping[str, tuple[Any, str]]] = {
        "is_public": (
            True,
            "A public script is visible to everyone and can never be made private or deleted.",
        ),
    }

    label: ScriptLabel | None = None
    """Label, 3 to 128 characters."""
    images: list[str] | None = Field(default=None, min_length=1)
    """Image ids the script works with; ``any/all`` for every image."""
    script: str | None = None
    """The script, starting with ``#!``."""
    description: str | None = None
    """What the script does."""
    rev_note: str | None = None
    """Note about this revision."""
    is_public: bool | None = None
    """Publish the script (irreversible: a public script can never become private)."""

    @field_validator("script")
    @classmethod
    def _shebang(cls, value: str | None) -> str | None:
        return check_script_text(value) if value is not None else None
