"""Tag rules: unrestricted-only writes, label limits, all-or-nothing tagging with read_write on
every object, the union tag list, deletion everywhere, mixed object lists and restricted views."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.simulator.rules import refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.simulator import Simulator, VirtualClock
from tui.simulator import registry as sim_registry
from tui.simulator.auth import TokenInfo
from tui.simulator.context import SeedContext
from tui.simulator.seed import grant_restricted
from tui.simulator.seeds.tags import seed_tags
from tui.simulator.store import Store

INSTANCE_A = 990500
INSTANCE_B = 990501
DOMAIN_ID = 770500
BALANCER_ID = 660500
TABLES = ("compute.instances", "domains.domains", "volumes.volumes", "loadbalancers.balancers")


@pytest.fixture(autouse=True)
def objects(sim: Simulator) -> None:
    """Objects of every kind with known tags, in case those areas have not seeded any."""
    sim.store.put(
        "compute.instances",
        INSTANCE_A,
        {"id": INSTANCE_A, "label": "tag-a", "status": "running", "tags": ["Alpha"]},
    )
    sim.store.put(
        "compute.instances",
        INSTANCE_B,
        {"id": INSTANCE_B, "label": "tag-b", "status": "running", "tags": ["hidden-one"]},
    )
    sim.store.put(
        "domains.domains",
        DOMAIN_ID,
        {"id": DOMAIN_ID, "domain": "rules.example", "status": "active", "tags": ["beta"]},
    )
    sim.store.put(
        "loadbalancers.balancers",
        BALANCER_ID,
        {"id": BALANCER_ID, "label": "rules-lb", "tags": [], "_internal": True},
    )


def tag_state(sim: Simulator) -> dict[str, Any]:
    state = {name: sim.store.tables.get(name, {}) for name in (*TABLES, "tags.tags")}
    return copy.deepcopy(state)


def volume_id(sim: Simulator) -> int:
    return int(sim.store.rows("volumes.volumes")[0]["id"])


async def labels(api: ApiClient) -> list[str]:
    return [t["label"] for t in (await api.call("tags.list", model=dict))["data"]]


async def objects_of(api: ApiClient, label: str) -> list[tuple[str, Any]]:
    data = (await api.call("tags.objects", {"label": label}, model=dict))["data"]
    return [(o["type"], o["data"]["id"]) for o in data]


# -- who may write --------------------------------------------------------------------------


async def test_restricted_user_cannot_create_or_delete(
    sim: Simulator, client_for: Callable[..., ApiClient]
) -> None:
    grant_restricted(sim.store, "compute", INSTANCE_A, "tag-a", "read_write")
    api = client_for("restricted")
    before = tag_state(sim)
    await refused(api, "tags.create", body={"label": "mine", "computes": [INSTANCE_A]}, status=403)
    await refused(api, "tags.delete", {"label": "Alpha"}, status=403)
    assert tag_state(sim) == before


async def test_readonly_token_cannot_create(
    sim: Simulator, client_for: Callable[..., ApiClient]
) -> None:
    before = tag_state(sim)
    await refused(client_for("readonly"), "tags.create", body={"label": "nope"}, status=403)
    assert "Alpha" in await labels(client_for("readonly"))
    assert tag_state(sim) == before


# -- create ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "label"),
        ({"label": "ab"}, "label"),
        ({"label": "x" * 51}, "label"),
        ({"label": 123}, "label"),
        ({"label": "decommission-2027"}, "label"),
        ({"label": "okay", "computes": "all"}, "computes"),
        ({"label": "okay", "computes": [True]}, "computes"),
        ({"label": "okay", "domains": [1]}, "domains"),
        ({"label": "okay", "volumes": [1]}, "volumes"),
        ({"label": "okay", "loadbalancers": [1]}, "loadbalancers"),
        ({"label": "okay", "colour": "red"}, "colour"),
    ],
)
async def test_create_rules(
    body: dict[str, Any], field: str, sim: Simulator, client: ApiClient
) -> None:
    before = tag_state(sim)
    error = await refused(client, "tags.create", body=body)
    assert field in error.field_errors()
    assert tag_state(sim) == before


async def test_label_limits_at_their_edges(client: ApiClient) -> None:
    assert (await client.call("tags.create", body={"label": "abc"}, model=dict))["label"] == "abc"
    assert (await client.call("tags.create", body={"label": "é" * 50}, model=dict))[
        "label"
    ] == "é" * 50


async def test_one_unknown_id_creates_and_tags_nothing(sim: Simulator, client: ApiClient) -> None:
    before = tag_state(sim)
    error = await refused(
        client,
        "tags.create",
        body={"label": "partial", "domains": [DOMAIN_ID], "computes": [INSTANCE_A, 424242]},
    )
    assert set(error.field_errors()) == {"computes"}
    assert tag_state(sim) == before
    assert "partial" not in await labels(client)


async def test_object_without_read_write_creates_nothing(sim: Simulator) -> None:
    # An unrestricted user whose OAuth token may change the account but only read instances.
    sim.add_token("scoped-token", TokenInfo("demo", frozenset({"account:read_write"})))
    sim.add_token(
        "scoped-token-2",
        TokenInfo("demo", frozenset({"account:read_write", "computes:read_only"})),
    )
    for token in ("scoped-token", "scoped-token-2"):
        api = ApiClient(
            "http://sim.local/v4", token, transport=sim.transport(), allow_insecure=True
        )
        before = tag_state(sim)
        error = await refused(
            api,
            "tags.create",
            body={"label": "needs-rw", "domains": [DOMAIN_ID], "computes": [INSTANCE_A]},
            status=403,
        )
        assert "computes" in error.field_errors()
        assert tag_state(sim) == before
        await api.aclose()


async def test_create_tags_every_listed_object_once(sim: Simulator, client: ApiClient) -> None:
    vid = volume_id(sim)
    made = await client.call(
        "tags.create",
        body={
            "label": "Alpha",
            "computes": [INSTANCE_A, INSTANCE_B, INSTANCE_B],
            "domains": [DOMAIN_ID],
            "volumes": [vid],
            "loadbalancers": [BALANCER_ID],
        },
        model=dict,
    )
    assert made == {"label": "Alpha"}
    a = sim.store.get("compute.instances", INSTANCE_A)
    b = sim.store.get("compute.instances", INSTANCE_B)
    assert a is not None and a["tags"] == ["Alpha"]
    assert b is not None and b["tags"] == ["hidden-one", "Alpha"]
    assert sim.store.get("tags.tags", "Alpha") == {"label": "Alpha"}
    assert await objects_of(client, "Alpha") == [
        ("compute", INSTANCE_A),
        ("compute", INSTANCE_B),
        ("domain", DOMAIN_ID),
        ("volume", vid),
        ("loadbalancer", BALANCER_ID),
    ]
    await refused(client, "tags.create", body={"label": "Alpha"})


# -- list -----------------------------------------------------------------------------------


async def test_list_is_sorted_union_of_explicit_and_object_tags(
    sim: Simulator, client: ApiClient
) -> None:
    await client.call("tags.create", body={"label": "zeta-explicit"}, model=dict)
    got = await labels(client)
    expected: set[str] = {"zeta-explicit", "Alpha", "beta", "hidden-one"}
    for table in TABLES:
        for record in sim.store.rows(table):
            expected.update(record.get("tags") or [])
    expected.update(r["label"] for r in sim.store.rows("tags.tags"))
    assert sorted(got) == sorted(expected) and len(got) == len(set(got))
    assert got == sorted(got, key=lambda t: (t.casefold(), t))
    assert got.index("Alpha") < got.index("beta")


async def test_tag_set_on_an_instance_appears(sim: Simulator, client: ApiClient) -> None:
    seeded = sorted(
        (r for r in sim.store.rows("compute.instances") if r["id"] not in (INSTANCE_A, INSTANCE_B)),
        key=lambda r: r["id"],
    )
    if "compute.instances.update" in sim_registry.HANDLERS and seeded:
        iid = seeded[0]["id"]
        view = await client.call("compute.instances.view", {"computeId": iid}, model=dict)
        await client.call(
            "compute.instances.update",
            {"computeId": iid},
            body={"tags": [*view.get("tags", []), "set-on-instance"]},
            model=dict,
        )
    else:
        # The compute area is not there yet: set the tag on the record as its update would.
        iid = INSTANCE_A
        record = sim.store.get("compute.instances", iid)
        assert record is not None
        record["tags"] = [*record["tags"], "set-on-instance"]
    assert "set-on-instance" in await labels(client)
    assert await objects_of(client, "set-on-instance") == [("compute", iid)]


async def test_tag_set_through_a_volume_update_appears(sim: Simulator, client: ApiClient) -> None:
    vid = volume_id(sim)
    view = await client.call("volumes.view", {"volumeId": vid}, model=dict)
    await client.call(
        "volumes.update",
        {"volumeId": vid},
        body={"tags": [*view["tags"], "via-volume"]},
        model=dict,
    )
    assert "via-volume" in await labels(client)
    assert await objects_of(client, "via-volume") == [("volume", vid)]


async def test_missing_tables_count_as_empty(sim: Simulator, client: ApiClient) -> None:
    for table in TABLES:
        sim.store.tables.pop(table, None)
    assert await labels(client) == sorted(
        (r["label"] for r in sim.store.rows("tags.tags")), key=lambda t: (t.casefold(), t)
    )
    await refused(client, "tags.create", body={"label": "lonely", "computes": [INSTANCE_A]})
    assert (await client.call("tags.create", body={"label": "lonely"}, model=dict))[
        "label"
    ] == "lonely"
    assert await objects_of(client, "lonely") == []


async def test_page_size_bounds(client: ApiClient) -> None:
    with pytest.raises(ApiError) as info:
        await client.call("tags.list", query={"page_size": 10}, model=dict)
    assert info.value.status == 400 and "page_size" in info.value.field_errors()
    page = await client.call(
        "tags.objects", {"label": "Alpha"}, query={"page_size": 25}, model=dict
    )
    assert page["results"] == 1


# -- delete ---------------------------------------------------------------------------------


async def test_delete_removes_the_tag_everywhere(sim: Simulator, client: ApiClient) -> None:
    vid = volume_id(sim)
    await client.call(
        "tags.create",
        body={
            "label": "doomed",
            "computes": [INSTANCE_A],
            "domains": [DOMAIN_ID],
            "volumes": [vid],
        },
        model=dict,
    )
    record = sim.store.get("loadbalancers.balancers", BALANCER_ID)
    assert record is not None
    record["tags"] = ["doomed", "keep-me"]
    assert await client.call("tags.delete", {"label": "doomed"}, model=dict) == {}
    for table in TABLES:
        for row in sim.store.rows(table):
            assert "doomed" not in (row.get("tags") or [])
    assert record["tags"] == ["keep-me"]
    assert sim.store.get("tags.tags", "doomed") is None
    assert "doomed" not in await labels(client)
    await refused(client, "tags.delete", {"label": "doomed"}, status=404)


async def test_delete_of_a_tag_living_only_on_objects(sim: Simulator, client: ApiClient) -> None:
    assert await client.call("tags.delete", {"label": "beta"}, model=dict) == {}
    domain = sim.store.get("domains.domains", DOMAIN_ID)
    assert domain is not None and domain["tags"] == []


# -- tagged objects -------------------------------------------------------------------------


async def test_objects_are_a_mixed_collection_of_public_fields(
    sim: Simulator, client: ApiClient
) -> None:
    await client.call(
        "tags.create",
        body={"label": "mixed", "loadbalancers": [BALANCER_ID], "domains": [DOMAIN_ID]},
        model=dict,
    )
    data = (await client.call("tags.objects", {"label": "mixed"}, model=dict))["data"]
    assert [o["type"] for o in data] == ["domain", "loadbalancer"]
    assert data[0]["data"]["domain"] == "rules.example"
    assert data[1]["data"] == {"id": BALANCER_ID, "label": "rules-lb", "tags": ["mixed"]}


async def test_unknown_tag_objects_is_404(client: ApiClient) -> None:
    await refused(client, "tags.objects", {"label": "never-heard-of-it"}, status=404)


async def test_explicit_tag_without_objects_lists_nothing(client: ApiClient) -> None:
    assert await objects_of(client, "decommission-2027") == []


# -- restricted view ------------------------------------------------------------------------


async def test_restricted_user_sees_only_readable_objects(
    sim: Simulator, client: ApiClient, client_for: Callable[..., ApiClient]
) -> None:
    await client.call(
        "tags.create", body={"label": "shared", "computes": [INSTANCE_A, INSTANCE_B]}, model=dict
    )
    grant_restricted(sim.store, "compute", INSTANCE_A, "tag-a", "read_only")
    api = client_for("restricted")
    seen = await labels(api)
    assert "shared" in seen and "Alpha" in seen and "decommission-2027" in seen
    assert "hidden-one" not in seen
    assert await objects_of(api, "shared") == [("compute", INSTANCE_A)]
    await refused(api, "tags.objects", {"label": "hidden-one"}, status=404)
    assert await objects_of(client, "hidden-one") == [("compute", INSTANCE_B)]


# -- seed -----------------------------------------------------------------------------------


def _seed_store(with_objects: bool) -> Store:
    store = Store()
    if with_objects:
        for n in range(3):
            store.put("compute.instances", 100 + n, {"id": 100 + n, "label": f"i{n}", "tags": []})
            store.put("domains.domains", 200 + n, {"id": 200 + n, "domain": f"d{n}.example"})
            store.put("volumes.volumes", 300 + n, {"id": 300 + n, "label": f"v{n}", "tags": []})
        store.put("loadbalancers.balancers", 400, {"id": 400, "label": "lb", "tags": []})
    seed_tags(SeedContext(store, VirtualClock().now(), random.Random("t")))
    return store


def test_seed_tags_several_kinds() -> None:
    store = _seed_store(True)
    production = [
        (table, r["id"])
        for table in TABLES
        for r in store.rows(table)
        if "production" in r.get("tags", [])
    ]
    assert ("compute.instances", 100) in production and ("compute.instances", 101) in production
    assert {t for t, _ in production} == set(TABLES)
    assert any("team:[ops]" in r["tags"] for r in store.rows("compute.instances"))
    assert any(not t.isascii() for r in store.rows("domains.domains") for t in r.get("tags", []))
    explicit = {r["label"] for r in store.rows("tags.tags")}
    assert "decommission-2027" in explicit
    assert not any("decommission-2027" in r.get("tags", []) for t in TABLES for r in store.rows(t))


def test_seed_tags_without_other_areas() -> None:
    store = _seed_store(False)
    assert {r["label"] for r in store.rows("tags.tags")} == {"team:[ops]", "decommission-2027"}
