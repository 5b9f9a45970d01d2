"""What an edited zone text changes: one ``+`` create, ``~`` update or ``-`` delete per record.

Lines map to records by their ``; id <n>`` comment (:mod:`tui.dns.zone_text`). A line without an id
that equals a record no line claims is that record, unchanged (a deleted comment costs
nothing). A record whose line was removed is deleted, unless a line with its id could not be
mapped: nothing is applied for a line in error, so its record is kept as it is. A line the API
would refuse (judged by the records' request model: a name like ``bad$``) is such an error, so
it fails in the plan rather than halfway through applying it. Deletes run
first (the API wants other MX records gone before a Null MX, and a name free before a CNAME),
then updates, then creates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import ValidationError

from tui.dns.zone_text import LineError, ParsedLine, parse_zone_text, record_line, service_of
from tui.models.domains import RecordCreate
from tui.resources.forms import validation_message
from tui.textedit.notes import Problem, with_problems
from tui.untrusted import Shown, shown

Op = Literal["+", "~", "-"]

FIELDS: Mapping[str, tuple[str, ...]] = {
    "A": ("name", "target", "ttl_sec"),
    "AAAA": ("name", "target", "ttl_sec"),
    "NS": ("name", "target", "ttl_sec"),
    "CNAME": ("name", "target", "ttl_sec"),
    "PTR": ("name", "target", "ttl_sec"),
    "TXT": ("name", "target", "ttl_sec"),
    "MX": ("name", "target", "priority", "ttl_sec"),
    "SRV": ("service", "protocol", "target", "priority", "weight", "port", "ttl_sec"),
    "CAA": ("name", "tag", "target", "ttl_sec"),
}
"""The fields a record of each type is compared and sent by."""

_HOSTS = frozenset({"NS", "CNAME", "PTR", "MX", "SRV"})


@dataclass(frozen=True)
class Change:
    """One request of the plan.

    Attributes:
        op: ``+`` create, ``~`` update, ``-`` delete.
        text: The record as a zone line (the new one for ``+`` and ``~``).
        body: The request body (None for a delete).
        record_id: The record changed or deleted (None for a create).
        line: The text's line number (None for a delete).
        detail: What an update changes (``ttl_sec 3600 -> 300``).
        restore: For the create half of a type change: the create request that puts the
            deleted record back if this create fails (nothing is lost).
    """

    op: Op
    text: str
    body: dict[str, Any] | None = None
    record_id: int | None = None
    line: int | None = None
    detail: str = ""
    restore: dict[str, Any] | None = None

    def summary(self) -> Shown:
        """One line of the plan: ``~ www 300 IN A 192.0.2.1  (ttl_sec 3600 -> 300)``."""
        text = " ".join(self.text.split())
        return shown(f"{self.op} {text}" + (f"  ({self.detail})" if self.detail else ""))


@dataclass
class ZonePlan:
    """The changes an edited text asks for, and the lines that could not be mapped."""

    changes: list[Change] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when nothing would be sent."""
        return not self.changes

    def counts(self) -> Shown:
        """``2 to create, 1 to update, 1 to delete``."""
        parts: list[Shown] = []
        for op, word in (("+", "create"), ("~", "update"), ("-", "delete")):
            count = sum(1 for c in self.changes if c.op == op)
            if count:
                parts.append(f"{count} to {word}")
        return ", ".join(parts) or "no change"


def _norm(kind: str, key: str, value: Any) -> Any:
    """A comparable value: decorations, letter case of host names, empty vs None ironed out."""
    if key in ("priority", "weight", "port"):
        return int(value or 0)
    if key == "ttl_sec":
        return int(value) if value else None
    text = "" if value is None else str(value)
    if key == "target" and kind in _HOSTS:
        return text.rstrip(".").lower()
    if key == "name":
        return text.lower()
    if key in ("service", "protocol", "tag"):
        return text.strip("_.").lower()
    return text


