"""Object storage: clusters, buckets, bucket contents, object ACLs, TLS certificates, access keys.

Response models are tolerant; request models carry the reference's rules (bucket label shape,
ACL values, pre-signed URL lifetime) so bad input is refused before it is sent.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import Field, SecretStr, StringConstraints, field_validator, model_validator

from tui.models.base import ApiModel, RequestModel
from tui.models.pem import PemCertificate, PemPrivateKey

BucketAcl = Literal["private", "public-read", "authenticated-read", "public-read-write"]
"""Canned ACLs a bucket can be created with."""

Acl = Literal["private", "public-read", "authenticated-read", "public-read-write", "custom"]
"""Every ACL value: the canned ones plus ``custom`` (a policy set through the S3 API)."""

UrlMethod = Literal["GET", "PUT", "DELETE"]
"""What a pre-signed URL allows: download, upload (create or replace) or delete."""

KeyPermissions = Literal["read_only", "read_write"]
"""Access of a limited key to one bucket."""

BUCKET_LABEL = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
"""S3 bucket naming: 3..63 lowercase letters, digits, ``-`` and ``.``, starting and ending with a
letter or digit."""

URL_EXPIRES_MIN = 360
URL_EXPIRES_MAX = 86400
URL_EXPIRES_DEFAULT = 3600


def bucket_label_problem(label: str) -> str | None:
    """Why ``label`` is not a valid bucket label, or None when it is.

    Args:
        label: Proposed bucket label.

    Returns:
        A short reason, or None.
    """
    if not 3 <= len(label) <= 63:
        return "must be 3 to 63 characters"
    if not BUCKET_LABEL.fullmatch(label):
        return (
            "use lowercase letters, digits, '-' and '.' only, starting and ending with a "
            "letter or digit"
        )
    if ".." in label or ".-" in label or "-." in label:
        return "must not contain '..', '.-' or '-.'"
    try:
        ipaddress.IPv4Address(label)
    except ValueError:
        return None
    return "must not be formatted as an IP address"


# -- responses ------------------------------------------------------------------------------


class StorageCluster(ApiModel):
    """An object storage cluster (one per region that offers object storage)."""

    id: str | None = None
    """Cluster id, for example ``us-east-1``."""
    region: str | None = None
    """Region the cluster is in."""
    domain: str | None = None
    """Base address for third-party S3 clients."""
    static_site_domain: str | None = None
    """Base address of static websites served from buckets."""
    status: str | None = None
    """``available`` or ``unavailable``."""


class Bucket(ApiModel):
    """A bucket."""

    label: str | None = None
    """Bucket label, unique within its cluster."""
    cluster: str | None = None
    """Id of the cluster holding the bucket."""
    created: str | None = None
    """Creation time (UTC)."""
    hostname: str | None = None
    """Address of the bucket (reachable in a browser if the bucket is public)."""
    objects: int | None = None
    """Number of objects."""
    size: int | None = None
    """Total size of the objects, bytes."""


class ObjectEntry(ApiModel):
    """One entry of a bucket listing: an object, or a common prefix ("folder")."""

    name: str | None = None
    """Object name (key); a folder entry ends with the delimiter."""
    size: int | None = None
    """Size in bytes (0 for folder entries)."""
    etag: str | None = None
    """Entity tag (MD5 of the content for simple uploads); null for folder entries."""
    last_modified: str | None = None
    """Last change (UTC); null for folder entries."""
    owner: str | None = None
    """Canonical id of the object's owner."""
    is_truncated: bool | None = None
    """Set by some servers on entries; the listing's own flag is on :class:`ObjectList`."""
    next_marker: str | None = None
    """Set by some servers on entries; the listing's own marker is on :class:`ObjectList`."""

    @property
    def is_folder(self) -> bool:
        """True for a common-prefix entry produced by a ``delimiter`` listing."""
        return bool(self.name) and self.etag is None and self.last_modified is None


class ObjectList(ApiModel):
    """One page of a bucket listing, S3 style (pages chained by ``next_marker``)."""

    data: list[ObjectEntry] = Field(default_factory=list)
    """Objects and folder entries, in name order."""
    is_truncated: bool | None = None
    """True when more entries follow; ask again with ``marker=next_marker``."""
    next_marker: str | None = None
    """Marker for the next page, when truncated."""


class ObjectAcl(ApiModel):
    """The access rules of one object."""

    acl: str | None = None
    """``private``, ``public-read``, ``authenticated-read``, ``public-read-write`` or ``custom``."""
    acl_xml: str | None = None
    """The full ACL policy in XML."""


class ObjectUrl(ApiModel):
    """A pre-signed URL."""

    url: str | None = None
    """Use with the method it was created for, before it expires; no token needed."""


