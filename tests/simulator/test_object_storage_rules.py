"""Object storage rules: bucket labels and ownership, removal, access, object ACLs, S3-style
listing, pre-signed URLs end to end on the virtual clock, TLS certificates, keys, cancel."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from pydantic import ValidationError

from tests.simulator.rules import refusal_check
from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.models.object_storage import (
    BucketCreate,
    ObjectUrl,
    ObjectUrlCreate,
    StorageKeyCreate,
    UrlMethod,
    bucket_label_problem,
)
from tui.resources.loader import fetch_all
from tui.resources.object_storage import OBJECTS
from tui.simulator import Simulator, VirtualClock
from tui.simulator.auth import DEMO_TOKENS
from tui.simulator.handlers.object_storage import list_entries
from tui.simulator.store import Store

SITE = {"clusterId": "us-east-1", "bucket": "cloudtui-site"}
LOGS = {"clusterId": "eu-central-1", "bucket": "eu-logs"}
SCRATCH = {"clusterId": "eu-central-1", "bucket": "scratch.eu"}


def make_cert(common_name: str = "site.example") -> tuple[str, str]:
    """A self-signed certificate and its key, both PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + dt.timedelta(days=365))
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    return cert.public_bytes(serialization.Encoding.PEM).decode(), key_pem


def _state(sim: Simulator) -> dict[str, Any]:
    tables = {k: v for k, v in sim.store.tables.items() if k.startswith("object_storage.")}
    counters = {k: v for k, v in sim.store.counters.items() if k.startswith("object_storage.")}
    return copy.deepcopy({"tables": tables, "counters": counters})


_bad = refusal_check(_state)
"""The call is refused with ``status``, names ``field``, and changes nothing."""


def _bucket(sim: Simulator, cluster: str, label: str) -> dict[str, Any]:
    record = sim.store.get("object_storage.buckets", f"{cluster}/{label}")
    assert record is not None
    return record


def _raw(sim: Simulator) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=sim.transport())


async def object_url(
    client: ApiClient,
    cluster_id: str,
    bucket: str,
    name: str,
    method: UrlMethod = "GET",
    **fields: Any,
) -> ObjectUrl:
    """A pre-signed URL for one object (``object_storage.objects.url``)."""
    return await client.call(
        "object_storage.objects.url",
        {"clusterId": cluster_id, "bucket": bucket},
        body=ObjectUrlCreate(name=name, method=method, **fields),
        model=ObjectUrl,
    )


# -- authentication -------------------------------------------------------------------------


async def test_clusters_need_no_token_but_buckets_do(
    client_for: Callable[..., ApiClient],
) -> None:
    anon = client_for("anonymous")
    assert (await anon.call("object_storage.clusters.list", model=dict))["results"] == 2
    assert (
        await anon.call("object_storage.clusters.view", {"clusterId": "us-east-1"}, model=dict)
    )["region"] == "us-east"
    await _refused(anon, "object_storage.clusters.view", {"clusterId": "ap-south-1"}, status=404)
    await _refused(anon, "object_storage.buckets.list", status=401)


