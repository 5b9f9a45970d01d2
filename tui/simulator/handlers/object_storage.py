"""Object storage: clusters, buckets, bucket contents, object ACLs, pre-signed URLs, TLS
certificates, access keys and cancellation.

Choices where the reference is silent:

* The reference has no object storage grants: restricted users may do whatever their token's
  scopes allow (buckets and keys belong to the account, shared by its users).
* Buckets of other accounts exist (``_account`` differs): they are invisible, but their label is
  taken in their cluster. A cluster that is ``unavailable`` refuses new buckets.
* A bucket's ACL and CORS setting are kept internally (the Bucket resource has no such fields).
* Object names are stored whole; ``object-list`` works like S3 ListObjects: names sorted by code
  point (= UTF-8 byte order), ``prefix`` filter, ``delimiter`` roll-up into folder entries
  (name ending in the delimiter, size 0, no etag or date), ``marker`` (entries after it) and
  ``page_size`` 25..500 (default 100). The answer is ``{data, is_truncated, next_marker}``.
* Object ACL view needs ``name``; the object must exist (404 naming ``name``).
* Pre-signed URLs point at this simulator (``/_sim/objects/{cluster}/{bucket}/{name}``) and carry
  method, expiry (epoch seconds), optional content type and an HMAC signature keyed by a secret in
  the store. ``content_type`` binds uploads only: a PUT must then send that Content-Type.
  Methods: GET, PUT, DELETE. Uploads are limited to ``Simulator.upload_limit`` bytes. A GET
  honours one ``Range`` (206 with ``Content-Range``; 416 when unsatisfiable), so an interrupted
  download can resume. The fault settings apply to these URLs under the name
  ``object_storage.transfer``.
* Uploading a TLS certificate while one is installed is refused (409): delete it first, as the
  reference says for expired certificates. The key must be the certificate's.
* Key ``label`` is optional (1..50 characters, default ``key-<id>``). ``bucket_access`` is an
  array when sent: ``null`` is refused (400) rather than read as "omitted", since omitting it
  makes an unlimited key and ``[]`` a key with no access; unlimited keys show
  ``bucket_access: null``.
* Cancel removes the account's buckets, their objects and every key, and answers ``{}`` even when
  there was nothing to remove.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import re
import secrets
import string
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, unquote
from xml.sax.saxutils import escape

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from starlette.requests import Request
from starlette.responses import Response

from tui.api.endpoints import PAGE_SIZE_MIN, PART1_PAGE_SIZE_MAX
from tui.models import pem
from tui.simulator.clock import iso
from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import SimError, bad_request, conflict, not_found
from tui.simulator.registry import handles, raw_route
from tui.simulator.store import Store
from tui.simulator.validate import Check, query_int

CLUSTERS = "object_storage.clusters"
BUCKETS = "object_storage.buckets"
OBJECTS = "object_storage.objects"
KEYS = "object_storage.keys"
SIGNING_META = "object_storage.signing_key"

ACCOUNT = "demo-account"
"""Owner of the demo account's buckets (both demo users belong to this account)."""
OWNER_ID = "9d1c7a52-3f0e-4b8a-a6c1-2f5e8b0d4e17"
"""Canonical id of the demo account in S3 terms (the ``owner`` of its objects)."""

CLUSTER_CATALOG: list[dict[str, str]] = [
    {
        "id": "us-east-1",
        "region": "us-east",
        "domain": "us-east-1.objstore.example.net",
        "static_site_domain": "website-us-east-1.objstore.example.net",
        "status": "available",
    },
    {
        "id": "eu-central-1",
        "region": "eu-central",
        "domain": "eu-central-1.objstore.example.net",
        "static_site_domain": "website-eu-central-1.objstore.example.net",
        "status": "available",
    },
]
"""The clusters of the service."""

BUCKET_ACLS = ("private", "public-read", "authenticated-read", "public-read-write")
ACLS = (*BUCKET_ACLS, "custom")
URL_METHODS = ("GET", "PUT", "DELETE")
KEY_PERMISSIONS = ("read_only", "read_write")
URL_EXPIRES_MIN, URL_EXPIRES_MAX, URL_EXPIRES_DEFAULT = 360, 86400, 3600
LIST_DEFAULT_SIZE = 100
OBJECT_NAME_MAX = 1024
RAW_PREFIX = "/_sim/objects/"
TRANSFER_OPERATION = "object_storage.transfer"
"""Fault name of the pre-signed URLs (``Faults.fail_next`` and the rates apply to it)."""
BUCKET_LABEL = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
CONTENT_TYPE = re.compile(r"[\w.+-]+/[\w.+-]+(;.*)?")
S3_NS = "http://s3.amazonaws.com/doc/2006-03-01/"


