"""Where a form input's choices come from: a listing of the API (:class:`ChoiceSource`) and
the table of them by input name (:data:`CHOICE_SOURCES`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tui.resources import choosers
from tui.resources.choice_fits import IMAGE_FITS, RESIZE_FITS, SCRIPT_FITS, TYPE_FITS, Fit
from tui.resources.choosers import UNAVAILABLE, Across, Facts
from tui.resources.format import MISSING
from tui.resources.spec import dig


@dataclass(frozen=True)
class ChoiceSource:
    """Where a field's choices come from.

    Attributes:
        endpoint: Listing endpoint (registry name); empty for a source of :attr:`local`
            items only.
        value: Item field that becomes the value, or a ``str.format`` template over the item
            (``{engine}/{version}``).
        label: ``str.format`` template over the item for the option text.
        params: Path parameter -> name of the action parameter that fills it.
        where: ``(field, value)`` an item must match to be offered (available images only).
        form_params: Path parameter -> form field that fills it when the action has no such
            parameter (a volume's attach form: the configs of the instance chosen above).
        same_as: Option field -> name of a value the option must share: the form's field of
            that name once filled, else the action's item's (a volume attaches only to
            instances of its region; a new one to instances of the region chosen).
        each: A list field of the item whose entries are the options (``{each}`` in
            :attr:`value` and :attr:`label`): an instance's addresses.
        each_match: Pattern an entry must match to be offered (private addresses only).
        each_missing: Why an item with no :attr:`each` entry matching cannot be chosen: it is
            then offered as an unavailable choice saying so (see :meth:`expand`), not left out
            (an instance without a private address is no balancer backend).
        next_minor_of: Field of the action's item holding a ``<major>.<minor>`` version: only
            the version one minor after it is offered (a cluster upgrades one minor version
            at a time and never down).
        facts: Columns of facts beside each choice: the form offers a searchable table
            (:mod:`tui.resources.choosers`) instead of a bare list.
        noun: What the items are called in a sentence (default: the listing's name,
            ``instances`` for ``compute.instances.list``).
        adapter: Adapter (``tui.resources.adapters.ADAPTERS``) of a listing that is not a
            collection (an instance's backups).
        across: The listing is asked once per item of another listing (the backups of every
            instance with backups).
        fits: Rules marking choices that do not suit another input (a type too small for the
            chosen backup; see :mod:`tui.resources.choice_fits`).
        extra: Fixed ``(text, value)`` options offered before the loaded ones (``any/all``).
        local: A reader of this machine (:data:`tui.resources.local_choices.LOCAL_CHOICES`)
            whose items are offered after the listing's: the public keys in ``~/.ssh``.
        distinct: One choice per value: an item whose value an earlier one already offers is
            left out, and so is an item without a value (the groups of the contacts).
    """

    endpoint: str
    value: str = "id"
    label: str = "{id}"
    params: Mapping[str, str] = field(default_factory=dict)
    where: tuple[str, Any] | None = None
    form_params: Mapping[str, str] = field(default_factory=dict)
    same_as: Mapping[str, str] = field(default_factory=dict)
    each: str = ""
    each_match: str = ""
    each_missing: str = ""
    next_minor_of: str = ""

    def expand(self, item: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The choices one listed item stands for: itself, or one per :attr:`each` entry that
        matches (the entry as ``each``). With no entry matching: none, or the item marked
        unavailable (:data:`~tui.resources.choosers.UNAVAILABLE`) when :attr:`each_missing`
        says why. An item already expanded stands for itself."""
        if not self.each or EACH in item or UNAVAILABLE in item:
            return [dict(item)]
        entries = dig(item, self.each)
        out = [
            {**item, EACH: entry}
            for entry in (entries if isinstance(entries, list) else [])
            if not self.each_match or re.match(self.each_match, str(entry))
        ]
        if not out and self.each_missing:
            return [{**item, UNAVAILABLE: self.each_missing}]
        return out

    def options(self, item: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """``(text, value)`` of the options one item gives (one, or one per :attr:`each`)."""
        return [self.option(choice) for choice in self.expand(item)]

    def under(self, prefix: str, siblings: Iterable[str]) -> ChoiceSource:
        """This source inside a row at ``prefix``: fields it names that are the row's own
        (``siblings``) are read in that row (a bucket among the buckets of the row's cluster).
        """
        own = set(siblings)
        if not prefix or not (own & (set(self.same_as.values()) | set(self.form_params.values()))):
            return self

        def local(name: str) -> str:
            return f"{prefix}{name}" if name in own else name

        return replace(
            self,
            same_as={k: local(v) for k, v in self.same_as.items()},
            form_params={k: local(v) for k, v in self.form_params.items()},
        )

    facts: Facts | None = None
    noun: str = ""
    adapter: str = ""
    across: Across | None = None
    fits: tuple[Fit, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()
    local: str = ""
    distinct: bool = False

    def why_empty(self, context: Mapping[str, Any] | None = None) -> str:
        """Why nothing is offered, in words: ``no instances in ap-northeast``.

        Args:
            context: The values the choices were filtered by (see :func:`choice_context`).
        """
        parts = self.endpoint.rsplit(".", 2)
        noun = self.noun or (parts[-2] if len(parts) > 1 else "choices").replace("_", " ")
        text = f"no {noun}"
        if self.where is not None:
            text += f" with {self.where[0]} {self.where[1]}"
        places = [
            str(value)
            for name in self.same_as.values()
            if (value := (context or {}).get(name)) not in (None, "")
        ]
        if places:
            text += " in " + ", ".join(places)
        return text

    def option(self, item: Mapping[str, Any]) -> tuple[str, Any]:
        """``(text, value)`` of one item; an unavailable one's value is empty: the chooser
        shows it with the reason, and choosing it leaves the input as good as blank (the form
        still asks for a value). Not None: a chooser opened on a blank input highlights the
        row whose value is None."""
        try:
            text = self.label.format_map(Lenient(item))
        except (ValueError, AttributeError, IndexError):
            text = str(item.get(self.value))
        if item.get(UNAVAILABLE):
            return text, ""
        if "{" in self.value:
            return text, self.value.format_map(Lenient(item))
        return text, item.get(self.value)

    @property
    def key(self) -> tuple[Any, ...]:
        """A hashable identity: sources with equal keys give the same options."""
        return (
            self.endpoint,
            self.value,
            self.label,
            tuple(sorted(self.params.items())),
            self.where,
            tuple(sorted(self.same_as.items())),
            tuple(sorted(self.form_params.items())),
            self.each,
            self.each_match,
            self.next_minor_of,
            self.adapter,
            self.across.endpoint if self.across else "",
            self.local,
            self.distinct,
        )

    @property
    def on_focus(self) -> bool:
        """Loaded when its input is first focused, not when the form opens: a source gathered
        :attr:`across` another listing asks once per item of it (the backups of up to 200
        instances), which a form opened for something else must not spend."""
        return self.across is not None

    @property
    def depends_on(self) -> frozenset[str]:
        """Form fields whose change makes these choices load again."""
        return frozenset(self.form_params.values()) | frozenset(self.same_as.values())

    def accepts(
        self,
        item: Mapping[str, Any],
        context: Mapping[str, Any] | None = None,
        subject: Mapping[str, Any] | None = None,
    ) -> bool:
        """True when ``item`` passes :attr:`where`, shares the :attr:`same_as` values and is
        the :attr:`next_minor_of` version.

        Args:
            item: A candidate option's item.
            context: Values :attr:`same_as` names (form values over the action's item); an
                absent or empty one does not filter.
            subject: The action's item as loaded (an edit form's values do not count).
        """
        if self.where is not None and dig(item, self.where[0]) != self.where[1]:
            return False
        if self.next_minor_of:
            current = dig(subject or {}, self.next_minor_of)
            if current is not None and dig(item, self.value) != next_minor(str(current)):
                return False
        for option_field, name in self.same_as.items():
            wanted = (context or {}).get(name)
            if wanted not in (None, "") and dig(item, option_field) != wanted:
                return False
        return True


EACH = "each"
"""Field of an expanded choice holding its :attr:`ChoiceSource.each` entry (``{each}``)."""


def next_minor(version: str) -> str | None:
    """``1.30`` -> ``1.31``; None for text that is not ``<major>.<minor>``."""
    major, dot, minor = version.partition(".")
    if not (dot and major.isdigit() and minor.isdigit()):
        return None
    return f"{int(major)}.{int(minor) + 1}"


def choice_context(
    item: Mapping[str, Any] | None, values: Mapping[str, Any] | None
) -> dict[str, Any]:
    """What a form's choices are filtered by: the item the action is about, overridden by the
    inputs filled so far (a volume's attach form offers the instances of the volume's region)."""
    filled = {k: v for k, v in (values or {}).items() if v not in (None, "")}
    return {**(item or {}), **filled}


class Lenient(dict[str, Any]):
    """``format_map`` source that shows missing keys as empty text, and keys the API sent as
    null as ``—`` (an option never reads ``(#12, None)``)."""

    def __init__(self, item: Mapping[str, Any]) -> None:
        super().__init__({k: MISSING if v is None else v for k, v in item.items()})

    def __missing__(self, key: str) -> str:
        return ""


CHOICE_SOURCES: dict[str, ChoiceSource] = {
    "region": ChoiceSource(
        "compute.regions.list", label="{id} — {label}", facts=choosers.REGION_FACTS
    ),
    "type": ChoiceSource(
        "compute.types.list", label="{id} — {label}", facts=choosers.TYPE_FACTS, fits=TYPE_FITS
    ),
    # A resize's new type: those too small for the instance's disks are refused.
    "resize_type": ChoiceSource(
        "compute.types.list", label="{id} — {label}", facts=choosers.TYPE_FACTS, fits=RESIZE_FITS
    ),
    "image": ChoiceSource(
        "images.list",
        label="{id} — {label}",
        where=("status", "available"),
        facts=choosers.IMAGE_FACTS,
        fits=IMAGE_FITS,
    ),
    "kernel": ChoiceSource(
        "compute.kernels.list", label="{id} — {label}", facts=choosers.KERNEL_FACTS
    ),
    "stackscript_id": ChoiceSource(
        "deployscripts.list", label="{label} (#{id})", facts=choosers.SCRIPT_FACTS, fits=SCRIPT_FITS
    ),
    # A deployment script's images: any of the available ones, or every image.
    "images": ChoiceSource(
        "images.list",
        label="{id} — {label}",
        where=("status", "available"),
        extra=(("any/all — every image", "any/all"),),
    ),
    # A backup to restore: those of every instance with backups, each with its instance's label.
    "backup_id": ChoiceSource(
        "compute.backups.list",
        label="#{id} {type} of {instance}",
        adapter="compute_backups",
        across=Across(
            "compute.instances.list",
            {"computeId": "id"},
            where=("backups.enabled", True),
            keep={"instance": "label", "instance_id": "id"},
        ),
        facts=choosers.BACKUP_FACTS,
    ),
    "engine": ChoiceSource(
        "databases.engines.list",
        value="{engine}/{version}",
        label="{engine} {version}",
        where=("engine", "mysql"),  # only MySQL databases can be created
    ),
    "k8s_version": ChoiceSource("k8s.versions.list"),
    "k8s_upgrade": ChoiceSource("k8s.versions.list", next_minor_of="k8s_version"),
    "cluster": ChoiceSource("object_storage.clusters.list", label="{id} — {region}"),
    "compute_id": ChoiceSource(
        "compute.instances.list",
        label="{label} (#{id}, {region})",
        same_as={"region": "region"},
        facts=choosers.INSTANCE_FACTS,
    ),
    "config_id": ChoiceSource(
        "compute.configs.list",
        label="{label} (#{id})",
        params={"computeId": "computeId"},
        form_params={"computeId": "compute_id"},
        facts=choosers.CONFIG_FACTS,
    ),
    "disk_id": ChoiceSource(
        "compute.disks.list",
        label="{label} (#{id})",
        params={"computeId": "computeId"},
        form_params={"computeId": "compute_id"},
        facts=choosers.DISK_FACTS,
    ),
    "volume_id": ChoiceSource(
        "compute.volumes.list",
        label="{label} (#{id})",
        params={"computeId": "computeId"},
        form_params={"computeId": "compute_id"},
        facts=choosers.VOLUME_FACTS,
    ),
    # A balancer's backend: an instance's private IPv4 (in the balancer's region when known);
    # an instance without one is listed as unavailable, saying why.
    "private_address": ChoiceSource(
        "compute.instances.list",
        value="{each}",
        label="{each} — {label} ({region})",
        same_as={"region": "region"},
        noun="instances",
        each="ipv4",
        each_match=r"^(10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.)",
        each_missing="no private IPv4 address: a balancer reaches its backends only over the "
        "private network",
        facts=choosers.PRIVATE_ADDRESS_FACTS,
    ),
    # SSH keys for a new instance: the profile's and this machine's (~/.ssh/*.pub), ticked.
    "ssh_public_keys": ChoiceSource(
        "profile.view",
        value="key",
        label="{shown}",
        adapter="profile_keys",
        local="ssh_public_keys",
        distinct=True,
        noun="SSH public keys in the profile or in ~/.ssh",
    ),
    # Users whose profile keys a new instance gets: the reference lists no users, so the one
    # user the app knows, the profile's own.
    "profile_users": ChoiceSource(
        "profile.view", value="username", label="{username}", adapter="profile_user", noun="users"
    ),
    # A managed service's credentials and consultation group: the account's own.
    "managed_credentials": ChoiceSource(
        "managed.credentials.list", label="{label} (#{id})", noun="managed credentials"
    ),
    "consultation_group": ChoiceSource(
        "managed.contacts.list",
        value="group",
        label="{group}",
        distinct=True,
        noun="contact groups (give a contact a group first)",
    ),
    # The objects a new tag is put on at once.
    "tag_computes": ChoiceSource("compute.instances.list", label="{label} (#{id}, {region})"),
    "tag_domains": ChoiceSource("domains.list", label="{domain} (#{id})"),
    "tag_volumes": ChoiceSource("volumes.list", label="{label} (#{id}, {region})"),
    "tag_loadbalancers": ChoiceSource(
        "loadbalancers.list", label="{label} (#{id}, {region})", noun="load balancers"
    ),
    # A limited key's bucket: among the buckets of the cluster chosen in the same row.
    "bucket_in_cluster": ChoiceSource(
        "object_storage.buckets.list",
        value="label",
        label="{label} ({cluster})",
        same_as={"cluster": "cluster"},
    ),
}
"""Field name -> choices from the API. Used only for plain ``str``/``int`` fields: a field with
fixed values (``Literal``) keeps them."""

_PRIVATE_IPV4 = r"10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\."

_INSTANCE_ADDRESSES = ChoiceSource(
    "compute.instances.list",
    value="{each}",
    label="{each} — {label}",
    each="ipv4",
    noun="instance addresses",
)

SUGGESTION_SOURCES: dict[str, tuple[ChoiceSource, ...]] = {
    # Every form's tags: the account's tags (a new one is typed).
    "tags": (ChoiceSource("tags.list", value="label", label="{label}", noun="tags"),),
    # The groups other contacts have (a new group is typed).
    "contact_group": (replace(CHOICE_SOURCES["consultation_group"], noun="contact groups"),),
    # Where support connects: an instance's address (or ``any``, typed).
    "instance_address": (_INSTANCE_ADDRESSES,),
    # Who may reach a database: the instances' public addresses (CIDR ranges are typed).
    "public_address": (
        replace(
            _INSTANCE_ADDRESSES,
            each_match=f"^(?!{_PRIVATE_IPV4})",
            noun="public instance addresses",
        ),
    ),
    # Keys for the profile's own list: this machine's ~/.ssh/*.pub (another machine's is pasted).
    "local_ssh_keys": (
        ChoiceSource(
            "",
            value="key",
            label="{shown}",
            local="ssh_public_keys",
            noun="SSH public keys in ~/.ssh",
        ),
    ),
    # The time zones of this machine's database (none without tzdata: the zone is typed).
    "timezone": (
        ChoiceSource("", value="name", label="{name}", local="time_zones", noun="time zones"),
    ),
    # A phone's country: the ISO 3166 codes of the time zone database, with their names.
    "countries": (
        ChoiceSource(
            "", value="code", label="{code} — {name}", local="countries", noun="countries"
        ),
    ),
    # An upload URL's content type: the media types Python knows (any other is typed).
    "content_type": (
        ChoiceSource("", value="type", label="{type}", local="media_types", noun="media types"),
    ),
    # An A record's target: an instance's or a balancer's address (any other is typed).
    "record_address": (
        _INSTANCE_ADDRESSES,
        ChoiceSource(
            "loadbalancers.list",
            value="ipv4",
            label="{ipv4} — {label}",
            noun="balancer addresses",
        ),
    ),
}
"""Likely values of free inputs, by field name (``tags``) or by the name a model field gives
in its ``json_schema_extra`` (:func:`tui.models.rules.suggested`): the form completes what is
typed from them and offers them in a chooser, and any other value may still be typed. Loaded
when the input is first focused."""