async def test_readonly_token_lists_but_cannot_write(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    readonly = client_for("readonly")
    assert (await readonly.call("object_storage.buckets.list", model=dict))["results"] == 4
    before = _state(sim)
    await _refused(
        readonly,
        "object_storage.buckets.create",
        body={"label": "ro-bucket", "cluster": "us-east-1"},
        status=403,
    )
    await _refused(readonly, "object_storage.cancel", status=403)
    await _refused(readonly, "object_storage.keys.create", body={}, status=403)
    assert _state(sim) == before


async def test_restricted_user_is_limited_by_scope_only(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    ops = client_for("restricted")
    assert (await ops.fetch_page("object_storage.buckets.list")).results == 4
    made = await ops.call(
        "object_storage.buckets.create",
        body=BucketCreate(label="ops-bucket", cluster="eu-central-1"),
    )
    assert made.label == "ops-bucket"
    key = await ops.call("object_storage.keys.create", body=StorageKeyCreate(label="ops"))
    assert key.secret_key is not None


# -- bucket creation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label",
    [
        "ab",
        "a" * 64,
        "Upper-case",
        "-leading",
        "trailing-",
        ".leading",
        "under_score",
        "two..dots",
        "dot.-dash",
        "dash-.dot",
        "192.168.10.1",
        "café-bucket",
        "web-[prod]",
        "with space",
        "",
        7,
    ],
)
async def test_bucket_label_rules(client: ApiClient, sim: Simulator, label: Any) -> None:
    body = {"label": label, "cluster": "us-east-1"}
    await _bad(client, sim, "object_storage.buckets.create", None, body, "label")


def test_client_label_rules_match() -> None:
    for good in ("abc", "a" * 63, "my.bucket-2", "1-2-3"):
        assert bucket_label_problem(good) is None
        BucketCreate(label=good, cluster="us-east-1")
    for bad in ("ab", "Abc", "a..b", "a.-b", "10.0.0.1", "abc-", "a_b"):
        assert bucket_label_problem(bad)
        with pytest.raises(ValidationError):
            BucketCreate(label=bad, cluster="us-east-1")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"cluster": "us-east-1"}, "label"),
        ({"label": "fresh-bucket"}, "cluster"),
        ({"label": "fresh-bucket", "cluster": "us-east"}, "cluster"),
        ({"label": "fresh-bucket", "cluster": "ap-south-1"}, "cluster"),
        ({"label": "fresh-bucket", "cluster": "us-east-1", "acl": "custom"}, "acl"),
        ({"label": "fresh-bucket", "cluster": "us-east-1", "acl": "public"}, "acl"),
        ({"label": "fresh-bucket", "cluster": "us-east-1", "cors_enabled": "yes"}, "cors_enabled"),
        ({"label": "fresh-bucket", "cluster": "us-east-1", "region": "us-east"}, "region"),
    ],
)
async def test_bucket_create_field_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "object_storage.buckets.create", None, body, field)


async def test_unavailable_cluster_refuses_new_buckets(client: ApiClient, sim: Simulator) -> None:
    sim.store.get("object_storage.clusters", "eu-central-1")["status"] = "unavailable"  # type: ignore[index]
    body = {"label": "fresh-bucket", "cluster": "eu-central-1"}
    await _bad(client, sim, "object_storage.buckets.create", None, body, "cluster")


async def test_label_taken_by_another_account_in_that_cluster_only(
    client: ApiClient, sim: Simulator
) -> None:
    body = {"label": "public-assets", "cluster": "us-east-1"}
    await _bad(client, sim, "object_storage.buckets.create", None, body, "label")
    await _refused(
        client,
        "object_storage.buckets.view",
        {"clusterId": "us-east-1", "bucket": "public-assets"},
        status=404,
    )
    made = await client.call(
        "object_storage.buckets.create",
        body={"label": "public-assets", "cluster": "eu-central-1"},
        model=dict,
    )
    assert made["cluster"] == "eu-central-1"


async def test_recreating_own_bucket_returns_200_with_it_unchanged(sim: Simulator) -> None:
    before = _state(sim)
    async with _raw(sim) as http:
        answer = await http.post(
            "http://sim.local/v4/object-storage/buckets",
            json={"label": "cloudtui-site", "cluster": "us-east-1", "acl": "private"},
            headers={"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"},
        )
    assert answer.status_code == 200
    body = answer.json()
    assert body["label"] == "cloudtui-site" and body["objects"] == 8
    assert _state(sim) == before  # the ACL sent was not applied
    assert _bucket(sim, "us-east-1", "cloudtui-site")["_acl"] == "public-read"


# -- views and removal ----------------------------------------------------------------------


async def test_unknown_cluster_or_bucket_is_not_found(client: ApiClient) -> None:
    await _refused(
        client, "object_storage.buckets.list_in_cluster", {"clusterId": "nowhere-1"}, status=404
    )
    await _refused(
        client, "object_storage.buckets.view", {"clusterId": "nowhere-1", "bucket": "x"}, status=404
    )
    await _refused(
        client,
        "object_storage.buckets.view",
        {"clusterId": "eu-central-1", "bucket": "cloudtui-site"},
        status=404,
    )


async def test_non_empty_bucket_cannot_be_removed(client: ApiClient, sim: Simulator) -> None:
    await _bad(client, sim, "object_storage.buckets.remove", SITE, None, "bucket", status=409)
    await client.call("object_storage.buckets.remove", SCRATCH, model=dict)
    assert sim.store.get("object_storage.buckets", "eu-central-1/scratch.eu") is None
    await _refused(client, "object_storage.buckets.remove", SCRATCH, status=404)


