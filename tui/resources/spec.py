"""Descriptors of browsable resources: what generic list and detail screens render.

Specs are plain data (no Textual): columns, detail sections, child resources, actions and
transitional statuses. One module per area under ``tui.resources`` defines its specs; ``AREAS``
in ``tui.resources.areas`` lists the sidebar.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tui.untrusted import Shown, shown

ValueKind = Literal[
    "text",
    "status",
    "int",
    "bytes",
    "mb",
    "gb",
    "datetime",
    "list",
    "bool",
    "json",
    "secret",
    "series",
    "block",
    "udf",
]
"""How a value is formatted: ``mb``/``gb`` are sizes in those units, ``bytes`` raw bytes,
``series`` points over time (``[ms, value]`` pairs or ``{x, y}`` objects; drawn as charts
where a spec has :attr:`ResourceSpec.charts`, else summarised by their latest value), ``block``
preformatted text kept line by line (a script, a zone file's lines), ``udf`` a deployment
script's text read for its user-defined fields (one line each)."""


class _IsSet:
    """Sentinel of ``Action.refuse_when``: the field has any value (not None, empty or [])."""

    def __repr__(self) -> str:
        return "IS_SET"


IS_SET: Any = _IsSet()

ConfirmKind = Literal["none", "confirm", "typed"]
"""``confirm``: yes/no dialog; ``typed``: the user types the resource's label (irreversible)."""

GrantRule = Literal["none", "read_write", "unrestricted"] | str
"""``read_write`` on the item, an ``unrestricted`` user, or ``global:<grant>``."""


@dataclass(frozen=True)
class Column:
    """One list column.

    Attributes:
        key: Dotted path into the item (``specs.memory``, ``ipv4.0``).
        title: Header text.
        kind: Value formatting.
        width: Fixed width; None lets the table size it from a sample of rows.
    """

    key: str
    title: Shown
    kind: ValueKind = "text"
    width: int | None = None


@dataclass(frozen=True)
class FieldSpec:
    """One field of a detail section.

    Attributes:
        key: Dotted path of the value in the item.
        title: Label.
        kind: How the value is formatted.
        zero: Text shown instead of 0 where the API uses 0 for "the default" (a domain's
            ``retry_sec`` 0 means 14,400 s); empty to show 0 itself.
    """

    key: str
    title: Shown
    kind: ValueKind = "text"
    zero: Shown = ""


@dataclass(frozen=True)
class Section:
    """A titled group of fields on the detail screen."""

    title: Shown
    fields: tuple[FieldSpec, ...]


@dataclass(frozen=True)
class ChartSpec:
    """One chart of numbers over time: the series drawn together, all in one unit.

    Attributes:
        title: Chart title (``CPU``).
        unit: Unit of every series (``%``, ``blocks/s``, ``bits/s``): the axis and the
            summary format values with it.
        series: ``(dotted path in the answer, legend)`` of each line.
    """

    title: Shown
    unit: Shown
    series: tuple[tuple[str, Shown], ...]


@dataclass(frozen=True)
class ChildSpec:
    """A child collection shown as a tab of the parent's detail screen.

    Attributes:
        title: Tab title.
        resource: Id of the child's :class:`ResourceSpec`.
        params: Child path parameter -> parent item field (``{"computeId": "id"}``).
    """

    title: Shown
    resource: str
    params: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Action:
    """Something the user can do to an item (or to the collection, for ``create``).

    Attributes:
        id: Binding/palette id, e.g. ``compute.reboot``.
        label: Menu text.
        endpoint: Registry name of the operation it calls.
        key: Default key (``n`` new, ``e`` edit, ``d`` delete, ``b`` boot ...).
        target: ``item`` (needs a selected item) or ``collection`` (create).
        form: ``"module:Class"`` request model shown as a form first, or None for no body.
        confirm: Confirmation kind.
        allowed_statuses: Item statuses that allow it (empty: any).
        refused_statuses: Item statuses that refuse it (the API answers 409 while an item is
            in them: a migrating volume cannot be deleted); checked like ``allowed_statuses``.
        grant: What a restricted user needs.
        screen: Id of a hand-written screen that replaces the generic form (resize picker,
            rescue device map, stats, preferences editor ...).
        description: One line for help and the palette.
        refuse_when: ``(field, value, reason)`` rules: the action is unavailable for an item
            whose ``field`` equals ``value`` (public images cannot be edited ...); the value
            :data:`IS_SET` matches any present value (an attached volume's ``compute_id``).
        caution_when: ``(field, value, text)`` rules like ``refuse_when`` that do not refuse:
            the confirmation adds ``text`` (deleting an attached volume).
        owner_only: Only the item's owner (``ResourceSpec.owner_field``) may run it.
        prefill: Form field -> item field, prefilled in a form that is not an edit (a
            pre-signed URL's object name).
        mutating: Whether the action changes anything (greyed in a read-only session). None
            derives it from the endpoint's method (anything but GET changes); hand-offs to
            other programs (ssh, k9s, a database shell) and read-only flows say False.
        bulk: The action runs on every marked row when rows are marked (one confirmation
            listing the targets, then one request per item); otherwise on the cursor row only.
        handoff: Program the action hands the terminal to (``ssh``, ``k9s``, ``mysql``,
            ``mongosh``; see ``tui.handoff``); such actions use ``screen="handoff"``.
        fetch: Answers a hand-off needs first: name -> registry name of an operation called
            with the item's parameters (``{"credentials": "databases.mysql.credentials.view"}``).
        offer_after: Body field -> ``(action id, why)``: once the request succeeded with that
            field sent, the item's other action is offered at once, its confirmation saying
            why (a cluster upgrade offers the recycle that brings the nodes to the new
            version).
        text: A derived value (``@name``, :mod:`tui.resources.derived`) shown in a copyable
            dialog: after the action succeeds, read from the answer (the commands to use a new
            volume), or instead of any request when ``screen`` is ``"text"``.
        on_every_tab: The item's child tabs offer it too, when the tab binds its key to
            nothing of its own: an action on the whole of what the tabs show parts of (editing
            a domain's zone from its Records and Zone file tabs). Hand-offs always are.
    """

    id: str
    label: Shown
    endpoint: str
    key: str | None = None
    target: Literal["item", "collection"] = "item"
    form: str | None = None
    confirm: ConfirmKind = "none"
    allowed_statuses: tuple[str, ...] = ()
    refused_statuses: frozenset[str] = frozenset()
    grant: GrantRule = "read_write"
    screen: str | None = None
    description: Shown = ""
    refuse_when: tuple[tuple[str, Any, str], ...] = ()
    caution_when: tuple[tuple[str, Any, str], ...] = ()
    owner_only: bool = False
    prefill: Mapping[str, str] = field(default_factory=dict)
    mutating: bool | None = None
    bulk: bool = False
    handoff: str | None = None
    fetch: Mapping[str, str] = field(default_factory=dict)
    offer_after: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    text: Shown = ""
    on_every_tab: bool = False


@dataclass(frozen=True)
class AlsoListed:
    """Items of another listing shown in a spec's list: a kind its own listing leaves out.

    A tag's objects come from the tag's listing, which names instances, domains, volumes and
    balancers; Kubernetes clusters carry tags too, and are found with a filtered listing of
    the clusters. Each item found becomes an entry ``{type: kind, data: item}`` of the spec's
    own listing (read by its adapter), after the listing's own entries; one the listing
    already gave is not shown twice.

    Attributes:
        endpoint: The other listing (``k8s.clusters.list``).
        kind: The ``type`` its items are given (``k8s_cluster``).
        where: Filtered field -> path parameter of the list whose value the field must hold
            (``{"tags": "label"}``: the clusters carrying the tag). Sent as the listing's
            filter and checked again on each item (a server may ignore a filter).
    """

    endpoint: str
    kind: str
    where: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ResourceSpec:
    """A browsable resource.

    Attributes:
        id: Unique id, e.g. ``compute.instances``.
        title: Plural title (``Instances``).
        singular: Singular noun (``instance``).
        list_endpoint: Registry name of the listing (collection, or an object for odd listings).
        view_endpoint: Registry name of the single-item view, if any.
        id_param: Path parameter naming one item (``computeId``).
        parent_params: Path parameters inherited from the parent (child resources).
        id_field: Field holding the id.
        label_field: Field shown as the item's name (and typed to confirm irreversible actions).
        label_fallback: Fields joined to name an item whose label is empty, before falling back
            to the id (a zone-apex DNS record has no name: ``MX mail.example.com``).
        columns: List columns.
        sections: Detail sections.
        children: Child tabs of the detail screen.
        actions: Actions.
        transitional: Statuses that make the refresh loop go fast.
        status_field: Field holding the status, if any.
        copy_fields: Fields ``y`` copies, first present wins (``ipv4.0``, ``hostname``, ``id``).
        grant_kind: Restricted-user grant kind (``compute``, ``domain`` ...) of the items
            themselves. Child resources (configs of an instance, records of a domain) have
            none: the grant is on the parent, and the API's 403 is explained when it applies.
        empty_hint: What the empty list suggests.
        items_key: For non-collection listings, where the items are in the answer.
        adapter: Name of a headless adapter (``tui.resources.adapters.ADAPTERS``) that turns an
            odd listing answer (``{automatic, snapshot}``, ``{data, is_truncated, next_marker}``,
            tagged objects ``{type, data}``) into a list of item dicts.
        item_params: Path parameters naming one item, parameter -> item field, when more than
            ``id_param`` is needed (a bucket is ``{clusterId: cluster, bucket: label}``).
        item_specs: Which spec opens an item when it is not this one: item field value ->
            spec id, keyed by ``item_spec_field`` (``"*"`` matches any value).
        item_spec_field: Field whose value selects the entry of ``item_specs``.
        singleton: The resource is one object (the profile): the area shows its detail screen.
        quick_filter: ``(field, values)`` the list cycles through with a key (kernels by
            architecture); the first state is always "all".
        owner_field: Field naming the user who owns an item (deployment scripts).
        charts: Numbers over time in the answer: a spec with charts is drawn as charts (one
            at a time, with a summary of every series) instead of fields.
        month_endpoint: Registry name of the same answer for a chosen month (``year`` and
            ``month`` parameters); None when only the latest period exists.
        also_listed: Other listings whose items the list shows after its own (the clusters
            carrying a tag, which the tag's listing leaves out).
    """

    id: str
    title: Shown
    singular: Shown
    list_endpoint: str
    view_endpoint: str | None = None
    id_param: str | None = None
    parent_params: tuple[str, ...] = ()
    id_field: str = "id"
    label_field: str = "label"
    label_fallback: tuple[str, ...] = ()
    columns: tuple[Column, ...] = ()
    sections: tuple[Section, ...] = ()
    children: tuple[ChildSpec, ...] = ()
    actions: tuple[Action, ...] = ()
    transitional: frozenset[str] = frozenset()
    status_field: str | None = "status"
    copy_fields: tuple[str, ...] = ("id",)
    grant_kind: str | None = None
    empty_hint: Shown = "Nothing here yet."
    items_key: str | None = None
    adapter: str | None = None
    item_params: Mapping[str, str] = field(default_factory=dict)
    item_specs: Mapping[str, str] = field(default_factory=dict)
    item_spec_field: str | None = None
    singleton: bool = False
    quick_filter: tuple[Shown, tuple[Shown, ...]] | None = None
    owner_field: str | None = None
    charts: tuple[ChartSpec, ...] = ()
    month_endpoint: str | None = None
    also_listed: tuple[AlsoListed, ...] = ()

    def action(self, action_id: str) -> Action | None:
        """The action with that id, if the spec has it."""
        return next((a for a in self.actions if a.id == action_id), None)

    def item_key(self, item: Mapping[str, Any]) -> str:
        """A stable key of ``item`` in its list (the id, or the label when there is none)."""
        value = dig(item, self.id_field)
        if value is None:
            value = dig(item, self.label_field)
        return str(value)

    def label_of(self, item: Mapping[str, Any]) -> str:
        """The item's display name (label, else the :attr:`label_fallback` fields, else id)."""
        value = dig(item, self.label_field)
        if value in (None, "") and self.label_fallback:
            parts = (dig(item, key) for key in self.label_fallback)
            value = " ".join(str(p) for p in parts if p not in (None, ""))
        if value in (None, ""):
            value = dig(item, self.id_field)
        return "" if value is None else str(value)

    def display_label(self, item: Mapping[str, Any]) -> Shown:
        """:meth:`label_of` as display text (labels are written by other people)."""
        return shown(self.label_of(item))

    def params_for(
        self, item: Mapping[str, Any], parent_params: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Path parameters naming ``item``: the parent's, plus the item's own.

        Args:
            item: The item.
            parent_params: Parameters inherited from the parent (child resources).

        Returns:
            Parameters for the view endpoint and item actions.
        """
        params: dict[str, Any] = dict(parent_params or {})
        mapping = dict(self.item_params)
        if not mapping and self.id_param:
            mapping = {self.id_param: self.id_field}
        for param, item_field in mapping.items():
            value = dig(item, item_field)
            if value is not None:
                params[param] = value
        return params

    def status_of(self, item: Mapping[str, Any]) -> str | None:
        """The item's status text, if the resource has one."""
        if not self.status_field:
            return None
        value = dig(item, self.status_field)
        return None if value is None else str(value)

    def is_transitional_status(self, status: str | None) -> bool:
        """True for a status the refresh loop watches closely (the spec's, else the shared set)."""
        return status is not None and status in (self.transitional or TRANSITIONAL_STATUSES)

    def is_transitional(self, item: Mapping[str, Any]) -> bool:
        """True when the item's status is one the refresh loop watches closely."""
        return self.is_transitional_status(self.status_of(item))


@dataclass(frozen=True)
class Area:
    """A sidebar entry: one Textual mode with its own navigation stack.

    Attributes:
        id: Mode id (``instances``).
        title: Sidebar text.
        root: Id of the ResourceSpec listed first (or of a hand-written screen).
        aliases: ``:`` command aliases (``in``, ``vm`` ...).
        group: Sidebar group heading.
        tabs: Further top-level resources of the area, shown as tabs beside the root
            (object storage: keys and clusters next to buckets).
    """

    id: str
    title: Shown
    root: str
    aliases: tuple[str, ...] = ()
    group: Shown = ""
    tabs: tuple[str, ...] = ()


TRANSITIONAL_STATUSES = frozenset(
    {
        "provisioning",
        "booting",
        "rebooting",
        "shutting_down",
        "migrating",
        "resizing",
        "creating",
        "pending_upload",
        "deleting",
        "rebuilding",
        "cloning",
        "restoring",
        "not ready",
        "not_ready",
        "updating",
        "backing_up",
    }
)
"""Statuses that make refresh go fast, across areas."""


def dig(item: Mapping[str, Any], key: str) -> Any:
    """Follow a dotted path (``specs.memory``, ``ipv4.0``) into nested dicts and lists.

    Returns:
        The value, or None when any step is missing.
    """
    if "." not in key:
        # Fast path: most keys are plain field names (refresh diffs call this 10,000s of times),
        # and most items plain dicts (a Mapping check goes through the ABC machinery).
        if type(item) is dict:
            return item.get(key)
        return item.get(key) if isinstance(item, Mapping) else None
    value: Any = item
    for part in key.split("."):
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit():
            index = int(part)
            value = value[index] if index < len(value) else None
        else:
            return None
        if value is None:
            return None
    return value