class BucketSsl(ApiModel):
    """Whether a bucket has a TLS certificate."""

    ssl: bool | None = None
    """True when a certificate and key are installed."""


class KeyBucketAccess(ApiModel):
    """Access of a limited key to one bucket."""

    cluster: str | None = None
    """Cluster of the bucket."""
    bucket_name: str | None = None
    """Bucket label."""
    permissions: str | None = None
    """``read_only`` or ``read_write``."""


class StorageKey(ApiModel):
    """An object storage access key pair."""

    id: int | None = None
    """Key id."""
    label: str | None = None
    """Display label."""
    access_key: str | None = None
    """Access key id (not secret)."""
    secret_key: SecretStr | None = None
    """Secret key: returned only when the key is created; shown once, never again."""
    limited: bool | None = None
    """True for a key confined to the buckets in ``bucket_access``."""
    bucket_access: list[KeyBucketAccess] | None = None
    """Buckets a limited key may use; null for an unlimited key."""


# -- requests -------------------------------------------------------------------------------


class BucketCreate(RequestModel):
    """A new bucket."""

    label: Annotated[str, StringConstraints(min_length=3, max_length=63)]
    """3 to 63 lowercase letters, digits, ``-`` and ``.``; starts and ends with a letter or
    digit; unique in the cluster."""
    cluster: Annotated[str, StringConstraints(min_length=1)]
    """Cluster to create the bucket in, for example ``us-east-1``."""
    cors_enabled: bool | None = None
    """Allow cross-origin requests from every origin."""
    acl: BucketAcl | None = None
    """Canned ACL: ``private`` (default), ``public-read``, ``authenticated-read`` or
    ``public-read-write``."""

    @field_validator("label")
    @classmethod
    def _label_rules(cls, value: str) -> str:
        problem = bucket_label_problem(value)
        if problem:
            raise ValueError(problem)
        return value


class BucketAccess(RequestModel):
    """New basic access settings of a bucket; only the fields set change."""

    acl: Acl | None = None
    """Canned ACL, or ``custom``."""
    cors_enabled: bool | None = None
    """Allow cross-origin requests from every origin."""


class ObjectAclUpdate(RequestModel):
    """New ACL of one object."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=1024)]
    """Object name (key)."""
    acl: Acl
    """``private``, ``public-read``, ``authenticated-read``, ``public-read-write`` or
    ``custom``."""


class ObjectUrlCreate(RequestModel):
    """A pre-signed URL request."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=1024)]
    """Object name (key); the object need not exist (for uploads)."""
    method: UrlMethod = "GET"
    """``GET`` to download, ``PUT`` to upload, ``DELETE`` to delete."""
    expires_in: int | None = Field(default=None, ge=URL_EXPIRES_MIN, le=URL_EXPIRES_MAX)
    """Lifetime in seconds, 360 to 86400 (default 3600)."""
    content_type: (
        Annotated[str, StringConstraints(pattern=r"^[\w.+-]+/[\w.+-]+(;.*)?$", max_length=255)]
        | None
    ) = None
    """For uploads: the Content-Type the upload must send, for example ``text/html``."""


class BucketSslUpload(RequestModel):
    """A TLS certificate and its private key for a bucket."""

    certificate: PemCertificate
    """PEM certificate (``-----BEGIN CERTIFICATE-----`` ...)."""
    private_key: PemPrivateKey
    """PEM private key of the certificate."""


class BucketAccessGrant(RequestModel):
    """Access of a new limited key to one bucket."""

    choices_from: ClassVar[Mapping[str, str]] = {"bucket_name": "bucket_in_cluster"}

    cluster: Annotated[str, StringConstraints(min_length=1)]
    """Cluster of the bucket."""
    bucket_name: Annotated[str, StringConstraints(min_length=3, max_length=63)]
    """Bucket label."""
    permissions: KeyPermissions
    """``read_only`` or ``read_write``."""


class StorageKeyCreate(RequestModel):
    """A new access key pair."""

    never_null: ClassVar[frozenset[str]] = frozenset({"label", "bucket_access"})

    label: Annotated[str, StringConstraints(min_length=1, max_length=50)] | None = None
    """Display label, 1 to 50 characters."""
    bucket_access: list[BucketAccessGrant] | None = None
    """Leave unset for an unlimited key; set (even empty) for a key limited to these
    buckets."""

    @model_validator(mode="after")
    def _unique_buckets(self) -> StorageKeyCreate:
        seen: set[tuple[str, str]] = set()
        for entry in self.bucket_access or []:
            key = (entry.cluster, entry.bucket_name)
            if key in seen:
                raise ValueError(f"bucket {entry.cluster}/{entry.bucket_name} is listed twice")
            seen.add(key)
        return self
