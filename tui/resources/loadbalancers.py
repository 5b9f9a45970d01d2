"""Load balancers -> port configs -> backend nodes."""

from __future__ import annotations

from tui.resources.spec import Action, ChildSpec, Column, FieldSpec, ResourceSpec, Section
from tui.resources.tags import tag_action

NODES = ResourceSpec(
    id="loadbalancers.nodes",
    title="Nodes",
    singular="node",
    list_endpoint="loadbalancers.nodes.list",
    view_endpoint="loadbalancers.nodes.view",
    id_param="nodeId",
    parent_params=("loadbalancerId", "configId"),
    columns=(
        Column("label", "Label"),
        Column("address", "Address", width=22),
        Column("status", "Status", "status", 12),
        Column("mode", "Mode", width=8),
        Column("weight", "Weight", "int", 6),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Node",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("address", "Address"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("mode", "Mode"),
                FieldSpec("weight", "Weight", "int"),
            ),
        ),
    ),
    actions=(
        Action(
            "loadbalancers.node_create",
            "New node",
            "loadbalancers.nodes.create",
            key="n",
            target="collection",
            form="loadbalancers:LbNodeCreate",
            description="Add a backend (private address and port)",
        ),
        Action(
            "loadbalancers.node_edit",
            "Edit",
            "loadbalancers.nodes.update",
            key="e",
            form="loadbalancers:LbNodeUpdate",
            description="Change label, address, mode or weight",
        ),
        Action(
            "loadbalancers.node_delete",
            "Delete",
            "loadbalancers.nodes.delete",
            bulk=True,
            key="d",
            confirm="typed",
            description="Remove the backend (the instance itself is untouched)",
        ),
    ),
    copy_fields=("address", "id"),
    empty_hint="No nodes: the port answers nothing until one is added (n).",
)

CONFIGS = ResourceSpec(
    id="loadbalancers.configs",
    title="Configs",
    singular="port config",
    list_endpoint="loadbalancers.configs.list",
    view_endpoint="loadbalancers.configs.view",
    id_param="configId",
    parent_params=("loadbalancerId",),
    label_field="port",
    columns=(
        Column("port", "Port", "int", 6),
        Column("protocol", "Protocol", width=8),
        Column("algorithm", "Algorithm", width=10),
        Column("check", "Check", width=10),
        Column("stickiness", "Stickiness", width=11),
        Column("nodes_status", "Nodes up/down", "json", 16),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Config",
            (
                FieldSpec("id", "ID"),
                FieldSpec("port", "Port", "int"),
                FieldSpec("protocol", "Protocol"),
                FieldSpec("algorithm", "Algorithm"),
                FieldSpec("stickiness", "Stickiness"),
                FieldSpec("proxy_protocol", "Proxy protocol"),
                FieldSpec("cipher_suite", "Cipher suite"),
                FieldSpec("nodes_status", "Nodes up/down", "json"),
            ),
        ),
        Section(
            "Health check",
            (
                FieldSpec("check", "Check"),
                FieldSpec("check_path", "Path"),
                FieldSpec("check_body", "Expected body"),
                FieldSpec("check_interval", "Interval (s)", "int"),
                FieldSpec("check_timeout", "Timeout (s)", "int"),
                FieldSpec("check_attempts", "Attempts", "int"),
                FieldSpec("check_passive", "Passive checks", "bool"),
            ),
        ),
        Section(
            "TLS",
            (
                FieldSpec("ssl_commonname", "Common name"),
                FieldSpec("ssl_fingerprint", "Fingerprint"),
                FieldSpec("ssl_cert", "Certificate", "secret"),
                FieldSpec("ssl_key", "Private key", "secret"),
            ),
        ),
    ),
    children=(ChildSpec("Nodes", "loadbalancers.nodes", {"configId": "id"}),),
    actions=(
        Action(
            "loadbalancers.config_create",
            "New config",
            "loadbalancers.configs.create",
            key="n",
            target="collection",
            form="loadbalancers:LbConfigCreate",
            description="Listen on another port",
        ),
        Action(
            "loadbalancers.config_edit",
            "Edit",
            "loadbalancers.configs.update",
            key="e",
            form="loadbalancers:LbConfigUpdate",
            description="Change protocol, algorithm, checks, TLS",
        ),
        Action(
            "loadbalancers.config_delete",
            "Delete",
            "loadbalancers.configs.delete",
            bulk=True,
            key="d",
            confirm="confirm",
            description="Delete the port config and its nodes",
        ),
    ),
    status_field=None,
    empty_hint="No port configs. Press n to listen on a port.",
)

BALANCERS = ResourceSpec(
    id="loadbalancers",
    title="Load balancers",
    singular="load balancer",
    list_endpoint="loadbalancers.list",
    view_endpoint="loadbalancers.view",
    id_param="loadbalancerId",
    columns=(
        Column("label", "Label"),
        Column("region", "Region", width=12),
        Column("ipv4", "IPv4", width=15),
        Column("hostname", "Hostname"),
        Column("client_conn_throttle", "Throttle", "int", 8),
        Column("tags", "Tags", "list"),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Load balancer",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("region", "Region"),
                FieldSpec("hostname", "Hostname"),
                FieldSpec("ipv4", "IPv4"),
                FieldSpec("ipv6", "IPv6"),
                FieldSpec("client_conn_throttle", "Connection throttle (/s)", "int", zero="off"),
                FieldSpec("tags", "Tags", "list"),
                FieldSpec("transfer.in", "Transfer in this month", "mb"),
                FieldSpec("transfer.out", "Transfer out this month", "mb"),
                FieldSpec("transfer.total", "Transfer this month", "mb"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
            ),
        ),
    ),
    children=(ChildSpec("Configs", "loadbalancers.configs", {"loadbalancerId": "id"}),),
    actions=(
        Action(
            "loadbalancers.create",
            "New load balancer",
            "loadbalancers.create",
            key="n",
            target="collection",
            form="loadbalancers:LoadBalancerCreate",
            grant="global:add_loadbalancers",
            description="Create a load balancer (charges apply)",
        ),
        Action(
            "loadbalancers.edit",
            "Edit",
            "loadbalancers.update",
            key="e",
            form="loadbalancers:LoadBalancerUpdate",
            description="Change label, throttle, tags",
        ),
        Action(
            "loadbalancers.delete",
            "Delete",
            "loadbalancers.delete",
            bulk=True,
            key="d",
            confirm="typed",
            description="Delete with its configs and nodes; its addresses are lost (irreversible)",
        ),
        tag_action("loadbalancers", "loadbalancers.update"),
    ),
    status_field=None,
    copy_fields=("ipv4", "hostname", "id"),
    grant_kind="loadbalancer",
    empty_hint="No load balancers yet. Press n to create one.",
)

SPECS = (BALANCERS, CONFIGS, NODES)
