"""Compute instances with their configs, disks, backups, volumes and transfer; kernels."""

from __future__ import annotations

from tui.resources.handoffs import SSH, SSH_CHOOSE
from tui.resources.spec import (
    Action,
    ChartSpec,
    ChildSpec,
    Column,
    FieldSpec,
    ResourceSpec,
    Section,
)
from tui.resources.tags import tag_action

INSTANCE_TRANSITIONAL = frozenset(
    {
        "provisioning",
        "booting",
        "rebooting",
        "shutting_down",
        "migrating",
        "resizing",
        "deleting",
        "rebuilding",
        "cloning",
        "restoring",
    }
)

INSTANCES = ResourceSpec(
    id="compute.instances",
    title="Instances",
    singular="instance",
    list_endpoint="compute.instances.list",
    view_endpoint="compute.instances.view",
    id_param="computeId",
    columns=(
        Column("label", "Label"),
        Column("status", "Status", "status", 16),
        Column("region", "Region", width=12),
        Column("type", "Type", width=14),
        Column("ipv4.0", "IPv4", width=15),
        Column("specs.memory", "Memory", "mb", 9),
        Column("tags", "Tags", "list"),
        Column("id", "ID", "int", 10),
    ),
    sections=(
        Section(
            "Instance",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("region", "Region"),
                FieldSpec("type", "Type"),
                FieldSpec("image", "Image"),
                FieldSpec("hypervisor", "Hypervisor"),
                FieldSpec("tags", "Tags", "list"),
                FieldSpec("group", "Group (deprecated)"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
            ),
        ),
        Section(
            "Network",
            (FieldSpec("ipv4", "IPv4", "list"), FieldSpec("ipv6", "IPv6")),
        ),
        Section(
            "Specs",
            (
                FieldSpec("specs.vcpus", "vCPUs", "int"),
                FieldSpec("specs.memory", "Memory", "mb"),
                FieldSpec("specs.disk", "Disk", "mb"),
                FieldSpec("specs.transfer", "Transfer quota", "gb"),
            ),
        ),
        Section(
            "Backups and alerts",
            (
                FieldSpec("backups.enabled", "Backups enabled", "bool"),
                FieldSpec("backups.last_successful", "Last backup", "datetime"),
                FieldSpec("backups.schedule.day", "Backup day"),
                FieldSpec("backups.schedule.window", "Backup window"),
                FieldSpec("watchdog_enabled", "Watchdog", "bool"),
                FieldSpec("alerts.cpu", "CPU alert (%)", "int"),
                FieldSpec("alerts.io", "I/O alert", "int"),
                FieldSpec("alerts.network_in", "Network in alert", "int"),
                FieldSpec("alerts.network_out", "Network out alert", "int"),
                FieldSpec("alerts.transfer_quota", "Transfer alert (%)", "int"),
            ),
        ),
    ),
    children=(
        ChildSpec("Configs", "compute.configs", {"computeId": "id"}),
        ChildSpec("Disks", "compute.disks", {"computeId": "id"}),
        ChildSpec("Backups", "compute.backups", {"computeId": "id"}),
        ChildSpec("Volumes", "compute.volumes", {"computeId": "id"}),
        ChildSpec("Stats", "compute.stats", {"computeId": "id"}),
        ChildSpec("Transfer", "compute.transfer", {"computeId": "id"}),
    ),
    actions=(
        Action(
            "compute.create",
            "New instance",
            "compute.instances.create",
            key="n",
            target="collection",
            form="compute:InstanceCreate",
            grant="global:add_computes",
            description="Create an instance (charges apply)",
        ),
        Action(
            "compute.edit",
            "Edit",
            "compute.instances.update",
            key="e",
            form="compute:InstanceUpdate",
            description="Change label, tags, alerts, backup schedule, watchdog",
        ),
        Action(
            "compute.delete",
            "Delete",
            "compute.instances.delete",
            bulk=True,
            key="d",
            confirm="typed",
            refused_statuses=frozenset({"cloning", "restoring"}),
            description="Delete the instance with its disks, configs and backups (irreversible)",
        ),
        Action(
            "compute.boot",
            "Boot",
            "compute.instances.boot",
            bulk=True,
            key="B",
            form="compute:BootRequest",
            allowed_statuses=("offline", "stopped"),
            description="Power on",
            confirm="confirm",
        ),
        Action(
            "compute.reboot",
            "Reboot",
            "compute.instances.reboot",
            bulk=True,
            key="R",
            form="compute:BootRequest",
            confirm="confirm",
            allowed_statuses=("running",),
            description="Reboot",
        ),
        Action(
            "compute.shutdown",
            "Shut down",
            "compute.instances.shutdown",
            bulk=True,
            key="S",
            confirm="confirm",
            allowed_statuses=("running",),
            description="Power off",
        ),
        Action(
            "compute.resize",
            "Resize",
            "compute.instances.resize",
            key="z",
            screen="compute.resize",
            refused_statuses=INSTANCE_TRANSITIONAL,  # "queued actions must complete first"
            description="Move to another instance type",
        ),
        Action(
            "compute.rescue",
            "Rescue",
            "compute.instances.rescue",
            key="x",
            screen="compute.rescue",
            refused_statuses=INSTANCE_TRANSITIONAL,
            description="Boot into rescue mode with a device map",
        ),
        Action(
            "compute.stats",
            "Statistics",
            "compute.stats.view",
            key="s",
            screen="compute.stats",
            grant="none",
            description="CPU, I/O and network graphs",
        ),
        tag_action("compute", "compute.instances.update"),
        SSH,
        SSH_CHOOSE,
    ),
    transitional=INSTANCE_TRANSITIONAL,
    copy_fields=("ipv4.0", "ipv6", "id"),
    grant_kind="compute",
    empty_hint="No instances yet. Press n to create one.",
)

