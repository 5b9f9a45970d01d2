"""Statistics series, transfer usage, months, the rescue device map and preferences text."""

from __future__ import annotations

import pytest

from tui.resources.areas import SPECS
from tui.resources.compute_choices import (
    default_rescue_map,
    device_choices,
    rescue_body,
    type_line,
)
from tui.resources.format import format_value, series_points
from tui.resources.preferences import dump_preferences, parse_preferences
from tui.resources.stats import Month, charts_of, clamp_month, human_rate, transfer_usage


def test_points_are_seconds_sorted_and_malformed_ones_dropped() -> None:
    raw = [[2000, 5], [1000, 1.5], ["x", 1], [3000], None, [4000, True]]
    assert series_points(raw) == ((1.0, 1.5), (2.0, 5.0))
    assert series_points("nope") == ()


def test_points_may_be_x_y_objects() -> None:
    raw = [{"x": 2000, "y": 5}, {"x": 1000, "y": 1.5}, {"x": 3000}, {"y": 2}]
    assert series_points(raw) == ((1.0, 1.5), (2.0, 5.0))
    assert format_value(raw, "series") == "2 points, latest 5"


def test_managed_stats_are_charts_with_units() -> None:
    stats = {
        "data": {
            "cpu": [{"x": 0, "y": 3.97}, {"x": 300000, "y": 4.5}],
            "disk": [{"x": 0, "y": 120.0}],
            "net_in": [{"x": 0, "y": 2.5e5}],
        }
    }
    spec = SPECS["managed.stats"]
    charts = {c.title: c for c in charts_of(stats, spec.charts)}
    assert set(charts) == {"CPU", "Disk I/O", "Network"}
    assert charts["CPU"].unit == "%"
    assert human_rate(charts["CPU"].series[0].latest, charts["CPU"].unit) == "4.5 %"
    assert human_rate(charts["Network"].series[0].latest, "bits/s") == "250.0 kbit/s"
    assert spec.month_endpoint is None


def test_charts_summarise_every_series() -> None:
    stats = {
        "cpu": [[0, 10], [60000, 30]],
        "io": {"io": [[0, 4]], "swap": []},
        "netv4": {"in": [[0, 2e6]], "out": [[0, 1e3]]},
    }
    charts = {c.title: c for c in charts_of(stats, SPECS["compute.stats"].charts)}
    cpu = charts["CPU"].series[0]
    assert (cpu.average, cpu.peak, cpu.latest) == (20.0, 30.0, 30.0)
    assert charts["Network IPv6"].empty
    assert not charts["Disk I/O"].empty
    assert human_rate(2e6, "bits/s") == "2.0 Mbit/s"
    assert human_rate(12.34, "%") == "12.3 %"
    assert human_rate(None, "%") == "—"


def test_months_shift_across_years_and_stay_in_bounds() -> None:
    assert Month(2026, 1).shift(-1) == Month(2025, 12)
    assert Month(2025, 12).shift(1) == Month(2026, 1)
    assert Month(2026, 3).label() == "March 2026"
    assert clamp_month(Month(2030, 1), Month(2000, 1), Month(2026, 11)) == Month(2026, 11)
    assert clamp_month(Month(1999, 5), Month(2000, 1), Month(2026, 11)) == Month(2000, 1)


def test_transfer_usage_against_quota() -> None:
    fraction, text = transfer_usage({"used": 512 * 1024**3, "quota": 1024, "billable": 0})
    assert fraction == pytest.approx(0.5)
    assert text == "512 GB of 1 TB used this month (50.0%)."
    _, text = transfer_usage({"used": 2048 * 1024**3, "quota": 1024, "billable": 1024})
    assert "1 TB billable" in text
    assert transfer_usage({}) == (None, "No transfer figures.")


def test_type_line_shows_specs_and_price() -> None:
    line = type_line(
        {
            "id": "std-2",
            "label": "Standard 4 GB",
            "vcpus": 2,
            "memory": 4096,
            "disk": 81920,
            "transfer": 4000,
            "price": {"monthly": 24.0},
        }
    )
    assert line.startswith("std-2")
    assert "2 vCPU" in line and "4 GB RAM" in line and "80 GB disk" in line
    assert "$24.00/month" in line and "Standard 4 GB" in line


def test_rescue_map_defaults_and_body() -> None:
    choices = device_choices(
        [{"id": 1, "label": "root"}, {"id": 2, "label": "swap"}], [{"id": 9, "label": "data"}]
    )
    assert [c.value for c in choices] == ["disk:1", "disk:2", "volume:9"]
    assert default_rescue_map(choices) == {"sda": "disk:1", "sdb": "disk:2"}
    body, problem = rescue_body({"sda": "disk:1", "sdb": None, "sdc": "volume:9"})
    assert problem == ""
    assert body == {"devices": {"sda": {"disk_id": 1}, "sdc": {"volume_id": 9}}}
    assert rescue_body({"sda": "disk:1", "sdb": "disk:1"})[1] == "sdb and sda name the same disk"
    assert rescue_body({"sdh": "disk:1"})[1] == "sdh is reserved for the rescue system"
    assert rescue_body({"sda": None})[1] == "Map at least one disk to a device."


def test_preferences_text_round_trip_and_errors() -> None:
    text = dump_preferences({"b": 1, "a": [True]})
    assert parse_preferences(text) == ({"a": [True], "b": 1}, "")
    assert dump_preferences(None) == "{}\n"
    value, problem = parse_preferences('{"a": }')
    assert value is None and problem.startswith("Not valid JSON") and "line 1" in problem
    assert parse_preferences("[1]")[1] == "The preferences must be a JSON object, not list."
    assert parse_preferences("  ")[0] is None


def test_compact_type_line_fits_a_narrow_dialog() -> None:
    kind = {
        "id": "hi-mem-24",
        "label": "High memory 24 GB",
        "vcpus": 12,
        "memory": 24576,
        "disk": 1228800,
        "transfer": 12000,
        "price": {"monthly": 1_200.0},
    }
    line = type_line(kind, compact=True)
    assert len(line) + len("  (current)") <= 70
    assert "12 vCPU" in line and "24 GB RAM" in line and "$1,200.00/mo" in line
    assert "High memory" not in line and "transfer" not in line
    assert "transfer" in type_line(kind)
