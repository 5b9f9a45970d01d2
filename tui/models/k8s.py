"""Kubernetes clusters, node pools, nodes, versions, API endpoints and kubeconfigs.

Response models are tolerant; request models (:class:`ClusterCreate`, :class:`ClusterUpdate`,
:class:`PoolCreate`, :class:`PoolUpdate`) carry the reference's limits and cross-field rules.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from tui.models.base import ApiModel, RequestModel
from tui.models.rules import When

K8sVersionText = Annotated[str, StringConstraints(pattern=r"^\d+\.\d+$")]
"""A Kubernetes version as ``<major>.<minor>`` (the latest patch is deployed)."""


def has_four_byte_characters(text: str) -> bool:
    """True when ``text`` holds a character that needs four bytes in UTF-8 (emoji and the like)."""
    return any(ord(ch) > 0xFFFF for ch in text)


def check_cluster_label(value: str) -> str:
    """Refuse cluster labels with 4-byte UTF-8 characters, which the service does not support.

    Raises:
        ValueError: The label holds such a character.
    """
    if has_four_byte_characters(value):
        raise ValueError("4-byte UTF-8 characters (such as emoji) are not supported")
    return value


ClusterLabel = Annotated[str, StringConstraints(min_length=1, max_length=32)]


# -- responses ------------------------------------------------------------------------------


class ControlPlane(ApiModel):
    """Control-plane settings of a cluster."""

    high_availability: bool | None = None
    """True when the control plane is replicated (irreversible once enabled)."""


class K8sCluster(ApiModel):
    """A Kubernetes cluster."""

    id: int | None = None
    """Cluster id."""
    label: str | None = None
    """Label, 1..32 characters."""
    region: str | None = None
    """Region id."""
    k8s_version: str | None = None
    """Kubernetes ``<major>.<minor>`` version."""
    status: str | None = None
    """``ready`` or ``not_ready`` (open set)."""
    control_plane: ControlPlane | None = None
    """Control-plane settings."""
    tags: list[str] = Field(default_factory=list)
    """Tags."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


class Autoscaler(ApiModel):
    """Autoscaler settings of a node pool."""

    enabled: bool | None = None
    """True when the pool scales itself between ``min`` and ``max``."""
    min: int | None = None
    """Fewest nodes."""
    max: int | None = None
    """Most nodes."""


class PoolDisk(ApiModel):
    """A custom disk partition of every node of a pool."""

    size: int | None = None
    """Size in MB."""
    type: str | None = None
    """``raw`` or ``ext4``."""


class PoolNode(ApiModel):
    """One node of a pool."""

    id: str | None = None
    """Node id (a string such as ``12345-5f3a2b1c``)."""
    instance_id: int | None = None
    """Id of the compute instance behind the node (changes when the node is recycled)."""
    status: str | None = None
    """``ready`` or ``not_ready``."""


class NodePool(ApiModel):
    """A pool of identical nodes in a cluster."""

    id: int | None = None
    """Pool id."""
    count: int | None = None
    """Number of nodes."""
    type: str | None = None
    """Instance type of the nodes."""
    autoscaler: Autoscaler | None = None
    """Autoscaler settings."""
    disks: list[PoolDisk] = Field(default_factory=list)
    """Custom disk partitions."""
    tags: list[str] = Field(default_factory=list)
    """Tags of the pool."""
    nodes: list[PoolNode] = Field(default_factory=list)
    """Nodes of the pool."""


class ApiEndpoint(ApiModel):
    """A URL of the cluster's Kubernetes API server."""

    endpoint: str | None = None
    """``https://host:port`` of the API server."""


class DashboardUrl(ApiModel):
    """Where the cluster's dashboard is served."""

    url: str | None = None
    """Dashboard URL."""


class Kubeconfig(ApiModel):
    """The cluster's kubeconfig as the API sends it (base64-encoded YAML)."""

    kubeconfig: str | None = None
    """Base64-encoded kubeconfig YAML."""

    def yaml_text(self) -> str:
        """The decoded kubeconfig YAML ('' when absent).

        Raises:
            ValueError: The payload is not base64-encoded UTF-8 text.
        """
        if not self.kubeconfig:
            return ""
        try:
            return base64.b64decode(self.kubeconfig, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError) as exc:
            raise ValueError(f"kubeconfig is not base64-encoded text: {exc}") from None


class K8sVersion(ApiModel):
    """A Kubernetes version clusters can run."""

    id: str | None = None
    """``<major>.<minor>`` version."""