async def test_emptied_bucket_can_be_removed(client: ApiClient, sim: Simulator) -> None:
    async with _raw(sim) as http:
        for entry in await fetch_all(
            client, OBJECTS, {"clusterId": "us-east-1", "bucket": "db-backups"}
        ):
            assert entry["name"]
            url = (await object_url(client, "us-east-1", "db-backups", entry["name"], "DELETE")).url
            assert url is not None
            assert (await http.delete(url)).status_code == 204
    assert (
        await client.call(
            "object_storage.buckets.view", {"clusterId": "us-east-1", "bucket": "db-backups"}
        )
    ).objects == 0
    await client.call(
        "object_storage.buckets.remove", {"clusterId": "us-east-1", "bucket": "db-backups"}
    )


# -- access ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["object_storage.buckets.access_modify", "object_storage.buckets.access_update"]
)
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"acl": "everyone"}, "acl"),
        ({"cors_enabled": "true"}, "cors_enabled"),
        ({"acl": "private", "cors": True}, "cors"),
    ],
)
async def test_access_rules(
    client: ApiClient, sim: Simulator, name: str, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, name, SITE, body, field)


async def test_access_changes_only_fields_sent(client: ApiClient, sim: Simulator) -> None:
    await client.call(
        "object_storage.buckets.access_modify", SITE, body={"cors_enabled": True}, model=dict
    )
    record = _bucket(sim, "us-east-1", "cloudtui-site")
    assert record["_acl"] == "public-read" and record["_cors_enabled"] is True
    await client.call(
        "object_storage.buckets.access_update", SITE, body={"acl": "custom"}, model=dict
    )
    assert record["_acl"] == "custom" and record["_cors_enabled"] is True


# -- object ACL -----------------------------------------------------------------------------


async def test_object_acl_view_needs_an_existing_name(client: ApiClient) -> None:
    err = await _refused(client, "object_storage.objects.acl_view", SITE)
    assert "name" in err.field_errors()
    err = await _refused(
        client, "object_storage.objects.acl_view", SITE, query={"name": "nope.txt"}, status=404
    )
    assert "name" in err.field_errors()


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"acl": "private"}, "name", 400),
        ({"name": "README.txt"}, "acl", 400),
        ({"name": "README.txt", "acl": "world"}, "acl", 400),
        ({"name": "missing.txt", "acl": "private"}, "name", 404),
    ],
)
async def test_object_acl_update_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str, status: int
) -> None:
    await _bad(client, sim, "object_storage.objects.acl_update", SITE, body, field, status)


@pytest.mark.parametrize(
    ("acl", "present", "absent"),
    [
        ("private", [], ["AllUsers", "AuthenticatedUsers"]),
        ("public-read", ["AllUsers</URI></Grantee><Permission>READ"], ["WRITE"]),
        ("public-read-write", ["<Permission>WRITE</Permission>"], ["AuthenticatedUsers"]),
        ("authenticated-read", ["AuthenticatedUsers"], ["AllUsers"]),
        ("custom", ["FULL_CONTROL"], ["AllUsers"]),
    ],
)
async def test_object_acl_xml_rendering(
    client: ApiClient, acl: str, present: list[str], absent: list[str]
) -> None:
    answer = await client.call(
        "object_storage.objects.acl_update",
        SITE,
        body={"name": "docs/報告書.txt", "acl": acl},
        model=dict,
    )
    xml = answer["acl_xml"]
    assert answer["acl"] == acl and xml.startswith("<?xml") and "FULL_CONTROL" in xml
    for text in present:
        assert text in xml
    for text in absent:
        assert text not in xml


# -- listing --------------------------------------------------------------------------------


async def test_listing_page_size_bounds(client: ApiClient) -> None:
    for size in ("24", "501", "ten", "-1"):
        err = await _refused(client, "object_storage.objects.list", LOGS, query={"page_size": size})
        assert "page_size" in err.field_errors()


async def test_listing_pages_with_marker_like_s3(client: ApiClient) -> None:
    first = await client.call(
        "object_storage.objects.list", LOGS, query={"page_size": 25}, model=dict
    )
    assert len(first["data"]) == 25 and first["is_truncated"] is True
    assert first["next_marker"] == first["data"][-1]["name"]
    second = await client.call(
        "object_storage.objects.list",
        LOGS,
        query={"page_size": 25, "marker": first["next_marker"]},
        model=dict,
    )
    assert second["data"][0]["name"] > first["next_marker"]
    last = await client.call(
        "object_storage.objects.list",
        LOGS,
        query={"marker": "logs/2026/10/28/", "page_size": 25},
        model=dict,
    )
    assert last["is_truncated"] is False and last["next_marker"] is None
    assert [e["name"][:16] for e in last["data"]] == ["logs/2026/10/28/"] * 5


