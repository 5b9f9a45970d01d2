"""Forms generated from request models (headless).

:func:`form_for` reads a :class:`~tui.models.base.RequestModel` and describes one input per field:
its kind (text, number, choice, switch, secret, list, JSON, multi-line text), whether it is
required, its bounds, help text (the field's docstring) and, where the API has them, where its
choices come from (regions, types, images ...). Nested objects become groups of inputs; short
lists of objects (interfaces: at most 3) become repeated groups; anything else structured is
edited as JSON.

:func:`build_body` turns what the user typed back into a request body and validates it with the
same model, so client-side errors name the same fields as the inputs; :func:`field_errors`
places a server's ``errors[].field`` on those inputs too. Widgets only ever hold strings, bools
and chosen values; every conversion lives here where it is tested without a terminal.
"""

from __future__ import annotations

import json
import re
import secrets
import string
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal

import annotated_types
from pydantic import BaseModel, SecretStr, ValidationError
from pydantic.fields import FieldInfo

from tui.api.endpoints import resolve_model
from tui.models import pem
from tui.models.rules import NOT_SENT, When
from tui.resources import choosers
from tui.resources.choice_fits import IMAGE_FITS, SCRIPT_FITS, TYPE_FITS, Fit
from tui.resources.choosers import Across, Facts
from tui.resources.form_rules import deciding_values, hidden_names, required_now
from tui.resources.format import MISSING
from tui.resources.spec import dig

FieldKind = Literal[
    "text",
    "int",
    "float",
    "bool",
    "choice",
    "secret",
    "list",
    "lines",
    "json",
    "multiline",
    "multi",
    "picks",
]
"""Input kinds: ``list`` is comma-separated values, ``lines`` one value per line (SSH keys may
contain commas); ``lines``, ``json`` and ``multiline`` use a text area; ``multi`` picks any
number of fixed :attr:`FormField.choices` (sent comma-separated, as a script's ``manyof``);
``picks`` any number of choices loaded from the API (sent as a list: a script's images)."""

MAX_REPEATED_GROUPS = 3
"""Lists of objects with at most this many entries start with that many rows shown; longer
lists start with one row (or their minimum) and grow a row at a time."""

MULTILINE_MIN_LENGTH = 256
"""Text fields that may hold more than this many characters get a text area."""

MULTILINE_NAMES = frozenset({"script", "comments", "notes"})
"""Fields that hold several lines whatever their declared bound."""

LINE_LIST_NAMES = frozenset({"authorized_keys", "master_ips", "axfr_ips", "allow_list"})
"""Lists entered one value per line (an SSH key's options may contain commas)."""

PASSWORD_HINTS = ("pass", "password")
"""Secret fields whose name says password get the generator (not PEM keys)."""

REDACTED = "<REDACTED>"
"""What the API returns instead of a stored secret: never prefilled, so an edit keeps it."""


