"""Every id a listing gives for use in a request is accepted there: each listing walked, item by
item, into the creates that take its ids (regions, types, kernels, images, engines, Kubernetes
versions, object storage clusters)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.simulator.rules import refused
from tui.api.client import ApiClient
from tui.simulator import Simulator

_serial = itertools.count(1)


def _label(prefix: str) -> str:
    return f"{prefix}-{next(_serial)}"


def _first(sim: Simulator, table: str, **where: Any) -> Any:
    return next(
        r["id"] for r in sim.store.rows(table) if all(r.get(k) == v for k, v in where.items())
    )


Request = tuple[dict[str, Any] | None, dict[str, Any]]
"""Path parameters and body of a create."""


@dataclass(frozen=True)
class Trip:
    """A listing whose item ids a create takes.

    Attributes:
        listing: The list endpoint.
        create: The endpoint that takes the id.
        request: Path parameters and body of the create for one id.
        usable: Which listed items the reference lets the create use (all by default).
    """

    listing: str
    create: str
    request: Callable[[Simulator, str], Request]
    usable: Callable[[dict[str, Any]], bool] = field(default=lambda item: True)

    @property
    def id(self) -> str:
        return f"{self.listing}->{self.create}"


def _instance(region: str = "us-east", kind: str = "std-2", **more: Any) -> dict[str, Any]:
    return {"region": region, "type": kind, "label": _label("rt"), **more}


def _cluster(region: str = "us-east", version: str = "1.31", kind: str = "std-2") -> dict[str, Any]:
    return {
        "region": region,
        "label": _label("rt"),
        "k8s_version": version,
        "node_pools": [{"type": kind, "count": 1}],
    }


def _database(region: str = "us-east", kind: str = "std-2", engine: str = "mysql/8.0.30") -> Any:
    return {"engine": engine, "label": _label("rt"), "region": region, "type": kind}


TRIPS = (
    Trip("compute.regions.list", "compute.instances.create", lambda s, r: (None, _instance(r))),
    Trip(
        "compute.regions.list",
        "volumes.create",
        lambda s, r: (None, {"region": r, "label": _label("rt")}),
    ),
    Trip("compute.regions.list", "loadbalancers.create", lambda s, r: (None, {"region": r})),
    Trip("compute.regions.list", "k8s.clusters.create", lambda s, r: (None, _cluster(r))),
    Trip("compute.regions.list", "databases.mysql.create", lambda s, r: (None, _database(r))),
    Trip(
        "compute.regions.list",
        "images.upload",
        lambda s, r: (None, {"region": r, "label": _label("rt")}),
    ),
    Trip(
        "compute.types.list",
        "compute.instances.create",
        lambda s, t: (None, _instance(kind=t)),
    ),
    Trip("compute.types.list", "databases.mysql.create", lambda s, t: (None, _database(kind=t))),
    Trip("compute.types.list", "k8s.clusters.create", lambda s, t: (None, _cluster(kind=t))),
    Trip(
        "compute.types.list",
        "k8s.pools.create",
        lambda s, t: (
            {"clusterId": _first(s, "k8s.clusters", label="shop-prod")},
            {"type": t, "count": 1},
        ),
    ),
    Trip(
        "compute.kernels.list",
        "compute.configs.create",
        lambda s, k: (
            {"computeId": _first(s, "compute.instances", label="db-primary")},
            {"label": _label("rt"), "devices": {}, "kernel": k},
        ),
    ),
    Trip(
        "images.list",
        "compute.instances.create",
        lambda s, i: (None, _instance(kind="std-4", image=i, root_pass="rt-Secret-42")),
        usable=lambda image: image["status"] == "available",  # "only available images deploy"
    ),
    Trip(
        "images.list",
        "deployscripts.create",
        lambda s, i: (
            None,
            {"label": _label("round-trip"), "images": [i], "script": "#!/bin/sh\necho hi\n"},
        ),
    ),
    Trip(
        "databases.engines.list",
        "databases.mysql.create",
        lambda s, e: (None, _database(engine=e)),
        usable=lambda engine: engine["engine"] == "mysql",  # MongoDB creation is closed
    ),
    Trip("k8s.versions.list", "k8s.clusters.create", lambda s, v: (None, _cluster(version=v))),
    Trip(
        "object_storage.clusters.list",
        "object_storage.buckets.create",
        lambda s, c: (None, {"cluster": c, "label": _label("round-trip")}),
    ),
)


@pytest.mark.parametrize("trip", TRIPS, ids=lambda t: t.id)
async def test_each_listed_id_is_accepted_by_the_create(
    sim: Simulator, client: ApiClient, trip: Trip
) -> None:
    listed = await client.fetch_all(trip.listing, model=dict)
    usable = [item for item in listed if trip.usable(item)]
    assert usable, f"{trip.listing} lists nothing {trip.create} can use"
    for item in usable:
        params, body = trip.request(sim, str(item["id"]))
        made = await client.call(trip.create, params, body=body, model=dict)
        assert made is not None, (trip.id, item["id"])


def test_every_listing_of_choices_is_walked() -> None:
    walked = {t.listing for t in TRIPS}
    assert {
        "compute.regions.list",
        "compute.types.list",
        "compute.kernels.list",
        "images.list",
        "databases.engines.list",
    } <= walked


async def test_an_engine_is_accepted_as_its_id_and_as_engine_slash_version(
    client: ApiClient,
) -> None:
    engines = await client.fetch_all("databases.engines.list", model=dict)
    mysql = next(e for e in engines if e["engine"] == "mysql")
    for value in (mysql["id"], f"{mysql['engine']}/{mysql['version']}"):
        made = await client.call("databases.mysql.create", body=_database(engine=value), model=dict)
        assert (made["engine"], made["version"]) == ("mysql", mysql["version"])


async def test_a_listed_mongodb_engine_is_refused_because_creation_is_closed(
    client: ApiClient,
) -> None:
    engines = await client.fetch_all("databases.engines.list", model=dict)
    mongo = next(e for e in engines if e["engine"] == "mongodb")
    error = await refused(client, "databases.mysql.create", body=_database(engine=mongo["id"]))
    assert "MongoDB" in error.field_errors()["engine"]
