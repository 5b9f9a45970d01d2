"""Choices marked when they do not suit another input (a type too small for the chosen backup,
a script without the chosen image), and the backup chooser's facts."""

from __future__ import annotations

from typing import Any

from tui.resources.choice_fits import (
    IMAGE_FITS,
    SCRIPT_FITS,
    TYPE_FITS,
    fit_note,
    room_for_backup,
)
from tui.resources.choosers import BACKUP_FACTS, backup_size, chooser_rows
from tui.resources.forms import CHOICE_SOURCES

BACKUP = {
    "id": 7,
    "label": None,
    "type": "automatic",
    "status": "successful",
    "available": True,
    "finished": "2026-11-20T04:30:00",
    "disks": [{"size": 20000}, {"size": 512}],
    "instance": "db-primary",
}


def lookup_of(values: dict[str, tuple[Any, Any]]) -> Any:
    return lambda name: values.get(name, (None, None))


def test_a_type_smaller_than_the_backup_is_marked_and_a_larger_one_is_not() -> None:
    lookup = lookup_of({"backup_id": (7, BACKUP)})
    assert backup_size(BACKUP) == 20512
    assert fit_note(TYPE_FITS, {"id": "nano-1", "disk": 10240}, lookup) == (
        "too small: backup needs 20 GB"
    )
    assert fit_note(TYPE_FITS, {"id": "std-2", "disk": 40960}, lookup) == ""
    # No backup chosen (or its item unknown): nothing to compare with.
    assert fit_note(TYPE_FITS, {"id": "nano-1", "disk": 10240}, lookup_of({})) == ""
    assert room_for_backup({"disk": 10}, 7, None) == ""


def test_a_type_smaller_than_the_image_is_marked() -> None:
    lookup = lookup_of({"image": ("private/9", {"id": "private/9", "size": 30000})})
    assert "too small: image needs" in fit_note(TYPE_FITS, {"disk": 25600}, lookup)


def test_scripts_and_images_are_marked_against_each_other() -> None:
    alpine_only = {"id": 1, "images": ["compute/alpine3"]}
    anywhere = {"id": 2, "images": ["any/all"]}
    on_debian = lookup_of({"image": ("compute/debian12", None)})
    assert fit_note(SCRIPT_FITS, alpine_only, on_debian) == (
        "not for compute/debian12: runs on compute/alpine3"
    )
    assert fit_note(SCRIPT_FITS, anywhere, on_debian) == ""
    with_script = lookup_of({"stackscript_id": (1, alpine_only)})
    assert fit_note(IMAGE_FITS, {"id": "compute/debian12"}, with_script)
    assert fit_note(IMAGE_FITS, {"id": "compute/alpine3"}, with_script) == ""


def test_the_sources_declare_their_fits() -> None:
    assert CHOICE_SOURCES["type"].fits == TYPE_FITS
    assert CHOICE_SOURCES["stackscript_id"].fits == SCRIPT_FITS
    backups = CHOICE_SOURCES["backup_id"]
    assert backups.across is not None and backups.adapter == "compute_backups"


def test_backup_rows_show_instance_label_kind_date_size_status_and_notes() -> None:
    running = {**BACKUP, "id": 8, "status": "running", "available": False, "finished": None}
    running.update(type="snapshot", label="before upgrade")
    running["created"] = "2026-11-25T10:00:00"
    source = CHOICE_SOURCES["backup_id"]
    table = chooser_rows(BACKUP_FACTS, [BACKUP, running], source.option)
    assert table.titles == (
        "Instance", "Label", "Kind", "Date (UTC)", "Size", "Status", "Id", "Notes"
    )  # fmt: skip
    first = table.rows[0]
    assert first.cells[0] == "db-primary" and first.cells[2] == "automatic"
    assert first.cells[3] == "2026-11-20 04:30" and first.cells[4] == "20 GB"
    assert first.text == "#7 automatic of db-primary"
    assert table.rows[1].cells[-1] == "not restorable yet"


def test_notes_from_the_form_are_added_to_the_facts_marks() -> None:
    source = CHOICE_SOURCES["type"]
    kinds = [{"id": "nano-1", "disk": 10240, "class": "nanode"}, {"id": "std-2", "disk": 81920}]
    lookup = lookup_of({"backup_id": (7, BACKUP)})
    table = chooser_rows(
        source.facts, kinds, source.option, lambda i: fit_note(source.fits, i, lookup)
    )
    notes = {row.value: row.cells[-1] for row in table.rows}
    assert table.titles[-1] == "Notes"
    assert notes == {"nano-1": "too small: backup needs 20 GB", "std-2": ""}


def test_a_script_images_field_is_picked_from_images_and_sent_as_a_list() -> None:
    from tui.resources.forms import build_body, display_value, form_for

    form = form_for("deployscripts:DeployScriptCreate")
    images = form.field("images")
    assert images is not None and images.kind == "picks"
    assert images.source is not None and images.source.extra[0][1] == "any/all"
    assert display_value(images, ["compute/debian12"]) == ["compute/debian12"]
    values = {"label": "hello", "script": "#!/bin/sh\n", "is_public": False}
    ticked = build_body(form, {**values, "images": ["any/all"]})
    assert ticked.body is not None and ticked.body["images"] == ["any/all"]
    # Typed when the list could not be loaded: comma-separated.
    typed = build_body(form, {**values, "images": "compute/debian12, private/3"})
    assert typed.body is not None and typed.body["images"] == ["compute/debian12", "private/3"]
    none = build_body(form, {**values, "images": []})
    assert "images" in none.errors


