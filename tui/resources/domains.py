"""DNS domains, their records and zone files."""

from __future__ import annotations

from tui.resources.spec import Action, ChildSpec, Column, FieldSpec, ResourceSpec, Section
from tui.resources.tags import tag_action

RECORDS = ResourceSpec(
    id="domains.records",
    title="Records",
    singular="record",
    list_endpoint="domains.records.list",
    view_endpoint="domains.records.view",
    id_param="recordId",
    parent_params=("domainId",),
    label_field="name",
    label_fallback=("type", "target"),
    columns=(
        Column("type", "Type", width=6),
        Column("tag", "Tag", width=9),  # a CAA record's issue, issuewild or iodef
        Column("name", "Name"),
        Column("target", "Target"),
        Column("ttl_sec", "TTL", "int", 8),
        Column("priority", "Prio", "int", 5),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Record",
            (
                FieldSpec("id", "ID"),
                FieldSpec("type", "Type"),
                FieldSpec("name", "Name"),
                FieldSpec("target", "Target"),
                FieldSpec("ttl_sec", "TTL (s)", "int"),
                FieldSpec("priority", "Priority", "int"),
                FieldSpec("weight", "Weight", "int"),
                FieldSpec("port", "Port", "int"),
                FieldSpec("service", "Service"),
                FieldSpec("protocol", "Protocol"),
                FieldSpec("tag", "CAA tag"),
            ),
        ),
    ),
    actions=(
        Action(
            "domains.record_create",
            "New record",
            "domains.records.create",
            key="n",
            target="collection",
            form="domains:RecordCreate",
            description="Add a DNS record",
        ),
        Action(
            "domains.record_edit",
            "Edit",
            "domains.records.update",
            key="e",
            form="domains:RecordUpdate",
            description="Change the record",
        ),
        Action(
            "domains.record_delete",
            "Delete",
            "domains.records.delete",
            bulk=True,
            key="d",
            confirm="confirm",
            description="Delete the record",
        ),
    ),
    status_field=None,
    copy_fields=("target", "name", "id"),
    empty_hint="No records. Press n to add one.",
)

ZONE_FILE = ResourceSpec(
    id="domains.zone_file",
    title="Zone file",
    singular="zone file",
    list_endpoint="domains.zone_file",
    parent_params=("domainId",),
    singleton=True,
    status_field=None,
    sections=(Section("Zone file", (FieldSpec("zone_file", "Lines", "block"),)),),
)

DOMAINS = ResourceSpec(
    id="domains",
    title="Domains",
    singular="domain",
    list_endpoint="domains.list",
    view_endpoint="domains.view",
    id_param="domainId",
    label_field="domain",
    columns=(
        Column("domain", "Domain"),
        Column("type", "Type", width=7),
        Column("status", "Status", "status", 12),
        Column("soa_email", "SOA email"),
        Column("group", "Group", width=12),
        Column("tags", "Tags", "list"),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Domain",
            (
                FieldSpec("domain", "Domain"),
                FieldSpec("id", "ID"),
                FieldSpec("type", "Type"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("description", "Description"),
                FieldSpec("group", "Group"),
                FieldSpec("soa_email", "SOA email"),
                FieldSpec("tags", "Tags", "list"),
            ),
        ),
        Section(
            "Zone",
            (
                FieldSpec("master_ips", "Master IPs", "list"),
                FieldSpec("axfr_ips", "AXFR IPs", "list"),
                FieldSpec("ttl_sec", "TTL (s)", "int", zero="default (86400)"),
                FieldSpec("refresh_sec", "Refresh (s)", "int", zero="default (14400)"),
                FieldSpec("retry_sec", "Retry (s)", "int", zero="default (14400)"),
                FieldSpec("expire_sec", "Expire (s)", "int", zero="default (1209600)"),
            ),
        ),
    ),
    children=(
        ChildSpec("Records", "domains.records", {"domainId": "id"}),
        ChildSpec("Zone file", "domains.zone_file", {"domainId": "id"}),
    ),
    actions=(
        Action(
            "domains.create",
            "New domain",
            "domains.create",
            key="n",
            target="collection",
            form="domains:DomainCreate",
            grant="global:add_domains",
            description="Create a master or slave zone",
        ),
        Action(
            "domains.import",
            "Import domain",
            "domains.import",
            key="I",
            target="collection",
            form="domains:DomainImport",
            grant="global:add_domains",
            description="Import a zone by AXFR from a remote nameserver",
        ),
        Action(
            "domains.edit",
            "Edit",
            "domains.update",
            key="e",
            form="domains:DomainUpdate",
            description="Change the domain's settings",
        ),
        Action(
            "domains.zone_edit",
            "Edit as zone file",
            "domains.records.create",  # a change: read-only modes and grants treat it as one
            key="E",
            screen="domains.zone_edit",
            refuse_when=(("type", "slave", "a slave zone's records come from its masters"),),
            description="Edit the records as a zone file in $EDITOR; review the plan, apply",
            on_every_tab=True,  # the Records and Zone file tabs show what it edits
        ),
        Action(
            "domains.clone",
            "Clone",
            "domains.clone",
            key="c",
            form="domains:DomainClone",
            grant="global:add_domains",
            description="Copy the domain and its records to a new domain",
        ),
        Action(
            "domains.delete",
            "Delete",
            "domains.delete",
            bulk=True,
            key="d",
            confirm="typed",
            description="Delete the domain and all its records (irreversible)",
        ),
        tag_action("domains", "domains.update"),
    ),
    transitional=frozenset(),
    copy_fields=("domain", "id"),
    grant_kind="domain",
    empty_hint="No domains yet. Press n to create one or I to import one.",
)

SPECS = (DOMAINS, RECORDS, ZONE_FILE)
