"""Kubernetes clusters -> node pools -> nodes; API endpoints, dashboard, kubeconfig; versions."""

from __future__ import annotations

from tui.resources.handoffs import K9S, K9S_ON_POOL
from tui.resources.spec import Action, ChildSpec, Column, FieldSpec, ResourceSpec, Section
from tui.resources.tags import tag_action

K8S_TRANSITIONAL = frozenset({"not_ready", "not ready", "provisioning", "recycling", "deleting"})

NODES = ResourceSpec(
    id="k8s.nodes",
    title="Nodes",
    singular="node",
    list_endpoint="k8s.pools.view",
    items_key="nodes",
    view_endpoint="k8s.nodes.view",
    id_param="nodeId",
    parent_params=("clusterId", "poolId"),
    label_field="id",
    columns=(
        Column("id", "Node"),
        Column("status", "Status", "status", 14),
        Column("instance_id", "Instance", "int", 10),
    ),
    sections=(
        Section(
            "Node",
            (
                FieldSpec("id", "ID"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("instance_id", "Instance id"),
            ),
        ),
    ),
    actions=(
        Action(
            "k8s.node_recycle",
            "Recycle",
            "k8s.nodes.recycle",
            bulk=True,
            key="c",
            confirm="confirm",
            description="Replace the node with a new instance (local storage is erased)",
        ),
        Action(
            "k8s.node_delete",
            "Delete",
            "k8s.nodes.delete",
            bulk=True,
            key="d",
            confirm="typed",
            description="Delete the node; its pool shrinks (irreversible)",
        ),
    ),
    transitional=K8S_TRANSITIONAL,
    copy_fields=("id", "instance_id"),
    empty_hint="The pool has no nodes.",
)

POOLS = ResourceSpec(
    id="k8s.pools",
    title="Node pools",
    singular="node pool",
    list_endpoint="k8s.pools.list",
    view_endpoint="k8s.pools.view",
    id_param="poolId",
    parent_params=("clusterId",),
    label_field="type",
    columns=(
        Column("id", "Pool", "int", 8),
        Column("type", "Type", width=12),
        Column("count", "Nodes", "int", 5),
        Column("autoscaler.enabled", "Autoscale", "bool", 9),
        Column("autoscaler.min", "Min", "int", 4),
        Column("autoscaler.max", "Max", "int", 4),
        Column("tags", "Tags", "list"),
    ),
    sections=(
        Section(
            "Pool",
            (
                FieldSpec("id", "ID"),
                FieldSpec("type", "Type"),
                FieldSpec("count", "Nodes", "int"),
                FieldSpec("autoscaler.enabled", "Autoscaler", "bool"),
                FieldSpec("autoscaler.min", "Autoscaler min", "int"),
                FieldSpec("autoscaler.max", "Autoscaler max", "int"),
                FieldSpec("disks", "Custom disks", "json"),
                FieldSpec("tags", "Tags", "list"),
            ),
        ),
    ),
    children=(ChildSpec("Nodes", "k8s.nodes", {"poolId": "id"}),),
    actions=(
        Action(
            "k8s.pool_create",
            "New pool",
            "k8s.pools.create",
            key="n",
            target="collection",
            form="k8s:PoolCreate",
            description="Add a node pool",
        ),
        Action(
            "k8s.pool_edit",
            "Edit",
            "k8s.pools.update",
            key="e",
            form="k8s:PoolUpdate",
            description="Change node count or autoscaler",
        ),
        Action(
            "k8s.pool_recycle",
            "Recycle",
            "k8s.pools.recycle",
            bulk=True,
            key="c",
            confirm="confirm",
            description="Rolling replacement of every node of the pool",
        ),
        Action(
            "k8s.pool_delete",
            "Delete",
            "k8s.pools.delete",
            bulk=True,
            key="d",
            confirm="typed",
            description="Delete the pool and all its nodes (irreversible)",
        ),
        K9S_ON_POOL,
    ),
    status_field=None,
    empty_hint="No node pools. Press n to add one.",
)

API_ENDPOINTS = ResourceSpec(
    id="k8s.api_endpoints",
    title="API endpoints",
    singular="API endpoint",
    list_endpoint="k8s.api_endpoints",
    parent_params=("clusterId",),
    id_field="endpoint",
    label_field="endpoint",
    columns=(Column("endpoint", "Endpoint"),),
    sections=(Section("Endpoint", (FieldSpec("endpoint", "URL"),)),),
    status_field=None,
    copy_fields=("endpoint",),
    empty_hint="No API endpoint yet: it takes 2 to 5 minutes after creation.",
)

DASHBOARD = ResourceSpec(
    id="k8s.dashboard",
    title="Dashboard",
    singular="dashboard",
    list_endpoint="k8s.dashboard",
    parent_params=("clusterId",),
    singleton=True,
    status_field=None,
    sections=(Section("Dashboard", (FieldSpec("url", "URL"),)),),
    copy_fields=("url",),
)

KUBECONFIG = ResourceSpec(
    id="k8s.kubeconfig",
    title="Kubeconfig",
    singular="kubeconfig",
    list_endpoint="k8s.kubeconfig.view",
    parent_params=("clusterId",),
    singleton=True,
    status_field=None,
    sections=(Section("Kubeconfig", (FieldSpec("kubeconfig", "Kubeconfig (base64)", "secret"),)),),
    actions=(
        Action(
            "k8s.kubeconfig_save",
            "Save to file",
            "k8s.kubeconfig.view",
            key="w",
            grant="none",
            screen="k8s.kubeconfig_save",
            description="Write the kubeconfig to a file only you can read, for kubectl",
        ),
        Action(
            "k8s.kubeconfig_reset",
            "Regenerate kubeconfig",
            "k8s.kubeconfig.delete",
            key="K",
            confirm="confirm",
            description="Delete and regenerate the kubeconfig (the old one stops working)",
        ),
    ),
    copy_fields=("kubeconfig",),
)

CLUSTERS = ResourceSpec(
    id="k8s.clusters",
    title="Clusters",
    singular="cluster",
    list_endpoint="k8s.clusters.list",
    view_endpoint="k8s.clusters.view",
    id_param="clusterId",
    columns=(
        Column("label", "Label"),
        Column("status", "Status", "status", 14),
        Column("k8s_version", "Version", width=8),
        Column("region", "Region", width=12),
        Column("control_plane.high_availability", "HA", "bool", 4),
        Column("tags", "Tags", "list"),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Cluster",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("k8s_version", "Kubernetes version"),
                FieldSpec("region", "Region"),
                FieldSpec("control_plane.high_availability", "HA control plane", "bool"),
                FieldSpec("tags", "Tags", "list"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
            ),
        ),
    ),
    children=(
        ChildSpec("Pools", "k8s.pools", {"clusterId": "id"}),
        ChildSpec("API endpoints", "k8s.api_endpoints", {"clusterId": "id"}),
        ChildSpec("Dashboard", "k8s.dashboard", {"clusterId": "id"}),
        ChildSpec("Kubeconfig", "k8s.kubeconfig", {"clusterId": "id"}),
    ),
    actions=(
        Action(
            "k8s.create",
            "New cluster",
            "k8s.clusters.create",
            key="n",
            target="collection",
            form="k8s:ClusterCreate",
            description="Create a cluster with node pools (ready in 2 to 5 minutes)",
        ),
        Action(
            "k8s.edit",
            "Edit",
            "k8s.clusters.update",
            key="e",
            form="k8s:ClusterUpdate",
            description="Label, tags, next minor version, HA control plane (irreversible)",
            offer_after={
                "k8s_version": (
                    "k8s.recycle",
                    "The control plane runs the new version; the nodes keep the old one until "
                    "they are recycled. Recycle every node now (rolling, local storage is "
                    "erased)?",
                )
            },
        ),
        Action(
            "k8s.recycle",
            "Recycle all nodes",
            "k8s.clusters.recycle",
            bulk=True,
            key="c",
            confirm="confirm",
            description="Rolling replacement of every node of every pool",
        ),
        Action(
            "k8s.delete",
            "Delete",
            "k8s.clusters.delete",
            bulk=True,
            key="d",
            confirm="typed",
            description="Delete the cluster, its nodes and balancers (volumes are kept)",
        ),
        tag_action("k8s", "k8s.clusters.update"),
        K9S,
    ),
    transitional=K8S_TRANSITIONAL,
    copy_fields=("id",),
    empty_hint="No clusters yet. Press n to create one.",
)

VERSIONS = ResourceSpec(
    id="k8s.versions",
    title="Versions",
    singular="version",
    list_endpoint="k8s.versions.list",
    view_endpoint="k8s.versions.view",
    id_param="version",
    label_field="id",
    columns=(Column("id", "Version"),),
    sections=(Section("Version", (FieldSpec("id", "Version"),)),),
    status_field=None,
)

SPECS = (CLUSTERS, POOLS, NODES, API_ENDPOINTS, DASHBOARD, KUBECONFIG, VERSIONS)
