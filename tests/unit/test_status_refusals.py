"""Actions the simulator refuses (409) for an item's status are refused up front, with why."""

from __future__ import annotations

import pytest

from tui.resources.areas import SPECS
from tui.resources.availability import UserContext, availability
from tui.resources.compute import INSTANCE_TRANSITIONAL
from tui.simulator.handlers.compute import TRANSITIONAL as SIMULATED_BUSY

REFUSED = [
    ("volumes", "volumes.delete", "migrating"),
    ("compute.instances", "compute.delete", "cloning"),
    ("compute.instances", "compute.delete", "restoring"),
    *(("compute.instances", "compute.resize", s) for s in sorted(SIMULATED_BUSY)),
    *(("compute.instances", "compute.rescue", s) for s in sorted(SIMULATED_BUSY)),
]
"""(spec, action, status) the simulator answers 409 for (see its handlers' docstrings)."""

ALLOWED = [
    ("volumes", "volumes.delete", "active"),
    ("compute.instances", "compute.delete", "migrating"),
    ("compute.instances", "compute.resize", "stopped"),
    ("compute.instances", "compute.rescue", "offline"),
]


def _check(spec_id: str, action_id: str, status: str) -> tuple[bool, str]:
    spec = SPECS[spec_id]
    action = spec.action(action_id)
    assert action is not None
    item = {"id": 1, "label": "x", "status": status}
    return availability(spec, action, item, UserContext())


@pytest.mark.parametrize(("spec_id", "action_id", "status"), REFUSED)
def test_refused_statuses_are_greyed_with_the_status(
    spec_id: str, action_id: str, status: str
) -> None:
    enabled, reason = _check(spec_id, action_id, status)
    assert not enabled
    assert f"is {status}" in reason


@pytest.mark.parametrize(("spec_id", "action_id", "status"), ALLOWED)
def test_other_statuses_stay_allowed(spec_id: str, action_id: str, status: str) -> None:
    assert _check(spec_id, action_id, status) == (True, "")


def test_busy_instance_statuses_match_the_simulator() -> None:
    # Resize and rescue wait for "queued actions" in exactly the simulator's set.
    assert INSTANCE_TRANSITIONAL == SIMULATED_BUSY
