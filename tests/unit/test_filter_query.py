"""The ``/`` filter language: parsing and matching rows (headless)."""

from __future__ import annotations

from typing import Any

from tui.resources.areas import SPECS
from tui.resources.filter_query import Term, compile_query, parse, unknown_fields
from tui.resources.format import column_cells, search_text

INSTANCES = SPECS["compute.instances"]


def _row(item: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...], str]:
    cells = column_cells(INSTANCES, item)
    return item, cells, search_text(cells)


def _matches(text: str, item: dict[str, Any]) -> bool:
    return compile_query(parse(text), INSTANCES)(*_row(item))


WEB = {
    "id": 1,
    "label": "web-1",
    "status": "running",
    "region": "us-east",
    "type": "g6-standard-2",
    "tags": ["Production", "web"],
    "hypervisor": "kvm",
    "ipv4": ["203.0.113.5"],
}
DB = {**WEB, "id": 2, "label": "db-1", "status": "offline", "tags": ["staging"]}


def test_parse_kinds_of_terms() -> None:
    query = parse('#production status:running web !region:eu-west label:"web 1" 10:30')
    assert query.terms == (
        Term("tag", "production"),
        Term("field", "running", field="status"),
        Term("text", "web"),
        Term("field", "eu-west", field="region", negate=True),
        Term("field", "web 1", field="label"),
        Term("text", "10:30"),
    )
    assert parse("  ").empty
    assert parse("web db").text_only
    assert not parse("#x").text_only


def test_an_unclosed_quote_is_taken_literally() -> None:
    assert parse('label:"web').terms == (Term("field", '"web', field="label"),)


def test_tag_and_field_terms_are_anded() -> None:
    assert _matches("#production status:running", WEB)
    assert not _matches("#production status:running", DB)
    assert not _matches("#production status:offline", WEB)
    assert _matches("#staging status:offline", DB)


def test_tag_and_values_ignore_case_and_accept_wildcards() -> None:
    assert _matches("#PRODUCTION", WEB)
    assert _matches("#prod*", WEB)
    assert not _matches("#prod", WEB)
    assert _matches("type:g6-*", WEB)
    assert not _matches("type:g6-standard", WEB)


def test_any_top_level_field_and_dotted_paths_and_lists() -> None:
    assert _matches("hypervisor:kvm", WEB)
    assert _matches("ipv4:203.0.113.5", WEB)
    assert _matches("ipv4.0:203.0.113.*", WEB)
    assert _matches("id:1", WEB)
    assert not _matches("missing:x", WEB)


def test_column_titles_name_fields() -> None:
    # The "Region" column's key is region; a title works like the key.
    assert _matches("Region:us-east", WEB)


def test_free_text_matches_any_column_and_negation() -> None:
    assert _matches("web us-east", WEB)
    assert not _matches("web eu-west", WEB)
    assert _matches("!status:running", DB)
    assert not _matches("!#production", WEB)


def test_highlights_are_positive_plain_words() -> None:
    assert parse("web !db #x status:y w*b").highlights() == ("web",)


def test_unknown_fields_are_named() -> None:
    assert unknown_fields(parse("hypervisor:kvm colour:red status:x"), INSTANCES, [WEB]) == [
        "colour"
    ]
