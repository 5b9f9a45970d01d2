"""Every write route of the registry refuses a body the reference forbids, naming the field.

For each POST and PUT of :data:`tui.api.endpoints.REGISTRY`, on existing items in a state that
allows the operation:

* no body at all: an update (PUT) is refused naming the missing body; a POST whose request has
  required fields is refused naming each of them;
* ``null`` for each required field: refused naming that field (null is as missing as absent);
* an over-long ``label`` (one character past the request model's limit): refused naming
  ``label``.

Every answer is 400: never a success, never a server error. The request models only say which
fields a route requires and how long a label may be; what is refused is the simulator's
reading of the reference. One seeded simulator serves every case in-process.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tui.api.endpoints import REGISTRY, Endpoint
from tui.simulator import DEMO_TOKENS, Simulator, VirtualClock

WRITES = [ep for ep in REGISTRY.values() if ep.method in ("POST", "PUT")]
USABLE = (None, "running", "active", "available", "ready", "ok")
"""Statuses in which an item accepts changes (None: the resource has no status)."""


def required_fields(ep: Endpoint) -> list[str]:
    """Top-level fields the route's request model requires, as sent (aliases)."""
    model = ep.request_model()
    if model is None:
        return []
    return [f.alias or n for n, f in model.model_fields.items() if f.is_required()]


def label_limit(ep: Endpoint) -> int | None:
    """The longest ``label`` the route's request model accepts, or None without one."""
    model = ep.request_model()
    field = model.model_fields.get("label") if model is not None else None
    if field is None:
        return None
    found = [*field.metadata, *_metadata(field.annotation)]
    limits = [m.max_length for m in found if isinstance(getattr(m, "max_length", None), int)]
    return min(limits) if limits else None


def _metadata(annotation: Any) -> Iterator[Any]:
    """Constraint metadata inside ``Annotated[...]``, also under ``X | None``."""
    yield from getattr(annotation, "__metadata__", ())
    for arg in getattr(annotation, "__args__", ()):
        yield from _metadata(arg)


def cases(ep: Endpoint) -> list[tuple[str, Any, str]]:
    """``(case, body, what the refusal names)``: a field, or ``body`` for a missing body."""
    out: list[tuple[str, Any, str]] = []
    required = required_fields(ep)
    if ep.method == "PUT":
        out.append(("no body", None, "body"))
    out += [("no body", None, field) for field in required if ep.method == "POST"]
    out += [(f"{field}: null", {field: None}, field) for field in required]
    limit = label_limit(ep)
    if limit is not None:
        out.append(("over-long label", {"label": "a" * (limit + 1)}, "label"))
    return out


CASES = [(ep, case) for ep in WRITES for case in cases(ep)]


@pytest.fixture(scope="module")
def shared_sim() -> Simulator:
    """One seeded simulator for every case: each is refused, so none changes it."""
    return Simulator(clock=VirtualClock())


def _http(sim: Simulator) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=sim.transport(),
        base_url="http://sim.local/v4",
        headers={"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"},
    )


def _choose(items: list[dict[str, Any]]) -> dict[str, Any]:
    """An item of one's own in a usable state, else the first."""
    for item in items:
        if item.get("status") in USABLE and not item.get("is_public"):
            return item
    return items[0]


async def _items(http: httpx.AsyncClient, path: str) -> list[dict[str, Any]]:
    response = await http.get(path, params={"page_size": 100})
    assert response.status_code == 200, f"GET {path}: {response.text}"
    body = response.json()
    return list(body["data"] if isinstance(body, dict) else body)


async def concrete_path(http: httpx.AsyncClient, template: str) -> str:
    """``template`` with each parameter naming an existing item, found through the listings."""
    path = ""
    for segment in template.strip("/").split("/"):
        if not segment.startswith("{"):
            path += "/" + segment
            continue
        name = segment.strip("{}")
        if path.startswith("/k8s/") and name == "nodeId":
            pools = await _items(http, path.removesuffix("/nodes") + "/pools")
            value = pools[0]["nodes"][0]["id"]
        else:
            item = _choose(await _items(http, path))
            key = {"clusterId": "cluster", "bucket": "label"} if "/buckets" in path else {}
            value = item[key.get(name, "id")]
        path += f"/{value}"
    return path


PATHS: dict[str, str] = {}


@pytest.mark.parametrize(
    ("ep", "case"), CASES, ids=[f"{ep.name}-{case[0]}-{case[2]}" for ep, case in CASES]
)
async def test_a_bad_body_is_refused_naming_the_field(
    shared_sim: Simulator, ep: Endpoint, case: tuple[str, Any, str]
) -> None:
    _name, body, named = case
    async with _http(shared_sim) as http:
        if ep.path not in PATHS:
            PATHS[ep.path] = await concrete_path(http, ep.path)
        path = PATHS[ep.path]
        if body is None:
            response = await http.request(ep.method, path)
        else:
            response = await http.request(ep.method, path, json=body)
    assert response.status_code == 400, f"{ep.method} {path} {body}: {response.text}"
    errors = response.json()["errors"]
    if named == "body":
        assert any("body" in e["reason"] for e in errors), errors
    else:
        assert named in {e.get("field") for e in errors}, errors


def test_every_write_route_has_a_case() -> None:
    """Routes without cases take no body and require nothing (a POST that only acts)."""
    covered = {ep.name for ep, _case in CASES}
    bare = {ep.name for ep in WRITES} - covered
    for name in bare:
        ep = REGISTRY[name]
        assert ep.method == "POST" and not required_fields(ep), name
    assert len(covered) > 50