# -- records --------------------------------------------------------------------------------


def clusters(store: Store) -> dict[str, dict[str, Any]]:
    """The clusters table (filled from the catalogue when a state has none)."""
    table = store.table(CLUSTERS)
    if not table:
        for entry in CLUSTER_CATALOG:
            table[entry["id"]] = dict(entry)
    return table


def bucket_key(cluster: str, label: str) -> str:
    """Store key of a bucket."""
    return f"{cluster}/{label}"


def object_key(cluster: str, label: str, name: str) -> str:
    """Store key of an object (cluster and bucket labels never contain ``/``)."""
    return f"{cluster}/{label}/{name}"


def bucket_label_problem(label: str) -> str | None:
    """Why ``label`` breaks the S3 bucket naming rules, or None."""
    if not 3 <= len(label) <= 63:
        return "label must be 3 to 63 characters"
    if not BUCKET_LABEL.fullmatch(label):
        return (
            "label may contain only lowercase letters, digits, '-' and '.', and must start and "
            "end with a letter or digit"
        )
    if ".." in label or ".-" in label or "-." in label:
        return "label must not contain '..', '.-' or '-.'"
    try:
        ipaddress.IPv4Address(label)
    except ValueError:
        return None
    return "label must not be formatted as an IP address"


def new_bucket(
    store: Store,
    *,
    cluster: str,
    label: str,
    now: float,
    acl: str = "private",
    cors_enabled: bool = False,
    account: str = ACCOUNT,
) -> dict[str, Any]:
    """Build and store an empty bucket (handlers and the seeder share it)."""
    domain = clusters(store)[cluster]["domain"]
    record = {
        "label": label,
        "cluster": cluster,
        "created": iso(now),
        "hostname": f"{label}.{domain}",
        "objects": 0,
        "size": 0,
        "_account": account,
        "_acl": acl,
        "_cors_enabled": cors_enabled,
        "_ssl": None,
    }
    return store.put(BUCKETS, bucket_key(cluster, label), record)


