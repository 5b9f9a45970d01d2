"""The ``:`` command history (per profile, across runs, never a secret, ↑/↓ with the draft
kept) and back/forward between visited screens."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tui.history.commands import CommandHistory, HistoryCursor, may_hold_secret
from tui.history.places import NavigationHistory, Place

# -- the store ------------------------------------------------------------------------------


def test_commands_are_kept_per_profile_across_runs_in_a_private_file() -> None:
    first = CommandHistory("work")
    assert first.record(":fanout instances")
    assert first.record("volumes")
    again = CommandHistory("work")  # a new run
    assert again.entries == ["fanout instances", "volumes"]
    assert stat.S_IMODE(again.path.stat().st_mode) == 0o600
    assert again.path.parent.name == "work"
    assert CommandHistory("home").entries == []


def test_a_command_typed_again_moves_to_the_end_and_the_oldest_go(tmp_path: Path) -> None:
    history = CommandHistory("p", folder=tmp_path, limit=3)
    for command in ("a1", "b2", "c3", "a1", "d4"):
        history.record(command)
    assert history.entries == ["c3", "a1", "d4"]
    assert not history.record("   ")
    assert not history.record("x" * 501)


def test_two_sessions_of_one_profile_both_keep_theirs(tmp_path: Path) -> None:
    one = CommandHistory("p", folder=tmp_path)
    two = CommandHistory("p", folder=tmp_path)
    one.record("instances")
    two.record("volumes")
    assert CommandHistory("p", folder=tmp_path).entries == ["instances", "volumes"]


def test_a_broken_file_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "commands.json").write_text("{not json")
    history = CommandHistory("p", folder=tmp_path)
    assert history.problem
    assert not history.record("instances")
    assert (tmp_path / "commands.json").read_text() == "{not json"


@pytest.mark.parametrize(
    "command",
    [
        "export token=abc123",
        "login --token abcdef",
        "x password hunter2",
        "connect DB_PASSWORD:s3cret",
        "export 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "x eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig",
        "export https://user:pass@example.com/file",
        "paste -----BEGIN PRIVATE KEY-----",
    ],
)
def test_a_command_that_may_hold_a_secret_is_never_stored(command: str) -> None:
    assert may_hold_secret(command)
    history = CommandHistory("p")
    assert not history.record(command)
    assert history.entries == []
    assert not history.path.exists() or command not in history.path.read_text()


@pytest.mark.parametrize(
    "command",
    [
        "fanout instances work prod",
        "export /home/me/reports/instances-2024-05-01.csv",
        "account production",
        "tokens",  # a word about tokens is not one
        "domains",
    ],
)
def test_ordinary_commands_are_stored(command: str) -> None:
    assert not may_hold_secret(command)
    assert CommandHistory("p").record(command)


# -- up and down ----------------------------------------------------------------------------

ENTRIES = ["instances", "fanout instances", "volumes", "fanout volumes work"]


def test_up_walks_back_and_down_returns_to_the_draft() -> None:
    cursor = HistoryCursor(ENTRIES)
    assert cursor.previous("") == "fanout volumes work"
    assert cursor.previous("fanout volumes work") == "volumes"
    assert cursor.next() == "fanout volumes work"
    assert cursor.next() == ""  # the (empty) draft again
    assert cursor.next() is None
    assert cursor.at_draft


def test_up_at_the_oldest_stays_there() -> None:
    cursor = HistoryCursor(ENTRIES[:1])
    assert cursor.previous("") == "instances"
    assert cursor.previous("instances") is None
    assert cursor.index == 0


def test_the_draft_typed_before_up_is_kept_and_filters_the_commands() -> None:
    cursor = HistoryCursor(ENTRIES)
    assert cursor.previous("fan") == "fanout volumes work"
    assert cursor.previous("fanout volumes work") == "fanout instances"
    assert cursor.previous("fanout instances") is None  # "instances" does not start so
    assert cursor.next() == "fanout volumes work"
    assert cursor.next() == "fan"  # the draft, as typed


def test_typing_starts_over_from_the_newest_with_the_new_draft() -> None:
    cursor = HistoryCursor(ENTRIES)
    cursor.previous("")
    cursor.previous("x")
    cursor.typed("vol")
    assert cursor.previous("vol") == "volumes"


def test_a_recalled_fanout_after_a_restart() -> None:
    CommandHistory("work").record(":fanout instances")
    cursor = CommandHistory("work").cursor()
    assert cursor.previous("") == "fanout instances"


# -- back and forward -----------------------------------------------------------------------


def _places(*areas: str) -> list[Place]:
    return [Place.of(area) for area in areas]


def test_back_and_forward_like_a_browser() -> None:
    history: NavigationHistory[Place] = NavigationHistory()
    a, b, c, d = _places("a", "b", "c", "d")
    for place in (a, b, c):
        history.visit(place)
    assert history.back() == b
    history.visit(b)  # the screen shown again: nothing ahead is lost
    assert history.back() == a
    assert history.back() is None and history.current == a
    assert history.forward() == b
    history.visit(d)  # a new place drops what was ahead
    assert history.forward() is None
    assert history.places == [a, b, d]


def test_the_oldest_places_go_beyond_the_limit() -> None:
    history: NavigationHistory[Place] = NavigationHistory(limit=2)
    for place in _places("a", "b", "c"):
        history.visit(place)
    assert [p.area for p in history.places] == ["b", "c"]
    assert history.back() == Place.of("b")
    assert not history.can_back


def test_places_are_the_same_screen_whatever_their_title_and_parameter_order() -> None:
    one = Place.of("instances", "compute.instances", {"b": 2, "a": 1}, "42", title="web-1")
    two = Place.of("instances", "compute.instances", {"a": "1", "b": "2"}, "42", title="web-one")
    assert one == two


def test_forgetting_places_keeps_the_user_where_they_are() -> None:
    history: NavigationHistory[Place] = NavigationHistory()
    a, gone, b, c = _places("a", "gone", "b", "c")
    for place in (a, gone, a, b, c):
        history.visit(place)
    history.back()  # at b
    history.forget(lambda place: place.area == "gone")
    assert history.places == [a, b, c]  # the two a's side by side became one
    assert history.current == b
    assert history.back() == a
    history.forget(lambda place: place.area == "a")
    assert history.current == b
