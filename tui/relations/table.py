"""How kinds connect: the one table of relations, as data (headless).

Each :class:`Relation` row says that an object of the *source* kind uses an object of the
*target* kind when a value read at a source path matches a value read at a target path (paths:
:mod:`tui.relations.paths`; matchers: :mod:`tui.relations.matchers`). The index, the Relations
tab, ``:xray``, the impact of a delete and the account check's dangling references all read this
table; no code anywhere knows about DNS records or balancer nodes by name.

What a delete does along a relation is data too: an :class:`Effect` per side says whether the
other object goes with it (``cascade``), stops working (``breaks``) or just loses the link
(``detaches``), in one sentence, with the request that cleans it up once the delete succeeded.
Field names are the API reference's (``ipv4``, ``ipv6``, ``compute_id``, ``instance_id``,
``allow_list``, ``bucket_access``, ``devices``, a node's ``address``, a record's ``target``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EffectKind = Literal["cascade", "breaks", "detaches"]
"""``cascade``: the other object is deleted too; ``breaks``: it keeps pointing at what is gone;
``detaches``: it stays, without the link."""


@dataclass(frozen=True)
class Cleanup:
    """A request that tidies up after a delete, sent once the delete succeeded.

    Attributes:
        builder: Name of the function in :data:`tui.relations.impact.BUILDERS` that makes it.
        endpoint: Registry name of the operation (``{field}`` filled from the object's row).
        verb: What it does, in the sentence naming the request (``delete``).
    """

    builder: Literal["object", "allow_list_without"]
    endpoint: str
    verb: str = "delete"


@dataclass(frozen=True)
class Effect:
    """What deleting one side of a relation does to the other side.

    Templates are our text: ``{count}``, ``{value}`` (the value that matched: an address, an
    ``ip:port``), ``{others}`` (labels of the objects affected), ``{gone}`` (labels of the
    objects deleted) and paths read on the affected object (``{^^label}``).

    Attributes:
        kind: See :data:`EffectKind`.
        one: The sentence for one affected object (or one group, when ``many`` is set).
        many: The sentence for several affected objects that share a value; when empty, each
            affected object gets its own ``one`` sentence.
        cleanup: The request that tidies up each affected object afterwards, if any.
        instead: A request to send *instead of* the delete (recycle a Kubernetes node).
    """

    kind: EffectKind
    one: str = ""
    many: str = ""
    cleanup: Cleanup | None = None
    instead: Cleanup | None = None


CASCADE = Effect("cascade")

DELETE_RECORD = Cleanup("object", "domains.records.delete")


@dataclass(frozen=True)
class Relation:
    """One way two kinds connect: the source uses the target.

    Attributes:
        name: Stable id (``dns_address``).
        source: Kind holding or making the reference.
        source_paths: Where its values are (any of them may match).
        target: Kind referred to.
        target_paths: Where the target's values are.
        match: Name of the matcher in :data:`tui.relations.matchers.MATCHERS`.
        uses: The link seen from the source (``points at``).
        used_by: The link seen from the target (``pointed at by``).
        source_when: ``(field, values)`` the source must have for the relation to apply (a
            record's ``type`` A or AAAA).
        if_target_deleted: What deleting the target does to the source.
        if_source_deleted: What deleting the source does to the target.
        group: Relations that together say what a source points at (the address of an
            instance or of a balancer); the name when empty.
        dangling: A source of this group that matches nothing at all points at something no
            object of the account owns (a record at an address nobody has).
    """

    name: str
    source: str
    source_paths: tuple[str, ...]
    target: str
    target_paths: tuple[str, ...]
    match: str
    uses: str
    used_by: str
    source_when: tuple[tuple[str, frozenset[str]], ...] = ()
    if_target_deleted: Effect | None = None
    if_source_deleted: Effect | None = None
    group: str = ""
    dangling: bool = False

    @property
    def family(self) -> str:
        """The group the relation belongs to (its name when it has none)."""
        return self.group or self.name


def _part(name: str, parent: str, child: str, noun: str) -> Relation:
    """A parent uses its parts: listed under it, deleted with it."""
    return Relation(
        name,
        parent,
        ("@id",),
        child,
        ("^@id",),
        "parent",
        uses=f"has {noun}",
        used_by="belongs to",
        if_source_deleted=CASCADE,
    )


ADDRESS_RECORDS = (("type", frozenset({"A", "AAAA"})),)
ALIAS_RECORDS = (("type", frozenset({"CNAME"})),)
ADDRESSES = ("ipv4[]", "ipv6")

RECORDS_BREAK = Effect(
    "breaks",
    one="1 DNS record points at {value} ({others})",
    many="{count} DNS records point at {value} ({others})",
    cleanup=DELETE_RECORD,
)
ALIASES_BREAK = Effect(
    "breaks",
    one="1 CNAME record points at {value} ({others})",
    many="{count} CNAME records point at {value} ({others})",
    cleanup=DELETE_RECORD,
)

RELATIONS: tuple[Relation, ...] = (
    Relation(
        "dns_address",
        "domains.records",
        ("target",),
        "compute.instances",
        ADDRESSES,
        "address",
        uses="points at",
        used_by="DNS record pointing at it",
        source_when=ADDRESS_RECORDS,
        if_target_deleted=RECORDS_BREAK,
        group="dns_address",
        dangling=True,
    ),
    Relation(
        "dns_balancer_address",
        "domains.records",
        ("target",),
        "loadbalancers",
        ("ipv4", "ipv6"),
        "address",
        uses="points at",
        used_by="DNS record pointing at it",
        source_when=ADDRESS_RECORDS,
        if_target_deleted=RECORDS_BREAK,
        group="dns_address",
        dangling=True,
    ),
    Relation(
        "dns_balancer_alias",
        "domains.records",
        ("target",),
        "loadbalancers",
        ("hostname",),
        "dns_name",
        uses="is an alias of",
        used_by="CNAME record pointing at it",
        source_when=ALIAS_RECORDS,
        if_target_deleted=ALIASES_BREAK,
    ),
    Relation(
        "dns_bucket_alias",
        "domains.records",
        ("target",),
        "object_storage.buckets",
        ("hostname",),
        "dns_name",
        uses="is an alias of",
        used_by="CNAME record pointing at it",
        source_when=ALIAS_RECORDS,
        if_target_deleted=ALIASES_BREAK,
    ),
    Relation(
        "balancer_backend",
        "loadbalancers.nodes",
        ("address",),
        "compute.instances",
        ADDRESSES,
        "host_port",
        uses="sends traffic to",
        used_by="load balancer node at it",
        if_target_deleted=Effect(
            "breaks",
            one="load balancer {^^label} port {^port} has a node at {address}",
            cleanup=Cleanup("object", "loadbalancers.nodes.delete"),
        ),
        dangling=True,
    ),
    Relation(
        "volume_attachment",
        "compute.instances",
        ("id",),
        "volumes",
        ("compute_id",),
        "same_id",
        uses="has volume",
        used_by="attached to",
        if_source_deleted=Effect("detaches", one="volume {label} will be detached"),
        if_target_deleted=Effect(
            "breaks", one="volume {gone} is attached to instance {label}: detach it first"
        ),
    ),
    Relation(
        "pool_node_instance",
        "k8s.nodes",
        ("instance_id",),
        "compute.instances",
        ("id",),
        "same_id",
        uses="runs as",
        used_by="Kubernetes node",
        if_source_deleted=CASCADE,
        if_target_deleted=Effect(
            "breaks",
            one="instance {gone} belongs to pool {^id} of cluster {^^label}: "
            "recycle the node instead",
            instead=Cleanup("object", "k8s.nodes.recycle", verb="recycle"),
        ),
    ),
    Relation(
        "key_bucket",
        "object_storage.keys",
        ("bucket_access[]",),
        "object_storage.buckets",
        ("",),
        "bucket",
        uses="may access",
        used_by="access key limited to it",
        if_target_deleted=Effect("breaks", one="access key {label} is limited to bucket {gone}"),
    ),
    Relation(
        "database_allow",
        "databases",
        ("allow_list[]",),
        "compute.instances",
        ADDRESSES,
        "cidr",
        uses="admits",
        used_by="database allow list admitting it",
        if_target_deleted=Effect(
            "breaks",
            one="the allow list of database {label} admits {value}, an address of {gone}",
            cleanup=Cleanup(
                "allow_list_without", "databases.{engine}.update", verb="update the allow list of"
            ),
        ),
    ),
    Relation(
        "config_disk",
        "compute.configs",
        ("devices.*.disk_id",),
        "compute.disks",
        ("id",),
        "same_id",
        uses="uses disk",
        used_by="used by config",
        if_target_deleted=Effect(
            "breaks", one="config {label} of instance {^label} uses disk {gone}"
        ),
    ),
    Relation(
        "config_volume",
        "compute.configs",
        ("devices.*.volume_id",),
        "volumes",
        ("id",),
        "same_id",
        uses="uses volume",
        used_by="used by config",
        if_target_deleted=Effect(
            "breaks", one="config {label} of instance {^label} uses volume {gone}"
        ),
    ),
    _part("instance_config", "compute.instances", "compute.configs", "config"),
    _part("instance_disk", "compute.instances", "compute.disks", "disk"),
    _part("instance_backup", "compute.instances", "compute.backups", "backup"),
    _part("balancer_config", "loadbalancers", "loadbalancers.configs", "port"),
    _part("config_node", "loadbalancers.configs", "loadbalancers.nodes", "node"),
    _part("cluster_pool", "k8s.clusters", "k8s.pools", "pool"),
    _part("pool_node", "k8s.pools", "k8s.nodes", "node"),
    _part("domain_record", "domains", "domains.records", "record"),
    *(
        Relation(
            name,
            kind,
            ("tags[]",),
            "tags",
            ("label",),
            "same_text",
            uses="tagged",
            used_by="tags",
        )
        for name, kind in (
            ("instance_tag", "compute.instances"),
            ("volume_tag", "volumes"),
            ("balancer_tag", "loadbalancers"),
            ("domain_tag", "domains"),
            ("cluster_tag", "k8s.clusters"),
        )
    ),
)
"""Every relation, in the order answers list them."""

BY_NAME: dict[str, Relation] = {relation.name: relation for relation in RELATIONS}
"""Every relation by its name."""
