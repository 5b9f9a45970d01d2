"""Lost answers and stalls, HTTP conventions (405, empty PUT), and the demo seed obeying the
simulator's own rules."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tui.__main__ import _parser
from tui.api.client import ApiClient
from tui.api.endpoints import REGISTRY, Endpoint
from tui.api.errors import ApiError, ConnectionDropped, TimeoutFailure, may_have_been_carried_out
from tui.api.retry import RetryPolicy
from tui.simulator import DEMO_TOKENS, Faults, Simulator
from tui.simulator.faults import LOSE, STALL


async def _no_sleep(_s: float) -> None:
    return None


def _volume_body(label: str) -> dict[str, Any]:
    return {"label": label, "region": "us-east", "size": 20}


# -- lost answers ---------------------------------------------------------------------------


async def test_a_lost_answer_to_a_post_is_not_retried_and_the_change_is_made(
    sim: Simulator, client: ApiClient
) -> None:
    sim.faults.fail_next("volumes.create", 1, LOSE)
    with pytest.raises(ConnectionDropped) as caught:
        await client.call("volumes.create", body=_volume_body("lost-one"), model=dict)
    assert may_have_been_carried_out(caught.value)
    assert sim.request_log.count("volumes.create") == 1  # sent once, never blindly again
    assert [v for v in sim.store.rows("volumes.volumes") if v["label"] == "lost-one"]


async def test_a_dropped_get_is_only_a_missing_answer(sim: Simulator, client: ApiClient) -> None:
    sim.faults.fail_next("volumes.list", 1, LOSE)
    page = await client.fetch_page("volumes.list", model=dict)  # retried: GET is safe
    assert page.data
    assert sim.request_log.count("volumes.list") == 2


async def test_a_delete_retried_after_a_lost_answer_that_finds_nothing_is_done(
    sim: Simulator, client: ApiClient
) -> None:
    target = next(v for v in sim.store.rows("volumes.volumes") if v["label"] == "cafe-media")
    sim.faults.fail_next("volumes.delete", 1, LOSE)
    await client.call("volumes.delete", {"volumeId": target["id"]})
    assert sim.store.get("volumes.volumes", target["id"]) is None


async def test_a_put_retried_after_a_lost_answer_then_refused_still_says_maybe(
    sim: Simulator, client: ApiClient
) -> None:
    target = next(v for v in sim.store.rows("volumes.volumes") if v["label"] == "cafe-media")
    sim.faults.fail_next("volumes.update", 1, LOSE)
    sim.faults.fail_next("volumes.update", 1, 400)
    with pytest.raises(ApiError) as caught:
        await client.call(
            "volumes.update", {"volumeId": target["id"]}, body={"label": "renamed"}, model=dict
        )
    assert caught.value.earlier_answer_lost and may_have_been_carried_out(caught.value)
    assert sim.store.get("volumes.volumes", target["id"])["label"] == "renamed"


def test_lost_response_rate_is_reproducible_and_off_by_default() -> None:
    assert all(Faults().decide("x", 0.0) is None for _ in range(50))
    first = [Faults(lost_response_rate=0.5, seed=3).decide("x", 0.0) for _ in range(20)]
    again = [Faults(lost_response_rate=0.5, seed=3).decide("x", 0.0) for _ in range(20)]
    assert first == again
    assert any(d is not None and d.lose for d in first)


def test_the_sim_command_takes_the_new_fault_options() -> None:
    args = _parser().parse_args(
        ["sim", "--lost-response-rate", "0.05", "--stall-rate", "0.1", "--stall-seconds", "2"]
    )
    assert (args.lost_response_rate, args.stall_rate, args.stall_seconds) == (0.05, 0.1, 2.0)


# -- stalls ---------------------------------------------------------------------------------


async def test_a_stalled_get_times_out_and_is_retried(sim: Simulator) -> None:
    sim.faults.stall_seconds = 2.0
    sim.faults.fail_next("volumes.list", 1, STALL)
    retries: list[tuple[BaseException, float]] = []
    api = sim.client(read_timeout=0.05, retry=RetryPolicy(sleep=_no_sleep))
    api.on_retry = lambda error, wait: retries.append((error, wait))
    try:
        page = await api.fetch_page("volumes.list", model=dict)
    finally:
        await api.aclose()
    assert page.data
    assert len(retries) == 1 and isinstance(retries[0][0], TimeoutFailure)


async def test_a_stalled_post_is_reported_as_maybe_carried_out(sim: Simulator) -> None:
    sim.faults.stall_seconds = 2.0
    sim.faults.fail_next("volumes.create", 1, STALL)
    api = sim.client(read_timeout=0.05, retry=RetryPolicy(sleep=_no_sleep))
    try:
        with pytest.raises(TimeoutFailure) as caught:
            await api.call("volumes.create", body=_volume_body("slow-one"), model=dict)
    finally:
        await api.aclose()
    assert may_have_been_carried_out(caught.value)


# -- HTTP conventions -----------------------------------------------------------------------


def _raw(sim: Simulator) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=sim.transport(),
        base_url="http://sim.local/v4",
        headers={"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"},
    )


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PATCH", "/volumes", "GET, POST"),
        ("POST", "/profile", "GET, PUT"),
        ("DELETE", "/regions", "GET"),
    ],
)
async def test_an_unsupported_method_answers_405_with_allow(
    sim: Simulator, method: str, path: str, allow: str
) -> None:
    async with _raw(sim) as http:
        response = await http.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allow


def _required_fields(ep: Endpoint) -> list[str]:
    model = ep.request_model()
    if model is None:
        return []
    return [f.alias or n for n, f in model.model_fields.items() if f.is_required()]


PUTS_WITH_REQUIRED_FIELDS = [
    ep for ep in REGISTRY.values() if ep.method == "PUT" and _required_fields(ep)
]


def _sample_params(sim: Simulator, ep: Endpoint) -> dict[str, Any]:
    store = sim.store
    if ep.name == "managed.credentials.update":
        return {"credentialId": store.rows("managed.credentials")[0]["id"]}
    if ep.name == "managed.compute_settings.update":
        return {"computeId": store.rows("compute.instances")[0]["id"]}
    bucket = store.rows("object_storage.buckets")[0]
    return {"clusterId": bucket["cluster"], "bucket": bucket["label"]}


@pytest.mark.parametrize("ep", PUTS_WITH_REQUIRED_FIELDS, ids=lambda e: e.name)
async def test_a_put_without_its_required_fields_answers_400_naming_them(
    sim: Simulator, ep: Endpoint
) -> None:
    path = ep.path
    for name, value in _sample_params(sim, ep).items():
        path = path.replace("{" + name + "}", str(value))
    async with _raw(sim) as http:
        response = await http.put(path, json={})
    assert response.status_code == 400, response.text
    named = {e.get("field") for e in response.json()["errors"]}
    assert set(_required_fields(ep)) <= named


def test_every_put_with_required_fields_is_covered() -> None:
    assert {ep.name for ep in PUTS_WITH_REQUIRED_FIELDS} == {
        "managed.credentials.update",
        "managed.compute_settings.update",
        "object_storage.objects.acl_update",
    }


# -- the seed obeys the rules ---------------------------------------------------------------

REPLAY_FIELDS = ("label", "tags", "description", "group", "name", "email", "target")
"""Record fields sent back through each update operation: the ones whose rules the seed could
break (text a user types). Nested read-only objects (``backups``) are not replayed."""

EXPECTED_REFUSALS = {403, 409}
"""Public images and others' scripts cannot be changed (403); records in a transitional state
refuse updates (409). Neither is about the record's values."""


