"""Tags and the objects carrying them (a mixed collection of every kind).

The tag's own listing names instances, domains, volumes and load balancers; Kubernetes clusters
carry tags too (a filterable field of their listing), so the clusters with the tag are found by
a filtered listing and shown after the others (:class:`~tui.resources.spec.AlsoListed`).
"""

from __future__ import annotations

from tui.resources.spec import (
    Action,
    AlsoListed,
    ChildSpec,
    Column,
    FieldSpec,
    ResourceSpec,
    Section,
)

CLUSTER_KIND = "k8s_cluster"
"""The kind a Kubernetes cluster has in a tag's objects."""

TAG_EDIT_SCREEN = "tags.edit"
"""Action ``screen`` of adding or removing one tag (see :func:`tag_action`)."""


def tag_action(prefix: str, endpoint: str) -> Action:
    """The "add or remove a tag" action of a kind whose update (``endpoint``) takes ``tags``.

    It runs on every marked row (``bulk``); the API lets only unrestricted users change tags.
    """
    return Action(
        f"{prefix}.tag",
        "Tag",
        endpoint,
        key="number_sign",
        screen=TAG_EDIT_SCREEN,
        grant="unrestricted",
        bulk=True,
        description="Add or remove a tag (on every marked row)",
    )


TAGGED = ResourceSpec(
    id="tags.objects",
    title="Tagged objects",
    singular="tagged object",
    list_endpoint="tags.objects",
    parent_params=("label",),
    adapter="tagged_objects",
    id_field="_key",
    label_field="_label",
    columns=(
        Column("_kind", "Kind", width=14),
        Column("_label", "Label"),
        Column("status", "Status", "status", 14),
        Column("region", "Region", width=12),
        Column("id", "ID", "int", 10),
    ),
    sections=(
        Section(
            "Object",
            (
                FieldSpec("_kind", "Kind"),
                FieldSpec("_label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("tags", "Tags", "list"),
            ),
        ),
    ),
    item_spec_field="_kind",
    item_specs={
        "compute": "compute.instances",
        "domain": "domains",
        "volume": "volumes",
        "loadbalancer": "loadbalancers",
        CLUSTER_KIND: "k8s.clusters",
    },
    also_listed=(AlsoListed("k8s.clusters.list", CLUSTER_KIND, {"tags": "label"}),),
    empty_hint="Nothing carries this tag.",
)

TAGS = ResourceSpec(
    id="tags",
    title="Tags",
    singular="tag",
    list_endpoint="tags.list",
    id_field="label",
    id_param="label",
    columns=(Column("label", "Tag"),),
    sections=(Section("Tag", (FieldSpec("label", "Label"),)),),
    children=(ChildSpec("Tagged objects", "tags.objects", {"label": "label"}),),
    actions=(
        Action(
            "tags.create",
            "New tag",
            "tags.create",
            key="n",
            target="collection",
            form="tags:TagCreate",
            grant="unrestricted",
            description="Create a tag, optionally on objects at once",
        ),
        Action(
            "tags.delete",
            "Delete",
            "tags.delete",
            bulk=True,
            key="d",
            confirm="confirm",
            grant="unrestricted",
            description="Remove the tag from every object",
        ),
    ),
    status_field=None,
    copy_fields=("label",),
    empty_hint="No tags yet. Press n to create one.",
)

SPECS = (TAGS, TAGGED)
