"""Deployment scripts (run at provisioning)."""

from __future__ import annotations

from tui.resources.spec import Action, Column, FieldSpec, ResourceSpec, Section

SCRIPTS = ResourceSpec(
    id="deployscripts",
    title="Deployment scripts",
    singular="deployment script",
    list_endpoint="deployscripts.list",
    view_endpoint="deployscripts.view",
    id_param="deployscriptId",
    columns=(
        Column("label", "Label"),
        Column("is_public", "Public", "bool", 6),
        Column("images", "Images", "list"),
        Column("username", "Owner", width=14),
        Column("deployments_total", "Deploys", "int", 7),
        Column("updated", "Updated", "datetime", 16),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Script",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("description", "Description"),
                FieldSpec("is_public", "Public", "bool"),
                FieldSpec("username", "Owner"),
                FieldSpec("images", "Images", "list"),
                FieldSpec("rev_note", "Revision note"),
                FieldSpec("deployments_total", "Deployments", "int"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
            ),
        ),
        Section("Fields", (FieldSpec("script", "Asks for", "udf"),)),
        Section("Content", (FieldSpec("script", "Script", "block"),)),
    ),
    actions=(
        Action(
            "deployscripts.create",
            "New script",
            "deployscripts.create",
            key="n",
            target="collection",
            form="deployscripts:DeployScriptCreate",
            grant="global:add_deployscripts",
            description="Write a script that runs when an instance is deployed",
        ),
        Action(
            "deployscripts.new_instance",
            "New instance from this script",
            "compute.instances.create",
            key="i",
            form="compute:InstanceCreate",
            grant="global:add_computes",
            prefill={"stackscript_id": "id"},
            description="Create an instance that runs this script when deployed (charges apply)",
        ),
        Action(
            "deployscripts.edit",
            "Edit",
            "deployscripts.update",
            key="e",
            form="deployscripts:DeployScriptUpdate",
            description="Change the script (making it public cannot be undone)",
            owner_only=True,
        ),
        Action(
            "deployscripts.edit_script",
            "Edit script",
            "deployscripts.update",
            key="E",
            screen="deployscripts.edit_script",
            description="Edit the script text in $VISUAL/$EDITOR, then confirm",
            owner_only=True,
        ),
        Action(
            "deployscripts.delete",
            "Delete",
            "deployscripts.delete",
            bulk=True,
            key="d",
            confirm="confirm",
            description="Delete a private script",
            refuse_when=(("is_public", True, "public scripts cannot be deleted"),),
        ),
    ),
    status_field=None,
    copy_fields=("id",),
    grant_kind="deployscript",
    owner_field="username",
    empty_hint="No deployment scripts. Press n to write one.",
)

SPECS = (SCRIPTS,)
