"""The simulator's body reading (``Check.unknown``): declared fields, null as "not given",
echoed read-only fields, and what is still refused."""

from __future__ import annotations

from typing import Any

from tui.simulator.validate import Check, same_json

CURRENT = {
    "id": 7,
    "label": "web",
    "status": "running",
    "updated": "2026-11-02T09:00:00",
    "backups": {"enabled": True, "schedule": {"day": "Monday", "window": "W2"}},
    "comments": "old",
}
ALLOWED = ("label", "comments", "backups.schedule")


def settled(body: dict[str, Any], current: dict[str, Any] | None = CURRENT) -> Check:
    v = Check(body, current=current)
    v.unknown(ALLOWED, nullable=("comments",))
    return v


def fields(v: Check) -> list[str]:
    return [e.get("field", "") for e in v.errors]


def test_echoed_read_only_fields_are_dropped() -> None:
    body = {**CURRENT, "label": "web-2"}
    v = settled(body)
    assert v.errors == []
    assert v.body == {
        "label": "web-2",
        "comments": "old",
        "backups": {"schedule": {"day": "Monday", "window": "W2"}},
    }
    assert body["id"] == 7  # the caller's body is left as it was


def test_a_changed_read_only_field_is_refused_by_its_path() -> None:
    v = settled({"id": 8, "backups": {"enabled": False}})
    assert fields(v) == ["id", "backups.enabled"]
    assert "cannot be changed" in v.errors[0]["reason"]


def test_unknown_names_are_refused_with_or_without_a_current_resource() -> None:
    assert fields(settled({"nope": 1})) == ["nope"]
    assert fields(settled({"nope": None})) == ["nope"]
    assert fields(settled({"id": 7}, current=None)) == ["id"]


def test_null_is_not_given_unless_the_field_is_nullable() -> None:
    v = settled({"label": None, "comments": None, "backups": {"schedule": None}, "id": None})
    assert v.errors == []
    assert v.body == {"comments": None, "backups": {}}


def test_what_moves_by_itself_is_ignored_whatever_its_value() -> None:
    v = settled({"status": "booting", "updated": "2000-01-01T00:00:00"})
    assert v.errors == [] and v.body == {}


def test_same_json_tells_booleans_from_numbers() -> None:
    assert same_json({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not same_json(True, 1)
    assert not same_json({"a": 1}, {"a": 1, "b": 2})
    assert not same_json("1", 1)
