"""Simulator conventions shared by every area: envelope, bounds, auth, faults, persistence."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tui.api import ConnectionDropped, Forbidden, Invalid, NotFound, RateLimited, ServerError
from tui.api.client import ApiClient
from tui.api.errors import ApiError, Unauthorized
from tui.api.retry import RetryPolicy
from tui.simulator import DEMO_TOKENS, Faults, Simulator, VirtualClock
from tui.simulator.server import build_simulator
from tui.simulator.store import StateFileError, Store


async def _no_sleep(_s: float) -> None:
    return None


def raw_client(
    sim: Simulator, token: str | None = DEMO_TOKENS["unrestricted"]
) -> httpx.AsyncClient:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.AsyncClient(
        transport=sim.transport(), base_url="http://sim.local/v4", headers=headers
    )


async def test_collection_envelope(sim: Simulator) -> None:
    async with raw_client(sim) as http:
        body = (await http.get("/databases/engines")).json()
    assert set(body) == {"data", "page", "pages", "results"}
    assert body["page"] == 1 and body["results"] == len(body["data"])


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [
        ("/databases/engines", "page=0", "page"),
        ("/databases/engines", "page=x", "page"),
        ("/databases/engines", "page_size=24", "page_size"),
        ("/databases/engines", "page_size=101", "page_size"),
    ],
)
async def test_part2_page_bounds(sim: Simulator, path: str, query: str, field: str) -> None:
    async with raw_client(sim) as http:
        response = await http.get(f"{path}?{query}")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == field


async def test_page_params_are_ignored_on_single_item_gets(sim: Simulator) -> None:
    async with raw_client(sim) as http:
        response = await http.get("/k8s/versions/1.31?page=0&page_size=9999")
    assert response.status_code == 200


async def test_out_of_range_page_is_empty_not_an_error(sim: Simulator) -> None:
    async with raw_client(sim) as http:
        body = (await http.get("/databases/engines?page=50")).json()
    assert body["data"] == [] and body["page"] == 50


async def test_missing_and_unknown_tokens_get_401(sim: Simulator) -> None:
    async with raw_client(sim, token=None) as http:
        missing = await http.get("/databases/instances")
    async with raw_client(sim, token="nope") as http:
        unknown = await http.get("/databases/instances")
    for response in (missing, unknown):
        assert response.status_code == 401
        assert response.json()["errors"][0]["reason"]


async def test_no_token_needed_where_no_scope_is_listed(client_for) -> None:  # type: ignore[no-untyped-def]
    anonymous = client_for("anonymous")
    page = await anonymous.fetch_page("databases.engines.list", model=dict)
    assert page.results > 0


async def test_token_without_the_area_scope_gets_403(client_for) -> None:  # type: ignore[no-untyped-def]
    readonly = client_for("readonly")
    with pytest.raises(Forbidden) as info:
        await readonly.call("k8s.clusters.list", model=dict)
    assert "k8s:read_only" in str(info.value)


async def test_unknown_route_and_wrong_method(sim: Simulator) -> None:
    async with raw_client(sim) as http:
        unknown = await http.get("/no/such/thing")
        wrong = await http.delete("/databases/engines")
        outside = await http.get("http://sim.local/v3/profile")
    assert unknown.status_code == 404 and "Unknown route" in unknown.json()["errors"][0]["reason"]
    assert wrong.status_code == 405
    assert outside.status_code == 404


async def test_invalid_json_body_is_a_400(sim: Simulator) -> None:
    async with raw_client(sim) as http:
        response = await http.post(
            "/k8s/clusters", content=b"{not json", headers={"content-type": "application/json"}
        )
    assert response.status_code == 400


async def test_fail_next_n_calls(sim: Simulator, client: ApiClient) -> None:
    sim.faults.fail_next("k8s.versions.list", 2, 503)
    no_retry = sim.client(retry=RetryPolicy(max_attempts=1, sleep=_no_sleep))
    for _ in range(2):
        with pytest.raises(ServerError):
            await no_retry.call("k8s.versions.list", model=dict)
    await no_retry.call("k8s.versions.list", model=dict)
    await no_retry.aclose()


async def test_client_retries_through_injected_503(sim: Simulator, client: ApiClient) -> None:
    sim.faults.fail_next("k8s.versions.list", 2, 503)
    await client.call("k8s.versions.list", model=dict)
    assert sim.request_log.count("k8s.versions.list") == 1  # failures answered before handling


async def test_rate_limit_answers_429_with_retry_after(sim: Simulator) -> None:
    sim.faults.rate_limit = 2
    client = sim.client(retry=RetryPolicy(max_attempts=1, sleep=_no_sleep))
    await client.call("k8s.versions.list", model=dict)
    await client.call("k8s.versions.list", model=dict)
    with pytest.raises(RateLimited) as info:
        await client.call("k8s.versions.list", model=dict)
    assert info.value.retry_after and info.value.retry_after >= 1
    await client.aclose()


async def test_dropped_connection_is_a_transport_failure(sim: Simulator) -> None:
    sim.faults.fail_next("k8s.versions.list", 1, 0)
    client = sim.client(retry=RetryPolicy(max_attempts=1, sleep=_no_sleep))
    with pytest.raises(ConnectionDropped):
        await client.call("k8s.versions.list", model=dict)
    await client.aclose()


def test_error_rate_and_drop_rate_are_reproducible() -> None:
    a = Faults(error_rate=0.5, seed=3)
    b = Faults(error_rate=0.5, seed=3)
    assert [a.decide("x", 0.0) for _ in range(20)] == [b.decide("x", 0.0) for _ in range(20)]
    assert any(d is not None for d in [Faults(drop_rate=0.9).decide("x", 0.0) for _ in range(5)])


def test_state_persists_atomically_and_reloads(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    sim = build_simulator(state=state)
    assert state.exists()
    sim.store.put("users", "extra", {"username": "extra"})
    sim._persist()
    again = build_simulator(state=state)
    assert again.store.get("users", "extra") == {"username": "extra"}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".state.json.")]


@pytest.mark.parametrize("content", ["{broken", '{"format": 99}', "[]"])
def test_corrupt_state_file_stops_with_its_name_and_is_kept(tmp_path: Path, content: str) -> None:
    state = tmp_path / "state.json"
    state.write_text(content)
    with pytest.raises(StateFileError) as info:
        build_simulator(state=state)
    assert str(state) in str(info.value)
    assert state.read_text() == content


def test_sim_command_refuses_a_corrupt_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.simulator.server import serve

    state = tmp_path / "s.json"
    state.write_text("nope")
    assert serve(port=1, state=state) == 2
    assert str(state) in capsys.readouterr().err


def test_store_round_trip() -> None:
    store = Store()
    store.put("t", 1, {"id": 1})
    store.schedule(5.0, "x", id=1)
    copy = Store.from_json(json.loads(json.dumps(store.to_json())))
    assert copy.get("t", 1) == {"id": 1}
    assert copy.pop_due(10.0)[0]["name"] == "x"


def test_store_group_follows_puts_and_deletes() -> None:
    store = Store()
    store.put("t", 1, {"id": 1, "zone": 7})
    store.put("t", 2, {"id": 2, "zone": 8})
    assert [r["id"] for r in store.group("t", "zone", 7)] == [1]
    store.put("t", 3, {"id": 3, "zone": 7})  # added after the index exists
    store.put("t", 1, {"id": 1, "zone": 7, "label": "x"})  # replaced, keeps its place
    assert [r["id"] for r in store.group("t", "zone", "7")] == [1, 3]
    store.put("t", 3, {"id": 3, "zone": 8})  # moved to another group
    store.delete("t", 1)
    assert store.group("t", "zone", 7) == []
    assert [r["id"] for r in store.group("t", "zone", 8)] == [2, 3]
    record = store.get("t", 2)
    assert record is not None
    record["zone"] = 9  # changed in place, then put again: the same object
    store.put("t", 2, record)
    assert [r["id"] for r in store.group("t", "zone", 8)] == [3]
    assert [r["id"] for r in store.group("t", "zone", 9)] == [2]


def test_virtual_clock_never_goes_back() -> None:
    clock = VirtualClock(start=100.0)
    clock.advance(5)
    assert clock.now() == 105.0
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_seed_is_deterministic() -> None:
    a = Simulator(clock=VirtualClock()).store.to_json()
    b = Simulator(clock=VirtualClock()).store.to_json()
    assert a == b


async def test_grants_and_errors_have_field_names(sim: Simulator, client: ApiClient) -> None:
    with pytest.raises(Invalid) as info:
        await client.call("k8s.clusters.create", body={}, model=dict)
    assert {"label", "region", "k8s_version", "node_pools"} <= set(info.value.field_errors())
    with pytest.raises(NotFound):
        await client.call("k8s.clusters.view", {"clusterId": 999999}, model=dict)
    with pytest.raises(NotFound):
        await client.call("k8s.clusters.view", {"clusterId": "abc"}, model=dict)


async def test_unauthorized_is_typed(sim: Simulator) -> None:
    client = ApiClient(
        "http://sim.local/v4",
        "bogus",
        transport=sim.transport(),
        allow_insecure=True,
        retry=RetryPolicy(max_attempts=1, sleep=_no_sleep),
    )
    with pytest.raises(Unauthorized):
        await client.call("k8s.versions.list", model=dict)
    with pytest.raises(ApiError):
        await client.call("k8s.versions.list", model=dict)
    await client.aclose()


def test_served_simulator_does_not_print_a_traceback_for_a_dropped_connection() -> None:
    import logging
    import sys

    from tui.simulator.app import DroppedConnection
    from tui.simulator.server import _DropsAreNotCrashes

    def record(exc: BaseException) -> logging.LogRecord:
        try:
            raise exc
        except BaseException:
            info = sys.exc_info()
        return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "x", None, info)

    drops = _DropsAreNotCrashes()
    assert not drops.filter(record(DroppedConnection()))
    assert drops.filter(record(RuntimeError("a real crash is still reported")))


async def test_answers_whose_latency_ends_together_are_served_one_per_loop_turn() -> None:
    # A listing's pages are requested together, so their latency ends together; served in one
    # turn of the event loop they would hold it (and an in-process app's keys) for all of them.
    import asyncio

    import httpx

    from tui.simulator import DEMO_TOKENS
    from tui.simulator.app import Simulator
    from tui.simulator.faults import Faults

    sim = Simulator(faults=Faults(latency=0.01))
    turn = 0
    served_in_turn: list[int] = []
    decide = sim.faults.decide

    def spy(*args: object, **kwargs: object) -> object:
        served_in_turn.append(turn)
        return decide(*args, **kwargs)  # type: ignore[arg-type]

    sim.faults.decide = spy  # type: ignore[method-assign]

    async def ticker() -> None:
        nonlocal turn
        while True:
            await asyncio.sleep(0)
            turn += 1

    ticking = asyncio.ensure_future(ticker())
    headers = {"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"}
    try:
        async with httpx.AsyncClient(
            transport=sim.transport(), base_url="http://sim.local/v4", headers=headers
        ) as client:
            answers = await asyncio.gather(*(client.get("/profile") for _ in range(12)))
    finally:
        ticking.cancel()
    assert all(a.status_code == 200 for a in answers)
    assert len(served_in_turn) == 12 and len(set(served_in_turn)) == 12