async def test_listing_prefix_and_delimiter(client: ApiClient) -> None:
    days = await client.call(
        "object_storage.objects.list",
        LOGS,
        query={"prefix": "logs/2026/10/", "delimiter": "/", "page_size": 25},
        model=dict,
    )
    names = [e["name"] for e in days["data"]]
    assert names == [f"logs/2026/10/{d:02d}/" for d in range(1, 26)]
    assert all(e["size"] == 0 and e["etag"] is None for e in days["data"])
    assert days["is_truncated"] is True and days["next_marker"] == "logs/2026/10/25/"
    rest = await client.call(
        "object_storage.objects.list",
        LOGS,
        query={"prefix": "logs/2026/10/", "delimiter": "/", "marker": days["next_marker"]},
        model=dict,
    )
    # The folder at the page boundary is not repeated.
    assert [e["name"] for e in rest["data"]] == [f"logs/2026/10/{d:02d}/" for d in range(26, 29)]
    nothing = await client.call(
        "object_storage.objects.list", LOGS, query={"prefix": "nope/"}, model=dict
    )
    assert nothing == {"data": [], "is_truncated": False, "next_marker": None}


def test_listing_with_other_delimiters() -> None:
    names = [
        (n, {"size": 1, "etag": "e", "last_modified": "t", "owner": "o"})
        for n in ["a-1", "a-2", "b", "c-x-y"]
    ]
    page = list_entries(names, prefix="", delimiter="-", marker="", page_size=2)
    assert [e["name"] for e in page["data"]] == ["a-", "b"]
    assert page["is_truncated"] is True and page["next_marker"] == "b"
    rest = list_entries(names, prefix="", delimiter="-", marker="b", page_size=2)
    assert [e["name"] for e in rest["data"]] == ["c-"]
    deep = list_entries(names, prefix="c-", delimiter="-", marker="", page_size=25)
    assert [e["name"] for e in deep["data"]] == ["c-x-"]


# -- pre-signed URLs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "a", "method": "POST"}, "method"),
        ({"name": "a", "method": "get"}, "method"),
        ({"name": "a", "expires_in": 359}, "expires_in"),
        ({"name": "a", "expires_in": 86401}, "expires_in"),
        ({"name": "a", "expires_in": "3600"}, "expires_in"),
        ({"name": "a", "content_type": "not a type"}, "content_type"),
    ],
)
async def test_object_url_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "object_storage.objects.url", SITE, body, field)


def test_client_url_model_limits() -> None:
    with pytest.raises(ValidationError):
        ObjectUrlCreate(name="a", expires_in=359)
    with pytest.raises(ValidationError):
        ObjectUrlCreate(name="a", method="POST")  # type: ignore[arg-type]
    assert ObjectUrlCreate(name="a", expires_in=86400).expires_in == 86400


async def test_object_url_defaults_to_get_for_an_hour(
    client: ApiClient, clock: VirtualClock
) -> None:
    answer = await client.call(
        "object_storage.objects.url", SITE, body={"name": "README.txt"}, model=dict
    )
    query = parse_qs(urlsplit(answer["url"]).query)
    assert query["method"] == ["GET"]
    assert int(query["expires"][0]) == int(clock.now()) + 3600


async def test_object_url_unknown_bucket(client: ApiClient) -> None:
    await _refused(
        client,
        "object_storage.objects.url",
        {"clusterId": "us-east-1", "bucket": "public-assets"},
        body={"name": "a"},
        status=404,
    )