# -- requests -------------------------------------------------------------------------------


class AutoscalerRequest(RequestModel):
    """Autoscaler settings of a pool."""

    required_when: ClassVar[Mapping[str, str]] = {
        "min": "required with max",
        "max": "required with min",
    }
    # The bounds mean something only while the autoscaler is on.
    shown_when: ClassVar[Mapping[str, When]] = {
        "min": When("enabled", (True,)),
        "max": When("enabled", (True,)),
    }

    enabled: bool = False
    """Let the pool scale itself between min and max."""
    min: int | None = Field(default=None, ge=1, le=100)
    """Fewest nodes, 1 to 100 (default: the pool count); give together with max."""
    max: int | None = Field(default=None, ge=1, le=100)
    """Most nodes, 1 to 100 (default: the pool count); give together with min."""

    @model_validator(mode="after")
    def _bounds(self) -> AutoscalerRequest:
        if (self.min is None) != (self.max is None):
            raise ValueError("min and max must be given together")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("min must not exceed max")
        return self


class PoolDiskRequest(RequestModel):
    """A custom disk partition for every node of a pool (immutable; reduces the boot disk)."""

    size: int = Field(ge=1)
    """Size in MB."""
    type: Literal["raw", "ext4"]
    """Raw, or formatted as ext4."""


class PoolCreate(RequestModel):
    """A new node pool."""

    count: int = Field(ge=1, le=100)
    """Number of nodes, 1 to 100."""
    type: str
    """Instance type of the nodes, for example ``std-2``."""
    autoscaler: AutoscalerRequest | None = None
    """Autoscaler settings (off by default)."""
    disks: list[PoolDiskRequest] | None = Field(default=None, max_length=7)
    """Custom disk partitions, at most 7; leave empty except for special cases."""
    tags: list[str] | None = None
    """Tags of the pool."""


class PoolUpdate(RequestModel):
    """Changes to a node pool: nodes are created or deleted to match the count."""

    count: int | None = Field(default=None, ge=1, le=100)
    """Number of nodes, 1 to 100 (local storage of removed nodes is erased)."""
    autoscaler: AutoscalerRequest | None = None
    """Autoscaler settings (replace the current ones)."""


class ControlPlaneRequest(RequestModel):
    """Control-plane settings."""

    irreversible: ClassVar[Mapping[str, tuple[Any, str]]] = {
        "high_availability": (
            True,
            "High availability can never be turned off again; on an existing cluster every "
            "node is replaced and local storage is erased.",
        ),
    }

    high_availability: bool = False
    """Replicate the control plane; cannot be turned off again once on."""


class ClusterCreate(RequestModel):
    """A new Kubernetes cluster."""

    label: ClusterLabel
    """Label, 1 to 32 characters (no emoji or other 4-byte characters)."""
    k8s_version: K8sVersionText
    """Kubernetes version as ``<major>.<minor>``, for example ``1.31``."""
    region: str
    """Region the cluster runs in, for example ``us-east``."""
    node_pools: list[PoolCreate] = Field(min_length=1)
    """At least one node pool."""
    control_plane: ControlPlaneRequest | None = None
    """Control-plane settings (high availability off by default)."""
    tags: list[str] | None = None
    """Tags of the cluster."""

    @field_validator("label")
    @classmethod
    def _label_characters(cls, value: str) -> str:
        return check_cluster_label(value)


class ClusterUpdate(RequestModel):
    """Changes to a cluster."""

    confirm_sent: ClassVar[Mapping[str, str]] = {
        "k8s_version": (
            "The control plane is upgraded to Kubernetes {value}; there is no way back down. "
            "The nodes keep their old version until they are recycled (you are offered that "
            "next)."
        )
    }
    choices_from: ClassVar[Mapping[str, str]] = {"k8s_version": "k8s_upgrade"}

    label: ClusterLabel | None = None
    """New label, 1 to 32 characters (no emoji or other 4-byte characters)."""
    k8s_version: K8sVersionText | None = None
    """Upgrade to the next minor version only (1.30 -> 1.31); no downgrades."""
    tags: list[str] | None = None
    """Complete tag list: a tag left out is removed."""
    control_plane: ControlPlaneRequest | None = None
    """Enable high availability (irreversible; all nodes are replaced)."""

    @field_validator("label")
    @classmethod
    def _label_characters(cls, value: str | None) -> str | None:
        return check_cluster_label(value) if value is not None else None