def bucket_objects(store: Store, bucket: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object of a bucket, unsorted."""
    return [
        o
        for o in store.rows(OBJECTS)
        if o["_cluster"] == bucket["cluster"] and o["_bucket"] == bucket["label"]
    ]


def refresh_bucket_stats(store: Store, bucket: dict[str, Any]) -> None:
    """Recount a bucket's ``objects`` and ``size`` after its contents changed."""
    objects = bucket_objects(store, bucket)
    bucket["objects"] = len(objects)
    bucket["size"] = sum(o["size"] for o in objects)
    store.put(BUCKETS, bucket_key(bucket["cluster"], bucket["label"]), bucket)


def put_object(
    store: Store,
    bucket: dict[str, Any],
    name: str,
    data: bytes,
    content_type: str,
    now: float,
) -> dict[str, Any]:
    """Store (or replace) an object's bytes and refresh the bucket's counters."""
    key = object_key(bucket["cluster"], bucket["label"], name)
    previous = store.get(OBJECTS, key)
    record = {
        "name": name,
        "size": len(data),
        "etag": hashlib.md5(data, usedforsecurity=False).hexdigest(),
        "last_modified": iso(now),
        "owner": OWNER_ID,
        "_cluster": bucket["cluster"],
        "_bucket": bucket["label"],
        "_content_type": content_type,
        # A replaced object keeps its ACL, as an overwrite in place would.
        "_acl": previous["_acl"] if previous else "private",
        "_data": base64.b64encode(data).decode("ascii"),
    }
    store.put(OBJECTS, key, record)
    refresh_bucket_stats(store, bucket)
    return record


def object_bytes(record: dict[str, Any]) -> bytes:
    """The stored content of an object."""
    return base64.b64decode(record["_data"])


def _cluster(ctx: Ctx) -> dict[str, Any]:
    cluster = clusters(ctx.store).get(str(ctx.params.get("clusterId", "")))
    if cluster is None:
        raise not_found("Cluster not found")
    return cluster


def _bucket(ctx: Ctx) -> dict[str, Any]:
    cluster = _cluster(ctx)
    record = ctx.store.get(BUCKETS, bucket_key(cluster["id"], str(ctx.params["bucket"])))
    if record is None or record["_account"] != ACCOUNT:
        raise not_found("Bucket not found")
    return record


def _own_buckets(store: Store) -> list[dict[str, Any]]:
    mine = [b for b in store.rows(BUCKETS) if b["_account"] == ACCOUNT]
    mine.sort(key=lambda b: (b["cluster"], b["label"]))
    return mine


# -- clusters -------------------------------------------------------------------------------


@handles("object_storage.clusters.list")
def list_clusters(ctx: Ctx) -> Collection:
    """Every cluster; no token needed."""
    return Collection([dict(c) for c in clusters(ctx.store).values()])


@handles("object_storage.clusters.view")
def view_cluster(ctx: Ctx) -> dict[str, Any]:
    """One cluster; no token needed."""
    return dict(_cluster(ctx))


# -- buckets --------------------------------------------------------------------------------


@handles("object_storage.buckets.list")
def list_buckets(ctx: Ctx) -> Collection:
    """The account's buckets in every cluster."""
    return Collection([public(b) for b in _own_buckets(ctx.store)])


@handles("object_storage.buckets.list_in_cluster")
def list_buckets_in_cluster(ctx: Ctx) -> Collection:
    """The account's buckets in one cluster."""
    cluster = _cluster(ctx)
    return Collection([public(b) for b in _own_buckets(ctx.store) if b["cluster"] == cluster["id"]])


@handles("object_storage.buckets.view")
def view_bucket(ctx: Ctx) -> dict[str, Any]:
    """One of the account's buckets."""
    return public(_bucket(ctx))


@handles("object_storage.buckets.create")
def create_bucket(ctx: Ctx) -> dict[str, Any]:
    """Create a bucket; an existing bucket of the account with that label is returned as is."""
    v = Check(ctx.body)
    v.unknown(("label", "cluster", "cors_enabled", "acl"))
    label = v.string("label", required=True)
    if isinstance(label, str):
        problem = bucket_label_problem(label)
        if problem:
            v.fail("label", problem)
    cluster_id = v.string("cluster", required=True)
    cluster = clusters(ctx.store).get(cluster_id) if isinstance(cluster_id, str) else None
    if isinstance(cluster_id, str):
        if cluster is None:
            v.fail("cluster", "cluster is not valid")
        elif cluster["status"] != "available":
            v.fail("cluster", f"cluster {cluster_id} is unavailable")
    cors = v.boolean("cors_enabled", default=False)
    acl = v.string("acl", choices=BUCKET_ACLS, default="private")
    existing = None
    if cluster is not None and isinstance(label, str):
        existing = ctx.store.get(BUCKETS, bucket_key(cluster["id"], label))
        if existing is not None and existing["_account"] != ACCOUNT:
            v.fail("label", "A bucket with this label already exists in this cluster")
    v.done()
    if existing is not None:
        # Re-creating an own bucket answers 200 with it, unchanged, as if just created.
        return public(existing)
    assert cluster is not None and isinstance(label, str)
    return public(
        new_bucket(
            ctx.store, cluster=cluster["id"], label=label, now=ctx.now, acl=acl, cors_enabled=cors
        )
    )


@handles("object_storage.buckets.remove")
def remove_bucket(ctx: Ctx) -> None:
    """Remove an empty bucket (with its TLS certificate)."""
    bucket = _bucket(ctx)
    if bucket_objects(ctx.store, bucket):
        raise conflict(
            "The bucket is not empty: delete its objects first (large buckets are emptied "
            "through lifecycle policies of the S3 API)",
            "bucket",
        )
    ctx.store.delete(BUCKETS, bucket_key(bucket["cluster"], bucket["label"]))


def _set_access(ctx: Ctx) -> None:
    bucket = _bucket(ctx)
    v = ctx.check()
    v.unknown(("acl", "cors_enabled"))
    acl = v.string("acl", choices=ACLS)
    cors = v.boolean("cors_enabled")
    v.done()
    if acl is not None:
        bucket["_acl"] = acl
    if cors is not None:
        bucket["_cors_enabled"] = cors
    ctx.store.put(BUCKETS, bucket_key(bucket["cluster"], bucket["label"]), bucket)


@handles("object_storage.buckets.access_modify")
def modify_access(ctx: Ctx) -> None:
    """POST: change the bucket's canned ACL and/or CORS setting (fields sent only)."""
    _set_access(ctx)


@handles("object_storage.buckets.access_update")
def update_access(ctx: Ctx) -> None:
    """PUT: same effect as the POST form."""
    _set_access(ctx)


# -- objects --------------------------------------------------------------------------------


def _grant(kind: str, grantee: str, permission: str) -> str:
    return (
        '<Grant><Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:type="{kind}">{grantee}</Grantee><Permission>{permission}</Permission></Grant>'
    )


def acl_xml(acl: str) -> str:
    """The S3 AccessControlPolicy document of an ACL.

    For ``custom`` only the owner's grant is rendered: the other grants of a custom policy are
    managed through the S3 API.
    """
    owner = f"<ID>{OWNER_ID}</ID><DisplayName>{ACCOUNT}</DisplayName>"
    all_users = "<URI>http://acs.amazonaws.com/groups/global/AllUsers</URI>"
    authenticated = "<URI>http://acs.amazonaws.com/groups/global/AuthenticatedUsers</URI>"
    grants = [_grant("CanonicalUser", owner, "FULL_CONTROL")]
    if acl in ("public-read", "public-read-write"):
        grants.append(_grant("Group", all_users, "READ"))
    if acl == "public-read-write":
        grants.append(_grant("Group", all_users, "WRITE"))
    if acl == "authenticated-read":
        grants.append(_grant("Group", authenticated, "READ"))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<AccessControlPolicy xmlns="{S3_NS}"><Owner>{owner}</Owner>'
        f"<AccessControlList>{''.join(grants)}</AccessControlList></AccessControlPolicy>"
    )