async def test_presigned_upload_then_download_end_to_end(client: ApiClient, sim: Simulator) -> None:
    name = "uploads/2026/ünïcode & spaces?.bin"
    data = bytes(range(256)) * 4
    before = await client.call(
        "object_storage.buckets.view", {"clusterId": "us-east-1", "bucket": "cloudtui-site"}
    )
    put = (await object_url(client, "us-east-1", "cloudtui-site", name, "PUT")).url
    assert put is not None
    async with _raw(sim) as http:
        uploaded = await http.put(
            put, content=data, headers={"Content-Type": "application/octet-stream"}
        )
        assert uploaded.status_code == 200
        assert uploaded.headers["etag"] == f'"{hashlib.md5(data).hexdigest()}"'
        after = await client.call(
            "object_storage.buckets.view", {"clusterId": "us-east-1", "bucket": "cloudtui-site"}
        )
        assert after.objects == (before.objects or 0) + 1
        assert after.size == (before.size or 0) + len(data)
        listing = await client.call(
            "object_storage.objects.list",
            {"clusterId": "us-east-1", "bucket": "cloudtui-site"},
            query={"prefix": "uploads/"},
        )
        assert [(e.name, e.size, e.etag) for e in listing.data] == [
            (name, len(data), hashlib.md5(data).hexdigest())
        ]
        get = (await object_url(client, "us-east-1", "cloudtui-site", name)).url
        assert get is not None
        downloaded = await http.get(get)
        assert downloaded.status_code == 200 and downloaded.content == data
        assert downloaded.headers["content-type"] == "application/octet-stream"
        # Uploading again replaces the object in place.
        assert (await http.put(put, content=b"v2")).status_code == 200
        assert (await http.get(get)).content == b"v2"
        assert (
            await client.call(
                "object_storage.buckets.view", {"clusterId": "us-east-1", "bucket": "cloudtui-site"}
            )
        ).objects == after.objects
        delete = (await object_url(client, "us-east-1", "cloudtui-site", name, "DELETE")).url
        assert delete is not None
        assert (await http.delete(delete)).status_code == 204
        gone = await http.get(get)
    assert gone.status_code == 404 and b"NoSuchKey" in gone.content
    assert (
        await client.call(
            "object_storage.buckets.view", {"clusterId": "us-east-1", "bucket": "cloudtui-site"}
        )
    ).size == before.size


async def test_presigned_url_expires_on_the_clock(
    client: ApiClient, sim: Simulator, clock: VirtualClock
) -> None:
    url = (await object_url(client, "us-east-1", "cloudtui-site", "README.txt", expires_in=360)).url
    assert url is not None
    async with _raw(sim) as http:
        clock.advance(360)
        assert (await http.get(url)).status_code == 200
        clock.advance(1)
        expired = await http.get(url)
    assert expired.status_code == 403
    assert b"AccessDenied" in expired.content and b"Request has expired" in expired.content
    assert expired.headers["content-type"].startswith("application/xml")


async def test_presigned_url_refuses_other_methods_and_tampering(
    client: ApiClient, sim: Simulator
) -> None:
    url = (await object_url(client, "us-east-1", "cloudtui-site", "README.txt")).url
    assert url is not None
    before = _state(sim)
    async with _raw(sim) as http:
        wrong_method = await http.put(url, content=b"overwrite")
        assert wrong_method.status_code == 403 and b"SignatureDoesNotMatch" in wrong_method.content
        assert (await http.delete(url)).status_code == 403
        tampered = url.replace("README.txt", "site%2Findex.html")
        assert (await http.get(tampered)).status_code == 403
        longer = url.replace("expires=", "expires=9")
        assert (await http.get(longer)).status_code == 403
        bad_signature = url[:-4] + ("0000" if not url.endswith("0000") else "1111")
        assert (await http.get(bad_signature)).status_code == 403
        unsigned = url.split("&signature=")[0]
        assert (await http.get(unsigned)).status_code == 403
        malformed = await http.get("http://sim.local/_sim/objects/us-east-1/only-two")
        assert malformed.status_code == 400
    assert _state(sim) == before


async def test_presigned_upload_bound_to_content_type(client: ApiClient, sim: Simulator) -> None:
    url = (
        await object_url(
            client, "us-east-1", "cloudtui-site", "site/new.css", "PUT", content_type="text/css"
        )
    ).url
    assert url is not None
    async with _raw(sim) as http:
        refused = await http.put(url, content=b"a{}", headers={"Content-Type": "text/plain"})
        assert refused.status_code == 403
        assert (
            sim.store.get("object_storage.objects", "us-east-1/cloudtui-site/site/new.css") is None
        )
        accepted = await http.put(url, content=b"a{}", headers={"Content-Type": "text/css"})
        assert accepted.status_code == 200


async def test_url_for_removed_bucket_stops_working(client: ApiClient, sim: Simulator) -> None:
    url = (await object_url(client, "eu-central-1", "scratch.eu", "x.txt", "PUT")).url
    assert url is not None
    await client.call(
        "object_storage.buckets.remove", {"clusterId": "eu-central-1", "bucket": "scratch.eu"}
    )
    async with _raw(sim) as http:
        answer = await http.put(url, content=b"x")
    assert answer.status_code == 404 and b"NoSuchBucket" in answer.content


