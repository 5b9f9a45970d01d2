"""Describe a form from a request model: one input per field, with its kind, bounds, help
and choices (:func:`form_for`), rows added to repeated groups, pickers for path values, and
the values that cannot be taken back once sent."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal

import annotated_types
from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from tui.api.endpoints import resolve_model
from tui.models.docs import field_help
from tui.models.rules import OFFERED, SUGGESTED, Part, When
from tui.resources.forms.choices import CHOICE_SOURCES, SUGGESTION_SOURCES
from tui.resources.forms.spec import (
    LINE_LIST_NAMES,
    MAX_REPEATED_GROUPS,
    MULTILINE_MIN_LENGTH,
    MULTILINE_NAMES,
    FieldKind,
    FormField,
    FormSpec,
    Repeat,
)
from tui.resources.spec import dig
from tui.untrusted import Shown, shown


@dataclass
class _Shape:
    core: Any
    nullable: bool = False
    metadata: list[Any] = field(default_factory=list)
    secret: bool = False
    pem: str = ""
    offered: tuple[tuple[str, Any], ...] = ()
    suggested: str = ""

    def read_extra(self, extra: Any) -> None:
        """Take what a field's ``json_schema_extra`` declares: a secret, a PEM kind, the
        ``(text, value)`` choices a form offers (:func:`tui.models.rules.offered`), where its
        likely values come from (:func:`tui.models.rules.suggested`)."""
        if isinstance(extra, dict):
            self.secret = self.secret or bool(extra.get("secret"))
            self.pem = self.pem or str(extra.get("pem") or "")
            self.suggested = self.suggested or str(extra.get(SUGGESTED) or "")
            self.offered = self.offered or tuple(
                (str(text), value) for text, value in extra.get(OFFERED) or ()
            )


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


def _title(name: str) -> Shown:
    if name in FIELD_TITLES:
        return FIELD_TITLES[name]
    words = [ACRONYMS.get(w, w) for w in name.split("_") if w]
    text = shown(" ".join(words))
    return text[:1].upper() + text[1:]


def form_title(name: str) -> Shown:
    """The title a form gives the field ``name`` (``compute_id`` -> ``Instance``)."""
    return _title(name)


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _fields_of(
    model: type[BaseModel],
    prefix: str = "",
    group: Shown | None = None,
    repeats: dict[str, Repeat] | None = None,
) -> list[FormField]:
    """The inputs of ``model`` under ``prefix``; lists of objects become rows (see :class:`Repeat`)
    recorded in ``repeats``."""
    out: list[FormField] = []
    conditional: Mapping[str, str] = getattr(model, "required_when", {})
    rules: Mapping[str, When] = getattr(model, "shown_when", {})
    sources: Mapping[str, str] = getattr(model, "choices_from", {})
    parts: Mapping[str, Part] = getattr(model, "parts", {})
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
        # Titles and help are the models' own words, passed through the boundary once here.
        # Docstrings wrap at the source's width: one line of words, the terminal wraps it.
        help_text = shown(" ".join(field_help(model, name).split()))
        title = shown(info.title or _title(key))
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
        out.extend(
            _part_input(f"{prefix}{name}", part, leaf)
            for name, part in parts.items()
            if part.into == key
        )
    return out


def _part_input(path: str, part: Part, joined: FormField) -> FormField:
    """The input of a :class:`~tui.models.rules.Part`, asked right after the field it joins."""
    return FormField(
        path,
        shown(part.title),
        "int",
        help=shown(part.help),
        group=joined.group,
        ge=part.ge,
        le=part.le,
        send=False,
        # Asked while the field it joins is, never required by that field's rule.
        rule=replace(joined.rule, required=False) if joined.rule is not None else None,
        part=part,
        joins=joined.name,
    )


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
    title: Shown,
    shape: _Shape,
    required: bool,
    help_text: Shown,
    group: Shown | None,
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
    # Free text or a comma-separated list with likely values: completed and offered, not bound.
    suggest = SUGGESTION_SOURCES.get(shape.suggested or name, ())
    if suggest and (core is str or typing.get_origin(core) is list):
        common["suggest"] = suggest
    if shape.offered:
        return FormField(path, title, "choice", choices=shape.offered, **common)
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
        source = CHOICE_SOURCES.get(name) if item in (str, int) else None
        if source is not None:
            # Ticked in a list: keys, users, credentials, the objects a tag goes on.
            return FormField(path, title, "picks", source=source, item_type=item, **common)
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


def irreversible_changes(form: FormSpec, body: Mapping[str, Any]) -> list[Shown]:
    """What the body would do that cannot be undone (empty: nothing), in words."""
    out: list[Shown] = []
    for name, (value, meaning) in form.irreversible.items():
        node: Any = body
        for part in name.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        if node is not None and node == value:
            out.append(shown(meaning))
    return out


def sent_notes(form: FormSpec, body: Mapping[str, Any]) -> list[Shown]:
    """What sending the body's fields named in :attr:`FormSpec.confirm_sent` does, in words
    (empty: nothing to confirm)."""
    out: list[Shown] = []
    for name, meaning in form.confirm_sent.items():
        value = dig(body, name)
        if value is not None:
            out.append(shown(meaning.format(value=value)))
    return out


def empty_cautions(form: FormSpec, body: Mapping[str, Any]) -> list[Shown]:
    """What leaving a field out of ``body`` means, for the fields the model warns about."""
    warned: Mapping[str, str] = getattr(form.model, "warn_when_empty", {})
    return [shown(text) for name, text in warned.items() if body.get(name) in (None, "", [], {})]
