"""``cloudtui sim``: serve the simulator over real HTTP on 127.0.0.1 with uvicorn."""

from __future__ import annotations

import errno
import logging
import socket
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
    hostile: bool = False,
    instant: bool = False,
) -> Simulator:
    """A simulator for serving: real clock, optional persisted state.

    Args:
        speed: Clock speed factor.
        scale: Extra instances to seed (ignored when an existing state is loaded).
        state: State file: loaded when it exists, saved after every change.
        faults: Fault settings.
        hostile: Seed the hostile data set (ignored when an existing state is loaded).
        instant: Transitions end at the next request (see :class:`Simulator`).

    Raises:
        StateFileError: The state file exists but cannot be used (it is left untouched), or
            it cannot be written where it was asked for (its folder missing, not writable).
    """
    if state is not None:
        _check_folder(state)
    store = Store.load(state) if state is not None and state.exists() else None
    sim = Simulator(
        clock=RealClock(speed),
        store=store,
        faults=faults,
        scale=scale,
        state_path=state,
        hostile=hostile,
        instant=instant,
    )
    if state is not None and store is None:
        try:
            sim.store.save(state)
        except OSError as exc:
            raise StateFileError(f"{state}: cannot save the state there: {exc.strerror}") from None
    return sim


def _check_folder(state: Path) -> None:
    """Refuse a state file whose folder is missing before seeding anything (the folder is
    not made: a mistyped path would quietly keep the state somewhere unexpected).

    Raises:
        StateFileError: The folder does not exist or is not a folder.
    """
    folder = state.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise StateFileError(f"{state}: cannot save the state there: the folder {folder} {what}")


class _DropsAreNotCrashes(logging.Filter):
    """Keeps uvicorn from printing a traceback for every connection ``--drop-rate`` drops.

    A drop is the simulator raising :class:`DroppedConnection` so uvicorn closes the connection
    without an answer; that is the fault asked for, not an error of the server.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, DroppedConnection)


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: any free port).

    Raises:
        OSError: The address cannot be resolved or bound (in use, not local, no permission).
    """
    family, kind, proto, _name, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        # As uvicorn does: a restart may reuse a port whose old connections are in TIME_WAIT.
        # A port another program listens on is still refused.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8080,
    *,
    speed: float = 1.0,
    scale: int = 0,
    state: Path | None = None,
    faults: Faults | None = None,
    hostile: bool = False,
    instant: bool = False,
) -> int:
    """Run the simulator until interrupted.

    The port is bound before anything is printed, so the address announced is the one that
    answers (with port 0, the port the system chose); a port in use is one line and status 1.

    Returns:
        Process exit status.
    """
    import uvicorn

    try:
        sock = listen(host, port)
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        if exc.errno == errno.EADDRINUSE:
            reason += " (another program listens there: choose another --port, or 0 for any)"
        print(f"cloudtui sim: cannot listen on {host}:{port}: {reason}", file=sys.stderr)
        return 1
    with sock:
        try:
            sim = build_simulator(
                speed=speed,
                scale=scale,
                state=state,
                faults=faults,
                hostile=hostile,
                instant=instant,
            )
        except StateFileError as exc:
            print(f"cloudtui sim: {exc}", file=sys.stderr)
            return 2
        bound_host, bound_port = sock.getsockname()[:2]
        shown_host = f"[{bound_host}]" if ":" in bound_host else bound_host
        print(f"cloudtui simulator at http://{shown_host}:{bound_port}/v4", flush=True)
        print("demo tokens (send as 'Authorization: Bearer <token>'):", flush=True)
        for kind, token in DEMO_TOKENS.items():
            print(f"  {kind:<13} {token}", flush=True)
        config = uvicorn.Config(
            sim,
            host=bound_host,
            port=bound_port,
            lifespan="off",
            log_level="warning",
            access_log=False,
        )
        logging.getLogger("uvicorn.error").addFilter(_DropsAreNotCrashes())
        uvicorn.Server(config).run(sockets=[sock])
    return 0
