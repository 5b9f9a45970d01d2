"""Headless planning of transfers: safe local names, conflict choices once or for all, upload
walks, path completion, and the progress figures as text."""

from __future__ import annotations

from pathlib import Path

from tui.resources.format import human_size
from tui.transfers.listing import Entry, breadcrumb, guess_type, parent_of
from tui.transfers.local_paths import complete
from tui.transfers.plan import (
    Choice,
    ConflictPolicy,
    download_items,
    free_name,
    safe_relative,
    upload_items,
)
from tui.transfers.progress import Batch, State, human_duration


def obj(key: str, size: int = 1) -> Entry:
    return Entry(key=key, name=key, folder=False, size=size)


def test_object_names_never_leave_the_chosen_directory(tmp_path: Path) -> None:
    assert str(safe_relative("a/../b")) == "a/b"
    assert str(safe_relative("/etc/passwd")) == "etc/passwd"
    assert safe_relative("../..") is None
    items = download_items([obj("p/../../x.txt"), obj("p/.."), obj("p/y/z")], "p/", tmp_path)
    assert items[0].target == tmp_path / "x.txt"
    assert items[1].skip_reason
    assert items[2].target == tmp_path / "y" / "z"


async def test_conflicts_once_and_for_all(tmp_path: Path) -> None:
    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_text("old")
    asked: list[Path] = []
    answers = [(Choice.RENAME, False), (Choice.SKIP, True)]

    async def ask(path: Path) -> tuple[Choice, bool] | None:
        asked.append(path)
        return answers.pop(0)

    items = download_items([obj("a.txt"), obj("b.txt"), obj("c.txt"), obj("d.txt")], "", tmp_path)
    assert await ConflictPolicy(ask).resolve(items)
    assert [p.name for p in asked] == ["a.txt", "b.txt"]  # "for all" answered c.txt
    assert items[0].target.name == "a (1).txt" and not items[0].skip_reason
    assert items[1].skip_reason and items[2].skip_reason
    assert items[3].target.name == "d.txt"

    async def cancel(path: Path) -> None:
        return None

    again = download_items([obj("a.txt")], "", tmp_path)
    assert not await ConflictPolicy(cancel).resolve(again)


def test_free_name_skips_taken_names(tmp_path: Path) -> None:
    (tmp_path / "r.pdf").write_text("")
    (tmp_path / "r (1).pdf").write_text("")
    assert free_name(tmp_path / "r.pdf").name == "r (2).pdf"
    assert free_name(tmp_path / "r.pdf", {tmp_path / "r (2).pdf"}).name == "r (3).pdf"


def test_upload_walk_keys_and_types(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "css").mkdir(parents=True)
    (root / "index.html").write_text("x")
    (root / "css" / "a.css").write_text("y")
    items, problems = upload_items(root, "web/")
    assert [(i.key, i.content_type, i.size) for i in items] == [
        ("web/site/css/a.css", "text/css", 1),
        ("web/site/index.html", "text/html", 1),
    ]
    assert problems == []
    assert upload_items(tmp_path / "missing", "")[1][0][1] == "no such file or directory"


def test_folder_helpers() -> None:
    assert parent_of("a/b/") == "a/" and parent_of("a/") == "" and parent_of("") == ""
    assert breadcrumb("bk", "a/b/") == "bk / a / b /"
    assert guess_type("x.log") == "text/plain" and guess_type("x") == "application/octet-stream"


def test_path_completion(tmp_path: Path) -> None:
    (tmp_path / "photos").mkdir()
    (tmp_path / "photo.jpg").write_text("")
    (tmp_path / ".hidden").write_text("")
    found = complete("pho", tmp_path)
    assert found.text == "photo" and found.candidates == ("photo.jpg", "photos/")
    assert complete("photos", tmp_path).text == "photos/"
    assert complete("zzz", tmp_path).candidates == ()
    assert complete(".h", tmp_path).text == ".hidden"


def test_progress_text_reads_without_colour() -> None:
    now = [100.0]
    batch = Batch(clock=lambda: now[0])
    first = batch.add("a.bin", 4 * 1024 * 1024)
    batch.add("b.bin", 4 * 1024 * 1024)
    batch.begin()
    first.state = State.RUNNING
    first.add(0)
    now[0] = 101.0
    first.add(2 * 1024 * 1024)
    assert first.text() == "2 MB / 4 MB   50%  2 MB/s  ETA 0:01"
    assert batch.total_text() == "0/2 files  2 MB / 8 MB   25%  2 MB/s  ETA 0:03"
    first.finish(State.FAILED, "HTTP 500")
    assert first.text() == "failed (4 MB): HTTP 500"
    assert batch.summary() == "1 failed"
    assert human_size(1536) == "1.5 KB" and human_duration(3725) == "1:02:05"
    assert human_duration(None) == "--:--"


def test_a_batch_that_moves_no_bytes_counts_files_only() -> None:
    batch = Batch(clock=lambda: 100.0)
    first = batch.add("old/a.txt", None)  # deletions: no size, no bytes
    batch.add("old/b.txt", None)
    batch.begin()
    first.state = State.RUNNING
    assert first.text() == "running"
    assert batch.total_text() == "0/2 files"
    first.finish(State.DONE)
    assert batch.total_text() == "1/2 files" and "0 B" not in first.text()
