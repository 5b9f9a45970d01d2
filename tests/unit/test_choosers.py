"""Chooser tables: columns from facts, grouping, order, marks, filtering, region capabilities."""

from __future__ import annotations

from tui.resources.choosers import (
    IMAGE_FACTS,
    REGION_FACTS,
    TYPE_FACTS,
    capability_for,
    chooser_rows,
    filter_rows,
    offers,
    shown_cells,
)
from tui.resources.forms import CHOICE_SOURCES
from tui.simulator.seeds.compute import REGION_CATALOG, TYPE_CATALOG

TYPE_SOURCE = CHOICE_SOURCES["type"]


def test_type_rows_grouped_by_class_cheapest_first_with_prices() -> None:
    table = chooser_rows(TYPE_FACTS, TYPE_CATALOG, TYPE_SOURCE.option)
    # "Net out" is left out: no type in the listing has it.
    assert table.titles == (
        "",
        "Type",
        "vCPU",
        "RAM",
        "Disk",
        "Transfer",
        "$/month",
        "$/hour",
    )
    groups = [row.group for row in table.rows]
    assert groups[0] == "nanode" and groups[-1] == "highmem"
    assert groups == sorted(groups, key=groups.index)  # each class in one block
    std2 = next(row for row in table.rows if row.value == "std-2")
    assert std2.cells[1:] == ("std-2", "2", "4 GB", "80 GB", "3.9 TB", "$24.00", "$0.0329")
    assert std2.text == "std-2 — Standard 4 GB"


def test_a_group_name_is_drawn_once_per_block_even_after_filtering() -> None:
    table = chooser_rows(TYPE_FACTS, TYPE_CATALOG, TYPE_SOURCE.option)
    shown = filter_rows(table.rows, "ded")
    assert [r.value for r in shown] == ["ded-2", "ded-4", "ded-8"]
    cells = shown_cells(shown, grouped=True)
    assert [c[0] for c in cells] == ["dedicated", "", ""]


def test_filter_needs_every_word_anywhere_in_the_row() -> None:
    table = chooser_rows(TYPE_FACTS, TYPE_CATALOG, TYPE_SOURCE.option)
    assert [r.value for r in filter_rows(table.rows, "Standard 320")] == ["std-6"]
    assert [r.value for r in filter_rows(table.rows, "$48")] == ["std-4"]
    assert filter_rows(table.rows, "nothing-like-this") == []
    assert len(filter_rows(table.rows, "  ")) == len(TYPE_CATALOG)


def test_images_private_first_and_deprecated_or_eol_marked() -> None:
    images = [
        {"id": "compute/debian11", "label": "Debian 11", "vendor": "Debian", "size": 1200,
         "deprecated": True, "eol": "2026-08-31T00:00:00"},
        {"id": "compute/alpine", "label": "Alpine", "vendor": "Alpine", "size": 300,
         "eol": "2001-01-01T00:00:00"},
        {"id": "private/9", "label": "[/bold]golden", "vendor": None, "size": 5000},
    ]  # fmt: skip
    table = chooser_rows(IMAGE_FACTS, images, lambda i: (str(i["label"]), i["id"]))
    assert [r.value for r in table.rows] == ["private/9", "compute/alpine", "compute/debian11"]
    assert table.titles[-1] == "Notes"
    notes = {r.value: r.cells[-1] for r in table.rows}
    assert notes["compute/alpine"] == "EOL 2001-01"
    assert notes["compute/debian11"].startswith("deprecated")
    assert notes["private/9"] == ""
    assert table.rows[0].cells[1] == "[/bold]golden"  # kept literal


def test_regions_offer_only_what_is_being_created() -> None:
    assert capability_for("volumes.create") == "Block Storage"
    assert capability_for("object_storage.buckets.create") == "Object Storage"
    assert capability_for("domains.create") is None
    tokyo = next(r for r in REGION_CATALOG if r["id"] == "ap-northeast")
    assert not offers(REGION_FACTS, tokyo, "Object Storage")
    assert offers(REGION_FACTS, tokyo, "Kubernetes")
    assert offers(None, tokyo, "Object Storage")  # no facts: no filter
    table = chooser_rows(REGION_FACTS, REGION_CATALOG, CHOICE_SOURCES["region"].option)
    tokyo_row = next(r for r in table.rows if r.value == "ap-northeast")
    assert "Obj" not in tokyo_row.cells[-1] and "VLAN" in tokyo_row.cells[-1]


def test_no_facts_is_one_column_of_option_texts() -> None:
    table = chooser_rows(None, [{"id": 1}], lambda i: (f"#{i['id']}", i["id"]))
    assert table.titles == ("Choice",) and table.rows[0].cells == ("#1",)


def test_long_cells_are_cut_but_still_found() -> None:
    from tui.resources.choosers import SCRIPT_FACTS

    script = {"id": 7, "label": "lamp", "images": [f"compute/image-{n}" for n in range(6)]}
    table = chooser_rows(SCRIPT_FACTS, [script], lambda i: (i["label"], i["id"]))
    images = table.rows[0].cells[2]
    assert len(images) == 30 and images.endswith("…")
    assert filter_rows(table.rows, "image-5")
