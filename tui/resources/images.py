"""Images: public ones and the account's private ones."""

from __future__ import annotations

from tui.resources.spec import Action, Column, FieldSpec, ResourceSpec, Section

IMAGES = ResourceSpec(
    id="images",
    title="Images",
    singular="image",
    list_endpoint="images.list",
    view_endpoint="images.view",
    id_param="imageId",
    columns=(
        Column("label", "Label"),
        Column("status", "Status", "status", 16),
        Column("id", "ID", width=26),
        Column("type", "Type", width=9),
        Column("vendor", "Vendor", width=10),
        Column("size", "Size", "mb", 9),
        Column("is_public", "Public", "bool", 6),
        Column("deprecated", "Deprecated", "bool", 10),
    ),
    sections=(
        Section(
            "Image",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("description", "Description"),
                FieldSpec("type", "Type"),
                FieldSpec("is_public", "Public", "bool"),
                FieldSpec("vendor", "Vendor"),
                FieldSpec("size", "Minimum size", "mb"),
                FieldSpec("deprecated", "Deprecated", "bool"),
                FieldSpec("created_by", "Created by"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
                FieldSpec("expiry", "Expires", "datetime"),
                FieldSpec("eol", "End of life", "datetime"),
            ),
        ),
    ),
    actions=(
        Action(
            "images.create",
            "New image from disk",
            "images.create",
            key="n",
            target="collection",
            form="images:ImageCreate",
            grant="global:add_images",
            description="Capture a disk as a private image",
        ),
        Action(
            "images.upload",
            "Upload image",
            "images.upload",
            key="U",
            target="collection",
            form="images:ImageUpload",
            grant="global:add_images",
            screen="images.upload_data",
            description="Upload a local gzip-compressed raw disk image (at most 5 GB)",
        ),
        Action(
            "images.new_instance",
            "New instance from this image",
            "compute.instances.create",
            key="i",
            form="compute:InstanceCreate",
            grant="global:add_computes",
            allowed_statuses=("available",),
            prefill={"image": "id"},
            description="Create an instance that deploys this image (charges apply)",
        ),
        Action(
            "images.edit",
            "Edit",
            "images.update",
            key="e",
            form="images:ImageUpdate",
            description="Change label or description (private images only)",
            refuse_when=(("is_public", True, "public images cannot be changed"),),
        ),
        Action(
            "images.delete",
            "Delete",
            "images.delete",
            bulk=True,
            key="d",
            confirm="typed",
            description="Delete a private image (irreversible)",
            refuse_when=(("is_public", True, "public images cannot be deleted"),),
        ),
    ),
    transitional=frozenset({"creating", "pending_upload"}),
    copy_fields=("id",),
    grant_kind="image",
    empty_hint="No images.",
)

SPECS = (IMAGES,)
