"""Object storage: buckets (with their objects and TLS certificate), clusters and access keys."""

from __future__ import annotations

from dataclasses import replace

from tui.resources.spec import Action, ChildSpec, Column, FieldSpec, ResourceSpec, Section

OBJECTS = ResourceSpec(
    id="object_storage.objects",
    title="Objects",
    singular="object",
    list_endpoint="object_storage.objects.list",
    parent_params=("clusterId", "bucket"),
    adapter="object_list",
    id_field="name",
    label_field="name",
    columns=(
        Column("name", "Name"),
        Column("size", "Size", "bytes", 10),
        Column("last_modified", "Modified", "datetime", 16),
        Column("owner", "Owner", width=14),
        Column("etag", "ETag", width=34),
    ),
    sections=(
        Section(
            "Object",
            (
                FieldSpec("name", "Name"),
                FieldSpec("size", "Size", "bytes"),
                FieldSpec("last_modified", "Last modified", "datetime"),
                FieldSpec("owner", "Owner"),
                FieldSpec("etag", "ETag"),
            ),
        ),
    ),
    actions=(
        Action(
            "object_storage.object_url",
            "Pre-signed URL",
            "object_storage.objects.url",
            key="u",
            form="object_storage:ObjectUrlCreate",
            grant="none",
            description="Create a pre-signed URL to get, put or delete the object",
            prefill={"name": "name"},
        ),
        Action(
            "object_storage.object_acl",
            "Object ACL",
            "object_storage.objects.acl_update",
            key="a",
            form="object_storage:ObjectAclUpdate",
            grant="none",
            screen="object_storage.object_acl",
            description="See and change who may read the object",
        ),
    ),
    status_field=None,
    copy_fields=("name",),
    empty_hint="The bucket is empty.",
)

BUCKET_SSL = ResourceSpec(
    id="object_storage.ssl",
    title="TLS certificate",
    singular="TLS certificate",
    list_endpoint="object_storage.ssl.view",
    parent_params=("clusterId", "bucket"),
    singleton=True,
    status_field=None,
    sections=(Section("TLS", (FieldSpec("ssl", "Certificate uploaded", "bool"),)),),
    actions=(
        Action(
            "object_storage.ssl_upload",
            "Upload certificate",
            "object_storage.ssl.upload",
            key="U",
            form="object_storage:BucketSslUpload",
            grant="none",
            description="Upload a PEM certificate and private key",
        ),
        Action(
            "object_storage.ssl_delete",
            "Delete certificate",
            "object_storage.ssl.delete",
            key="D",
            confirm="confirm",
            grant="none",
            description="Remove the uploaded certificate and key",
        ),
    ),
)

BUCKETS = ResourceSpec(
    id="object_storage.buckets",
    title="Buckets",
    singular="bucket",
    list_endpoint="object_storage.buckets.list",
    view_endpoint="object_storage.buckets.view",
    id_field="hostname",
    item_params={"clusterId": "cluster", "bucket": "label"},
    columns=(
        Column("label", "Label"),
        Column("cluster", "Cluster", width=14),
        Column("objects", "Objects", "int", 9),
        Column("size", "Size", "bytes", 10),
        Column("hostname", "Hostname"),
        Column("created", "Created", "datetime", 16),
    ),
    sections=(
        Section(
            "Bucket",
            (
                FieldSpec("label", "Label"),
                FieldSpec("cluster", "Cluster"),
                FieldSpec("hostname", "Hostname"),
                FieldSpec("objects", "Objects", "int"),
                FieldSpec("size", "Size", "bytes"),
                FieldSpec("created", "Created", "datetime"),
            ),
        ),
    ),
    children=(
        ChildSpec("Objects", "object_storage.objects", {"clusterId": "cluster", "bucket": "label"}),
        ChildSpec("TLS", "object_storage.ssl", {"clusterId": "cluster", "bucket": "label"}),
    ),
    actions=(
        Action(
            "object_storage.bucket_create",
            "New bucket",
            "object_storage.buckets.create",
            key="n",
            target="collection",
            form="object_storage:BucketCreate",
            grant="none",
            description="Create a bucket in a cluster",
        ),
        Action(
            "object_storage.bucket_access",
            "Access",
            "object_storage.buckets.access_update",
            key="e",
            form="object_storage:BucketAccess",
            grant="none",
            description="Change the bucket ACL and CORS",
        ),
        Action(
            "object_storage.bucket_access_modify",
            "Modify access",
            "object_storage.buckets.access_modify",
            form="object_storage:BucketAccess",
            grant="none",
            description="Change only the given ACL or CORS setting (POST .../access)",
        ),
        Action(
            "object_storage.bucket_delete",
            "Delete",
            "object_storage.buckets.remove",
            bulk=True,
            key="d",
            confirm="typed",
            grant="none",
            description="Remove the bucket (it must be empty; irreversible)",
        ),
        Action(
            "object_storage.cancel",
            "Cancel object storage",
            "object_storage.cancel",
            target="collection",
            confirm="typed",
            grant="unrestricted",
            description="Remove every bucket and all contents (irreversible)",
        ),
    ),
    status_field=None,
    copy_fields=("hostname", "label"),
    empty_hint="No buckets yet. Press n to create one.",
)