def _acl_view(acl: str) -> dict[str, Any]:
    """The Object ACL resource of an object whose ACL is ``acl``."""
    return {"acl": acl, "acl_xml": acl_xml(acl)}


def _object(ctx: Ctx, bucket: dict[str, Any], name: str) -> dict[str, Any]:
    record = ctx.store.get(OBJECTS, object_key(bucket["cluster"], bucket["label"], name))
    if record is None:
        raise SimError(404, "The object does not exist", "name")
    return record


@handles("object_storage.objects.acl_view")
def view_object_acl(ctx: Ctx) -> dict[str, Any]:
    """The ACL of one object, named by query ``name``."""
    bucket = _bucket(ctx)
    name = ctx.query.get("name")
    if not name:
        raise bad_request("name is required", "name")
    record = _object(ctx, bucket, name)
    return _acl_view(record["_acl"])


@handles("object_storage.objects.acl_update")
def update_object_acl(ctx: Ctx) -> dict[str, Any]:
    """Set the ACL of one object."""
    bucket = _bucket(ctx)
    # What the ACL view of the named object answers: a body read from it may echo acl_xml.
    named = ctx.body.get("name") if isinstance(ctx.body, dict) else None
    current = (
        ctx.store.get(OBJECTS, object_key(bucket["cluster"], bucket["label"], named))
        if isinstance(named, str)
        else None
    )
    v = Check(ctx.body, current=_acl_view(current["_acl"]) if current else None)
    v.unknown(("acl", "name"))
    acl = v.string("acl", required=True, choices=ACLS)
    name = v.string("name", required=True, min_len=1, max_len=OBJECT_NAME_MAX)
    v.done()
    record = _object(ctx, bucket, name)
    record["_acl"] = acl
    ctx.store.put(OBJECTS, object_key(bucket["cluster"], bucket["label"], name), record)
    return _acl_view(acl)


def _list_query(ctx: Ctx) -> tuple[str, str, str, int]:
    q = ctx.query
    size = query_int(q, "page_size", LIST_DEFAULT_SIZE)
    if not PAGE_SIZE_MIN <= size <= PART1_PAGE_SIZE_MAX:
        raise bad_request(
            f"page_size must be between {PAGE_SIZE_MIN} and {PART1_PAGE_SIZE_MAX}", "page_size"
        )
    return q.get("prefix", ""), q.get("delimiter", ""), q.get("marker", ""), size


