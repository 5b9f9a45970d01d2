"""Silences: per object, with a reason, kept per profile in a private file, listed, and set
apart from the findings."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from tui.check.account import Account
from tui.check.rules import BY_ID
from tui.check.run import evaluate
from tui.check.silences import FILE_NAME, Silences

NOW = 1_793_610_000.0
VOLUMES = {"volumes": [{"id": 1, "label": "old"}, {"id": 2, "label": "older"}]}
RULE = BY_ID["volume-unattached"]


def _findings(silences: Silences | None = None):  # type: ignore[no-untyped-def]
    return evaluate(Account(VOLUMES, NOW), [RULE], silences=silences)


def test_a_silenced_finding_is_set_apart_with_its_reason(tmp_path: Path) -> None:
    silences = Silences("work", folder=tmp_path)
    first = _findings().findings[0]
    silences.add(first, "  kept for the\naudit  ", now=NOW)
    result = _findings(silences)
    assert [f.subject.key for f in result.findings] == ["2"]
    assert [(f.subject.key, f.silenced) for f in result.silenced] == [("1", "kept for the audit")]


def test_silences_are_kept_in_a_private_file_and_read_back(tmp_path: Path) -> None:
    silences = Silences("work", folder=tmp_path)
    silences.add(_findings().findings[0], "kept for the audit", now=NOW)
    path = tmp_path / FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = Silences("work", folder=tmp_path)
    [entry] = again.entries()
    assert entry.finding == "volume-unattached:volumes:1"
    assert (entry.label, entry.reason, entry.created) == (
        "old",
        "kept for the audit",
        "2026-11-02T09:00:00Z",
    )
    assert again.remove(entry.finding) and not again.remove(entry.finding)
    assert Silences("work", folder=tmp_path).entries() == []


def test_each_profile_has_its_own_silences() -> None:
    Silences("work").add(_findings().findings[0], "why not")
    assert len(Silences("work").entries()) == 1
    assert Silences("home").entries() == []


def test_a_silence_needs_a_reason(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="reason"):
        Silences("work", folder=tmp_path).add(_findings().findings[0], " \n ")
    assert not (tmp_path / FILE_NAME).exists()


def test_an_unreadable_file_is_named_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_text("{not json")
    silences = Silences("work", folder=tmp_path)
    assert silences.problem and silences.entries() == []
    with pytest.raises(OSError):
        silences.add(_findings().findings[0], "kept")
    assert path.read_text() == "{not json"
    json.dumps(silences.problem)  # a plain string
