"""Headless parts of the operator's home: activity log rotation, bookmarks, attention rules."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from tui.api.changes import ChangeEvent, change_event, change_target
from tui.api.errors import FieldError, NotFound
from tui.home.activity import ActivityLog, matches
from tui.home.overview import OverviewData, attention, counts
from tui.home.watchlist import Watchlist, differences, scrub
from tui.resources.areas import SPECS


def test_the_activity_log_rotates_and_reads_newest_first(tmp_path: Path) -> None:
    times = iter(range(1000, 2000))
    log = ActivityLog("p", folder=tmp_path, clock=lambda: float(next(times)), max_bytes=600)
    for n in range(20):
        log.record(ChangeEvent("DELETE", f"/volumes/{n}", n % 2 == 0, None if n % 2 == 0 else 404))
    files = log.files()
    assert [p.name for p in files] == [
        "activity.jsonl",
        *(f"activity.jsonl.{n}" for n in (1, 2, 3)),
    ]
    assert all(p.stat().st_size <= 600 for p in files)
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    entries = log.read()
    assert entries[0].path == "/volumes/19" and entries[0].outcome == "failed (404)"
    assert [e.time for e in entries] == sorted((e.time for e in entries), reverse=True)
    assert len(entries) < 20  # the oldest rotated file was dropped
    assert matches(entries[0], "delete 404") and not matches(entries[0], "post")
    # A new run sees the last changes of the previous one.
    assert ActivityLog("p", folder=tmp_path).previous[0].path == "/volumes/19"


def test_an_entry_reads_in_local_time_with_utc_beside_it(monkeypatch: Any) -> None:
    import time

    from tui.home.activity import ActivityEntry

    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    try:
        entry = ActivityEntry(
            1_795_654_377.0, "1795654000.5", "DELETE", "/volumes/9", "scratch", ok=False,
            status=404, reason="Not found",
        )  # fmt: skip
        lines = dict(entry.details())
        assert lines["When"] == "2026-11-26 01:52:57 CET (2026-11-26 00:52:57 UTC)"
        assert lines["Target"] == "scratch"
        assert lines["Outcome"] == "refused: failed (404)"
        assert lines["Request"] == "DELETE /volumes/9"
        assert lines["Reason"] == "Not found"
        assert lines["Session"] == "started 2026-11-26 01:46:40 CET"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_damaged_line_is_skipped(tmp_path: Path) -> None:
    log = ActivityLog("p", folder=tmp_path)
    log.record(ChangeEvent("POST", "/tags", True, target="a"))
    with log.path.open("a") as handle:
        handle.write("{not json\n")
    log.record(ChangeEvent("POST", "/tags", True, target="b"))
    assert [e.target for e in log.read()] == ["b", "a"]


def test_change_events_carry_label_and_id_never_the_body() -> None:
    with change_target("web-1"):
        event = change_event("PUT", "/compute/instances/5", {"id": 5, "root_pass": "x"}, None)
    assert (event.target, event.target_id, event.ok) == ("web-1", "5", True)
    assert "root_pass" not in json.dumps(event.__dict__)
    created = change_event("POST", "/volumes", {"id": 9, "label": "data"}, None)
    assert (created.target, created.target_id) == ("data", "9")
    error = NotFound(404, "DELETE", "/volumes/9", [FieldError("Not found")])
    failed = change_event("DELETE", "/volumes/9", None, error)
    assert (failed.ok, failed.status, failed.reason) == (False, 404, "Not found")


def test_bookmarks_never_store_secrets_and_report_differences(tmp_path: Path) -> None:
    spec = SPECS["compute.instances"]
    item = {"id": 1, "label": "a", "status": "running", "root_pass": "s3", "specs": {"disk": 1}}
    marks = Watchlist("p", folder=tmp_path)
    assert marks.toggle(spec, item, {}, 10.0)
    assert "s3" not in marks.path.read_text()
    assert stat.S_IMODE(marks.path.stat().st_mode) == 0o600
    again = Watchlist("p", folder=tmp_path)
    mark = again.bookmarks[("compute.instances", "1")]
    live = {**item, "status": "offline", "specs": {"disk": 2}, "updated": "now"}
    assert differences(mark.item, live) == [
        ("specs.disk", 1, 2),
        ("status", "running", "offline"),
    ]
    again.seen(mark.ident, live, 20.0)
    assert differences(again.bookmarks[mark.ident].item, live) == []
    assert not again.toggle(spec, item, {}, 30.0)  # b again removes it
    assert len(Watchlist("p", folder=tmp_path)) == 0
    assert scrub({"a": [{"password": "x", "b": 1}]}) == {"a": [{"b": 1}]}


def test_a_broken_watchlist_file_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "watchlist.json").write_text("{broken")
    marks = Watchlist("p", folder=tmp_path)
    assert marks.problem
    marks.toggle(SPECS["volumes"], {"id": 1, "label": "v"}, {}, 1.0)
    assert (tmp_path / "watchlist.json").read_text() == "{broken"


def test_attention_rules() -> None:
    now = 1_800_000_000.0
    data = OverviewData(
        parts={
            "instances": [
                {"id": 1, "status": "running", "backups": {"enabled": True}},
                {"id": 2, "status": "booting", "updated": "2000-01-01T00:00:00"},
                {"id": 3, "status": "booting", "updated": "2027-01-15T07:59:00"},
            ],
            "images": [
                {"id": "private/1", "expiry": "2027-01-16T00:00:00"},
                {"id": "private/2", "expiry": "2027-06-01T00:00:00"},
            ],
            "clusters": [{"id": 7, "status": "ready"}, {"id": 8, "status": "ready"}],
            "domains": [{"id": 4, "status": "has_errors"}, {"id": 5, "status": "active"}],
            "databases": [{"id": 6, "status": "degraded"}],
        },
        pools={"7": [{"nodes": [{"status": "ready"}, {"status": "not_ready"}]}], "8": []},
    )
    found = {a.title: (a.area_id, a.query, sorted(a.keys)) for a in attention(data, now)}
    assert found["instances booting for over 30 min"] == ("instances", "status:booting", ["2"])
    assert found["instances without backups"][2] == ["2", "3"]
    assert found["images expiring within 7 days"] == ("images", "expiry:<7d", ["private/1"])
    assert found["clusters with nodes not ready"][2] == ["7"]
    assert found["domains with errors"][2] == ["4"]
    assert found["databases degraded"][2] == ["6"]
    assert "instances offline" not in found  # empty groups are left out
    lines = {line.area: line for line in counts(data)}
    assert lines["Instances"].total == 3 and "2 booting" in lines["Instances"].detail
    assert lines["Volumes"].total is None  # not arrived yet


def test_a_value_the_api_leaves_out_reads_as_a_dash_never_none() -> None:
    from tui.resources.forms import CHOICE_SOURCES

    # As the API's own examples serve a cluster: no status; one pool with one node.
    data = OverviewData(
        parts={"clusters": [{"id": 7, "label": "example"}]},
        pools={"7": [{"id": 1, "nodes": [{"id": "n1"}]}]},
    )
    line = next(line for line in counts(data) if line.area == "Kubernetes clusters")
    assert line.detail == "1 —; 1 nodes"
    text, _value = CHOICE_SOURCES["compute_id"].option({"id": 5, "label": "web", "region": None})
    assert text == "web (#5, —)" and "None" not in text


def test_an_attention_query_becomes_the_list_filter_where_the_list_has_the_language() -> None:
    from types import SimpleNamespace

    from screens.attention import apply_list_query

    shown: list[str] = []
    focused: list[bool] = []
    table = SimpleNamespace(focus=lambda: focused.append(True))
    pane = SimpleNamespace(show_filter=shown.append, table=table, focus_query="")
    apply_list_query(pane, "status:offline", frozenset({"1"}), filterable=True)
    assert shown == ["status:offline"] and focused == [True]
    assert pane.focus_query == ""  # the filter line says it; no second mechanism


def test_read_only_comes_from_the_flag_for_the_run_and_from_the_profile_for_its_account(
    monkeypatch: Any,
) -> None:
    import asyncio

    import tui.app
    from tui.__main__ import main
    from tui.session.config import Profile, Settings, save_settings

    seen: list[tuple[bool, bool]] = []

    def run_app(settings: Settings, session: Any, **kwargs: Any) -> int:
        # The command line hands over its flag alone; the app applies the profile's.
        app = tui.app.CloudApp(settings, session, **kwargs)
        seen.append((kwargs["read_only"], app.read_only))
        asyncio.run(session.aclose())
        return 0

    monkeypatch.setattr(tui.app, "run_app", run_app)
    monkeypatch.setattr("tui.session.terminal.output_problem", lambda *_streams: None)
    assert main(["--demo", "--read-only"]) == 0
    assert main(["--demo"]) == 0
    save_settings(
        Settings(
            profiles={
                "prod": Profile(base_url="https://api.example.com/v4", read_only=True),
                "lab": Profile(base_url="https://api.example.com/v4"),
            }
        )
    )
    monkeypatch.setenv("CLOUDTUI_TOKEN", "t")
    assert main(["--profile", "prod"]) == 0
    assert main(["--profile", "lab"]) == 0
    assert main(["--profile", "lab", "--read-only"]) == 0
    assert seen == [(True, True), (False, False), (False, True), (False, False), (True, True)]


def test_the_cost_says_which_areas_could_not_be_listed() -> None:
    from tui.home.cost import cost_lines

    types = [{"id": "t1", "price": {"monthly": 10.0, "hourly": 0.0137}}]
    data = OverviewData(
        parts={"types": types, "instances": [{"id": 1, "type": "t1", "tags": ["a"]}]},
        errors={"databases": "Not allowed", "clusters": "Not allowed"},
    )
    text = cost_lines(data)
    assert text.startswith("≈ $10.00/month")
    assert "Not counted (could not be listed): Databases, Kubernetes pools" in text


async def test_object_transfers_are_logged_and_refused_when_read_only(tmp_path: Path) -> None:
    import httpx

    from tui.api.changes import ReadOnlySession
    from tui.api.client import ApiClient

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(403 if "denied" in request.url.path else 200, content=b"")

    client = ApiClient(
        "http://127.0.0.1:9/v4", "tok", transport=httpx.MockTransport(answer), allow_insecure=True
    )
    log = ActivityLog("p", folder=tmp_path)
    client.change_observers.append(log.record)
    async with client.stream_url("GET", "http://127.0.0.1:9/b/k?X-Sig=1"):
        pass  # a download changes nothing: not logged
    async with client.stream_url("PUT", "http://127.0.0.1:9/b/k?X-Sig=1", content=b"x"):
        pass
    async with client.stream_url("DELETE", "http://127.0.0.1:9/b/denied?X-Sig=1"):
        pass
    entries = log.read()
    assert [(e.method, e.ok, e.status) for e in entries] == [
        ("DELETE", False, 403),
        ("PUT", True, None),
    ]
    assert all("X-Sig" not in e.path for e in entries)  # the signature never reaches the file
    client.read_only = True
    try:
        async with client.stream_url("PUT", "http://127.0.0.1:9/b/k?X-Sig=1", content=b"x"):
            raise AssertionError("sent in a read-only session")  # pragma: no cover
    except ReadOnlySession:
        pass
    await client.aclose()