# -- TLS ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("which", "field"),
    [
        ("no-cert", "certificate"),
        ("no-key", "private_key"),
        ("bad-cert", "certificate"),
        ("bad-key", "private_key"),
        ("cert-as-key", "private_key"),
        ("other-key", "private_key"),
    ],
)
async def test_tls_upload_rules(client: ApiClient, sim: Simulator, which: str, field: str) -> None:
    cert, key = make_cert()
    _, other_key = make_cert("other.example")
    bodies = {
        "no-cert": {"private_key": key},
        "no-key": {"certificate": cert},
        "bad-cert": {
            "certificate": "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----",
            "private_key": key,
        },
        "bad-key": {"certificate": cert, "private_key": "not a key"},
        "cert-as-key": {"certificate": cert, "private_key": cert},
        "other-key": {"certificate": cert, "private_key": other_key},
    }
    await _bad(client, sim, "object_storage.ssl.upload", SITE, bodies[which], field)
    assert (await client.call("object_storage.ssl.view", SITE, model=dict)) == {"ssl": False}


async def test_tls_accepts_escaped_line_breaks(client: ApiClient) -> None:
    cert, key = make_cert()
    body = {"certificate": cert.replace("\n", "\\n"), "private_key": key.replace("\n", "\\n")}
    assert await client.call("object_storage.ssl.upload", SITE, body=body, model=dict) == {
        "ssl": True
    }


async def test_tls_replace_means_delete_then_upload(client: ApiClient, sim: Simulator) -> None:
    cert, key = make_cert()
    await client.call(
        "object_storage.ssl.upload",
        SITE,
        body={"certificate": cert, "private_key": key},
        model=dict,
    )
    new_cert, new_key = make_cert("new.example")
    body = {"certificate": new_cert, "private_key": new_key}
    await _bad(client, sim, "object_storage.ssl.upload", SITE, body, "certificate", status=409)
    await client.call("object_storage.ssl.delete", SITE, model=dict)
    assert await client.call("object_storage.ssl.view", SITE, model=dict) == {"ssl": False}
    assert await client.call("object_storage.ssl.upload", SITE, body=body, model=dict) == {
        "ssl": True
    }
    stored = _bucket(sim, "us-east-1", "cloudtui-site")["_ssl"]
    assert (
        x509.load_pem_x509_certificate(stored["certificate"].encode()).subject.rfc4514_string()
        == "CN=new.example"
    )


# -- keys -----------------------------------------------------------------------------------


async def test_secret_key_only_at_creation(client: ApiClient) -> None:
    made = await client.call("object_storage.keys.create", body={"label": "once"}, model=dict)
    assert len(made["secret_key"]) == 40 and len(made["access_key"]) == 20
    listed = (await client.call("object_storage.keys.list", model=dict))["data"]
    assert all("secret_key" not in k for k in listed)
    assert made["id"] in [k["id"] for k in listed]


async def test_bucket_access_omitted_empty_or_listed(client: ApiClient) -> None:
    unlimited = await client.call("object_storage.keys.create", body={"label": "all"}, model=dict)
    assert unlimited["limited"] is False and unlimited["bucket_access"] is None
    unnamed = await client.call("object_storage.keys.create", body={}, model=dict)
    assert unnamed["limited"] is False and unnamed["label"] == f"key-{unnamed['id']}"
    empty = await client.call(
        "object_storage.keys.create", body={"label": "none", "bucket_access": []}, model=dict
    )
    assert empty["limited"] is True and empty["bucket_access"] == []
    access = [{"cluster": "eu-central-1", "bucket_name": "eu-logs", "permissions": "read_only"}]
    limited = await client.call(
        "object_storage.keys.create", body={"bucket_access": access}, model=dict
    )
    assert limited["limited"] is True
    assert limited["bucket_access"] == [
        {"bucket_name": "eu-logs", "cluster": "eu-central-1", "permissions": "read_only"}
    ]