CONFIGS = ResourceSpec(
    id="compute.configs",
    title="Configs",
    singular="config",
    list_endpoint="compute.configs.list",
    view_endpoint="compute.configs.view",
    id_param="configId",
    parent_params=("computeId",),
    columns=(
        Column("label", "Label"),
        Column("kernel", "Kernel", width=24),
        Column("root_device", "Root device", width=12),
        Column("run_level", "Run level", width=9),
        Column("virt_mode", "Virt mode", width=9),
        Column("memory_limit", "Memory limit", "mb", 12),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Config",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("comments", "Comments"),
                FieldSpec("kernel", "Kernel"),
                FieldSpec("root_device", "Root device"),
                FieldSpec("run_level", "Run level"),
                FieldSpec("virt_mode", "Virtualisation mode"),
                FieldSpec("memory_limit", "Memory limit", "mb"),
            ),
        ),
        Section(
            "Devices",
            tuple(
                FieldSpec(f"devices.{dev}", dev, "json")
                for dev in ("sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh")
            ),
        ),
        Section(
            "Helpers and interfaces",
            (
                FieldSpec("helpers.distro", "Distro helper", "bool"),
                FieldSpec("helpers.network", "Network helper", "bool"),
                FieldSpec("helpers.modules_dep", "modules.dep helper", "bool"),
                FieldSpec("helpers.devtmpfs_automount", "devtmpfs automount", "bool"),
                FieldSpec("helpers.updatedb_disabled", "updatedb disabled", "bool"),
                FieldSpec("interfaces", "Interfaces", "json"),
            ),
        ),
    ),
    actions=(
        Action(
            "compute.config_create",
            "New config",
            "compute.configs.create",
            key="n",
            target="collection",
            form="compute:ConfigCreate",
            description="Add a configuration profile",
        ),
        Action(
            "compute.config_edit",
            "Edit",
            "compute.configs.update",
            key="e",
            form="compute:ConfigUpdate",
            description="Change the configuration profile",
        ),
        Action(
            "compute.config_delete",
            "Delete",
            "compute.configs.delete",
            bulk=True,
            key="d",
            confirm="confirm",
            description="Delete the configuration profile",
        ),
    ),
    status_field=None,
    empty_hint="No configs. Press n to add one.",
)