def _collections() -> dict[str, Endpoint]:
    return {ep.path: ep for ep in REGISTRY.values() if ep.method == "GET" and ep.paged}


async def _records(
    client: ApiClient, path: str, lists: dict[str, Endpoint]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``(path params, record)`` of every record under an item path template."""
    parent_path, _, last = path.rpartition("/")
    name = last.strip("{}")
    collection = lists.get(parent_path)
    if collection is None:
        return []
    grand = parent_path.rpartition("/")[0]
    parents: list[dict[str, Any]] = [{}]
    if collection.params:
        parents = [params for params, _r in await _records(client, grand, lists)]
    out = []
    for params in parents:
        for record in await client.fetch_all(collection, params, model=dict):
            out.append(({**params, name: record.get("id")}, record))
    return out


def _update_endpoints() -> list[Endpoint]:
    return [ep for ep in REGISTRY.values() if ep.method == "PUT" and ep.path.endswith("}")]


async def test_every_seeded_record_passes_its_own_update_rules(
    sim: Simulator, client: ApiClient
) -> None:
    lists = _collections()
    refused: list[str] = []
    replayed = 0
    for ep in _update_endpoints():
        model = ep.request_model()
        fields = set(model.model_fields) if model is not None else set()
        for params, record in await _records(client, ep.path, lists):
            body = {
                f: record[f]
                for f in REPLAY_FIELDS
                if f in fields and record.get(f) is not None and f in record
            }
            if not body:
                continue
            replayed += 1
            try:
                await client.call(ep, params, body=body, model=dict)
            except ApiError as error:
                if error.status not in EXPECTED_REFUSALS:
                    refused.append(f"{ep.name} {params}: {error.reasons}")
    assert replayed > 50
    assert not refused, "\n".join(refused)


async def test_volume_and_instance_labels_of_the_seed_are_replayable_on_create(
    sim: Simulator, client: ApiClient
) -> None:
    """Each seeded label, made unique, passes the create rules (lengths and characters)."""
    for volume in sim.store.rows("volumes.volumes"):
        copy = (volume["label"] + "-c")[-32:]
        await client.call(
            "volumes.create", body={"label": copy, "region": volume["region"]}, model=dict
        )
    for instance in sim.store.rows("compute.instances"):
        copy = (instance["label"] + "-c")[-64:]
        await client.call(
            "compute.instances.create",
            body={"label": copy, "region": instance["region"], "type": instance["type"]},
            model=dict,
        )