@dataclass(frozen=True)
class ChoiceSource:
    """Where a field's choices come from.

    Attributes:
        endpoint: Listing endpoint (registry name).
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
    next_minor_of: str = ""

    def options(self, item: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """``(text, value)`` of the options one item gives (one, or one per :attr:`each`)."""
        if not self.each:
            return [self.option(item)]
        entries = dig(item, self.each)
        out: list[tuple[str, Any]] = []
        for entry in entries if isinstance(entries, list) else []:
            if self.each_match and not re.match(self.each_match, str(entry)):
                continue
            out.append(self.option({**item, "each": entry}))
        return out

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

    def why_empty(self, context: Mapping[str, Any] | None = None) -> str:
        """Why nothing is offered, in words: ``no instances in ap-northeast``.

        Args:
            context: The values the choices were filtered by (see :func:`choice_context`).
        """
        noun = self.noun or self.endpoint.rsplit(".", 2)[-2].replace("_", " ")
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
        """``(text, value)`` of one item."""
        try:
            text = self.label.format_map(_Lenient(item))
        except (ValueError, AttributeError, IndexError):
            text = str(item.get(self.value))
        if "{" in self.value:
            return text, self.value.format_map(_Lenient(item))
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
        )

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


class _Lenient(dict[str, Any]):
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
    # A balancer's backend: an instance's private IPv4 (in the balancer's region when known).
    "private_address": ChoiceSource(
        "compute.instances.list",
        value="{each}",
        label="{each} — {label} ({region})",
        same_as={"region": "region"},
        noun="instances with a private IPv4 address",
        each="ipv4",
        each_match=r"^(10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.)",
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


@dataclass(frozen=True)
class FormField:
    """One input.

    Attributes:
        name: Dotted path in the body (``alerts.cpu``, ``interfaces.0.purpose``).
        title: Label text.
        kind: Input kind.
        required: The body needs it (inside a group: when the group is used).
        help: Help text (the model field's docstring).
        choices: Fixed ``(text, value)`` options.
        source: Choices loaded from the API.
        group: Title of the group the input belongs to, if any.
        default: The model's default, shown as a hint.
        min_length: Shortest accepted text.
        max_length: Longest accepted text.
        ge: Smallest accepted number.
        le: Largest accepted number.
        item_type: Element type of a ``list`` field (``str`` or ``int``).
        locked: Why the user may not change this input (shown instead of an editable input);
            empty when they may.
    """

    name: str
    title: str
    kind: FieldKind
    required: bool = False
    help: str = ""
    choices: tuple[tuple[str, Any], ...] = ()
    source: ChoiceSource | None = None
    group: str | None = None
    default: Any = None
    min_length: int | None = None
    max_length: int | None = None
    ge: float | None = None
    le: float | None = None
    item_type: type = str
    locked: str = ""
    required_when: str = ""
    """When the model's own checks need this optional field, in words (shown for "optional")."""
    send: bool = True
    """False for a picker that only narrows another input's choices (the instance whose disks
    are offered): it is never part of the body."""
    rule: When | None = None
    """When the input is asked (its deciding field dotted like :attr:`name`); None: always."""
    pem: str = ""
    """What PEM text the field holds (``certificate``, ``private key``; the model declares it),
    else empty. Such a field keeps every line of a paste, and takes a file path instead."""

    @property
    def hint(self) -> str:
        """Placeholder: bounds and default in a few words."""
        return self.hint_for(self.required)

    def hint_for(self, required: bool, note: str = "") -> str:
        """The hint while the input is ``required`` (or not), with a rule's ``note`` first."""
        parts: list[str] = [note] if note else []
        if self.kind == "list":
            parts.append("comma-separated")
        if self.kind == "lines":
            parts.append("one per line")
        if self.pem:
            parts.append(f"paste the PEM {self.pem} or a file path")
        if self.kind == "picks":
            parts.append("space ticks")
        if self.min_length is not None and self.max_length is not None:
            parts.append(f"{self.min_length}..{self.max_length} chars")
        elif self.max_length is not None:
            parts.append(f"up to {self.max_length} chars")
        if self.ge is not None and self.le is not None:
            parts.append(f"{_num(self.ge)}..{_num(self.le)}")
        elif self.ge is not None:
            parts.append(f"at least {_num(self.ge)}")
        if self.default not in (None, "", [], {}) and self.kind not in ("bool", "secret"):
            default = self.default
            if isinstance(default, list | tuple):
                default = ", ".join(map(str, default))  # a multi-choice's: nginx, not ['nginx']
            parts.append(f"default {default}")
        if self.required_when and not required:
            parts.append(self.required_when)
        elif not required and self.kind not in ("bool",) and not note:
            parts.append("optional")
        return ", ".join(parts)


@dataclass(frozen=True)
class Repeat:
    """A list of objects shown as repeated rows of inputs (a balancer's configs, their nodes).

    Attributes:
        path: Dotted path of the list (``configs.0.nodes``).
        title: Title of one row, numbered when shown (``Nodes`` -> ``Nodes 2``).
        model: The model of one entry.
        group: Group title the rows sit in (``Configs 1``), if any.
        max_rows: Most entries the list takes (None: no limit).
    """

    path: str
    title: str
    model: type[BaseModel]
    group: str | None = None
    max_rows: int | None = None

    def row_group(self, index: int) -> str:
        """The group title of row ``index``."""
        own = f"{self.title} {index + 1}"
        return f"{self.group} · {own}" if self.group else own


@dataclass(frozen=True)
class FormSpec:
    """A whole form.

    Attributes:
        model: The request model class.
        title: Heading (the model's docstring's first line).
        fields: Inputs in model order.
    """

    model: type[BaseModel]
    title: str
    fields: tuple[FormField, ...]
    irreversible: Mapping[str, tuple[Any, str]] = field(default_factory=dict)
    """Input name -> (value, meaning) of values that cannot be taken back once sent."""
    repeats: Mapping[str, Repeat] = field(default_factory=dict)
    """Dotted path of each list of objects shown as rows (``configs``, ``configs.0.nodes``)."""
    confirm_sent: Mapping[str, str] = field(default_factory=dict)
    """Input name -> what sending it does (``{value}``: the value sent), confirmed first."""

    def rows(self, path: str) -> int:
        """How many rows the repeated list at ``path`` has now."""
        prefix = f"{path}."
        indices = {
            int(f.name[len(prefix) :].split(".", 1)[0])
            for f in self.fields
            if f.name.startswith(prefix) and f.name[len(prefix) :].split(".", 1)[0].isdigit()
        }
        return len(indices)

    def field(self, name: str) -> FormField | None:
        """The input named ``name``."""
        return next((f for f in self.fields if f.name == name), None)

    def locking(self, name: str, reason: str) -> FormSpec:
        """This form with input ``name`` (if it has one) shown but not editable, and why."""
        fields = tuple(replace(f, locked=reason) if f.name == name else f for f in self.fields)
        return replace(self, fields=fields)

    @property
    def secret_names(self) -> tuple[str, ...]:
        """Names of the masked inputs."""
        return tuple(f.name for f in self.fields if f.kind == "secret")

    @property
    def password_names(self) -> tuple[str, ...]:
        """Masked inputs that take a password (the generator fills these, not PEM keys)."""
        return tuple(
            name for name in self.secret_names if any(h in name.lower() for h in PASSWORD_HINTS)
        )


# -- reading models -------------------------------------------------------------------------


@dataclass
class _Shape:
    core: Any
    nullable: bool = False
    metadata: list[Any] = field(default_factory=list)
    secret: bool = False
    pem: str = ""

    def read_extra(self, extra: Any) -> None:
        """Take what a field's ``json_schema_extra`` declares: a secret, a PEM kind."""
        if isinstance(extra, dict):
            self.secret = self.secret or bool(extra.get("secret"))
            self.pem = self.pem or str(extra.get("pem") or "")


def _unwrap(annotation: Any, metadata: Iterable[Any] = ()) -> _Shape:
    """Strip ``Optional`` and ``Annotated`` layers, collecting constraints on the way."""
    shape = _Shape(annotation, metadata=list(metadata))
    while True:
        origin = typing.get_origin(shape.core)
        if origin is typing.Annotated:
            args = typing.get_args(shape.core)
            shape.core = args[0]
            shape.metadata.extend(args[1:])
            continue
        if origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(shape.core) if a is not type(None)]
            if len(members) == 1:
                shape.nullable = True
                shape.core = members[0]
                continue
        break
    flat: list[Any] = []
    for meta in shape.metadata:
        if isinstance(meta, FieldInfo):
            flat.extend(meta.metadata)
            shape.read_extra(meta.json_schema_extra)
        else:
            flat.append(meta)
    shape.metadata = flat
    if shape.core is SecretStr:
        shape.secret = True
    return shape


