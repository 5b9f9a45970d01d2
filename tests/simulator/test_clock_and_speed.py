"""Time in the simulator as tests use it: steps take :data:`DEFAULT_TIMINGS` seconds of the
simulator's clock (virtual, or real times ``--speed``), and instant mode ends every transition
by the next request while time limits keep their time."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tui.__main__ import _parser
from tui.api.client import ApiClient
from tui.simulator import RealClock, Simulator, VirtualClock
from tui.simulator import clock as clock_module
from tui.simulator.app import DEFAULT_TIMINGS
from tui.simulator.server import build_simulator


def _id(sim: Simulator, table: str, **where: Any) -> Any:
    return next(
        r["id"] for r in sim.store.rows(table) if all(r.get(k) == v for k, v in where.items())
    )


Start = Callable[[Simulator, ApiClient], Awaitable[tuple[str, dict[str, Any]]]]
"""Starts a transition; returns the view endpoint and parameters of what it changes."""


async def _new_instance(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    body = {
        "region": "us-east",
        "type": "std-2",
        "image": "compute/debian12",
        "root_pass": "s3cret-pw",
    }
    made = await api.call("compute.instances.create", body=body, model=dict)
    assert made["status"] == "provisioning"
    return "compute.instances.view", {"computeId": made["id"]}


async def _shutdown(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    params = {"computeId": _id(sim, "compute.instances", label="web-prod-1")}
    await api.call("compute.instances.shutdown", params, model=dict)
    return "compute.instances.view", params


async def _boot(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    params = {"computeId": _id(sim, "compute.instances", status="offline")}
    await api.call("compute.instances.boot", params, model=dict)
    return "compute.instances.view", params


async def _resize(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    params = {"computeId": _id(sim, "compute.instances", label="web-prod-1")}
    await api.call("compute.instances.resize", params, body={"type": "std-4"}, model=dict)
    return "compute.instances.view", params


async def _database(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    body = {"engine": "mysql/8.0.30", "label": "instant-db", "region": "us-east", "type": "std-2"}
    made = await api.call("databases.mysql.create", body=body, model=dict)
    return "databases.mysql.view", {"instanceId": made["id"]}


async def _cluster(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    body = {
        "label": "instant-k8s",
        "region": "us-east",
        "k8s_version": "1.31",
        "node_pools": [{"type": "std-2", "count": 2}],
    }
    made = await api.call("k8s.clusters.create", body=body, model=dict)
    return "k8s.clusters.view", {"clusterId": made["id"]}


async def _volume(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    body = {"label": "instant-vol", "region": "us-east", "size": 20}
    made = await api.call("volumes.create", body=body, model=dict)
    return "volumes.view", {"volumeId": made["id"]}


async def _image(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    disk = sim.store.rows("compute.disks")[0]["id"]
    made = await api.call("images.create", body={"disk_id": disk, "label": "instant"}, model=dict)
    return "images.view", {"imageId": made["id"]}


async def _service(sim: Simulator, api: ApiClient) -> tuple[str, dict[str, Any]]:
    body = {
        "label": "instant-check",
        "service_type": "url",
        "address": "https://example.com/health",
        "timeout": 10,
    }
    made = await api.call("managed.services.create", body=body, model=dict)
    return "managed.services.view", {"serviceId": made["id"]}


TRANSITIONS: list[tuple[Start, str, str]] = [
    (_new_instance, "status", "running"),
    (_shutdown, "status", "offline"),
    (_boot, "status", "running"),
    (_resize, "type", "std-4"),
    (_database, "status", "active"),
    (_cluster, "status", "ready"),
    (_volume, "status", "active"),
    (_image, "status", "available"),
    (_service, "status", "ok"),
]


@pytest.mark.parametrize(
    ("start", "field", "end"), TRANSITIONS, ids=lambda x: getattr(x, "__name__", x)
)
async def test_instant_mode_ends_a_transition_by_the_first_poll(
    start: Start, field: str, end: str
) -> None:
    sim = Simulator(clock=VirtualClock(), instant=True)
    async with sim.client() as api:
        view, params = await start(sim, api)
        polled = await api.call(view, params, model=dict)
    assert polled[field] == end


@pytest.mark.parametrize(
    ("start", "field", "end"), TRANSITIONS, ids=lambda x: getattr(x, "__name__", x)
)
async def test_without_instant_mode_a_transition_waits_for_the_clock(
    start: Start, field: str, end: str
) -> None:
    clock = VirtualClock()
    sim = Simulator(clock=clock)
    async with sim.client() as api:
        view, params = await start(sim, api)
        assert (await api.call(view, params, model=dict))[field] != end
        clock.advance(max(DEFAULT_TIMINGS.values()) * 3)  # past every step of the table
        # Steps that start when another ends (a cluster's nodes) need one more look.
        await api.call(view, params, model=dict)
        clock.advance(max(DEFAULT_TIMINGS.values()) * 3)
        assert (await api.call(view, params, model=dict))[field] == end


async def test_a_boot_takes_its_timing_in_clock_seconds(client: ApiClient, sim: Simulator) -> None:
    assert isinstance(sim.clock, VirtualClock)
    params = {"computeId": _id(sim, "compute.instances", status="offline")}
    await client.call("compute.instances.boot", params, model=dict)
    sim.clock.advance(DEFAULT_TIMINGS["compute.boot"] - 0.5)
    assert (await client.call("compute.instances.view", params, model=dict))["status"] == "booting"
    sim.clock.advance(0.5)
    assert (await client.call("compute.instances.view", params, model=dict))["status"] == "running"


async def test_instant_mode_ends_what_the_demo_data_left_in_progress() -> None:
    plain = Simulator(clock=VirtualClock())
    in_progress = {
        r["id"] for r in plain.store.rows("compute.instances") if r["status"] == "provisioning"
    }
    assert in_progress
    sim = Simulator(clock=VirtualClock(), instant=True)
    async with sim.client() as api:
        rows = await api.fetch_all("compute.instances.list", model=dict)
    assert all(r["status"] != "provisioning" for r in rows if r["id"] in in_progress)


async def test_instant_mode_keeps_time_limits() -> None:
    sim = Simulator(clock=VirtualClock(), instant=True)
    expiring = [i["id"] for i in sim.store.rows("images.images") if i.get("expiry")]
    assert expiring
    async with sim.client() as api:
        started = await api.call(
            "images.upload", body={"label": "later", "region": "us-east"}, model=dict
        )
        image = started["image"]["id"]
        # No data arrives: the upload window (24 hours) has not run out.
        again = await api.call("images.view", {"imageId": image}, model=dict)
        assert again["status"] == "pending_upload"
        for kept in expiring:
            assert (await api.call("images.view", {"imageId": kept}, model=dict))["id"] == kept


def test_a_sped_up_clock_runs_speed_times_faster(monkeypatch: pytest.MonkeyPatch) -> None:
    class Time:
        """Stands in for the time module inside the clock: ten real seconds pass."""

        ticks = iter([100.0, 110.0])

        @staticmethod
        def time() -> float:
            return 1_000_000.0

        @classmethod
        def monotonic(cls) -> float:
            return next(cls.ticks)

    monkeypatch.setattr(clock_module, "time", Time)
    assert RealClock(speed=4).now() == 1_000_000.0 + 10 * 4


def test_the_sim_command_takes_instant() -> None:
    assert _parser().parse_args(["sim", "--instant"]).instant is True
    assert _parser().parse_args(["sim"]).instant is False
    assert build_simulator(instant=True).instant
