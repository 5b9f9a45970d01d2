"""The embedded simulator of the whole API (demo backend, test oracle, local fake).

Names are imported on first use: ``from tui.simulator import DEMO_TOKENS`` must stay cheap,
because demo mode builds the simulator itself later, off the path to the first frame.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.simulator.app import Simulator
    from tui.simulator.auth import DEMO_TOKENS
    from tui.simulator.clock import RealClock, VirtualClock
    from tui.simulator.faults import Faults
    from tui.simulator.lazy import IN_PROCESS_BASE

_HOMES = {
    "DEMO_TOKENS": "tui.simulator.auth",
    "IN_PROCESS_BASE": "tui.simulator.lazy",
    "Faults": "tui.simulator.faults",
    "RealClock": "tui.simulator.clock",
    "Simulator": "tui.simulator.app",
    "VirtualClock": "tui.simulator.clock",
}

__all__ = ["DEMO_TOKENS", "IN_PROCESS_BASE", "Faults", "RealClock", "Simulator", "VirtualClock"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tui.simulator' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