def _bounds(metadata: Iterable[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for meta in metadata:
        for attr, key in (
            ("min_length", "min_length"),
            ("max_length", "max_length"),
            ("ge", "ge"),
            ("le", "le"),
        ):
            value = getattr(meta, attr, None)
            if value is not None:
                out[key] = value
        if isinstance(meta, annotated_types.Gt):
            out["ge"] = meta.gt
        if isinstance(meta, annotated_types.Lt):
            out["le"] = meta.lt
    return out


FIELD_TITLES = {
    "compute_id": "Instance",
    "computes": "Instances",
    "config_id": "Configuration profile",
    "disk_id": "Disk",
    "volume_id": "Volume",
    "backup_id": "Backup to restore",
    "stackscript_id": "Deployment script",
    "stackscript_data": "Deployment script answers",
    "loadbalancers": "Load balancers",
    "ttl_sec": "TTL (s)",
    "expire_sec": "Expire (s)",
    "refresh_sec": "Refresh (s)",
    "retry_sec": "Retry (s)",
    "k8s_version": "Kubernetes version",
    "root_pass": "Root password",
    "otp_code": "Code from the SMS",
    "iso_code": "Country code (ISO)",
    "soa_email": "SOA email",
}
"""Titles for API field names that read badly word by word."""

ACRONYMS = {
    "cpu": "CPU",
    "io": "I/O",
    "id": "ID",
    "ids": "IDs",
    "ip": "IP",
    "ips": "IPs",
    "ipv4": "IPv4",
    "ipv6": "IPv6",
    "ssl": "SSL",
    "tls": "TLS",
    "ssh": "SSH",
    "url": "URL",
    "ttl": "TTL",
    "iso": "ISO",
    "axfr": "AXFR",
    "ha": "HA",
    "acl": "ACL",
    "cors": "CORS",
    "ipam": "IPAM",
    "mb": "MB",
    "gb": "GB",
}


def _title(name: str) -> str:
    if name in FIELD_TITLES:
        return FIELD_TITLES[name]
    words = [ACRONYMS.get(w, w) for w in name.split("_") if w]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def form_title(name: str) -> str:
    """The title a form gives the field ``name`` (``compute_id`` -> ``Instance``)."""
    return _title(name)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _fields_of(
    model: type[BaseModel],
    prefix: str = "",
    group: str | None = None,
    repeats: dict[str, Repeat] | None = None,
) -> list[FormField]:
    """The inputs of ``model`` under ``prefix``; lists of objects become rows (see :class:`Repeat`)
    recorded in ``repeats``."""
    out: list[FormField] = []
    conditional: Mapping[str, str] = getattr(model, "required_when", {})
    rules: Mapping[str, When] = getattr(model, "shown_when", {})
    sources: Mapping[str, str] = getattr(model, "choices_from", {})
    server_defaults = {rule.field: rule.unset for rule in rules.values() if rule.unset is not None}
    for name, info in model.model_fields.items():
        key = info.alias or name
        path = f"{prefix}{key}"
        shape = _unwrap(info.annotation, info.metadata)
        shape.read_extra(info.json_schema_extra)
        required = info.is_required()
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        if default is None:
            default = server_defaults.get(key)  # what the server assumes (preselected)
        help_text = (info.description or "").strip()
        title = info.title or _title(key)
        core = shape.core
        origin = typing.get_origin(core)
        rule = rules[key].at(prefix) if key in rules else None
        if _is_model(core):
            sub_group = f"{group} · {title}" if group else title
            out.extend(_fields_of(core, f"{path}.", sub_group, repeats))
            continue
        if origin is list and typing.get_args(core) and _is_model(typing.get_args(core)[0]):
            bounds = _bounds(shape.metadata)
            limit = bounds.get("max_length")
            inner = typing.get_args(core)[0]
            repeat = Repeat(path, title, inner, group, limit)
            if repeats is not None:
                repeats[path] = repeat
            if limit is not None and limit <= MAX_REPEATED_GROUPS:
                count = limit
            else:
                count = max(1, bounds.get("min_length") or 0)
            for index in range(count):
                out.extend(_fields_of(inner, f"{path}.{index}.", repeat.row_group(index), repeats))
            continue
        leaf = _leaf(path, title, shape, required, help_text, group, default, sources.get(key))
        if leaf.source is not None and prefix:
            siblings = (i.alias or n for n, i in model.model_fields.items())
            leaf = replace(leaf, source=leaf.source.under(prefix, siblings))
        when = conditional.get(key)
        if when and not required:
            leaf = replace(leaf, required_when=when)
        out.append(replace(leaf, rule=rule) if rule is not None else leaf)
    return out


def _example(model: type[BaseModel]) -> dict[str, Any]:
    """One entry of a JSON field with the model's required fields, for the help text."""
    sample: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if not info.is_required():
            continue
        shape = _unwrap(info.annotation, info.metadata)
        bounds = _bounds(shape.metadata)
        core = shape.core
        if typing.get_origin(core) is Literal:
            sample[name] = typing.get_args(core)[0]
        elif core in (int, float):
            sample[name] = bounds.get("ge", 1)
        elif core is bool:
            sample[name] = False
        elif _is_model(core):
            sample[name] = _example(core)
        else:
            sample[name] = "…"
    return sample


def _leaf(
    path: str,
    title: str,
    shape: _Shape,
    required: bool,
    help_text: str,
    group: str | None,
    default: Any,
    source_name: str | None = None,
) -> FormField:
    core = shape.core
    bounds = _bounds(shape.metadata)
    name = source_name or path.rsplit(".", 1)[-1]
    common: dict[str, Any] = {
        "required": required,
        "help": help_text,
        "group": group,
        "default": default,
        "pem": shape.pem,
        **bounds,
    }
    if shape.secret:
        return FormField(path, title, "secret", **common)
    if typing.get_origin(core) is Literal:
        values = typing.get_args(core)
        choices = tuple((str(v), v) for v in values)
        if values and all(isinstance(v, bool) for v in values):
            return FormField(path, title, "bool", **common)
        return FormField(path, title, "choice", choices=choices, **common)
    if core is bool:
        return FormField(path, title, "bool", **common)
    if core in (int, float):
        kind: FieldKind = "int" if core is int else "float"
        source = CHOICE_SOURCES.get(name) if core is int else None
        if source is not None:
            return FormField(path, title, "choice", source=source, **common)
        return FormField(path, title, kind, **common)
    if typing.get_origin(core) is list:
        args = typing.get_args(core)
        item = _unwrap(args[0]).core if args else str
        source = CHOICE_SOURCES.get(name) if item is str else None
        if source is not None:
            return FormField(path, title, "picks", source=source, **common)
        if item in (str, int):
            kind = "lines" if item is str and name in LINE_LIST_NAMES else "list"
            return FormField(path, title, kind, item_type=item, **common)
        return FormField(path, title, "json", **common)
    if core is str:
        source = CHOICE_SOURCES.get(name)
        if source is not None:
            return FormField(path, title, "choice", source=source, **common)
        long = (bounds.get("max_length") or 0) >= MULTILINE_MIN_LENGTH
        kind = "multiline" if long or shape.pem or name in MULTILINE_NAMES else "text"
        return FormField(path, title, kind, **common)
    return FormField(path, title, "json", **common)


def asks_only_per_item(form: FormSpec) -> bool:
    """True when every input of ``form`` is a per-item choice asked only among several
    (``several_only``: a reboot's configuration profile). Such a form is a plain confirmation
    when no choice offers more than one value, and is left out when the action runs on marked
    rows (each item gets the server's default: the profile it last booted)."""
    several_only: frozenset[str] = getattr(form.model, "several_only", frozenset())
    return all(f.name in several_only for f in form.fields)


@cache
def form_for(model_ref: str | type[BaseModel]) -> FormSpec:
    """The form of a request model.

    Args:
        model_ref: ``"module:Class"`` under ``tui.models``, or the class itself.

    Returns:
        The form description.
    """
    model = resolve_model(model_ref) if isinstance(model_ref, str) else model_ref
    doc = (model.__doc__ or model.__name__).strip().splitlines()[0]
    repeats: dict[str, Repeat] = {}
    fields = tuple(_fields_of(model, repeats=repeats))
    confirm_sent = dict(getattr(model, "confirm_sent", {}))
    return FormSpec(model, doc, fields, _irreversible_of(model), repeats, confirm_sent)


def add_row(form: FormSpec, path: str) -> tuple[FormSpec, tuple[FormField, ...]]:
    """``form`` with one more row in the repeated list at ``path``, and that row's inputs.

    The new inputs follow the list's last row (nested lists in the row start with one row of
    their own); a list at its maximum gets no row.

    Raises:
        KeyError: ``path`` is not a repeated list of the form.
    """
    repeat = form.repeats[path]
    index = form.rows(path)
    if repeat.max_rows is not None and index >= repeat.max_rows:
        return form, ()
    repeats = dict(form.repeats)
    new = tuple(_fields_of(repeat.model, f"{path}.{index}.", repeat.row_group(index), repeats))
    prefix = f"{path}."
    last = max((i for i, f in enumerate(form.fields) if f.name.startswith(prefix)), default=-1)
    at = last + 1 if last >= 0 else len(form.fields)
    fields = (*form.fields[:at], *new, *form.fields[at:])
    return replace(form, fields=fields, repeats=repeats), new


def with_pickers(form: FormSpec, params: Mapping[str, Any]) -> FormSpec:
    """``form`` with a picker before each input whose choices need a parent not known yet.

    A disk is chosen among an instance's disks: opened from an instance, the action knows the
    instance; opened from the Images list it does not, so an "Instance" choice (not sent) comes
    first and the disks follow it.

    Args:
        form: The form.
        params: Path parameters the action already has.
    """
    fields: list[FormField] = []
    names = {f.name for f in form.fields}
    for f in form.fields:
        for param, helper in f.source.form_params.items() if f.source else ():
            source = CHOICE_SOURCES.get(helper)
            if param in params or helper in names or source is None:
                continue
            names.add(helper)
            fields.append(
                FormField(
                    helper,
                    form_title(helper),
                    "choice",
                    required=f.required,
                    help=f"Choose it first: the {f.title.lower()} choices are its own.",
                    source=source,
                    group=f.group,
                    send=False,
                )
            )
        fields.append(f)
    return replace(form, fields=tuple(fields)) if len(fields) != len(form.fields) else form


def _irreversible_of(model: type[BaseModel], prefix: str = "") -> dict[str, tuple[Any, str]]:
    """Every irreversible value a model and its nested models declare, by dotted input name."""
    out = {f"{prefix}{k}": v for k, v in getattr(model, "irreversible", {}).items()}
    for name, info in model.model_fields.items():
        core = _unwrap(info.annotation, info.metadata).core
        if _is_model(core):
            out.update(_irreversible_of(core, f"{prefix}{info.alias or name}."))
    return out


def irreversible_changes(form: FormSpec, body: Mapping[str, Any]) -> list[str]:
    """What the body would do that cannot be undone (empty: nothing), in words."""
    out: list[str] = []
    for name, (value, meaning) in form.irreversible.items():
        node: Any = body
        for part in name.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        if node is not None and node == value:
            out.append(meaning)
    return out


def sent_notes(form: FormSpec, body: Mapping[str, Any]) -> list[str]:
    """What sending the body's fields named in :attr:`FormSpec.confirm_sent` does, in words
    (empty: nothing to confirm)."""
    out: list[str] = []
    for name, meaning in form.confirm_sent.items():
        value = dig(body, name)
        if value is not None:
            out.append(meaning.format(value=value))
    return out


def empty_cautions(form: FormSpec, body: Mapping[str, Any]) -> list[str]:
    """What leaving a field out of ``body`` means, for the fields the model warns about."""
    warned: Mapping[str, str] = getattr(form.model, "warn_when_empty", {})
    return [text for name, text in warned.items() if body.get(name) in (None, "", [], {})]


# -- values ----------------------------------------------------------------------------------


def display_value(form_field: FormField, value: Any) -> Any:
    """What an input shows for an API value (strings for text inputs, bools for switches)."""
    if value is None:
        return False if form_field.kind == "bool" else ""
    if form_field.kind == "bool":
        return bool(value)
    if form_field.kind == "secret" or value == REDACTED:
        return ""  # never prefill a secret (the API does not return them anyway)
    if form_field.kind == "choice":
        return value
    if form_field.kind == "picks":
        return list(value) if isinstance(value, list) else [value]
    if form_field.kind in ("list", "lines"):
        joiner = "\n" if form_field.kind == "lines" else ", "
        return joiner.join(str(v) for v in value) if isinstance(value, list) else str(value)
    if form_field.kind == "json":
        return json.dumps(value, indent=2, ensure_ascii=False)
    return str(value)


def initial_values(form: FormSpec, item: Mapping[str, Any] | None) -> dict[str, Any]:
    """Input values prefilled from an existing item (edit forms)."""
    if not item:
        return {}
    return {f.name: display_value(f, dig(item, f.name)) for f in form.fields}


def _blank(value: Any) -> bool:
    if isinstance(value, list):
        return not value  # a multi-choice with nothing chosen
    return value is None or (isinstance(value, str) and not value.strip())


def _convert(form_field: FormField, raw: Any) -> Any:
    """Raw input -> typed value; raises ValueError with a message for the user."""
    kind = form_field.kind
    if kind == "bool":
        return bool(raw)
    if kind == "choice":
        return raw
    if kind == "multi":
        return ",".join(str(v) for v in raw) if isinstance(raw, list | tuple) else str(raw)
    if kind == "picks":
        # Chosen in a list, or typed comma-separated when the choices could not be loaded.
        values = raw if isinstance(raw, list | tuple) else str(raw).split(",")
        return [str(v).strip() for v in values if str(v).strip()]
    text = raw if isinstance(raw, str) else str(raw)
    if form_field.pem:
        text = pem.from_input(text)
        pem.check(form_field.pem, text)  # before the model: beside the other inputs' errors
        return text
    if kind == "int":
        try:
            return int(text.strip())
        except ValueError:
            raise ValueError("must be a whole number") from None
    if kind == "float":
        try:
            return float(text.strip())
        except ValueError:
            raise ValueError("must be a number") from None
    if kind in ("list", "lines"):
        separator = "\n" if kind == "lines" else ","
        parts = [p.strip() for p in text.split(separator) if p.strip()]
        if form_field.item_type is int:
            try:
                return [int(p) for p in parts]
            except ValueError:
                raise ValueError("must be whole numbers separated by commas") from None
        return parts
    if kind == "json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"is not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return text if kind in ("multiline", "secret") else text.strip()


def _nest(flat: Mapping[str, Any]) -> dict[str, Any]:
    """``{"a.b": 1, "l.0.x": 2}`` -> ``{"a": {"b": 1}, "l": [{"x": 2}]}`` (unused slots dropped)."""
    root: dict[str, Any] = {}
    for path, value in flat.items():
        node = root
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return _lists(root)


def _lists(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    converted = {k: _lists(v) for k, v in node.items()}
    if converted and all(k.isdigit() for k in converted):
        return [converted[k] for k in sorted(converted, key=int)]
    return converted


def _group_used(form: FormSpec, values: Mapping[str, Any], group: str) -> bool:
    """True when an input of ``group`` (other than a switch) holds something."""
    return any(
        f.group == group and f.kind != "bool" and not _blank(values.get(f.name))
        for f in form.fields
    )


def _row_of(form: FormSpec, name: str) -> str | None:
    """The innermost repeated row ``name`` belongs to (``configs.0.nodes.1.``), if any."""
    best: str | None = None
    for path in form.repeats:
        found = re.match(re.escape(path) + r"\.\d+\.", name)
        if found and (best is None or len(found.group(0)) > len(best)):
            best = found.group(0)
    return best


def _row_used(form: FormSpec, values: Mapping[str, Any], row: str) -> bool:
    """True when an input of the row holds something other than blank or its default."""
    for f in form.fields:
        if not f.send or _row_of(form, f.name) != row:
            continue
        raw = values.get(f.name)
        if f.kind == "bool":
            if bool(raw) != bool(f.default):
                return True
        elif not _blank(raw) and raw != f.default:
            return True
    return False


@dataclass
class FormResult:
    """What :func:`build_body` made of the inputs.

    Attributes:
        body: The request body (JSON-ready, secrets revealed), when valid.
        errors: Input name -> message.
        general: Messages that belong to no single input.
    """

    body: dict[str, Any] | None = None
    errors: dict[str, str] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the body is valid."""
        return self.body is not None and not self.errors and not self.general


def _empty(f: FormField) -> Any:
    return False if f.kind == "bool" else ""


def _root(name: str) -> str:
    return name.split(".", 1)[0]


def _changed(f: FormField, raw: Any, before: Any) -> bool:
    return not (raw == before or (_blank(raw) and _blank(before)))


def build_body(
    form: FormSpec,
    values: Mapping[str, Any],
    *,
    initial: Mapping[str, Any] | None = None,
    context: Mapping[str, Any] | None = None,
) -> FormResult:
    """Turn input values into a validated request body.

    Args:
        form: The form.
        values: Input name -> raw value (text, bool, chosen value, or None for no choice).
        initial: The prefilled values of an edit form. Only fields that changed (and required
            ones) are sent, so an edit never re-sends what the user did not touch (a restricted
            user may not send ``tags`` at all, for instance); a nested object or list is sent
            whole when any part of it changed; a cleared top-level input is sent as null.
        context: The item an edit form is about, for rules decided by a field that is not
            an input (a record's type).

    Inputs the model's ``shown_when`` rules hide are never sent; one a rule requires for the
    value chosen is reported when blank, or sends the rule's blank value (a Null MX's ``""``).
    A group of inputs (a repeated row) left at blanks and defaults is not sent at all.

    Returns:
        The body, or the errors to show.
    """
    result = FormResult()
    flat: dict[str, Any] = {}
    editing = initial is not None
    before_of = initial or {}
    changed_roots = {
        _root(f.name)
        for f in form.fields
        if editing
        and (
            # Required fields travel even unchanged: the request is invalid without them.
            (f.required and f.group is None)
            or _changed(f, values.get(f.name), before_of.get(f.name, _empty(f)))
        )
    }
    groups_used: dict[str, bool] = {}
    rows_used: dict[str, bool] = {}
    hidden = hidden_names(form, values, context)
    decided = deciding_values(form, values, context)
    for f in form.fields:
        if not f.send or f.name in hidden:
            continue
        row = _row_of(form, f.name) if not editing else None
        if row is not None:
            if row not in rows_used:
                rows_used[row] = _row_used(form, values, row)
            if not rows_used[row]:
                continue  # an untouched row (a spare one) is not part of the body
        raw = values.get(f.name)
        nested = "." in f.name
        required = required_now(f, decided)
        if editing:
            if _root(f.name) not in changed_roots:
                continue
            if not nested and _blank(raw) and f.kind not in ("secret", "bool"):
                flat[f.name] = [] if f.kind in ("list", "lines") else None
                continue
        if f.kind == "bool":
            # A switch always has a value. A new item sends it only when it differs from the
            # model's default, so untouched switches keep the server's own defaults.
            if not editing and bool(raw) == bool(f.default) and not f.required:
                continue
            flat[f.name] = bool(raw)
            continue
        if _blank(raw):
            instead = f.rule.blank_value(decided[f.name]) if f.rule is not None else NOT_SENT
            if instead is not NOT_SENT:
                flat[f.name] = instead
            elif f.group is not None:
                if f.group not in groups_used:
                    groups_used[f.group] = _group_used(form, values, f.group)
                if required and groups_used[f.group]:
                    result.errors[f.name] = _missing(f, decided)
            elif required:
                result.errors[f.name] = _missing(f, decided)
            continue
        try:
            flat[f.name] = _convert(f, raw)
        except ValueError as exc:
            result.errors[f.name] = f"{f.title} {exc}"
    if result.errors:
        return result
    body = _nest(flat)
    try:
        model = form.model.model_validate(body)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            name = _loc_name(error.get("loc", ()))
            place(form, name, validation_message(error, form.field(name)), result)
        return result
    result.body = _sent(model, body)
    return result


def _missing(f: FormField, decided: Mapping[str, Any]) -> str:
    """``Weight is required`` (``... for SRV`` when a rule made it so)."""
    if f.rule is not None and not f.required:
        if f.required_when:
            return f"{f.title} is {f.required_when}"  # the model's own words
        return f"{f.title} is required {f.rule.describe(decided.get(f.name))}"
    return f"{f.title} is required"


def _sent(model: BaseModel, body: Mapping[str, Any]) -> dict[str, Any]:
    """The validated body: the model's own serialisation of just the fields the user gave."""
    reveal = getattr(model, "body", None)
    if callable(reveal):
        data: dict[str, Any] = reveal()
        # Fields explicitly cleared to null are "set" and survive exclude_unset.
        return {k: v for k, v in data.items() if k in body}
    return dict(body)


def _loc_name(loc: Iterable[Any]) -> str:
    return ".".join(str(p) for p in loc)


def validation_message(error: Mapping[str, Any], form_field: FormField | None = None) -> str:
    """A pydantic error in words a user reads (pydantic's own text names regexes and types).

    Args:
        error: One entry of ``ValidationError.errors()``.
        form_field: The input it is about, if known: a length of text (a password is not a
            list, though pydantic counts its "items") is in characters.
    """
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if form_field is not None and form_field.kind not in ("list", "lines", "json"):
        kind = {"too_short": "string_too_short", "too_long": "string_too_long"}.get(kind, kind)
    plain = {
        "missing": "required",
        "string_too_short": "must be at least {min_length} characters",
        "string_too_long": "must be at most {max_length} characters",
        "too_short": "needs at least {min_length} entries",
        "too_long": "may have at most {max_length} entries",
        "greater_than_equal": "must be at least {ge}",
        "less_than_equal": "must be at most {le}",
        "greater_than": "must be more than {gt}",
        "less_than": "must be less than {lt}",
        "int_parsing": "must be a whole number",
        "int_type": "must be a whole number",
        "float_parsing": "must be a number",
        "bool_parsing": "must be yes or no",
        "literal_error": "must be one of {expected}",
        "string_pattern_mismatch": "has characters or a form that is not allowed (see the help)",
    }.get(kind)
    if plain is not None:
        try:
            return plain.format_map(_Lenient(ctx))
        except (ValueError, IndexError):
            return plain
    msg = str(error.get("msg", "is not valid"))
    return re.sub(r"^(Value|Assertion) error, ", "", msg)


NAMED_PREFIX = re.compile(r"^(?P<name>[A-Za-z_][\w.\[\]]*): (?P<rest>.+)$", re.S)
"""A message that starts by naming its field: ``configs[0].port: port 80 is used twice``."""


def place(form: FormSpec, name: str, message: str, result: FormResult) -> None:
    """Attach ``message`` to the input ``name`` names (or its nearest parent), else general.

    A message without a field of its own (a whole-model check, a server error without
    ``field``) lands on the input it names: ``configs[0].port: ...`` or ``region is required
    when ...``. Field names in the text read as the inputs' titles.
    """
    named = NAMED_PREFIX.match(message)
    if named and name:
        # A row's own check naming its field (``check_timeout: ...`` about ``configs.0``).
        inner = name + "." + re.sub(r"\[(\d+)\]", r".\1", named["name"])
        if form.field(inner) is not None:
            name, message = inner, named["rest"]
    elif name and form.field(name) is None:
        # A row's check opening with its field's name (``min must not exceed max``).
        first = re.match(r"^([a-z_][a-z0-9_]*)\b", message)
        if first and form.field(f"{name}.{first.group(1)}") is not None:
            name = f"{name}.{first.group(1)}"
    target = _match(form, name)
    if target is None and not name:
        named = NAMED_PREFIX.match(message)
        if named and _match(form, re.sub(r"\[(\d+)\]", r".\1", named["name"])):
            target = _match(form, re.sub(r"\[(\d+)\]", r".\1", named["name"]))
            message = named["rest"]
        else:
            target = _mentioned(form, message)
    if target is None:
        text = f"{form_title(name)}: {message}" if name else message
        result.general.append(humanize(form, text))
    elif target not in result.errors:
        result.errors[target] = humanize(form, message)


def _leaf_names(form: FormSpec) -> dict[str, FormField]:
    """Last part of each input's name -> the input (the first, for repeated groups)."""
    out: dict[str, FormField] = {}
    for f in form.fields:
        out.setdefault(f.name.rsplit(".", 1)[-1], f)
    return out


def _mentioned(form: FormSpec, message: str) -> str | None:
    """The input a message opens with (``week_of_month is required ...``), if any."""
    first = re.match(r"^([a-z_][a-z0-9_]*)\b", message)
    found = _leaf_names(form).get(first.group(1)) if first else None
    return found.name if found is not None else None


def humanize(form: FormSpec, message: str) -> str:
    """``message`` with the API's field names (``soa_email``) written as the inputs' titles."""
    leaves = _leaf_names(form)

    def title(match: re.Match[str]) -> str:
        word = match.group(0)
        found = leaves.get(word)
        if found is None:
            return word
        if match.start() == 0 or found.title[1:2].isupper():
            return found.title  # a sentence's first word, or an acronym (SOA email)
        return found.title[:1].lower() + found.title[1:]

    # snake_case names anywhere; a plain word (``target``) only when it opens the message.
    text = re.sub(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", title, message)
    return re.sub(r"^[a-z][a-z0-9]*\b", title, text)


def _match(form: FormSpec, name: str) -> str | None:
    if not name:
        return None
    names = {f.name for f in form.fields}
    candidate = name
    while candidate:
        if candidate in names:
            return candidate
        # A nested error (``devices.sdh``, ``configs.0.port``) lands on its closest input.
        prefixed = sorted(n for n in names if n.startswith(candidate + "."))
        if prefixed:
            return prefixed[0]
        candidate = candidate.rpartition(".")[0]
    return None


def field_errors(form: FormSpec, errors: Iterable[Any]) -> FormResult:
    """Place a server's ``errors[{field, reason}]`` on the form's inputs.

    Args:
        form: The form.
        errors: Entries with ``field`` and ``reason`` (the client's ``FieldError`` objects, or
            plain mappings).

    ``field`` may be dotted or indexed (``node_pools[0].count``); errors naming no input of the
    form become general messages.
    """
    result = FormResult()
    for error in errors:
        if isinstance(error, Mapping):
            raw, reason = error.get("field"), error.get("reason")
        else:
            raw, reason = getattr(error, "field", None), getattr(error, "reason", None)
        name = re.sub(r"\[(\d+)\]", r".\1", str(raw or ""))
        place(form, name, str(reason or "is not valid"), result)
    return result


# -- passwords -------------------------------------------------------------------------------

PASSWORD_ALPHABET = string.ascii_letters + string.digits + "-_.,:;!@#%^*+="


def generate_password(length: int = 32) -> str:
    """A strong random password with upper and lower case letters, digits and symbols."""
    if length < 8:
        raise ValueError("length must be at least 8")
    while True:
        candidate = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(length))
        if (
            any(c.islower() for c in candidate)
            and any(c.isupper() for c in candidate)
            and any(c.isdigit() for c in candidate)
            and any(not c.isalnum() for c in candidate)
        ):
            return candidate
