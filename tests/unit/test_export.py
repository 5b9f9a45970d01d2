"""``:export``: parsing the command, CSV of the columns, JSON without secrets (headless)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tui.export import ExportRequest, parse_export, render_csv, render_json, write_export
from tui.resources.areas import SPECS

INSTANCES = SPECS["compute.instances"]
ITEM = {
    "id": 7,
    "label": "web-1",
    "status": "running",
    "region": "us-east",
    "root_pass": "hunter2-secret",
    "tags": ["a"],
    "nested": {"password": "p4ss"},
}


def test_parse_words_in_any_order() -> None:
    assert parse_export("export") == ExportRequest()
    assert parse_export("export json marked ~/out.json") == ExportRequest(
        "json", "marked", "~/out.json"
    )
    assert parse_export('export "My File.CSV" csv') == ExportRequest(
        "csv", "visible", "My File.CSV"
    )
    with pytest.raises(ValueError, match="more than one path"):
        parse_export("export a b")


def test_csv_holds_what_the_columns_show() -> None:
    rows = list(csv.reader(io.StringIO(render_csv(INSTANCES, [ITEM]))))
    assert rows[0] == [c.title for c in INSTANCES.columns]
    assert rows[1][[c.key for c in INSTANCES.columns].index("label")] == "web-1"
    assert "hunter2" not in render_csv(INSTANCES, [ITEM])


def test_json_masks_secrets_at_any_depth() -> None:
    text = render_json(INSTANCES, [ITEM])
    assert "hunter2" not in text and "p4ss" not in text
    assert json.loads(text)[0]["label"] == "web-1"


def test_write_never_overwrites(tmp_path: Path) -> None:
    path = write_export(ExportRequest("csv", "visible", "out.csv"), INSTANCES, [ITEM], cwd=tmp_path)
    assert path == tmp_path / "out.csv"
    with pytest.raises(FileExistsError):
        write_export(ExportRequest("csv", "visible", "out.csv"), INSTANCES, [ITEM], cwd=tmp_path)
    named = write_export(ExportRequest("json"), INSTANCES, [ITEM], cwd=tmp_path)
    assert named.name.startswith("cloudtui-compute-instances-") and named.suffix == ".json"


def test_csv_status_is_the_word_without_the_badge() -> None:
    rows = list(csv.reader(io.StringIO(render_csv(INSTANCES, [ITEM]))))
    assert rows[1][[c.key for c in INSTANCES.columns].index("status")] == "running"
