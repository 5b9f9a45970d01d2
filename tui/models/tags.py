"""Tags and the objects carrying them.

A tag exists when it was created explicitly or when any instance, domain, volume or load
balancer carries it. Tagged objects come back as a mixed collection of ``{type, data}`` entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import Field, StringConstraints

from tui.models.base import ApiModel, RequestModel

TAG_LABEL_MIN, TAG_LABEL_MAX = 3, 50

TaggedKind = str
"""``compute``, ``domain``, ``volume`` or ``loadbalancer`` (an open set in responses)."""

TagLabel = Annotated[str, StringConstraints(min_length=TAG_LABEL_MIN, max_length=TAG_LABEL_MAX)]


# -- responses ------------------------------------------------------------------------------


class Tag(ApiModel):
    """A tag."""

    label: str | None = None
    """The tag, 3..50 characters."""


class TaggedObject(ApiModel):
    """One object carrying a tag: its kind and its fields as that kind's API returns them."""

    type: TaggedKind | None = None
    """``compute``, ``domain``, ``volume`` or ``loadbalancer``."""
    data: dict[str, Any] = Field(default_factory=dict)
    """The object itself (an instance, domain, volume or load balancer)."""

    @property
    def object_id(self) -> Any:
        """The object's id."""
        return self.data.get("id")

    @property
    def object_label(self) -> str:
        """A display name: the label, or the domain name for domains."""
        for key in ("label", "domain"):
            value = self.data.get(key)
            if value:
                return str(value)
        return "" if self.object_id is None else str(self.object_id)


# -- requests -------------------------------------------------------------------------------


class TagCreate(RequestModel):
    """A new tag, optionally put at once on objects you have read_write access to."""

    # The objects are ticked in their listings, never typed as ids.
    choices_from: ClassVar[Mapping[str, str]] = {
        "domains": "tag_domains",
        "computes": "tag_computes",
        "loadbalancers": "tag_loadbalancers",
        "volumes": "tag_volumes",
    }

    label: TagLabel
    """The tag, 3 to 50 characters."""
    domains: list[int] | None = None
    """Domains to tag (sent as their ids)."""
    computes: list[int] | None = None
    """Instances to tag (sent as their ids)."""
    loadbalancers: list[int] | None = None
    """Load balancers to tag (sent as their ids)."""
    volumes: list[int] | None = None
    """Volumes to tag (sent as their ids)."""
