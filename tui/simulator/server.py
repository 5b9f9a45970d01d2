"""``cloudtui sim``: serve the simulator over real HTTP on 127.0.0.1 with uvicorn."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from tui.simulator.app import DroppedConnection, Simulator
from tui.simulator.auth import DEMO_TOKENS
from tui.simulator.clock import RealClock
from tui.simulator.faults import Faults
from tui.simulator.store import StateFileError, Store


def build_simulator(
    *,
    speed: float = 1.0,
    scale: int = 0,
    state: Path | None = None,
    faults: Faults | None = None,
) -> Simulator:
    """A simulator for serving: real clock, optional persisted state.

    Args:
        speed: Clock speed factor.
        scale: Extra instances to seed (ignored when an existing state is loaded).
        state: State file: loaded when it exists, saved after every change.
        faults: Fault settings.

    Raises:
        StateFileError: The state file exists but cannot be used (it is left untouched).
    """
    store = Store.load(state) if state is not None and state.exists() else None
    sim = Simulator(
        clock=RealClock(speed), store=store, faults=faults, scale=scale, state_path=state
    )
    if state is not None and store is None:
        sim.store.save(state)
    return sim


class _DropsAreNotCrashes(logging.Filter):
    """Keeps uvicorn from printing a traceback for every connection ``--drop-rate`` drops.

    A drop is the simulator raising :class:`DroppedConnection` so uvicorn closes the connection
    without an answer; that is the fault asked for, not an error of the server.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, DroppedConnection)


def serve(
    host: str = "127.0.0.1",
    port: int = 8080,
    *,
    speed: float = 1.0,
    scale: int = 0,
    state: Path | None = None,
    faults: Faults | None = None,
) -> int:
    """Run the simulator until interrupted.

    Returns:
        Process exit status.
    """
    import uvicorn

    try:
        sim = build_simulator(speed=speed, scale=scale, state=state, faults=faults)
    except StateFileError as exc:
        print(f"cloudtui sim: {exc}", file=sys.stderr)
        return 2
    shown_host = f"[{host}]" if ":" in host else host
    print(f"cloudtui simulator at http://{shown_host}:{port}/v4", flush=True)
    print("demo tokens (send as 'Authorization: Bearer <token>'):", flush=True)
    for kind, token in DEMO_TOKENS.items():
        print(f"  {kind:<13} {token}", flush=True)
    config = uvicorn.Config(
        sim, host=host, port=port, lifespan="off", log_level="warning", access_log=False
    )
    logging.getLogger("uvicorn.error").addFilter(_DropsAreNotCrashes())
    uvicorn.Server(config).run()
    return 0
