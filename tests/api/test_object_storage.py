"""Every object storage operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import httpx
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from pydantic import SecretStr

from tui.api.client import ApiClient
from tui.models.object_storage import (
    BucketAccess,
    BucketAccessGrant,
    BucketCreate,
    BucketSslUpload,
    ObjectAclUpdate,
    ObjectUrlCreate,
    StorageKeyCreate,
)
from tui.resources.loader import fetch_all
from tui.resources.object_storage import OBJECTS
from tui.simulator import Simulator

SITE = {"clusterId": "us-east-1", "bucket": "cloudtui-site"}


def make_cert(common_name: str = "cloudtui-site.example") -> tuple[str, str]:
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
    cert_pem = cert.public_bytes(serialization.Encoding.PEM).decode()
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    return cert_pem, key_pem


async def test_clusters_list_iter_view_without_token(
    client_for: Callable[..., ApiClient],
) -> None:
    client = client_for("anonymous")
    page = await client.fetch_page("object_storage.clusters.list")
    assert {(c.id, c.region) for c in page.data} == {
        ("us-east-1", "us-east"),
        ("eu-central-1", "eu-central"),
    }
    assert all(c.status == "available" and c.domain and c.static_site_domain for c in page.data)
    assert [
        c.id
        for p in [p async for p in client.iter_all("object_storage.clusters.list")]
        for c in p.data
    ] == [c.id for c in page.data]
    cluster = await client.call("object_storage.clusters.view", {"clusterId": "eu-central-1"})
    assert cluster.region == "eu-central"


async def test_buckets_list_iter_all_in_cluster_view(client: ApiClient) -> None:
    page = await client.fetch_page("object_storage.buckets.list")
    labels = {b.label for b in page.data}
    assert {"cloudtui-site", "db-backups", "eu-logs", "scratch.eu"} <= labels
    assert "public-assets" not in labels  # another account's bucket
    assert [
        b.label
        for p in [p async for p in client.iter_all("object_storage.buckets.list")]
        for b in p.data
    ] == [b.label for b in page.data]
    assert [b.label for b in await client.fetch_all("object_storage.buckets.list")] == [
        b.label for b in page.data
    ]
    eu = await client.fetch_page(
        "object_storage.buckets.list_in_cluster", {"clusterId": "eu-central-1"}
    )
    assert {b.label for b in eu.data} == {"eu-logs", "scratch.eu"}
    eu_pages = [
        p
        async for p in client.iter_all(
            "object_storage.buckets.list_in_cluster", {"clusterId": "eu-central-1"}
        )
    ]
    assert sum(len(p.data) for p in eu_pages) == 2
    bucket = await client.call("object_storage.buckets.view", SITE)
    assert bucket.objects == 8 and bucket.size and bucket.size > 0
    assert bucket.hostname == "cloudtui-site.us-east-1.objstore.example.net"


async def test_create_and_remove_bucket(client: ApiClient, sim: Simulator) -> None:
    made = await client.call(
        "object_storage.buckets.create",
        body=BucketCreate(label="new.bucket-1", cluster="eu-central-1", acl="public-read"),
    )
    assert made.label == "new.bucket-1" and made.cluster == "eu-central-1"
    assert made.objects == 0 and made.size == 0
    assert sim.store.get("object_storage.buckets", "eu-central-1/new.bucket-1")["_acl"] == (  # type: ignore[index]
        "public-read"
    )
    also = await client.call(
        "object_storage.buckets.create",
        body=BucketCreate(label="kw-bucket", cluster="us-east-1", cors_enabled=True),
    )
    assert also.label == "kw-bucket"
    await client.call(
        "object_storage.buckets.remove", {"clusterId": "eu-central-1", "bucket": "new.bucket-1"}
    )
    labels = {
        b.label
        for b in (
            await client.fetch_page(
                "object_storage.buckets.list_in_cluster", {"clusterId": "eu-central-1"}
            )
        ).data
    }
    assert "new.bucket-1" not in labels


async def test_access_modify_and_update(client: ApiClient, sim: Simulator) -> None:
    await client.call(
        "object_storage.buckets.access_modify",
        SITE,
        body=BucketAccess(acl="private", cors_enabled=True),
    )
    record = sim.store.get("object_storage.buckets", "us-east-1/cloudtui-site")
    assert record is not None and record["_acl"] == "private" and record["_cors_enabled"] is True
    await client.call("object_storage.buckets.access_update", SITE, body=BucketAccess(acl="custom"))
    assert record["_acl"] == "custom" and record["_cors_enabled"] is True


async def test_object_acl_view_and_update(client: ApiClient) -> None:
    acl = await client.call(
        "object_storage.objects.acl_view", SITE, query={"name": "site/index.html"}
    )
    assert acl.acl == "public-read"
    assert acl.acl_xml and "AllUsers" in acl.acl_xml
    updated = await client.call(
        "object_storage.objects.acl_update",
        SITE,
        body=ObjectAclUpdate(name="site/index.html", acl="authenticated-read"),
    )
    assert updated.acl == "authenticated-read"
    assert updated.acl_xml and "AuthenticatedUsers" in updated.acl_xml
    assert (
        await client.call(
            "object_storage.objects.acl_view", SITE, query={"name": "site/index.html"}
        )
    ).acl == "authenticated-read"


async def test_list_objects_with_prefix_and_delimiter(client: ApiClient) -> None:
    listing = "object_storage.objects.list"
    top = await client.call(listing, SITE, query={"delimiter": "/"})
    assert [e.name for e in top.data] == ["README.txt", "docs/", "site/"]
    assert [e.is_folder for e in top.data] == [False, True, True]
    assert top.is_truncated is False and top.next_marker is None
    site = await client.call(listing, SITE, query={"prefix": "site/", "delimiter": "/"})
    names = [e.name for e in site.data]
    assert names == ["site/css/", "site/img/", "site/index.html", "site/js/", "site/menü/"]
    docs = await client.call(listing, SITE, query={"prefix": "docs/"})
    assert {e.name for e in docs.data} == {"docs/résumé été 2026.txt", "docs/報告書.txt"}


async def test_iter_and_all_objects_follow_markers(client: ApiClient) -> None:
    logs = {"clusterId": "eu-central-1", "bucket": "eu-logs"}
    pages = [await client.call("object_storage.objects.list", logs, query={"page_size": 25})]
    while pages[-1].is_truncated:
        query = {"page_size": 25, "marker": pages[-1].next_marker}
        pages.append(await client.call("object_storage.objects.list", logs, query=query))
    assert len(pages) == 6
    assert [p.is_truncated for p in pages] == [True] * 5 + [False]
    names = [e.name for p in pages for e in p.data]
    assert len(names) == 140 and names == sorted(set(names))
    # The object browser's loader follows the same markers with the server's page size.
    everything = await fetch_all(client, OBJECTS, logs)
    assert [e["name"] for e in everything] == names


async def test_object_url_upload_then_download(client: ApiClient, sim: Simulator) -> None:
    put = await client.call(
        "object_storage.objects.url",
        SITE,
        body=ObjectUrlCreate(name="site/new page.html", method="PUT", content_type="text/html"),
    )
    assert put.url and put.url.startswith("http://sim.local/_sim/objects/")
    async with httpx.AsyncClient(transport=sim.transport()) as http:
        uploaded = await http.put(
            put.url, content=b"<p>new</p>", headers={"Content-Type": "text/html"}
        )
        assert uploaded.status_code == 200
        get = await client.call(
            "object_storage.objects.url",
            SITE,
            body=ObjectUrlCreate(name="site/new page.html", method="GET", expires_in=600),
        )
        assert get.url is not None
        downloaded = await http.get(get.url)
    assert downloaded.status_code == 200 and downloaded.content == b"<p>new</p>"
    assert downloaded.headers["content-type"] == "text/html"
    assert (await client.call("object_storage.buckets.view", SITE)).objects == 9


async def test_tls_view_upload_delete(client: ApiClient) -> None:
    assert (await client.call("object_storage.ssl.view", SITE)).ssl is False
    cert, key = make_cert()
    upload = BucketSslUpload(certificate=cert, private_key=SecretStr(key))
    assert (await client.call("object_storage.ssl.upload", SITE, body=upload)).ssl is True
    assert (await client.call("object_storage.ssl.view", SITE)).ssl is True
    await client.call("object_storage.ssl.delete", SITE)
    assert (await client.call("object_storage.ssl.view", SITE)).ssl is False


async def test_keys_list_iter_create_revoke(client: ApiClient) -> None:
    page = await client.fetch_page("object_storage.keys.list")
    assert {k.label for k in page.data} >= {"backup-agent", "admin-laptop"}
    assert all(k.secret_key is None for k in page.data)
    assert (
        sum(len(p.data) for p in [p async for p in client.iter_all("object_storage.keys.list")])
        == page.results
    )
    grant = BucketAccessGrant(
        cluster="us-east-1", bucket_name="cloudtui-site", permissions="read_only"
    )
    create = "object_storage.keys.create"
    key = await client.call(create, body=StorageKeyCreate(label="deploy", bucket_access=[grant]))
    assert key.secret_key is not None and len(key.secret_key.get_secret_value()) == 40
    assert "*" in repr(key.secret_key)  # kept out of repr and logs
    assert key.limited is True and key.bucket_access is not None
    assert key.bucket_access[0].bucket_name == "cloudtui-site"
    unlimited = await client.call(create, body=StorageKeyCreate(label="everything"))
    assert unlimited.limited is False and unlimited.bucket_access is None
    assert key.id is not None
    await client.call("object_storage.keys.revoke", {"keyId": key.id})
    assert key.id not in [k.id for k in (await client.fetch_page("object_storage.keys.list")).data]


async def test_cancel(client: ApiClient) -> None:
    await client.call("object_storage.cancel")
    assert (await client.fetch_page("object_storage.buckets.list")).results == 0
    assert (await client.fetch_page("object_storage.keys.list")).results == 0