def _comparable(record: Mapping[str, Any]) -> dict[str, Any]:
    kind = str(record.get("type"))
    values = dict(record)
    if kind == "SRV":
        values["service"], values["protocol"] = service_of(record)
    return {key: _norm(kind, key, values.get(key)) for key in FIELDS.get(kind, ())}


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Fields of ``new`` that differ from ``old`` (a TTL left out keeps the old one)."""
    before, after = _comparable(old), _comparable(new)
    changed: dict[str, Any] = {}
    for key, value in after.items():
        if key == "ttl_sec" and value is None:
            continue
        if value != before.get(key):
            changed[key] = new.get(key)
    return changed


def create_body(record: Mapping[str, Any]) -> dict[str, Any]:
    """The create request of a parsed record (only its type's fields)."""
    kind = str(record["type"])
    body: dict[str, Any] = {"type": kind}
    for key in FIELDS[kind]:
        value = record.get(key)
        if value is None or (key == "name" and value == "" and kind != "MX"):
            continue
        body[key] = value
    return body


def restore_body(record: Mapping[str, Any]) -> dict[str, Any]:
    """The create request that recreates ``record`` as the API listed it."""
    values = dict(record)
    if values.get("type") == "SRV":
        values["service"], values["protocol"] = service_of(record)
    body = create_body(values)
    if values.get("type") == "MX":
        body.setdefault("name", "")
    return body


def request_problem(record: Mapping[str, Any]) -> str | None:
    """Why the API would refuse ``record`` (a parsed line) as a record, judged by the same
    request model the New record form uses (a name like ``bad$``); None when it would not."""
    try:
        RecordCreate.model_validate(create_body(record))
    except ValidationError as error:
        parts = []
        for entry in error.errors(include_url=False):
            text = validation_message(entry)
            where = ".".join(str(p) for p in entry.get("loc", ()))
            parts.append(text if not where or text.startswith(where) else f"{where} {text}")
        return "; ".join(parts)
    return None


def _refused(plan: ZonePlan, line: ParsedLine, old: Mapping[str, Any] | None) -> bool:
    """True (and the line's error added) when the line changes its record, or makes a new
    one, that the API would refuse; an unchanged record sends nothing, so it is not judged."""
    unchanged = old is not None and old.get("type") == line.record["type"]
    if unchanged and not _differences(old or {}, line.record):
        return False
    problem = request_problem(line.record)
    if problem is None:
        return False
    plan.errors.append(LineError(line.number, line.text, problem, line.record_id))
    return True


def _describe(old: Mapping[str, Any], changed: Mapping[str, Any]) -> str:
    parts = []
    for key, value in changed.items():
        before = old.get(key)
        if key in ("service", "protocol"):
            before = service_of(old)[0 if key == "service" else 1]
        parts.append(f"{key} {before if before not in (None, '') else '∅'} -> {value}")
    return ", ".join(parts)


def plan_from_lines(
    records: Iterable[Mapping[str, Any]], lines: list[ParsedLine], errors: list[LineError]
) -> ZonePlan:
    """The plan of parsed lines against the zone's current records."""
    current = {int(r["id"]): r for r in records if r.get("id") is not None}
    plan = ZonePlan(errors=list(errors))
    claimed: set[int] = {
        e.record_id for e in errors if e.record_id is not None and e.record_id in current
    }
    creates: list[ParsedLine] = []
    updates: list[Change] = []
    replacing: dict[int, Mapping[str, Any]] = {}  # line number -> record its type change deletes
    for line in lines:
        rid = line.record_id
        if rid is None:
            creates.append(line)
            continue
        if rid not in current:
            plan.errors.append(
                LineError(line.number, line.text, f"no record with id {rid} in this zone", rid)
            )
            continue
        if rid in claimed:
            plan.errors.append(
                LineError(line.number, line.text, f"id {rid} is on an earlier line too", rid)
            )
            continue
        claimed.add(rid)
        old = current[rid]
        new = line.record
        if _refused(plan, line, old):
            continue
        if str(old.get("type")) != new["type"]:
            # The API cannot change a record's type: the old record goes, a new one comes.
            plan.changes.append(
                Change("-", record_line(old), record_id=rid, detail=f"becomes {new['type']}")
            )
            creates.append(ParsedLine(line.number, line.text, new))
            replacing[line.number] = old
            continue
        changed = _differences(old, new)
        if changed:
            text = record_line({**old, **new, "ttl_sec": new.get("ttl_sec") or old.get("ttl_sec")})
            detail = _describe(old, changed)
            updates.append(Change("~", text, changed, rid, line.number, detail))
    unclaimed = {rid: r for rid, r in current.items() if rid not in claimed}
    fresh: list[Change] = []
    for line in creates:
        same = next(
            (
                rid
                for rid, r in unclaimed.items()
                if r.get("type") == line.record["type"] and not _differences(r, line.record)
            ),
            None,
        )
        if same is not None and line.record_id is None:
            del unclaimed[same]  # the record as it is, written without its id
            continue
        if line.record_id is None and _refused(plan, line, None):
            continue
        replaced = replacing.get(line.number)
        fresh.append(
            Change(
                "+",
                record_line(line.record),
                create_body(line.record),
                None,
                line.number,
                restore=restore_body(replaced) if replaced is not None else None,
            )
        )
    deletes = [Change("-", record_line(r), record_id=rid) for rid, r in unclaimed.items()]
    plan.changes = [*plan.changes, *deletes, *updates, *fresh]
    plan.changes.sort(key=lambda c: "-~+".index(c.op))
    plan.errors.sort(key=lambda e: e.number)
    return plan


def plan_zone(domain: str, records: Iterable[Mapping[str, Any]], text: str) -> ZonePlan:
    """The plan that turns ``records`` of ``domain`` into what ``text`` says.

    Args:
        domain: The zone's name (``example.com``).
        records: Its records as the API lists them.
        text: The edited zone text.

    Returns:
        Changes (deletes, then updates, then creates) and the lines that could not be mapped.
    """
    parsed = parse_zone_text(text, domain)
    return plan_from_lines(list(records), parsed.lines, parsed.errors)


ZONE_COMMENT = ";"


def text_with_errors(text: str, plan: ZonePlan) -> str:
    """``text`` (the zone text ``plan`` was made from) with each line that cannot be mapped
    marked by a ``; !`` note above it, to reopen the editor on: the same mechanism as any
    object edited as text (:mod:`tui.textedit.notes`). Notes of an earlier round go."""
    problems = [Problem(error.reason, error.number) for error in plan.errors]
    then = "and save again; nothing is applied for them until then."
    return with_problems(text, problems, ZONE_COMMENT, then)
