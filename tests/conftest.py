"""Fixtures shared by every test: isolation from the real home, and the simulator."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import keyring
import keyring.backend
import keyring.errors
import pytest

from tui.api.client import ApiClient
from tui.simulator import Simulator, VirtualClock

WORKERS_PER_CPU = 2
"""xdist workers ``-n auto`` starts per CPU. A UI test spends about half its time asleep in
Textual's pilot (``Pilot.press`` and ``Pilot.pause`` wait for the process to look idle, 20 ms
at a time), so one worker per core leaves the cores half idle; two per core fill those waits with
another worker's tests (on two cores: 59 s instead of 86 s for five UI files, 3 and 6 workers
were slower than 4)."""

MAX_AUTO_WORKERS = 16
"""At most this many workers for ``-n auto``: each holds an app, a simulator and their imports
(~150 MB), and a large CI machine would otherwise start dozens."""


@pytest.hookimpl(wrapper=True, optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> Generator[None, int, int]:
    """``-n auto``: :data:`WORKERS_PER_CPU` workers per CPU xdist counts (at most
    :data:`MAX_AUTO_WORKERS`).

    An explicit ``PYTEST_XDIST_AUTO_NUM_WORKERS`` (or ``-n N``) is left as given.
    """
    cpus = yield
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return cpus
    return min(cpus * WORKERS_PER_CPU, MAX_AUTO_WORKERS)


SLOW_FOLDERS = ("ui", "integration", "e2e", "snapshots")
"""Folders under tests/ whose tests drive a whole app or another process (about a second to half
a minute each, 95% of the suite's time in 11% of its tests), in the order they run; the rest
take milliseconds."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the tests marked ``longest``, then the :data:`SLOW_FOLDERS`, then the rest, keeping
    the order within each group.

    In collection order the UI tests came near the end, so the run ended on whichever worker
    drew the last slow tests while the others had nothing left. A worker runs its share in
    order and the others take work from the end of it, so what comes first is started early
    and spread over the workers: the longest tests first, and the run ends on millisecond
    tests. Only the order changes (the same on every worker, as xdist requires).
    """
    tests_dir = Path(__file__).parent

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("longest") is not None:
            return -1
        inside = item.path.is_relative_to(tests_dir)
        parts = item.path.relative_to(tests_dir).parts if inside else ()
        folder = parts[0] if len(parts) > 1 else ""
        return SLOW_FOLDERS.index(folder) if folder in SLOW_FOLDERS else len(SLOW_FOLDERS)

    items.sort(key=rank)  # stable: each folder keeps its own order


class MemoryKeyring(keyring.backend.KeyringBackend):
    """An in-memory keyring so tests never touch the real one."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.entries:
            raise keyring.errors.PasswordDeleteError("not found")
        del self.entries[(service, username)]


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    """Every test gets its own home, config file, config dir and in-memory keyring (the home:
    forms read the public keys in ``~/.ssh``, and nothing may read or write the real one)."""
    home = tmp_path / "isolated-home"  # a test may make its own tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    monkeypatch.setenv("CLOUDTUI_CONFIG", str(config_dir / "config.toml"))
    monkeypatch.delenv("CLOUDTUI_TOKEN", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def clock() -> VirtualClock:
    """A virtual clock at the fixed seed time."""
    return VirtualClock()


@pytest.fixture
def sim(clock: VirtualClock) -> Simulator:
    """A freshly seeded simulator on the virtual clock."""
    return Simulator(clock=clock)


@pytest.fixture
async def client(sim: Simulator) -> AsyncIterator[ApiClient]:
    """An unrestricted client wired to ``sim`` in-process."""
    api = sim.client("unrestricted")
    try:
        yield api
    finally:
        await api.aclose()


@pytest.fixture
async def client_for(sim: Simulator) -> AsyncIterator[Callable[..., ApiClient]]:
    """Factory of clients for other demo users: ``client_for("restricted")``."""
    made: list[ApiClient] = []

    def make(user: str, **kwargs: Any) -> ApiClient:
        api = sim.client(user, **kwargs)
        made.append(api)
        return api

    try:
        yield make
    finally:
        for api in made:
            await api.aclose()