DISKS = ResourceSpec(
    id="compute.disks",
    title="Disks",
    singular="disk",
    list_endpoint="compute.disks.list",
    parent_params=("computeId",),
    columns=(
        Column("label", "Label"),
        Column("status", "Status", "status", 14),
        Column("filesystem", "Filesystem", width=10),
        Column("size", "Size", "mb", 9),
        Column("created", "Created", "datetime", 16),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Disk",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("filesystem", "Filesystem"),
                FieldSpec("size", "Size", "mb"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
            ),
        ),
    ),
    actions=(
        Action(
            "compute.disk_create",
            "New disk",
            "compute.disks.create",
            key="n",
            target="collection",
            form="compute:DiskCreate",
            description="Add an empty disk or deploy an image to a new disk",
        ),
    ),
    empty_hint="No disks. Press n to add one.",
)

BACKUPS = ResourceSpec(
    id="compute.backups",
    title="Backups",
    singular="backup",
    list_endpoint="compute.backups.list",
    parent_params=("computeId",),
    adapter="compute_backups",
    columns=(
        Column("label", "Label"),
        Column("slot", "Slot", width=22),
        Column("status", "Status", "status", 14),
        Column("type", "Type", width=9),
        Column("created", "Created", "datetime", 16),
        Column("finished", "Finished", "datetime", 16),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Backup",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("slot", "Slot"),
                FieldSpec("type", "Type"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("available", "Available", "bool"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("finished", "Finished", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
                FieldSpec("disks", "Disks", "json"),
                FieldSpec("configs", "Configs", "list"),
            ),
        ),
    ),
    actions=(
        Action(
            "compute.backup_new_instance",
            "New instance from this backup",
            "compute.instances.create",
            key="n",
            form="compute:InstanceCreate",
            grant="global:add_computes",
            prefill={"backup_id": "id", "region": "region"},
            refuse_when=(("available", False, "the backup is not finished yet"),),
            description="Create an instance restored from this backup (charges apply)",
        ),
    ),
    empty_hint="No backups. Enable backups in the instance settings (e).",
)

INSTANCE_VOLUMES = ResourceSpec(
    id="compute.volumes",
    title="Volumes",
    singular="volume",
    list_endpoint="compute.volumes.list",
    parent_params=("computeId",),
    columns=(
        Column("label", "Label"),
        Column("status", "Status", "status", 14),
        Column("size", "Size", "gb", 9),
        Column("filesystem_path", "Filesystem path"),
        Column("id", "ID", "int", 9),
    ),
    item_specs={"*": "volumes"},
    copy_fields=("filesystem_path", "id"),
    grant_kind="volume",
    empty_hint="No volumes attached. Attach one from the Volumes area.",
)

STATS = ResourceSpec(
    id="compute.stats",
    title="Statistics",
    singular="statistics",
    list_endpoint="compute.stats.view",
    parent_params=("computeId",),
    singleton=True,
    status_field=None,
    sections=(
        Section(
            "Last 24 hours",
            (
                FieldSpec("title", "Title"),
                FieldSpec("cpu", "CPU (%)", "series"),
                FieldSpec("io.io", "Disk I/O (blocks/s)", "series"),
                FieldSpec("io.swap", "Swap I/O (blocks/s)", "series"),
                FieldSpec("netv4.in", "IPv4 in (bits/s)", "series"),
                FieldSpec("netv4.out", "IPv4 out (bits/s)", "series"),
            ),
        ),
    ),
    charts=(
        ChartSpec("CPU", "%", (("cpu", "CPU"),)),
        ChartSpec("Disk I/O", "blocks/s", (("io.io", "disk"), ("io.swap", "swap"))),
        ChartSpec(
            "Network IPv4",
            "bits/s",
            (
                ("netv4.in", "in"),
                ("netv4.out", "out"),
                ("netv4.private_in", "private in"),
                ("netv4.private_out", "private out"),
            ),
        ),
        ChartSpec(
            "Network IPv6",
            "bits/s",
            (
                ("netv6.in", "in"),
                ("netv6.out", "out"),
                ("netv6.private_in", "private in"),
                ("netv6.private_out", "private out"),
            ),
        ),
    ),
    month_endpoint="compute.stats.month",
)
"""Shown as charts by ``screens.details.stats.StatsPane``; the sections serve the JSON and text
views."""

TRANSFER = ResourceSpec(
    id="compute.transfer",
    title="Transfer",
    singular="transfer",
    list_endpoint="compute.transfer.view",
    parent_params=("computeId",),
    singleton=True,
    status_field=None,
    sections=(
        Section(
            "This month",
            (
                FieldSpec("used", "Used", "bytes"),
                FieldSpec("quota", "Quota added to the pool", "gb"),
                FieldSpec("billable", "Billable beyond quota", "gb"),
            ),
        ),
    ),
)

KERNELS = ResourceSpec(
    id="compute.kernels",
    title="Kernels",
    singular="kernel",
    list_endpoint="compute.kernels.list",
    view_endpoint="compute.kernels.view",
    id_param="kernelId",
    columns=(
        Column("id", "ID", width=28),
        Column("label", "Label"),
        Column("architecture", "Arch", width=7),
        Column("version", "Version", width=10),
        Column("kvm", "KVM", "bool", 4),
        Column("pvops", "PV ops", "bool", 6),
        Column("deprecated", "Deprecated", "bool", 10),
        Column("built", "Built", "datetime", 16),
    ),
    sections=(
        Section(
            "Kernel",
            (
                FieldSpec("id", "ID"),
                FieldSpec("label", "Label"),
                FieldSpec("version", "Version"),
                FieldSpec("architecture", "Architecture"),
                FieldSpec("built", "Built", "datetime"),
                FieldSpec("deprecated", "Deprecated", "bool"),
                FieldSpec("kvm", "KVM", "bool"),
                FieldSpec("xen", "Xen", "bool"),
                FieldSpec("pvops", "PV ops", "bool"),
            ),
        ),
    ),
    status_field=None,
    quick_filter=("architecture", ("x86_64", "i386")),
    empty_hint="No kernels match.",
)

TYPES = ResourceSpec(
    id="compute.types",
    title="Instance types",
    singular="instance type",
    list_endpoint="compute.types.list",
    columns=(
        Column("id", "ID", width=16),
        Column("label", "Label"),
        Column("vcpus", "vCPUs", "int", 6),
        Column("memory", "Memory", "mb", 9),
        Column("disk", "Disk", "mb", 9),
        Column("transfer", "Transfer", "gb", 9),
        Column("price.monthly", "Monthly", width=9),
    ),
    sections=(
        Section(
            "Type",
            (
                FieldSpec("id", "ID"),
                FieldSpec("label", "Label"),
                FieldSpec("class", "Class"),
                FieldSpec("vcpus", "vCPUs", "int"),
                FieldSpec("memory", "Memory", "mb"),
                FieldSpec("disk", "Disk", "mb"),
                FieldSpec("transfer", "Transfer", "gb"),
                FieldSpec("price", "Price", "json"),
                FieldSpec("addons", "Add-ons", "json"),
            ),
        ),
    ),
    status_field=None,
)

REGIONS = ResourceSpec(
    id="compute.regions",
    title="Regions",
    singular="region",
    list_endpoint="compute.regions.list",
    columns=(
        Column("id", "ID", width=16),
        Column("label", "Label"),
        Column("country", "Country", width=8),
        Column("status", "Status", "status", 12),
        Column("capabilities", "Capabilities", "list"),
    ),
    sections=(
        Section(
            "Region",
            (
                FieldSpec("id", "ID"),
                FieldSpec("label", "Label"),
                FieldSpec("country", "Country"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("capabilities", "Capabilities", "list"),
            ),
        ),
    ),
)

SPECS = (
    INSTANCES,
    CONFIGS,
    DISKS,
    BACKUPS,
    INSTANCE_VOLUMES,
    STATS,
    TRANSFER,
    KERNELS,
    TYPES,
    REGIONS,
)