def list_entries(
    names: list[tuple[str, dict[str, Any]]],
    *,
    prefix: str,
    delimiter: str,
    marker: str,
    page_size: int,
) -> dict[str, Any]:
    """One page of an S3-style listing.

    Args:
        names: ``(name, object record)`` pairs of the bucket, any order.
        prefix: Only names starting with it.
        delimiter: Roll names with the delimiter after the prefix up into folder entries.
        marker: Only entries after it (the last entry of the previous page).
        page_size: At most this many entries.

    Returns:
        ``{data, is_truncated, next_marker}``.
    """
    data: list[dict[str, Any]] = []
    truncated = False
    last_folder: str | None = None
    for name, record in sorted(names, key=lambda pair: pair[0]):
        if not name.startswith(prefix):
            continue
        entry_name = name
        folder = False
        if delimiter:
            cut = name.find(delimiter, len(prefix))
            if cut >= 0:
                entry_name = name[: cut + len(delimiter)]
                folder = True
        # Entries at or before the marker were on earlier pages (a folder counts once).
        if entry_name <= marker or (folder and entry_name == last_folder):
            continue
        if len(data) == page_size:
            truncated = True
            break
        if folder:
            last_folder = entry_name
            data.append(
                {"name": entry_name, "size": 0, "etag": None, "last_modified": None, "owner": None}
            )
        else:
            data.append(
                {
                    "name": name,
                    "size": record["size"],
                    "etag": record["etag"],
                    "last_modified": record["last_modified"],
                    "owner": record["owner"],
                }
            )
    return {
        "data": data,
        "is_truncated": truncated,
        "next_marker": data[-1]["name"] if truncated else None,
    }


@handles("object_storage.objects.list")
def list_objects(ctx: Ctx) -> dict[str, Any]:
    """Bucket contents, S3 style: prefix, delimiter, marker, page_size."""
    bucket = _bucket(ctx)
    prefix, delimiter, marker, size = _list_query(ctx)
    pairs = [(o["name"], o) for o in bucket_objects(ctx.store, bucket)]
    return list_entries(pairs, prefix=prefix, delimiter=delimiter, marker=marker, page_size=size)


# -- pre-signed URLs ------------------------------------------------------------------------


def signing_key(store: Store) -> bytes:
    """The simulator's URL signing secret (created once, kept with the state)."""
    value = store.meta.get(SIGNING_META)
    if not isinstance(value, str):
        value = secrets.token_hex(32)
        store.meta[SIGNING_META] = value
        store.dirty = True
    return value.encode("ascii")


def sign(
    store: Store, method: str, cluster: str, bucket: str, name: str, expires: int, ctype: str
) -> str:
    """HMAC-SHA256 signature of a pre-signed URL's parts."""
    message = "\n".join((method, cluster, bucket, name, str(expires), ctype)).encode("utf-8")
    return hmac.new(signing_key(store), message, hashlib.sha256).hexdigest()


def presigned_url(
    store: Store,
    base_url: str,
    *,
    method: str,
    cluster: str,
    bucket: str,
    name: str,
    expires: int,
    content_type: str = "",
) -> str:
    """A URL of this simulator that performs ``method`` on one object until ``expires``."""
    signature = sign(store, method, cluster, bucket, name, expires, content_type)
    query = f"method={method}&expires={expires}"
    if content_type:
        query += f"&content_type={quote(content_type, safe='')}"
    # The name is one encoded segment: '/', '..', '?' or '#' in it cannot change the route.
    path = f"{RAW_PREFIX}{quote(cluster, safe='')}/{quote(bucket, safe='')}/{quote(name, safe='')}"
    return f"{base_url}{path}?{query}&signature={signature}"


@handles("object_storage.objects.url")
def create_object_url(ctx: Ctx) -> dict[str, Any]:
    """A pre-signed URL to download, upload or delete one object (which need not exist)."""
    bucket = _bucket(ctx)
    v = Check(ctx.body)
    v.unknown(("name", "method", "expires_in", "content_type"))
    name = v.string("name", required=True, min_len=1, max_len=OBJECT_NAME_MAX)
    method = v.string("method", choices=URL_METHODS, default="GET")
    expires_in = v.integer(
        "expires_in", lo=URL_EXPIRES_MIN, hi=URL_EXPIRES_MAX, default=URL_EXPIRES_DEFAULT
    )
    content_type = v.string("content_type", max_len=255, pattern=CONTENT_TYPE, default="")
    v.done()
    expires = int(ctx.now) + int(expires_in)
    url = presigned_url(
        ctx.store,
        ctx.base_url,
        method=method,
        cluster=bucket["cluster"],
        bucket=bucket["label"],
        name=name,
        expires=expires,
        content_type=content_type if method == "PUT" else "",
    )
    return {"url": url}