# -- refused rows: marked where every width shows them --------------------------------------


def test_a_script_without_the_image_names_the_images_it_runs_on() -> None:
    on_debian = lookup_of({"image": ("compute/debian12", None)})
    many = {"id": 3, "images": [f"compute/alpine3.{n}" for n in range(5)]}
    assert fit_note(SCRIPT_FITS, many, on_debian) == (
        "not for compute/debian12: runs on compute/alpine3.0, compute/alpine3.1, "
        "compute/alpine3.2 and 2 more"
    )
    # An image id is text from the API: it reaches the reason through the text boundary.
    hostile = {"id": 4, "images": ["compute/\x1b[2Jevil"]}
    assert "\x1b" not in fit_note(SCRIPT_FITS, hostile, on_debian)


def test_a_refused_row_is_marked_in_its_first_fact_and_carries_why() -> None:
    from tui.resources.choosers import REFUSED_MARK, SCRIPT_FACTS

    scripts = [
        {"id": 1, "label": "alpine only", "images": ["compute/alpine3"], "is_public": True},
        {"id": 2, "label": "anywhere", "images": ["any/all"], "is_public": True},
    ]
    on_debian = lookup_of({"image": ("compute/debian12", None)})
    source = CHOICE_SOURCES["stackscript_id"]
    table = chooser_rows(
        SCRIPT_FACTS, scripts, source.option, lambda i: fit_note(source.fits, i, on_debian)
    )
    rows = {row.value: row for row in table.rows}
    # Column 0 is the group ("public"); column 1 the script: the first a narrow chooser shows.
    assert table.titles[:2] == ("", "Script")
    assert rows[1].cells[1] == f"{REFUSED_MARK} alpine only"
    assert rows[2].cells[1] == "  anywhere"  # kept aligned with the marked one
    assert rows[1].refused.startswith("not for compute/debian12: runs on compute/alpine3")
    assert rows[2].refused == ""
    assert rows[1].cells[-1] == rows[1].refused  # the notes column says it too
    # Searching still matches the script's name, not the mark.
    assert rows[1].search.startswith("alpine only")


def test_without_refusals_no_row_is_marked() -> None:
    source = CHOICE_SOURCES["stackscript_id"]
    table = chooser_rows(
        source.facts, [{"id": 1, "label": "a", "images": ["any/all"]}], source.option
    )
    assert table.rows[0].cells[1] == "a" and not table.rows[0].refused


# -- resize ----------------------------------------------------------------------------------

TYPES = [
    {"id": "nano-1", "class": "nanode", "disk": 25600, "label": "Nano 1 GB"},
    {"id": "std-1", "class": "standard", "disk": 51200, "label": "Standard 2 GB"},
    {"id": "std-2", "class": "standard", "disk": 81920, "label": "Standard 4 GB"},
    {"id": "std-4", "class": "standard", "disk": 163840, "label": "Standard 8 GB"},
]
DISKS = [{"id": 1, "size": 81408}, {"id": 2, "size": 512}]  # 80 GB in all


def test_resize_refuses_types_too_small_for_the_disks() -> None:
    from tui.resources.choosers import REFUSED_MARK
    from tui.resources.compute_choices import disks_used, resize_refusal, resize_table

    assert disks_used(DISKS) == 81920
    table = resize_table(TYPES, DISKS, "std-2")
    rows = {row.value: row for row in table.rows}
    for small in ("nano-1", "std-1"):
        assert rows[small].refused == "too small: the disks use 80 GB (shrink or delete one first)"
        assert rows[small].cells[1].startswith(REFUSED_MARK)
        assert resize_refusal(rows[small], "std-2") == f"{small}: {rows[small].refused}"
    assert not rows["std-4"].refused and resize_refusal(rows["std-4"], "std-2") == ""
    # A type exactly as large as the disks holds them; the current one is marked "*".
    assert not rows["std-2"].refused and rows["std-2"].cells[1].endswith(" *")
    assert "already is a std-2" in resize_refusal(rows["std-2"], "std-2")
    assert resize_refusal(None, "std-2") == "Choose a type first."


def test_resize_without_disks_refuses_nothing() -> None:
    from tui.resources.compute_choices import resize_table

    assert not any(row.refused for row in resize_table(TYPES, [], "std-2").rows)


def test_the_resize_type_is_chosen_in_a_source_with_the_disk_rule() -> None:
    from tui.resources.choice_fits import RESIZE_FITS
    from tui.resources.forms import form_for

    kind = form_for("compute:ResizeRequest").field("type")
    assert kind is not None and kind.source is CHOICE_SOURCES["resize_type"]
    assert kind.source.fits == RESIZE_FITS
