"""Every object storage operation through the typed service, against the simulator."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tui.api.client import ApiClient
from tui.api.services.object_storage import ObjectStorageService
from tui.models.object_storage import BucketAccess, BucketAccessGrant, BucketCreate
from tui.simulator import Simulator

SITE = ("us-east-1", "cloudtui-site")


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


@pytest.fixture
def svc(client: ApiClient) -> ObjectStorageService:
    return ObjectStorageService(client)


async def test_clusters_list_iter_view_without_token(
    client_for: Callable[..., ApiClient],
) -> None:
    svc = ObjectStorageService(client_for("anonymous"))
    page = await svc.list_clusters()
    assert {(c.id, c.region) for c in page.data} == {
        ("us-east-1", "us-east"),
        ("eu-central-1", "eu-central"),
    }
    assert all(c.status == "available" and c.domain and c.static_site_domain for c in page.data)
    assert [c.id for p in [p async for p in svc.iter_clusters()] for c in p.data] == [
        c.id for c in page.data
    ]
    cluster = await svc.get_cluster("eu-central-1")
    assert cluster.region == "eu-central"


async def test_buckets_list_iter_all_in_cluster_view(svc: ObjectStorageService) -> None:
    page = await svc.list_buckets()
    labels = {b.label for b in page.data}
    assert {"cloudtui-site", "db-backups", "eu-logs", "scratch.eu"} <= labels
    assert "public-assets" not in labels  # another account's bucket
    assert [b.label for p in [p async for p in svc.iter_buckets()] for b in p.data] == [
        b.label for b in page.data
    ]
    assert [b.label for b in await svc.all_buckets()] == [b.label for b in page.data]
    eu = await svc.list_buckets_in_cluster("eu-central-1")
    assert {b.label for b in eu.data} == {"eu-logs", "scratch.eu"}
    eu_pages = [p async for p in svc.iter_buckets_in_cluster("eu-central-1")]
    assert sum(len(p.data) for p in eu_pages) == 2
    bucket = await svc.get_bucket(*SITE)
    assert bucket.objects == 8 and bucket.size and bucket.size > 0
    assert bucket.hostname == "cloudtui-site.us-east-1.objstore.example.net"


async def test_create_and_remove_bucket(svc: ObjectStorageService, sim: Simulator) -> None:
    made = await svc.create_bucket(
        BucketCreate(label="new.bucket-1", cluster="eu-central-1", acl="public-read")
    )
    assert made.label == "new.bucket-1" and made.cluster == "eu-central-1"
    assert made.objects == 0 and made.size == 0
    assert sim.store.get("object_storage.buckets", "eu-central-1/new.bucket-1")["_acl"] == (  # type: ignore[index]
        "public-read"
    )
    also = await svc.create_bucket(label="kw-bucket", cluster="us-east-1", cors_enabled=True)
    assert also.label == "kw-bucket"
    await svc.remove_bucket("eu-central-1", "new.bucket-1")
    labels = {b.label for b in (await svc.list_buckets_in_cluster("eu-central-1")).data}
    assert "new.bucket-1" not in labels


async def test_access_modify_and_update(svc: ObjectStorageService, sim: Simulator) -> None:
    await svc.modify_access(*SITE, acl="private", cors_enabled=True)
    record = sim.store.get("object_storage.buckets", "us-east-1/cloudtui-site")
    assert record is not None and record["_acl"] == "private" and record["_cors_enabled"] is True
    await svc.update_access(*SITE, BucketAccess(acl="custom"))
    assert record["_acl"] == "custom" and record["_cors_enabled"] is True


async def test_object_acl_view_and_update(svc: ObjectStorageService) -> None:
    acl = await svc.get_object_acl(*SITE, "site/index.html")
    assert acl.acl == "public-read"
    assert acl.acl_xml and "AllUsers" in acl.acl_xml
    updated = await svc.update_object_acl(*SITE, "site/index.html", "authenticated-read")
    assert updated.acl == "authenticated-read"
    assert updated.acl_xml and "AuthenticatedUsers" in updated.acl_xml
    assert (await svc.get_object_acl(*SITE, "site/index.html")).acl == "authenticated-read"


async def test_list_objects_with_prefix_and_delimiter(svc: ObjectStorageService) -> None:
    top = await svc.list_objects(*SITE, delimiter="/")
    assert [e.name for e in top.data] == ["README.txt", "docs/", "site/"]
    assert [e.is_folder for e in top.data] == [False, True, True]
    assert top.is_truncated is False and top.next_marker is None
    site = await svc.list_objects(*SITE, prefix="site/", delimiter="/")
    names = [e.name for e in site.data]
    assert names == ["site/css/", "site/img/", "site/index.html", "site/js/", "site/menü/"]
    docs = await svc.list_objects(*SITE, prefix="docs/")
    assert {e.name for e in docs.data} == {"docs/résumé été 2026.txt", "docs/報告書.txt"}


async def test_iter_and_all_objects_follow_markers(svc: ObjectStorageService) -> None:
    pages = [p async for p in svc.iter_objects("eu-central-1", "eu-logs", page_size=25)]
    assert len(pages) == 6
    assert [p.is_truncated for p in pages] == [True] * 5 + [False]
    names = [e.name for p in pages for e in p.data]
    assert len(names) == 140 and names == sorted(set(names))
    everything = await svc.all_objects("eu-central-1", "eu-logs")
    assert [e.name for e in everything] == names


async def test_object_url_upload_then_download(svc: ObjectStorageService, sim: Simulator) -> None:
    put = await svc.create_object_url(
        *SITE, "site/new page.html", method="PUT", content_type="text/html"
    )
    assert put.url and put.url.startswith("http://sim.local/_sim/objects/")
    async with httpx.AsyncClient(transport=sim.transport()) as http:
        uploaded = await http.put(
            put.url, content=b"<p>new</p>", headers={"Content-Type": "text/html"}
        )
        assert uploaded.status_code == 200
        get = await svc.create_object_url(*SITE, "site/new page.html", expires_in=600)
        assert get.url is not None
        downloaded = await http.get(get.url)
    assert downloaded.status_code == 200 and downloaded.content == b"<p>new</p>"
    assert downloaded.headers["content-type"] == "text/html"
    assert (await svc.get_bucket(*SITE)).objects == 9


async def test_tls_view_upload_delete(svc: ObjectStorageService) -> None:
    assert (await svc.get_tls(*SITE)).ssl is False
    cert, key = make_cert()
    assert (await svc.upload_tls(*SITE, cert, key)).ssl is True
    assert (await svc.get_tls(*SITE)).ssl is True
    await svc.delete_tls(*SITE)
    assert (await svc.get_tls(*SITE)).ssl is False


async def test_keys_list_iter_create_revoke(svc: ObjectStorageService) -> None:
    page = await svc.list_keys()
    assert {k.label for k in page.data} >= {"backup-agent", "admin-laptop"}
    assert all(k.secret_key is None for k in page.data)
    assert sum(len(p.data) for p in [p async for p in svc.iter_keys()]) == page.results
    key = await svc.create_key(
        "deploy",
        [
            BucketAccessGrant(
                cluster="us-east-1", bucket_name="cloudtui-site", permissions="read_only"
            )
        ],
    )
    assert key.secret_key is not None and len(key.secret_key.get_secret_value()) == 40
    assert "*" in repr(key.secret_key)  # kept out of repr and logs
    assert key.limited is True and key.bucket_access is not None
    assert key.bucket_access[0].bucket_name == "cloudtui-site"
    unlimited = await svc.create_key("everything")
    assert unlimited.limited is False and unlimited.bucket_access is None
    assert key.id is not None
    await svc.revoke_key(key.id)
    assert key.id not in [k.id for k in (await svc.list_keys()).data]


async def test_cancel(svc: ObjectStorageService) -> None:
    await svc.cancel()
    assert (await svc.list_buckets()).results == 0
    assert (await svc.list_keys()).results == 0
