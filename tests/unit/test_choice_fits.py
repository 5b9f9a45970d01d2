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
    assert fit_note(SCRIPT_FITS, alpine_only, on_debian) == "not for compute/debian12"
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
