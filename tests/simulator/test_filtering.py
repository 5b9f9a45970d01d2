"""``X-Filter`` on listings: every filterable field of every listing, the operators, ordering,
pagination after filtering, and the refusals (400 naming the field)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tui.api.endpoints import REGISTRY
from tui.simulator import DEMO_TOKENS, Simulator, VirtualClock
from tui.simulator.filterable import FILTERABLE
from tui.simulator.validate import same_json

Params = Callable[[Simulator], dict[str, Any]]


def _id_of(table: str, **where: Any) -> Callable[[Simulator], Any]:
    def find(sim: Simulator) -> Any:
        return next(
            r["id"] for r in sim.store.rows(table) if all(r.get(k) == v for k, v in where.items())
        )

    return find


_DB_PRIMARY = _id_of("compute.instances", label="db-primary")
PARAMS: dict[str, Params] = {
    "compute.configs.list": lambda sim: {"computeId": _DB_PRIMARY(sim)},
    "compute.volumes.list": lambda sim: {"computeId": _DB_PRIMARY(sim)},
    "domains.records.list": lambda sim: {
        "domainId": _id_of("domains.domains", domain="example.com")(sim)
    },
}
"""Path parameters of the listings below another resource (a seeded parent)."""

CASES = [(name, field) for name, fields in FILTERABLE.items() for field in sorted(fields)]


def path_of(sim: Simulator, name: str) -> str:
    params = PARAMS[name](sim) if name in PARAMS else {}
    return REGISTRY[name].path.format(**params)


async def listing(
    sim: Simulator,
    name: str,
    flt: Any = None,
    *,
    raw: str | None = None,
    page: int = 1,
    page_size: int = 100,
) -> httpx.Response:
    """One page of ``name`` as the unrestricted demo user, filtered by ``flt`` (or ``raw``)."""
    headers = {"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"}
    if flt is not None or raw is not None:
        headers["X-Filter"] = raw if raw is not None else json.dumps(flt)
    async with httpx.AsyncClient(
        transport=sim.transport(), base_url="http://sim.local/v4", headers=headers
    ) as http:
        return await http.get(path_of(sim, name), params={"page": page, "page_size": page_size})


async def items(sim: Simulator, name: str, flt: Any = None) -> list[dict[str, Any]]:
    response = await listing(sim, name, flt)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["results"] == len(body["data"]) <= 100
    return list(body["data"])


def entries(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def matching(rows: list[dict[str, Any]], field: str, value: Any) -> list[dict[str, Any]]:
    return [r for r in rows if any(same_json(v, value) for v in entries(r.get(field)))]


def refusal(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    errors = response.json()["errors"]
    assert len(errors) == 1 and errors[0]["reason"]
    return dict(errors[0])


# -- the table ------------------------------------------------------------------------------


def test_the_table_names_listings() -> None:
    assert set(FILTERABLE) <= {e.name for e in REGISTRY.values() if e.paged}
    assert all(FILTERABLE.values())


# -- equality over every filterable field ---------------------------------------------------


@pytest.mark.parametrize(("name", "field"), CASES)
async def test_every_filterable_field_selects_by_equality(
    sim: Simulator, name: str, field: str
) -> None:
    everything = await items(sim, name)
    assert everything, f"{name} lists nothing to filter"
    values = [v for row in everything for v in entries(row.get(field))]
    assert values, f"no {name} item answers {field}"
    # Prefer a value that some items have and others lack: the filter must tell them apart.
    value = next(
        (v for v in values if len(matching(everything, field, v)) < len(everything)), values[0]
    )
    expected = matching(everything, field, value)
    got = await items(sim, name, {field: value})
    assert got == expected
    distinct = {json.dumps(v) for row in everything for v in [row.get(field)]}
    if len(distinct) > 1:
        assert 0 < len(got) < len(everything)
    absent = -1 if isinstance(value, int | float) and not isinstance(value, bool) else "no such"
    assert await items(sim, name, {field: absent}) == []


async def test_an_array_field_matches_on_any_entry(sim: Simulator) -> None:
    got = await items(sim, "compute.instances.list", {"tags": "production"})
    assert got and all("production" in r["tags"] for r in got)
    private = await items(sim, "compute.instances.list", {"ipv4": {"+contains": "192.168."}})
    assert private and all(any(a.startswith("192.168.") for a in r["ipv4"]) for r in private)


async def test_null_matches_null(sim: Simulator) -> None:
    got = await items(sim, "domains.records.list", {"tag": None})
    assert got and all(r["tag"] is None for r in got)
    assert await items(sim, "domains.records.list", {"tag": {"+neq": None}})


# -- operators ------------------------------------------------------------------------------


async def test_comparisons_on_numbers(sim: Simulator) -> None:
    everything = await items(sim, "images.list")
    sizes = sorted(i["size"] for i in everything)
    middle = sizes[len(sizes) // 2]
    for op, keep in (
        ("+gt", lambda s: s > middle),
        ("+gte", lambda s: s >= middle),
        ("+lt", lambda s: s < middle),
        ("+lte", lambda s: s <= middle),
    ):
        got = await items(sim, "images.list", {"size": {op: middle}})
        assert got == [i for i in everything if keep(i["size"])], op
    between = await items(sim, "images.list", {"size": {"+gte": 1300, "+lt": 2000}})
    assert between == [i for i in everything if 1300 <= i["size"] < 2000]


async def test_comparisons_on_date_times(sim: Simulator) -> None:
    everything = await items(sim, "profile.apps.list")
    cut = sorted(a["created"] for a in everything)[1]
    got = await items(sim, "profile.apps.list", {"created": {"+gte": cut}})
    assert got == [a for a in everything if a["created"] >= cut]
    # Values of another kind never match a comparison (null expiry, a number for a date).
    later = await items(sim, "profile.apps.list", {"expiry": {"+gt": "2000-01-01T00:00:00"}})
    assert later == [a for a in everything if a["expiry"] is not None]
    assert await items(sim, "profile.apps.list", {"created": {"+gt": 0}}) == []


async def test_neq_and_contains(sim: Simulator) -> None:
    everything = await items(sim, "images.list")
    others = await items(sim, "images.list", {"vendor": {"+neq": "Debian"}})
    assert others == [i for i in everything if i["vendor"] != "Debian"]
    named = await items(sim, "images.list", {"label": {"+contains": "deBIAN"}})
    assert named == [i for i in everything if "debian" in str(i["label"]).lower()]
    assert len(named) >= 2
    untagged = await items(sim, "compute.instances.list", {"tags": {"+neq": "production"}})
    assert untagged and all("production" not in r["tags"] for r in untagged)


async def test_and_or_and_several_keys(sim: Simulator) -> None:
    everything = await items(sim, "images.list")
    debian_or_alpine = await items(
        sim, "images.list", {"+or": [{"vendor": "Debian"}, {"vendor": "Alpine"}]}
    )
    assert debian_or_alpine == [i for i in everything if i["vendor"] in ("Debian", "Alpine")]
    both = await items(sim, "images.list", {"+and": [{"vendor": "Debian"}, {"deprecated": True}]})
    assert both == [i for i in everything if i["vendor"] == "Debian" and i["deprecated"]]
    assert both and len(both) < len(debian_or_alpine)
    keys = await items(sim, "images.list", {"vendor": "Debian", "deprecated": True})
    assert keys == both
    nested = await items(
        sim,
        "images.list",
        {"is_public": True, "+or": [{"size": {"+lt": 1000}}, {"+and": [{"vendor": "Arch"}]}]},
    )
    assert nested == [
        i for i in everything if i["is_public"] and (i["size"] < 1000 or i["vendor"] == "Arch")
    ]


async def test_order_by_ascending_and_descending(sim: Simulator) -> None:
    everything = await items(sim, "images.list")
    up = await items(sim, "images.list", {"+order_by": "size"})
    assert [i["size"] for i in up] == sorted(i["size"] for i in everything)
    down = await items(sim, "images.list", {"+order_by": "size", "+order": "desc"})
    assert [i["size"] for i in down] == sorted((i["size"] for i in everything), reverse=True)
    labels = await items(sim, "images.list", {"is_public": True, "+order_by": "label"})
    assert [i["label"] for i in labels] == sorted(
        (i["label"] for i in everything if i["is_public"]), key=str.casefold
    )
    # Nulls first going up: a group-less domain leads.
    groups = await items(sim, "domains.list", {"+order_by": "group"})
    assert groups[0]["group"] is None


async def test_pagination_applies_after_filtering() -> None:
    sim = Simulator(clock=VirtualClock(), scale=480)
    flt = {"region": "us-east", "+order_by": "id"}
    everything = [r for r in sim.store.rows("compute.instances") if r["region"] == "us-east"]
    assert len(everything) > 50
    first = (await listing(sim, "compute.instances.list", flt, page_size=25)).json()
    assert first["results"] == len(everything)
    assert first["pages"] == -(-len(everything) // 25)
    second = (await listing(sim, "compute.instances.list", flt, page=2, page_size=25)).json()
    ids = sorted(r["id"] for r in everything)
    assert [r["id"] for r in first["data"]] == ids[:25]
    assert [r["id"] for r in second["data"]] == ids[25:50]


async def test_no_filter_and_an_empty_filter_list_everything(sim: Simulator) -> None:
    everything = await items(sim, "volumes.list")
    assert await items(sim, "volumes.list", {}) == everything
    assert (await listing(sim, "volumes.list", raw="  ")).json()["data"] == everything


# -- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "flt", "field"),
    [
        ("compute.instances.list", {"status": "running"}, "status"),
        ("compute.instances.list", {"no_such_field": 1}, "no_such_field"),
        ("compute.instances.list", {"+or": [{"label": "a"}, {"type": "std-2"}]}, "type"),
        ("compute.instances.list", {"+order_by": "status"}, "status"),
        ("compute.instances.list", {"+order_by": 3}, "+order_by"),
        ("compute.instances.list", {"+order_by": "label", "+order": "up"}, "+order"),
        ("compute.instances.list", {"+and": [{"+order_by": "label"}]}, "+order_by"),
        ("compute.instances.list", {"+xor": [{"label": "a"}]}, "+xor"),
        ("compute.instances.list", {"+and": {"label": "a"}}, "+and"),
        ("compute.instances.list", {"+or": []}, "+or"),
        ("compute.instances.list", {"label": {"+like": "web"}}, "label"),
        ("compute.instances.list", {"label": {}}, "label"),
        ("compute.instances.list", {"label": ["a", "b"]}, "label"),
        ("compute.instances.list", {"label": {"+contains": 3}}, "label"),
        ("compute.instances.list", {"id": {"+gt": True}}, "id"),
        ("compute.instances.list", {"id": {"+gt": None}}, "id"),
        ("compute.instances.list", {"tags": {"+neq": ["a"]}}, "tags"),
        ("tags.list", {"label": "x"}, "label"),
        ("object_storage.buckets.list", {"label": "x"}, "label"),
        ("compute.types.list", {"class": "standard"}, "class"),
    ],
)
async def test_refused_filters_name_the_field(
    sim: Simulator, name: str, flt: Any, field: str
) -> None:
    error = refusal(await listing(sim, name, flt))
    assert error["field"] == field


@pytest.mark.parametrize("raw", ["{", "label=web", "[]", '"label"', "null", "3"])
async def test_text_that_is_not_a_json_object_is_refused(sim: Simulator, raw: str) -> None:
    error = refusal(await listing(sim, "volumes.list", raw=raw))
    assert error["field"] == "X-Filter"


async def test_a_refused_filter_lists_the_filterable_fields(sim: Simulator) -> None:
    error = refusal(await listing(sim, "databases.instances.list", {"engine": "mysql"}))
    assert "label, region, type" in error["reason"]
    none = refusal(await listing(sim, "tags.list", {"label": "x"}))
    assert "no filterable field" in none["reason"]
