"""Object storage: clusters, buckets, bucket contents, object ACLs, pre-signed URLs, TLS
certificates, access keys and cancellation.

Bucket contents are not a ``{data, page, pages, results}`` collection: they page S3-style with
``marker``/``next_marker`` (:meth:`ObjectStorageService.list_objects`,
:meth:`ObjectStorageService.iter_objects`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

from pydantic import SecretStr

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.object_storage import (
    Acl,
    Bucket,
    BucketAccess,
    BucketAccessGrant,
    BucketCreate,
    BucketSsl,
    BucketSslUpload,
    ObjectAcl,
    ObjectAclUpdate,
    ObjectEntry,
    ObjectList,
    ObjectUrl,
    ObjectUrlCreate,
    StorageCluster,
    StorageKey,
    StorageKeyCreate,
    UrlMethod,
)


def _bucket_params(cluster_id: str, bucket: str) -> dict[str, str]:
    return {"clusterId": cluster_id, "bucket": bucket}


class ObjectStorageService(Service):
    """Typed access to the object storage endpoints."""

    # -- clusters ---------------------------------------------------------------------------

    @operation("object_storage.clusters.list")
    async def list_clusters(
        self, page: int = 1, page_size: int | None = None
    ) -> Page[StorageCluster]:
        """GET /object-storage/clusters

        No token needed.

        Args:
            page: Page number, 1-based.
            page_size: Items per page.
        """
        return await self._page("object_storage.clusters.list", page=page, page_size=page_size)

    @operation("object_storage.clusters.list")
    def iter_clusters(self) -> AsyncIterator[Page[StorageCluster]]:
        """GET /object-storage/clusters

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("object_storage.clusters.list")

    @operation("object_storage.clusters.view")
    async def get_cluster(self, cluster_id: str) -> StorageCluster:
        """GET /object-storage/clusters/{clusterId}

        No token needed.

        Args:
            cluster_id: Cluster id such as ``us-east-1``.
        """
        return await self._one(
            "object_storage.clusters.view", StorageCluster, {"clusterId": cluster_id}
        )

    # -- buckets ----------------------------------------------------------------------------

    @operation("object_storage.buckets.list")
    async def list_buckets(self, page: int = 1, page_size: int | None = None) -> Page[Bucket]:
        """GET /object-storage/buckets

        Buckets of every cluster.

        Args:
            page: Page number, 1-based.
            page_size: Items per page.
        """
        return await self._page("object_storage.buckets.list", page=page, page_size=page_size)

    @operation("object_storage.buckets.list")
    def iter_buckets(self) -> AsyncIterator[Page[Bucket]]:
        """GET /object-storage/buckets

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("object_storage.buckets.list")

    @operation("object_storage.buckets.list")
    async def all_buckets(self) -> list[Bucket]:
        """GET /object-storage/buckets

        Every bucket of every cluster.
        """
        return await self._all("object_storage.buckets.list")

    @operation("object_storage.buckets.list_in_cluster")
    async def list_buckets_in_cluster(
        self, cluster_id: str, page: int = 1, page_size: int | None = None
    ) -> Page[Bucket]:
        """GET /object-storage/buckets/{clusterId}

        Args:
            cluster_id: Cluster id.
            page: Page number, 1-based.
            page_size: Items per page.
        """
        return await self._page(
            "object_storage.buckets.list_in_cluster",
            {"clusterId": cluster_id},
            page=page,
            page_size=page_size,
        )

    @operation("object_storage.buckets.list_in_cluster")
    def iter_buckets_in_cluster(self, cluster_id: str) -> AsyncIterator[Page[Bucket]]:
        """GET /object-storage/buckets/{clusterId}

        Every page, fetched concurrently, yielded in order.

        Args:
            cluster_id: Cluster id.
        """
        return self._iter("object_storage.buckets.list_in_cluster", {"clusterId": cluster_id})

    @operation("object_storage.buckets.view")
    async def get_bucket(self, cluster_id: str, bucket: str) -> Bucket:
        """GET /object-storage/buckets/{clusterId}/{bucket}

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
        """
        return await self._one(
            "object_storage.buckets.view", Bucket, _bucket_params(cluster_id, bucket)
        )

    @operation("object_storage.buckets.create")
    async def create_bucket(self, body: BucketCreate | None = None, **fields: Any) -> Bucket:
        """POST /object-storage/buckets

        Creating a bucket the account already owns returns it unchanged.

        Args:
            body: The request; or pass its fields as keyword arguments.
            **fields: Fields of :class:`BucketCreate` when ``body`` is None.
        """
        request = body if body is not None else BucketCreate(**fields)
        return await self._one("object_storage.buckets.create", Bucket, body=request)

    @operation("object_storage.buckets.remove")
    async def remove_bucket(self, cluster_id: str, bucket: str) -> None:
        """DELETE /object-storage/buckets/{clusterId}/{bucket}

        The bucket must be empty.

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
        """
        await self._call("object_storage.buckets.remove", _bucket_params(cluster_id, bucket))

    @operation("object_storage.buckets.access_modify")
    async def modify_access(
        self, cluster_id: str, bucket: str, body: BucketAccess | None = None, **fields: Any
    ) -> None:
        """POST /object-storage/buckets/{clusterId}/{bucket}/access

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            body: The changes; or pass ``acl`` / ``cors_enabled`` as keyword arguments.
            **fields: Fields of :class:`BucketAccess` when ``body`` is None.
        """
        request = body if body is not None else BucketAccess(**fields)
        await self._call(
            "object_storage.buckets.access_modify", _bucket_params(cluster_id, bucket), body=request
        )

    @operation("object_storage.buckets.access_update")
    async def update_access(
        self, cluster_id: str, bucket: str, body: BucketAccess | None = None, **fields: Any
    ) -> None:
        """PUT /object-storage/buckets/{clusterId}/{bucket}/access

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            body: The changes; or pass ``acl`` / ``cors_enabled`` as keyword arguments.
            **fields: Fields of :class:`BucketAccess` when ``body`` is None.
        """
        request = body if body is not None else BucketAccess(**fields)
        await self._call(
            "object_storage.buckets.access_update", _bucket_params(cluster_id, bucket), body=request
        )

    # -- objects ----------------------------------------------------------------------------

    @operation("object_storage.objects.acl_view")
    async def get_object_acl(self, cluster_id: str, bucket: str, name: str) -> ObjectAcl:
        """GET /object-storage/buckets/{clusterId}/{bucket}/object-acl

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            name: Object name.
        """
        return await self._one(
            "object_storage.objects.acl_view",
            ObjectAcl,
            _bucket_params(cluster_id, bucket),
            query={"name": name},
        )

    @operation("object_storage.objects.acl_update")
    async def update_object_acl(
        self, cluster_id: str, bucket: str, name: str, acl: Acl
    ) -> ObjectAcl:
        """PUT /object-storage/buckets/{clusterId}/{bucket}/object-acl

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            name: Object name.
            acl: New ACL.
        """
        return await self._one(
            "object_storage.objects.acl_update",
            ObjectAcl,
            _bucket_params(cluster_id, bucket),
            body=ObjectAclUpdate(name=name, acl=acl),
        )

    @operation("object_storage.objects.list")
    async def list_objects(
        self,
        cluster_id: str,
        bucket: str,
        prefix: str | None = None,
        delimiter: str | None = None,
        marker: str | None = None,
        page_size: int | None = None,
    ) -> ObjectList:
        """GET /object-storage/buckets/{clusterId}/{bucket}/object-list

        One page, S3 style: with ``delimiter`` (usually ``/``) names are rolled up into folder
        entries; pass the answer's ``next_marker`` as ``marker`` for the next page.

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            prefix: Only names starting with it (a "folder" such as ``site/``).
            delimiter: Roll names up at this separator.
            marker: Only entries after this name.
            page_size: Entries per page.
        """
        query = {
            "prefix": prefix,
            "delimiter": delimiter,
            "marker": marker,
            "page_size": page_size,
        }
        return await self._one(
            "object_storage.objects.list",
            ObjectList,
            _bucket_params(cluster_id, bucket),
            query=query,
        )

    @operation("object_storage.objects.list")
    async def iter_objects(
        self,
        cluster_id: str,
        bucket: str,
        prefix: str | None = None,
        delimiter: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[ObjectList]:
        """GET /object-storage/buckets/{clusterId}/{bucket}/object-list

        Every page in order, each request continuing at the previous ``next_marker``.

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            prefix: Only names starting with it.
            delimiter: Roll names up at this separator.
            page_size: Entries per page.
        """
        marker: str | None = None
        while True:
            page = await self.list_objects(
                cluster_id, bucket, prefix, delimiter, marker=marker, page_size=page_size
            )
            yield page
            # An entry-less or marker-less truncated answer would loop forever: stop instead.
            if not page.is_truncated or not page.next_marker or page.next_marker == marker:
                return
            marker = page.next_marker

    async def all_objects(
        self,
        cluster_id: str,
        bucket: str,
        prefix: str | None = None,
        delimiter: str | None = None,
    ) -> list[ObjectEntry]:
        """Every entry of a listing (all pages).

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            prefix: Only names starting with it.
            delimiter: Roll names up at this separator.
        """
        entries: list[ObjectEntry] = []
        async for page in self.iter_objects(cluster_id, bucket, prefix, delimiter):
            entries.extend(page.data)
        return entries

    @operation("object_storage.objects.url")
    async def create_object_url(
        self,
        cluster_id: str,
        bucket: str,
        name: str,
        method: UrlMethod = "GET",
        expires_in: int | None = None,
        content_type: str | None = None,
    ) -> ObjectUrl:
        """POST /object-storage/buckets/{clusterId}/{bucket}/object-url

        A pre-signed URL for one object (which need not exist): ``GET`` downloads, ``PUT``
        uploads, ``DELETE`` deletes; no token is needed to use it.

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            name: Object name.
            method: What the URL allows.
            expires_in: Lifetime in seconds, 360..86400 (server default 3600).
            content_type: For ``PUT``: the Content-Type the upload must send.
        """
        fields: dict[str, Any] = {"name": name, "method": method}
        if expires_in is not None:
            fields["expires_in"] = expires_in
        if content_type is not None:
            fields["content_type"] = content_type
        return await self._one(
            "object_storage.objects.url",
            ObjectUrl,
            _bucket_params(cluster_id, bucket),
            body=ObjectUrlCreate(**fields),
        )

    # -- TLS --------------------------------------------------------------------------------

    @operation("object_storage.ssl.view")
    async def get_tls(self, cluster_id: str, bucket: str) -> BucketSsl:
        """GET /object-storage/buckets/{clusterId}/{bucket}/ssl

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
        """
        return await self._one(
            "object_storage.ssl.view", BucketSsl, _bucket_params(cluster_id, bucket)
        )

    @operation("object_storage.ssl.upload")
    async def upload_tls(
        self, cluster_id: str, bucket: str, certificate: str, private_key: str | SecretStr
    ) -> BucketSsl:
        """POST /object-storage/buckets/{clusterId}/{bucket}/ssl

        To replace a certificate, delete the current one first.

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
            certificate: PEM certificate.
            private_key: PEM private key of the certificate.
        """
        key = private_key if isinstance(private_key, SecretStr) else SecretStr(private_key)
        return await self._one(
            "object_storage.ssl.upload",
            BucketSsl,
            _bucket_params(cluster_id, bucket),
            body=BucketSslUpload(certificate=certificate, private_key=key),
        )

    @operation("object_storage.ssl.delete")
    async def delete_tls(self, cluster_id: str, bucket: str) -> None:
        """DELETE /object-storage/buckets/{clusterId}/{bucket}/ssl

        Removes the certificate and its key.

        Args:
            cluster_id: Cluster id.
            bucket: Bucket label.
        """
        await self._call("object_storage.ssl.delete", _bucket_params(cluster_id, bucket))

    # -- keys -------------------------------------------------------------------------------

    @operation("object_storage.keys.list")
    async def list_keys(self, page: int = 1, page_size: int | None = None) -> Page[StorageKey]:
        """GET /object-storage/keys

        Secrets are never listed.

        Args:
            page: Page number, 1-based.
            page_size: Items per page.
        """
        return await self._page("object_storage.keys.list", page=page, page_size=page_size)

    @operation("object_storage.keys.list")
    def iter_keys(self) -> AsyncIterator[Page[StorageKey]]:
        """GET /object-storage/keys

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("object_storage.keys.list")

    @operation("object_storage.keys.create")
    async def create_key(
        self,
        label: str | None = None,
        bucket_access: Sequence[BucketAccessGrant | dict[str, Any]] | None = None,
    ) -> StorageKey:
        """POST /object-storage/keys

        Args:
            label: Display label.
            bucket_access: None for an unlimited key; a list (even empty) for a key limited to
                those buckets.

        Returns:
            The key, with ``secret_key`` (shown only this once).
        """
        fields: dict[str, Any] = {}
        if label is not None:
            fields["label"] = label
        if bucket_access is not None:
            fields["bucket_access"] = [
                e if isinstance(e, BucketAccessGrant) else BucketAccessGrant(**e)
                for e in bucket_access
            ]
        return await self._one(
            "object_storage.keys.create", StorageKey, body=StorageKeyCreate(**fields)
        )

    @operation("object_storage.keys.revoke")
    async def revoke_key(self, key_id: int) -> None:
        """DELETE /object-storage/keys/{keyId}

        The key pair stops working.

        Args:
            key_id: Key id.
        """
        await self._call("object_storage.keys.revoke", {"keyId": key_id})

    # -- cancel -----------------------------------------------------------------------------

    @operation("object_storage.cancel")
    async def cancel(self) -> None:
        """POST /object-storage/cancel

        Removes every bucket, its contents and every key, irreversibly.
        """
        await self._call("object_storage.cancel")