CLUSTERS = ResourceSpec(
    id="object_storage.clusters",
    title="Clusters",
    singular="cluster",
    list_endpoint="object_storage.clusters.list",
    view_endpoint="object_storage.clusters.view",
    id_param="clusterId",
    label_field="id",
    columns=(
        Column("id", "ID", width=18),
        Column("region", "Region", width=14),
        Column("status", "Status", "status", 14),
        Column("domain", "Domain"),
        Column("static_site_domain", "Static site domain"),
    ),
    sections=(
        Section(
            "Cluster",
            (
                FieldSpec("id", "ID"),
                FieldSpec("region", "Region"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("domain", "Domain"),
                FieldSpec("static_site_domain", "Static site domain"),
            ),
        ),
    ),
    children=(ChildSpec("Buckets", "object_storage.cluster_buckets", {"clusterId": "id"}),),
    copy_fields=("domain", "id"),
)

CLUSTER_BUCKETS = replace(
    BUCKETS,
    id="object_storage.cluster_buckets",
    list_endpoint="object_storage.buckets.list_in_cluster",
    parent_params=("clusterId",),
    # A cluster's buckets open as ordinary buckets, whose detail screen has their actions.
    actions=(),
    item_specs={"*": "object_storage.buckets"},
    empty_hint="No buckets in this cluster.",
)

KEYS = ResourceSpec(
    id="object_storage.keys",
    title="Access keys",
    singular="access key",
    list_endpoint="object_storage.keys.list",
    id_param="keyId",
    columns=(
        Column("label", "Label"),
        Column("access_key", "Access key", width=22),
        Column("limited", "Limited", "bool", 7),
        Column("bucket_access", "Bucket access", "json"),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Key",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("access_key", "Access key"),
                FieldSpec("secret_key", "Secret key", "secret"),
                FieldSpec("limited", "Limited", "bool"),
                FieldSpec("bucket_access", "Bucket access", "json"),
            ),
        ),
    ),
    actions=(
        Action(
            "object_storage.key_create",
            "New key",
            "object_storage.keys.create",
            key="n",
            target="collection",
            form="object_storage:StorageKeyCreate",
            grant="none",
            description="Create an access key (the secret is shown once)",
        ),
        Action(
            "object_storage.key_revoke",
            "Revoke",
            "object_storage.keys.revoke",
            bulk=True,
            key="d",
            confirm="confirm",
            grant="none",
            description="Revoke the key pair",
        ),
    ),
    status_field=None,
    copy_fields=("access_key", "id"),
    empty_hint="No access keys. Press n to create one.",
)

SPECS = (BUCKETS, OBJECTS, BUCKET_SSL, CLUSTERS, CLUSTER_BUCKETS, KEYS)
