"""The embedded simulator of the whole API (demo backend, test oracle, local fake)."""

from tui.simulator.app import IN_PROCESS_BASE, Simulator
from tui.simulator.auth import DEMO_TOKENS
from tui.simulator.clock import RealClock, VirtualClock
from tui.simulator.faults import Faults

__all__ = ["DEMO_TOKENS", "IN_PROCESS_BASE", "Faults", "RealClock", "Simulator", "VirtualClock"]
