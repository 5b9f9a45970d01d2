"""Managed databases: the list across engines, per-engine instances with backups, engines."""

from __future__ import annotations

from tui.resources.handoffs import ANY_DATABASE_CLIENT, database_client
from tui.resources.spec import Action, ChildSpec, Column, FieldSpec, ResourceSpec, Section

ENGINES = ("mysql", "mongodb")

DB_TRANSITIONAL = frozenset({"provisioning", "restoring", "resizing", "updating", "backing_up"})

DB_COLUMNS = (
    Column("label", "Label"),
    Column("status", "Status", "status", 16),
    Column("engine", "Engine", width=8),
    Column("version", "Version", width=8),
    Column("region", "Region", width=12),
    Column("type", "Type", width=10),
    Column("cluster_size", "Nodes", "int", 5),
    Column("id", "ID", "int", 8),
)

DB_SECTIONS = (
    Section(
        "Database",
        (
            FieldSpec("label", "Label"),
            FieldSpec("id", "ID"),
            FieldSpec("status", "Status", "status"),
            FieldSpec("engine", "Engine"),
            FieldSpec("version", "Version"),
            FieldSpec("region", "Region"),
            FieldSpec("type", "Type"),
            FieldSpec("created", "Created", "datetime"),
            FieldSpec("updated", "Updated", "datetime"),
        ),
    ),
    Section(
        "Cluster and access",
        (
            FieldSpec("cluster_size", "Nodes", "int"),
            FieldSpec("replication_type", "Replication"),
            FieldSpec("hosts.primary", "Primary host"),
            FieldSpec("hosts.secondary", "Secondary host"),
            FieldSpec("port", "Port", "int"),
            FieldSpec("ssl_connection", "SSL required", "bool"),
            FieldSpec("encrypted", "Encrypted", "bool"),
            FieldSpec("allow_list", "Allow list", "list"),
        ),
    ),
    Section(
        "Maintenance window (UTC)",
        (
            FieldSpec("updates.frequency", "Frequency"),
            FieldSpec("updates.day_of_week", "Day of week (1 = Monday)", "int"),
            FieldSpec("updates.hour_of_day", "Hour", "int"),
            FieldSpec("updates.duration", "Duration (h)", "int"),
            FieldSpec("updates.week_of_month", "Week of month", "int"),
        ),
    ),
)

CREATE = Action(
    "databases.create",
    "New MySQL database",
    "databases.mysql.create",
    key="n",
    target="collection",
    form="databases:DatabaseCreate",
    grant="global:add_databases",
    description="Create a MySQL database (about 15 to 30 minutes to provision)",
)


def _backups(engine: str) -> ResourceSpec:
    return ResourceSpec(
        id=f"databases.{engine}.backups",
        title="Backups",
        singular="backup",
        list_endpoint=f"databases.{engine}.backups.list",
        view_endpoint=f"databases.{engine}.backups.view",
        id_param="backupId",
        parent_params=("instanceId",),
        columns=(
            Column("label", "Label"),
            Column("type", "Type", width=9),
            Column("target", "Target", width=9),
            Column("created", "Created", "datetime", 16),
            Column("id", "ID", "int", 8),
        ),
        sections=(
            Section(
                "Backup",
                (
                    FieldSpec("label", "Label"),
                    FieldSpec("id", "ID"),
                    FieldSpec("type", "Type"),
                    FieldSpec("target", "Target"),
                    FieldSpec("created", "Created", "datetime"),
                ),
            ),
        ),
        actions=(
            Action(
                f"databases.{engine}.snapshot",
                "New snapshot",
                f"databases.{engine}.backups.create",
                key="n",
                target="collection",
                form="databases:SnapshotCreate",
                description="Take a snapshot now (database must be active)",
            ),
            Action(
                f"databases.{engine}.backup_restore",
                "Restore",
                f"databases.{engine}.backups.restore",
                key="t",
                confirm="typed",
                description="Replace all data with this backup (irreversible)",
            ),
            Action(
                f"databases.{engine}.backup_delete",
                "Delete",
                f"databases.{engine}.backups.delete",
                key="d",
                confirm="confirm",
                description="Delete the backup",
            ),
        ),
        status_field=None,
        empty_hint="No backups yet. Automatic backups run daily at 00:00 UTC; n takes a snapshot.",
    )


