"""Block volumes."""

from __future__ import annotations

from tui.resources.spec import IS_SET, Action, Column, FieldSpec, ResourceSpec, Section
from tui.resources.tags import tag_action

VOLUME_TRANSITIONAL = frozenset({"creating", "resizing", "migrating", "deleting", "cloning"})

VOLUMES = ResourceSpec(
    id="volumes",
    title="Volumes",
    singular="volume",
    list_endpoint="volumes.list",
    view_endpoint="volumes.view",
    id_param="volumeId",
    columns=(
        Column("label", "Label"),
        Column("status", "Status", "status", 14),
        Column("size", "Size", "gb", 9),
        Column("region", "Region", width=12),
        Column("compute_label", "Attached to", width=16),
        Column("tags", "Tags", "list"),
        Column("id", "ID", "int", 9),
    ),
    sections=(
        Section(
            "Volume",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("size", "Size", "gb"),
                FieldSpec("region", "Region"),
                FieldSpec("hardware_type", "Hardware"),
                FieldSpec("filesystem_path", "Filesystem path"),
                FieldSpec("tags", "Tags", "list"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
            ),
        ),
        Section(
            "Attachment",
            (
                FieldSpec("compute_label", "Instance"),
                FieldSpec("compute_id", "Instance id"),
            ),
        ),
        Section(
            "Use it on the instance (as root; u shows and copies them)",
            (FieldSpec("@volume_use", "Commands", "block"),),
        ),
    ),
    actions=(
        Action(
            "volumes.create",
            "New volume",
            "volumes.create",
            key="n",
            target="collection",
            form="volumes:VolumeCreate",
            grant="global:add_volumes",
            description="Create a volume (charges apply)",
            text="@volume_use_new",
        ),
        Action(
            "volumes.edit",
            "Edit",
            "volumes.update",
            key="e",
            form="volumes:VolumeUpdate",
            description="Change label and tags",
        ),
        Action(
            "volumes.attach",
            "Attach",
            "volumes.attach",
            key="a",
            form="volumes:VolumeAttach",
            description="Attach to an instance in the same region",
            refuse_when=(("compute_id", IS_SET, "already attached; detach it first"),),
            text="@volume_use",
        ),
        Action(
            "volumes.use",
            "Use on the instance",
            "volumes.view",
            key="u",
            screen="text",
            grant="none",
            mutating=False,
            text="@volume_use",
            description="The commands that format, mount and add it to /etc/fstab (copyable)",
        ),
        Action(
            "volumes.detach",
            "Detach",
            "volumes.detach",
            bulk=True,
            key="D",
            confirm="confirm",
            description="Detach from its instance",
            refuse_when=(("compute_id", None, "not attached to an instance"),),
        ),
        Action(
            "volumes.clone",
            "Clone",
            "volumes.clone",
            key="c",
            form="volumes:VolumeClone",
            allowed_statuses=("active",),
            grant="global:add_volumes",
            description="Copy to a new volume of the same size",
        ),
        Action(
            "volumes.resize",
            "Resize",
            "volumes.resize",
            key="z",
            form="volumes:VolumeResize",
            allowed_statuses=("active",),
            description="Grow the volume (it cannot shrink); grow its filesystem afterwards",
            text="@volume_grow",
        ),
        Action(
            "volumes.delete",
            "Delete",
            "volumes.delete",
            bulk=True,
            key="d",
            confirm="typed",
            refused_statuses=frozenset({"migrating"}),
            description="Delete the volume and its data (irreversible)",
            caution_when=(
                (
                    "compute_id",
                    IS_SET,
                    "It is attached to an instance: processes using it will fail.",
                ),
            ),
        ),
        tag_action("volumes", "volumes.update"),
    ),
    transitional=VOLUME_TRANSITIONAL,
    copy_fields=("filesystem_path", "id"),
    grant_kind="volume",
    empty_hint="No volumes yet. Press n to create one.",
)

SPECS = (VOLUMES,)
