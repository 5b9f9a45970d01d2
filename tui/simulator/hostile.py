"""The hostile demo data set: every text that other people write carries what a terminal obeys.

``cloudtui --demo --demo-data hostile`` (and ``cloudtui sim --data hostile``) seeds the usual
demo account, then appends :data:`PAYLOAD` to every free-text field of every object: labels,
tags, groups, descriptions, notes, contact names and groups, record names and text targets,
script text and the labels of its user-defined fields, pool labels, bucket labels, object names
and contents, image and region names. The API's own error messages carry it too. A client that
draws any of it raw lets the data set the clipboard (OSC 52), clear the screen, colour what
follows, ring the bell, reverse the text after it or inject markup; a 500-character word and
wide characters test that no row or title breaks its line.

Fields the simulator or the client reason about (ids, statuses, types, regions' ids, addresses,
dates) are left as they are, so the account still works. Where a label is also a key (tags,
buckets, objects), the table is keyed again and every reference follows: appending the same
payload to the same text keeps every reference equal to its target.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from typing import Any

from tui.simulator.store import Store

PAYLOAD = (
    "\x1b]52;c;aG9zdGlsZQ==\x07"  # OSC 52: set the clipboard to "hostile"
    "\x1b[2J\x1b[H"  # clear the screen, cursor home
    "\x1b[31m"  # colour what follows red
    "\x9b7m"  # C1 CSI: reverse video
    "\x07\x08\x7f"  # bell, backspace, delete
    "\u202e\u2066"  # right-to-left override, left-to-right isolate
    "[b]bold[/b][link=evil]x[/link]"  # markup
    "漢字🙂"  # wide characters
    " " + "W" * 500  # a 500-character word
)
"""What every free-text field carries, after its own text."""

FIELDS: dict[str, tuple[str, ...]] = {
    "compute.instances": ("label", "group", "tags"),
    "compute.configs": ("label", "comments"),
    "compute.disks": ("label",),
    "compute.backups": ("label",),
    "compute.kernels": ("label",),
    "compute.regions": ("label", "country"),
    "compute.types": ("label",),
    "databases.instances": ("label",),
    "databases.backups": ("label",),
    "deployscripts.scripts": ("label", "description", "rev_note", "script"),
    "domains.domains": ("description", "group", "tags"),
    "domains.records": ("name", "target"),
    "images.images": ("label", "description"),
    "k8s.clusters": ("label", "tags"),
    "k8s.pools": ("tags", "labels"),
    "loadbalancers.balancers": ("label", "tags"),
    "loadbalancers.nodes": ("label",),
    "managed.contacts": ("name", "group"),
    "managed.credentials": ("label",),
    "managed.services": ("label", "body", "notes", "consultation_group"),
    "managed.issues": ("entity.label", "ticket.summary"),
    "object_storage.buckets": ("label",),
    "object_storage.keys": ("label", "bucket_access.bucket_name"),
    "object_storage.objects": ("name", "_bucket"),  # each part of a name, folders too
    "profile.apps": ("label",),
    "tags.tags": ("label",),
    "volumes.volumes": ("label", "tags", "compute_label"),
}
"""Per table, the free-text fields (dotted into nested objects and lists of objects; a list of
strings has each string changed). Record ``target`` only where it is text, see
:func:`_record_target`."""

TEXT_RECORD_TYPES = frozenset({"TXT", "CNAME", "NS", "MX", "SRV", "CAA"})
"""Record types whose target is a name or text (an A record's is an address, kept)."""


def hostile(text: str) -> str:
    """``text`` with :data:`PAYLOAD` after it (empty text stays empty: a missing field)."""
    return f"{text}{PAYLOAD}" if text else text


def hostile_name(text: str) -> str:
    """An object name with the payload less its slashes: a slash would make it a folder."""
    return f"{text}{PAYLOAD.replace('/', '')}" if text else text


def make_hostile(store: Store) -> None:
    """Turn the demo account in ``store`` into the hostile data set (see the module)."""
    for table, fields in FIELDS.items():
        for record in store.table(table).values():
            for field in fields:
                if table == "domains.records" and field == "target":
                    _record_target(record)
                elif table == "object_storage.objects" and field == "name":
                    record["name"] = "/".join(
                        hostile_name(part) for part in record["name"].split("/")
                    )
                else:
                    _change(record, field.split("."))
        _key_again(store, table)
    for record in store.table("object_storage.objects").values():
        _poison_contents(record)
    for record in store.table("deployscripts.scripts").values():
        record["script"] = _with_hostile_udf(str(record.get("script") or ""))
    store.meta[HOSTILE_META] = True


HOSTILE_META = "hostile"
"""Store metadata key: set when the data set is hostile (error messages carry the payload)."""


def hostile_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Error entries with the payload after each reason (the API's own words are text too)."""
    return [{**entry, "reason": hostile(str(entry.get("reason") or "error"))} for entry in errors]


def _change(node: Any, path: list[str]) -> None:
    if isinstance(node, list):
        for element in node:
            _change(element, path)
        return
    if not isinstance(node, dict) or path[0] not in node:
        return
    key, rest = path[0], path[1:]
    value = node[key]
    if rest:
        _change(value, rest)
    elif isinstance(value, str):
        node[key] = hostile(value)
    elif isinstance(value, list):
        node[key] = [hostile(v) if isinstance(v, str) else v for v in value]
    elif isinstance(value, dict):  # a pool's Kubernetes labels: keys and values
        node[key] = {hostile(str(k)): hostile(str(v)) for k, v in value.items()}


def _record_target(record: dict[str, Any]) -> None:
    if record.get("type") in TEXT_RECORD_TYPES and isinstance(record.get("target"), str):
        record["target"] = hostile(record["target"])


KEYS: dict[str, Callable[[dict[str, Any]], str]] = {
    "tags.tags": lambda r: str(r["label"]),
    "object_storage.buckets": lambda r: f"{r['cluster']}/{r['label']}",
    "object_storage.objects": lambda r: f"{r['_cluster']}/{r['_bucket']}/{r['name']}",
}
"""Tables keyed by a text field: how each record's key is made (as their handlers make it)."""


def _key_again(store: Store, table: str) -> None:
    make_key = KEYS.get(table)
    if make_key is None:
        return
    records = list(store.table(table).values())
    store.tables[table] = {make_key(record): record for record in records}


def _poison_contents(record: dict[str, Any]) -> None:
    """Text objects get the payload in their contents too (the object viewer shows them)."""
    if not str(record.get("_content_type") or "").startswith("text/"):
        return
    data = base64.b64decode(record.get("_data") or b"")
    poisoned = data + ("\n" + PAYLOAD + "\n").encode()
    record["_data"] = base64.b64encode(poisoned).decode()
    record["size"] = len(poisoned)
    record["etag"] = hashlib.md5(poisoned, usedforsecurity=False).hexdigest()


def _with_hostile_udf(script: str) -> str:
    """A script with one more user-defined field whose label and default are hostile."""
    first, _, rest = script.partition("\n")
    udf = f'# <UDF name="hostile_field" label="{PAYLOAD}" default="{PAYLOAD}" />'
    return f"{first}\n{udf}\n{rest}" if first.startswith("#!") else f"{udf}\n{script}"