def byte_range(header: str, size: int) -> tuple[int, int] | None:
    """The first and last byte asked for by a one-range ``Range`` header (RFC 9110).

    ``bytes=a-b``, ``bytes=a-`` and ``bytes=-n`` (the last n bytes); ``b`` is capped at the
    end. Several ranges, other units or a start beyond the end: None (416 Range Not
    Satisfiable).
    """
    unit, _, spec = header.strip().partition("=")
    if unit.strip().lower() != "bytes" or "," in spec:
        return None
    start_text, dash, end_text = spec.strip().partition("-")
    if not dash or not (start_text.isdigit() or end_text.isdigit()):
        return None
    if not start_text:
        length = int(end_text)
        if length == 0 or size == 0:
            return None
        return max(0, size - length), size - 1
    first = int(start_text)
    last = int(end_text) if end_text.isdigit() else size - 1
    if end_text and not end_text.isdigit():
        return None
    if first >= size or last < first:
        return None
    return first, min(last, size - 1)


def _s3_error(status: int, code: str, message: str, resource: str) -> Response:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f"<Error><Code>{code}</Code><Message>{escape(message)}</Message>"
        f"<Resource>{escape(resource)}</Resource></Error>"
    )
    return Response(body, status_code=status, media_type="application/xml")


@raw_route(RAW_PREFIX, operation=TRANSFER_OPERATION)
async def serve_object(request: Request, sim: Any) -> Response:
    """Answer a pre-signed URL: GET downloads, PUT uploads, DELETE removes one object.

    Refuses (403, S3-style XML) a bad signature, a method other than the signed one, or an
    expired URL.
    """
    store: Store = sim.store
    raw_path = request.scope.get("raw_path", request.url.path.encode()).decode("latin-1")
    parts = raw_path.split("?", 1)[0][len(RAW_PREFIX) :].split("/")
    if len(parts) != 3 or not all(parts):
        return _s3_error(400, "InvalidRequest", "Malformed object URL", raw_path)
    cluster, label, name = (unquote(p) for p in parts)
    resource = f"/{label}/{name}"
    q = request.query_params
    signed_method = q.get("method", "")
    ctype = q.get("content_type", "")
    expires_text = q.get("expires", "")
    if not (expires_text.isascii() and expires_text.isdigit()):
        return _s3_error(403, "AccessDenied", "Query-string authentication is incomplete", resource)
    expires = int(expires_text)
    expected = sign(store, signed_method, cluster, label, name, expires, ctype)
    if not hmac.compare_digest(expected, q.get("signature", "")):
        return _s3_error(
            403,
            "SignatureDoesNotMatch",
            "The request signature we calculated does not match the signature you provided.",
            resource,
        )
    if request.method.upper() != signed_method:
        return _s3_error(
            403,
            "SignatureDoesNotMatch",
            f"This URL was signed for {signed_method}, not {request.method.upper()}.",
            resource,
        )
    if sim.clock.now() > expires:
        return _s3_error(403, "AccessDenied", "Request has expired", resource)
    bucket = store.get(BUCKETS, bucket_key(cluster, label))
    if bucket is None or bucket["_account"] != ACCOUNT:
        return _s3_error(404, "NoSuchBucket", "The specified bucket does not exist", resource)
    key = object_key(cluster, label, name)
    if signed_method == "GET":
        record = store.get(OBJECTS, key)
        if record is None:
            return _s3_error(404, "NoSuchKey", "The specified key does not exist.", resource)
        # The stored type goes out exactly as uploaded (no charset added to text types).
        headers = {
            "Content-Type": record["_content_type"],
            "ETag": f'"{record["etag"]}"',
            "Accept-Ranges": "bytes",
        }
        data = object_bytes(record)
        wanted = request.headers.get("range")
        if not wanted:
            return Response(data, headers=headers)
        span = byte_range(wanted, len(data))
        if span is None:
            headers["Content-Range"] = f"bytes */{len(data)}"
            return Response(b"", status_code=416, headers=headers)
        first, last = span
        headers["Content-Range"] = f"bytes {first}-{last}/{len(data)}"
        return Response(data[first : last + 1], status_code=206, headers=headers)
    if signed_method == "PUT":
        sent_type = request.headers.get("content-type", "")
        if ctype and sent_type.split(";")[0].strip() != ctype.split(";")[0].strip():
            return _s3_error(
                403,
                "SignatureDoesNotMatch",
                f"This URL requires Content-Type: {ctype}",
                resource,
            )
        data = await request.body()
        if len(data) > sim.upload_limit:
            return _s3_error(
                400, "EntityTooLarge", "Your proposed upload exceeds the maximum size", resource
            )
        record = put_object(
            store,
            bucket,
            name,
            data,
            ctype or sent_type or "application/octet-stream",
            sim.clock.now(),
        )
        return Response(b"", status_code=200, headers={"ETag": f'"{record["etag"]}"'})
    # DELETE: like S3, deleting a missing object succeeds.
    if store.get(OBJECTS, key) is not None:
        store.delete(OBJECTS, key)
        refresh_bucket_stats(store, bucket)
    return Response(status_code=204)


