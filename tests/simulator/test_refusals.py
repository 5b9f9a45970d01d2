"""What the real API refuses, the simulator refuses too; the client's own checks agree.

Covers: updates without a body; label rules on every path (balancers, volumes, managed
credentials) and the seed that follows them; null where a value is required (and null for an
optional field taken as not given); literal path
segments that ``{id}`` routes must not swallow; empty paging parameters; the integer
``priority``, ``weight`` and ``port`` of every DNS record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, ValidationError

from tests.simulator.rules import refused
from tui.api.client import ApiClient
from tui.api.endpoints import REGISTRY
from tui.models.domains import RecordCreate
from tui.models.loadbalancers import LoadBalancerCreate, LoadBalancerUpdate
from tui.models.managed import (
    CredentialCreate,
    CredentialUpdate,
)
from tui.models.volumes import VolumeClone, VolumeCreate, VolumeUpdate
from tui.resources.forms import build_body, form_for
from tui.simulator import DEMO_TOKENS, Simulator, VirtualClock
from tui.simulator.handlers.loadbalancers import BALANCER_LABEL
from tui.simulator.handlers.managed import CREDENTIAL_LABEL


def raw(sim: Simulator) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=sim.transport(),
        base_url="http://sim.local/v4",
        headers={"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"},
    )


def first_id(sim: Simulator, table: str, **where: Any) -> Any:
    return next(
        r["id"] for r in sim.store.rows(table) if all(r.get(k) == v for k, v in where.items())
    )


def fields(response: httpx.Response) -> set[str | None]:
    return {e.get("field") for e in response.json()["errors"]}


def client_accepts(model: type[BaseModel], body: dict[str, Any]) -> bool:
    try:
        model.model_validate(body)
    except ValidationError:
        return False
    return True


# -- an update needs a body -----------------------------------------------------------------

UPDATES_NEEDING_A_BODY = [
    ("/profile", None),
    ("/profile/preferences", None),
    ("/compute/instances/{}", ("compute.instances", {"status": "running"})),
    ("/volumes/{}", ("volumes.volumes", {"status": "active"})),
    ("/domains/{}", ("domains.domains", {})),
    ("/loadbalancers/{}", ("loadbalancers.balancers", {})),
    ("/databases/mysql/instances/{}", ("databases.instances", {"status": "active"})),
    ("/managed/contacts/{}", ("managed.contacts", {})),
    ("/managed/services/{}", ("managed.services", {})),
]


@pytest.mark.parametrize(("template", "item"), UPDATES_NEEDING_A_BODY)
async def test_an_update_without_a_body_is_400_naming_the_body(
    sim: Simulator, template: str, item: tuple[str, dict[str, Any]] | None
) -> None:
    if item is not None and "mysql" in template:
        item = (item[0], {**item[1], "engine": "mysql"})
    path = template.format(first_id(sim, item[0], **item[1])) if item else template
    before = sim.store.dirty
    async with raw(sim) as http:
        response = await http.put(path)
        blank = await http.put(path, content=b"  \n")
    for answer in (response, blank):
        assert answer.status_code == 400, answer.text
        assert "body is required" in answer.json()["errors"][0]["reason"]
    assert sim.store.dirty == before


async def test_an_empty_object_is_still_a_body(sim: Simulator) -> None:
    async with raw(sim) as http:
        assert (await http.put("/profile", json={})).status_code == 200
        assert (await http.put("/profile", json=None)).status_code == 400
        assert (await http.put("/profile", json=[])).status_code == 400


async def test_a_post_whose_fields_are_optional_needs_no_body(sim: Simulator) -> None:
    async with raw(sim) as http:
        response = await http.post("/object-storage/keys")
    assert response.status_code == 200 and response.json()["limited"] is False


# -- label rules on every path --------------------------------------------------------------

BALANCER_LABELS = [
    ("web_front-2", True),
    ("x" * 32, True),
    ("x y!", False),
    ("Zürich", False),
    ("[staging]", False),
    ("ab", False),
    ("x" * 33, False),
]


@pytest.mark.parametrize(("label", "ok"), BALANCER_LABELS)
async def test_balancer_labels_one_rule_on_create_and_update(
    sim: Simulator, client: ApiClient, label: str, ok: bool
) -> None:
    bid = first_id(sim, "loadbalancers.balancers", label="web-frontend")
    create = {"region": "us-east", "label": label}
    update = {"label": label}
    assert client_accepts(LoadBalancerCreate, create) is ok
    assert client_accepts(LoadBalancerUpdate, update) is ok
    if ok:
        await client.call("loadbalancers.update", {"loadbalancerId": bid}, body=update)
        await client.call("loadbalancers.create", body={**create, "label": ("c" + label)[:32]})
        return
    for name, params, body in (
        ("loadbalancers.create", None, create),
        ("loadbalancers.update", {"loadbalancerId": bid}, update),
    ):
        error = await refused(client, name, params, body)
        assert "label" in error.field_errors()


VOLUME_LABELS = [
    ("a", True),
    ("data_2024-x", True),
    ("Zurich_data-1", True),
    ("0", False),
    ("9lives", False),
    ("-data", False),
    ("data--x", False),
    ("data__x", False),
    ("Zürich", False),
    ("a" * 33, False),
]


@pytest.mark.parametrize(("label", "ok"), VOLUME_LABELS)
async def test_volume_labels_on_create_clone_and_rename(
    sim: Simulator, client: ApiClient, label: str, ok: bool
) -> None:
    source = first_id(sim, "volumes.volumes", label="backup-scratch")
    assert client_accepts(VolumeCreate, {"label": label, "region": "us-east"}) is ok
    assert client_accepts(VolumeClone, {"label": label}) is ok
    assert client_accepts(VolumeUpdate, {"label": label}) is ok
    calls = [
        ("volumes.create", None, {"label": label, "region": "us-east"}),
        ("volumes.clone", {"volumeId": source}, {"label": label + "c"}),
        ("volumes.update", {"volumeId": source}, {"label": label + "r"}),
    ]
    for name, params, body in calls:
        if ok and len(body["label"]) <= 32:
            await client.call(name, params, body=body, model=dict)
        else:
            error = await refused(client, name, params, body)
            assert "label" in error.field_errors(), (name, error)


CREDENTIAL_LABELS = [
    ("db.monitor v2", True),
    ("ok", True),
    ("x" * 75, True),
    ("café-ssh", False),
    ("web-[prod]", False),
    ("a", False),
    ("x" * 76, False),
]


@pytest.mark.parametrize(("label", "ok"), CREDENTIAL_LABELS)
async def test_credential_labels_on_create_and_rename(
    sim: Simulator, client: ApiClient, label: str, ok: bool
) -> None:
    cid = first_id(sim, "managed.credentials", label="mysql-monitor")
    assert client_accepts(CredentialCreate, {"label": label, "password": "p"}) is ok
    assert client_accepts(CredentialUpdate, {"label": label}) is ok
    if ok:
        await client.call(
            "managed.credentials.update", {"credentialId": cid}, body={"label": label}
        )
        return
    for name, params, body in (
        ("managed.credentials.create", None, {"label": label, "password": "p"}),
        ("managed.credentials.update", {"credentialId": cid}, {"label": label}),
    ):
        error = await refused(client, name, params, body)
        assert "label" in error.field_errors()


def test_the_seed_follows_the_label_rules(sim: Simulator) -> None:
    """Markup and non-ASCII demo text moved to tags, where any text is allowed."""
    balancers = sim.store.rows("loadbalancers.balancers")
    assert all(BALANCER_LABEL.fullmatch(b["label"]) for b in balancers)
    tags = {tag for b in balancers for tag in b.get("tags") or []}
    assert {"[staging]", "Zürich"} <= tags
    credentials = sim.store.rows("managed.credentials")
    assert all(CREDENTIAL_LABEL.fullmatch(c["label"]) for c in credentials)
    for volume in sim.store.rows("volumes.volumes"):
        assert client_accepts(VolumeUpdate, {"label": volume["label"]}), volume["label"]


# -- null where a value is required ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "body", "field", "model"),
    [
        ("volumes.create", {"label": None, "region": "us-east"}, "label", VolumeCreate),
        ("tags.create", {"label": None}, "label", None),
    ],
)
async def test_null_is_refused_where_a_value_is_required(
    client: ApiClient,
    name: str,
    body: dict[str, Any],
    field: str,
    model: type[BaseModel] | None,
) -> None:
    error = await refused(client, name, None, body)
    assert field in error.field_errors(), error
    if model is not None:
        assert not client_accepts(model, body)


@pytest.mark.parametrize(
    ("name", "param", "body", "field"),
    [
        (
            "managed.contacts.create",
            None,
            {"name": "Ann Lee", "email": "ann@example.com", "phone": None},
            "phone",
        ),
        (
            "managed.credentials.update_secret",
            "credentialId",
            {"password": "new-one", "username": None},
            "username",
        ),
        (
            "managed.credentials.create",
            None,
            {"label": "null-user", "password": "p", "username": None},
            "username",
        ),
        (
            "object_storage.keys.create",
            None,
            {"label": "k", "bucket_access": None},
            "bucket_access",
        ),
        (
            "tags.create",
            None,
            {"label": "null-kinds", "computes": None, "volumes": None},
            "computes",
        ),
    ],
)
async def test_null_for_an_optional_field_means_not_given(
    sim: Simulator,
    client_for: Callable[..., ApiClient],
    name: str,
    param: str | None,
    body: dict[str, Any],
    field: str,
) -> None:
    """The same request with ``field`` left out gets the same answer, from a twin simulator."""
    assert body[field] is None
    params = {param: first_id(sim, "managed.credentials")} if param else None
    with_null = await client_for("unrestricted").call(name, params, body=body, model=dict)
    twin = Simulator(clock=VirtualClock())
    left_out = {k: v for k, v in body.items() if v is not None}
    without = await twin.client().call(name, params, body=left_out, model=dict)
    assert _comparable(with_null) == _comparable(without)


def _comparable(answer: Any) -> Any:
    """An answer without what differs between two runs (generated secrets and keys)."""
    if not isinstance(answer, dict):
        return answer
    return {k: v for k, v in answer.items() if k not in ("access_key", "secret_key")}


async def test_a_contact_update_may_still_clear_the_phone_with_null(
    sim: Simulator, client: ApiClient
) -> None:
    cid = first_id(sim, "managed.contacts")
    out = await client.call(
        "managed.contacts.update", {"contactId": cid}, body={"phone": None}, model=dict
    )
    assert out["phone"] == {"primary": None, "secondary": None}


# -- literal path segments win over {id} ----------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/domains/import", "POST"),
        ("DELETE", "/domains/import", "POST"),
        ("PUT", "/managed/credentials/sshkey", "GET"),
        ("POST", "/managed/credentials/sshkey", "GET"),
        ("GET", "/images/upload", "POST"),
        ("OPTIONS", "/images/upload", "POST"),
        ("DELETE", "/images/upload", "POST"),
    ],
)
async def test_fixed_segments_are_not_ids(
    sim: Simulator, method: str, path: str, allow: str
) -> None:
    async with raw(sim) as http:
        response = await http.request(method, path)
    assert response.status_code == 405, response.text
    assert response.headers["allow"] == allow
    assert "not found" not in response.text.lower()


async def test_ids_still_reach_their_routes(sim: Simulator) -> None:
    image = first_id(sim, "images.images", is_public=False)
    async with raw(sim) as http:
        assert (await http.get(f"/images/{image}")).status_code == 200
        assert (await http.get("/managed/credentials/sshkey")).status_code == 200
        credential = first_id(sim, "managed.credentials")
        assert (await http.get(f"/managed/credentials/{credential}")).status_code == 200
        options = await http.request("OPTIONS", f"/images/{image}")
    assert options.headers["allow"] == "DELETE, GET, PUT"


# -- paging parameters ----------------------------------------------------------------------


@pytest.mark.parametrize("query", ["page=", "page_size=", "page=abc", "page= 1", "page=1.0"])
async def test_an_empty_or_malformed_paging_parameter_is_400(sim: Simulator, query: str) -> None:
    name = query.partition("=")[0]
    bucket = sim.store.rows("object_storage.buckets")[0]
    object_list = f"/object-storage/buckets/{bucket['cluster']}/{bucket['label']}/object-list"
    async with raw(sim) as http:
        listing = await http.get(f"/volumes?{query}")
        objects = await http.get(f"{object_list}?{query}")
    assert listing.status_code == 400 and fields(listing) == {name}
    if name == "page_size":
        assert objects.status_code == 400 and fields(objects) == {name}


# -- DNS records carry integers -------------------------------------------------------------


async def test_every_record_answers_integer_priority_weight_and_port(
    sim: Simulator, client: ApiClient
) -> None:
    listing = REGISTRY["domains.records.list"]
    kinds: set[str] = set()
    for domain in sim.store.rows("domains.domains"):
        for record in await client.fetch_all(listing, {"domainId": domain["id"]}, model=dict):
            kinds.add(record["type"])
            for field in ("priority", "weight", "port"):
                value = record[field]
                assert isinstance(value, int) and not isinstance(value, bool), record
            if record["type"] in ("A", "AAAA"):
                assert (record["priority"], record["weight"], record["port"]) == (0, 0, 0)
    assert {"A", "AAAA"} <= kinds


async def test_an_address_record_read_and_sent_back_stays_valid(
    sim: Simulator, client: ApiClient
) -> None:
    domain = sim.store.rows("domains.domains")[0]["id"]
    made = await client.call(
        "domains.records.create",
        {"domainId": domain},
        body={"type": "AAAA", "name": "v6", "target": "2001:db8::7"},
        model=dict,
    )
    assert (made["priority"], made["weight"], made["port"]) == (0, 0, 0)
    echo = {k: made[k] for k in ("name", "target", "ttl_sec", "priority", "weight", "port")}
    params = {"domainId": domain, "recordId": made["id"]}
    again = await client.call("domains.records.update", params, body=echo, model=dict)
    assert again["priority"] == 0
    error = await refused(client, "domains.records.update", params, {"weight": 5})
    assert "weight" in error.field_errors()
    assert client_accepts(RecordCreate, {"type": "AAAA", **echo})
    assert not client_accepts(RecordCreate, {"type": "AAAA", **echo, "weight": 5})


def test_an_edit_form_that_clears_a_balancer_label_says_so_before_sending() -> None:
    """The simulator refuses ``label: null``; the form reports it on the label input."""
    form = form_for("loadbalancers:LoadBalancerUpdate")
    initial = {"label": "web-frontend", "client_conn_throttle": "10"}
    cleared = build_body(form, {**initial, "label": ""}, initial=initial)
    assert cleared.body is None and "label" in cleared.errors
    renamed = build_body(form, {**initial, "label": "web_2"}, initial=initial)
    assert renamed.body == {"label": "web_2"}