def _credentials(engine: str) -> ResourceSpec:
    return ResourceSpec(
        id=f"databases.{engine}.credentials",
        title="Credentials",
        singular="credentials",
        list_endpoint=f"databases.{engine}.credentials.view",
        parent_params=("instanceId",),
        singleton=True,
        status_field=None,
        label_field="username",
        sections=(
            Section(
                "Root credentials",
                (FieldSpec("username", "Username"), FieldSpec("password", "Password", "secret")),
            ),
        ),
        copy_fields=("password", "username"),
    )


def _instances(engine: str) -> ResourceSpec:
    actions: list[Action] = []
    if engine == "mysql":
        actions.append(CREATE)
    actions += [
        Action(
            f"databases.{engine}.edit",
            "Edit",
            f"databases.{engine}.update",
            key="e",
            form="databases:DatabaseUpdate",
            allowed_statuses=("active",),
            description="Change label, allow list, maintenance window",
        ),
        Action(
            f"databases.{engine}.delete",
            "Delete",
            f"databases.{engine}.delete",
            key="d",
            confirm="typed",
            allowed_statuses=("active", "failed", "degraded"),
            grant="unrestricted",
            description="Delete the database and its backups (irreversible)",
        ),
    ]
    if engine == "mongodb":
        actions += [
            Action(
                "databases.mongodb.credentials_reset",
                "Reset credentials",
                "databases.mongodb.credentials.reset",
                key="C",
                confirm="confirm",
                grant="unrestricted",
                description="Generate a new random root password",
            ),
            Action(
                "databases.mongodb.patch",
                "Apply patches",
                "databases.mongodb.patch",
                key="p",
                confirm="confirm",
                allowed_statuses=("active",),
                description="Apply operating-system security patches now",
            ),
        ]
    actions.append(database_client(engine))
    children = [
        ChildSpec("Backups", f"databases.{engine}.backups", {"instanceId": "id"}),
        ChildSpec("Credentials", f"databases.{engine}.credentials", {"instanceId": "id"}),
    ]
    if engine == "mongodb":
        children.append(ChildSpec("CA certificate", "databases.mongodb.ssl", {"instanceId": "id"}))
    return ResourceSpec(
        id=f"databases.{engine}",
        title={"mysql": "MySQL databases", "mongodb": "MongoDB databases"}[engine],
        singular={"mysql": "MySQL database", "mongodb": "MongoDB database"}[engine],
        list_endpoint=f"databases.{engine}.list",
        view_endpoint=f"databases.{engine}.view",
        id_param="instanceId",
        columns=DB_COLUMNS,
        sections=DB_SECTIONS,
        children=tuple(children),
        actions=tuple(actions),
        transitional=DB_TRANSITIONAL,
        copy_fields=("hosts.primary", "id"),
        empty_hint="No databases of this engine.",
    )


MONGODB_SSL = ResourceSpec(
    id="databases.mongodb.ssl",
    title="CA certificate",
    singular="CA certificate",
    list_endpoint="databases.mongodb.ssl",
    parent_params=("instanceId",),
    singleton=True,
    status_field=None,
    # "block": the PEM's lines kept whole (as text, its line breaks became spaces, and the
    # copy from the screen was no longer a certificate).
    sections=(Section("Certificate", (FieldSpec("ca_certificate", "CA certificate", "block"),)),),
    copy_fields=("ca_certificate",),
)

ALL_DATABASES = ResourceSpec(
    id="databases",
    title="Databases",
    singular="database",
    list_endpoint="databases.instances.list",
    columns=DB_COLUMNS,
    sections=DB_SECTIONS,
    actions=(CREATE, ANY_DATABASE_CLIENT),
    transitional=DB_TRANSITIONAL,
    item_spec_field="engine",
    item_specs={engine: f"databases.{engine}" for engine in ENGINES},
    copy_fields=("hosts.primary", "id"),
    empty_hint="No databases yet. Press n to create a MySQL database.",
)

ENGINE_LIST = ResourceSpec(
    id="databases.engines",
    title="Engines",
    singular="engine",
    list_endpoint="databases.engines.list",
    view_endpoint="databases.engines.view",
    id_param="engineId",
    columns=(
        Column("id", "ID", width=20),
        Column("engine", "Engine", width=10),
        Column("version", "Version", width=10),
    ),
    sections=(
        Section(
            "Engine",
            (
                FieldSpec("id", "ID"),
                FieldSpec("engine", "Engine"),
                FieldSpec("version", "Version"),
            ),
        ),
    ),
    status_field=None,
    label_field="id",
)

SPECS = (
    ALL_DATABASES,
    ENGINE_LIST,
    MONGODB_SSL,
    *(_instances(e) for e in ENGINES),
    *(_backups(e) for e in ENGINES),
    *(_credentials(e) for e in ENGINES),
)