# -- TLS certificates -----------------------------------------------------------------------


def _pem(text: str) -> str:
    # Request bodies may write line breaks as the two characters backslash and n.
    return pem.unescape(text).strip() + "\n"


def _load_certificate(text: str) -> Any:
    """The first certificate of a PEM text (its shape checked as a form checks it)."""
    block = pem.certificate_blocks(text)[0]
    try:
        return x509.load_pem_x509_certificate(block.encode("utf-8"))
    except ValueError:
        raise ValueError("is not a valid PEM certificate") from None


def _load_private_key(text: str) -> Any:
    """The private key of a PEM text (its shape checked as a form checks it)."""
    block = pem.private_key_block(text)
    try:
        return serialization.load_pem_private_key(block.encode("utf-8"), password=None)
    except (ValueError, TypeError):
        raise ValueError("is not a valid unencrypted PEM private key") from None


def _readable(v: Check, field: str, text: str, load: Callable[[str], Any]) -> Any:
    """What ``load`` reads from ``text``, or None after recording why it cannot on ``field``."""
    try:
        return load(text)
    except ValueError as exc:
        v.fail(field, f"{field} {exc}")
        return None


@handles("object_storage.ssl.view")
def view_ssl(ctx: Ctx) -> dict[str, Any]:
    """Whether the bucket has a TLS certificate."""
    return {"ssl": _bucket(ctx)["_ssl"] is not None}


@handles("object_storage.ssl.upload")
def upload_ssl(ctx: Ctx) -> dict[str, Any]:
    """Install a PEM certificate and its private key."""
    bucket = _bucket(ctx)
    v = Check(ctx.body)
    v.unknown(("certificate", "private_key"))
    cert_text = v.string("certificate", required=True, min_len=1)
    key_text = v.string("private_key", required=True, min_len=1)
    certificate = private_key = None
    if isinstance(cert_text, str) and cert_text:
        certificate = _readable(v, "certificate", cert_text, _load_certificate)
    if isinstance(key_text, str) and key_text:
        private_key = _readable(v, "private_key", key_text, _load_private_key)
    if certificate is not None and private_key is not None:
        raw = serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        if certificate.public_key().public_bytes(*raw) != private_key.public_key().public_bytes(
            *raw
        ):
            v.fail("private_key", "private_key does not belong to the certificate")
    v.done()
    if bucket["_ssl"] is not None:
        raise conflict(
            "The bucket already has a certificate: delete it before uploading another",
            "certificate",
        )
    assert isinstance(cert_text, str) and isinstance(key_text, str)
    bucket["_ssl"] = {"certificate": _pem(cert_text), "private_key": _pem(key_text)}
    ctx.store.put(BUCKETS, bucket_key(bucket["cluster"], bucket["label"]), bucket)
    return {"ssl": True}


@handles("object_storage.ssl.delete")
def delete_ssl(ctx: Ctx) -> None:
    """Remove the bucket's certificate and key (nothing to do when there is none)."""
    bucket = _bucket(ctx)
    bucket["_ssl"] = None
    ctx.store.put(BUCKETS, bucket_key(bucket["cluster"], bucket["label"]), bucket)


# -- keys -----------------------------------------------------------------------------------


def new_key(
    store: Store,
    *,
    label: str | None,
    bucket_access: list[dict[str, Any]] | None,
    access_key: str,
    secret_key: str,
) -> dict[str, Any]:
    """Build and store an access key pair (handlers and the seeder share it)."""
    key_id = store.next_id("object_storage.key", start=610)
    record = {
        "id": key_id,
        "label": label if label else f"key-{key_id}",
        "access_key": access_key,
        "limited": bucket_access is not None,
        "bucket_access": bucket_access,
        "_secret_key": secret_key,
    }
    return store.put(KEYS, key_id, record)