@pytest.mark.parametrize(
    ("access", "field"),
    [
        ("all", "bucket_access"),
        (["eu-logs"], "bucket_access[0]"),
        ([{"bucket_name": "eu-logs", "permissions": "read_only"}], "bucket_access[0].cluster"),
        (
            [{"cluster": "mars-1", "bucket_name": "eu-logs", "permissions": "read_only"}],
            "bucket_access[0].cluster",
        ),
        ([{"cluster": "eu-central-1", "permissions": "read_only"}], "bucket_access[0].bucket_name"),
        (
            [{"cluster": "eu-central-1", "bucket_name": "nope", "permissions": "read_only"}],
            "bucket_access[0].bucket_name",
        ),
        (
            [{"cluster": "us-east-1", "bucket_name": "public-assets", "permissions": "read_only"}],
            "bucket_access[0].bucket_name",
        ),
        (
            [{"cluster": "eu-central-1", "bucket_name": "eu-logs", "permissions": "admin"}],
            "bucket_access[0].permissions",
        ),
        ([{"cluster": "eu-central-1", "bucket_name": "eu-logs"}], "bucket_access[0].permissions"),
        (
            [
                {"cluster": "eu-central-1", "bucket_name": "eu-logs", "permissions": "read_only"},
                {"cluster": "eu-central-1", "bucket_name": "eu-logs", "permissions": "read_write"},
            ],
            "bucket_access[1].bucket_name",
        ),
        (
            [
                {
                    "cluster": "eu-central-1",
                    "bucket_name": "eu-logs",
                    "permissions": "read_only",
                    "x": 1,
                }
            ],
            "bucket_access[0].x",
        ),
    ],
)
async def test_bucket_access_entry_rules(
    client: ApiClient, sim: Simulator, access: Any, field: str
) -> None:
    await _bad(client, sim, "object_storage.keys.create", None, {"bucket_access": access}, field)


@pytest.mark.parametrize(
    ("body", "field"),
    [({"label": ""}, "label"), ({"label": "x" * 51}, "label"), ({"secret": "x"}, "secret")],
)
async def test_key_label_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad(client, sim, "object_storage.keys.create", None, body, field)


def test_client_key_model_refuses_duplicates() -> None:
    entry = {"cluster": "eu-central-1", "bucket_name": "eu-logs", "permissions": "read_only"}
    with pytest.raises(ValidationError):
        StorageKeyCreate(bucket_access=[entry, entry])  # type: ignore[list-item]
    assert StorageKeyCreate().body() == {}
    assert StorageKeyCreate(bucket_access=[]).body() == {"bucket_access": []}


async def test_revoke_unknown_key(client: ApiClient, sim: Simulator) -> None:
    before = _state(sim)
    await _refused(client, "object_storage.keys.revoke", {"keyId": 99999}, status=404)
    await _refused(client, "object_storage.keys.revoke", {"keyId": "abc"}, status=404)
    assert _state(sim) == before


# -- cancel ---------------------------------------------------------------------------------


async def test_cancel_removes_buckets_objects_and_keys_only_of_the_account(
    client: ApiClient, sim: Simulator
) -> None:
    await client.call("object_storage.cancel", model=dict)
    buckets = sim.store.rows("object_storage.buckets")
    assert [b["label"] for b in buckets] == ["public-assets"]  # another account's bucket stays
    assert sim.store.rows("object_storage.objects") == []
    assert sim.store.rows("object_storage.keys") == []
    assert (await client.call("object_storage.buckets.list", model=dict))["results"] == 0
    # Nothing left to cancel is not an error; the service can be used again afterwards.
    await client.call("object_storage.cancel", model=dict)
    made = await client.call(
        "object_storage.buckets.create",
        body={"label": "fresh-start", "cluster": "us-east-1"},
        model=dict,
    )
    assert made["objects"] == 0


async def test_uploaded_bytes_and_urls_survive_a_saved_state(
    client: ApiClient, sim: Simulator, clock: VirtualClock, tmp_path: Any
) -> None:
    put = (await object_url(client, "eu-central-1", "scratch.eu", "keep/me.bin", "PUT")).url
    get = (await object_url(client, "eu-central-1", "scratch.eu", "keep/me.bin")).url
    assert put is not None and get is not None
    async with _raw(sim) as http:
        assert (await http.put(put, content=b"\x00\xffpersist")).status_code == 200
    sim.store.save(tmp_path / "state.json")
    reloaded = Simulator(clock=clock, store=Store.load(tmp_path / "state.json"))
    async with _raw(reloaded) as http:
        answer = await http.get(get)
    assert answer.status_code == 200 and answer.content == b"\x00\xffpersist"