def random_key_pair() -> tuple[str, str]:
    """A fresh (access key, secret key) pair in the usual S3 shapes."""
    upper = string.ascii_uppercase + string.digits
    alphabet = string.ascii_letters + string.digits
    access = "".join(secrets.choice(upper) for _ in range(20))
    secret = "".join(secrets.choice(alphabet) for _ in range(40))
    return access, secret


@handles("object_storage.keys.list")
def list_keys(ctx: Ctx) -> Collection:
    """The account's keys (never with their secret)."""
    return Collection([public(k) for k in ctx.store.rows(KEYS)])


@handles("object_storage.keys.create")
def create_key(ctx: Ctx) -> dict[str, Any]:
    """Create a key pair; the answer is the only one that shows ``secret_key``."""
    v = Check(ctx.body)
    v.unknown(("label", "bucket_access"))
    label = v.string("label", min_len=1, max_len=50)
    access: list[dict[str, Any]] | None = None
    raw = v.raw("bucket_access")
    if v.has("bucket_access"):
        if not isinstance(raw, list):
            v.fail("bucket_access", "bucket_access must be an array")
        else:
            access = _check_bucket_access(ctx, v, raw)
    v.done()
    access_key, secret_key = random_key_pair()
    record = new_key(
        ctx.store, label=label, bucket_access=access, access_key=access_key, secret_key=secret_key
    )
    return {**public(record), "secret_key": record["_secret_key"]}


def _check_bucket_access(ctx: Ctx, v: Check, entries: list[Any]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    known = clusters(ctx.store)
    for index, entry in enumerate(entries):
        where = f"bucket_access[{index}]"
        if not isinstance(entry, dict):
            v.fail(where, f"{where} must be an object")
            continue
        for extra in sorted(set(entry) - {"cluster", "bucket_name", "permissions"}):
            v.fail(f"{where}.{extra}", f"{extra} is not a recognised field")
        cluster = entry.get("cluster")
        bucket = entry.get("bucket_name")
        permissions = entry.get("permissions")
        ok = True
        if not isinstance(cluster, str) or cluster not in known:
            v.fail(f"{where}.cluster", "cluster is not valid")
            ok = False
        if not isinstance(bucket, str) or not bucket:
            v.fail(f"{where}.bucket_name", "bucket_name is required")
            ok = False
        if permissions not in KEY_PERMISSIONS:
            v.fail(f"{where}.permissions", "permissions must be one of: read_only, read_write")
            ok = False
        if not ok:
            continue
        assert isinstance(cluster, str) and isinstance(bucket, str)
        record = ctx.store.get(BUCKETS, bucket_key(cluster, bucket))
        if record is None or record["_account"] != ACCOUNT:
            v.fail(f"{where}.bucket_name", f"bucket {bucket} does not exist in {cluster}")
            continue
        if (cluster, bucket) in seen:
            v.fail(f"{where}.bucket_name", f"bucket {bucket} in {cluster} is listed twice")
            continue
        seen.add((cluster, bucket))
        result.append({"bucket_name": bucket, "cluster": cluster, "permissions": permissions})
    return result


@handles("object_storage.keys.revoke")
def revoke_key(ctx: Ctx) -> None:
    """Revoke a key pair: it stops working."""
    key_id = ctx.param_int("keyId")
    if ctx.store.get(KEYS, key_id) is None:
        raise not_found("Key not found")
    ctx.store.delete(KEYS, key_id)


# -- cancel ---------------------------------------------------------------------------------


@handles("object_storage.cancel")
def cancel(ctx: Ctx) -> None:
    """Remove every bucket of the account, their contents and every key, irreversibly."""
    own = {bucket_key(b["cluster"], b["label"]) for b in _own_buckets(ctx.store)}
    for key in list(ctx.store.table(OBJECTS)):
        record = ctx.store.table(OBJECTS)[key]
        if bucket_key(record["_cluster"], record["_bucket"]) in own:
            ctx.store.delete(OBJECTS, key)
    for key in own:
        ctx.store.delete(BUCKETS, key)
    for key in list(ctx.store.table(KEYS)):
        ctx.store.delete(KEYS, key)
