"""Managed-support rules: unrestricted only, field validation (bad input changes nothing),
secrets never returned, compute settings per instance, service rules and lifecycle, stats."""

from __future__ import annotations

import base64
import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.simulator.rules import refused
from tui.api.client import ApiClient
from tui.api.endpoints import REGISTRY
from tui.api.errors import ApiError
from tui.simulator import Simulator, VirtualClock
from tui.simulator.context import SeedContext
from tui.simulator.seeds.managed import seed_managed
from tui.simulator.store import Store

INSTANCE_ID = 990600
OTHER_ID = 990601
MANAGED = sorted(name for name in REGISTRY if name.startswith("managed."))


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """Regions and two instances, in case the compute area has not seeded them."""
    for rid in ("us-east", "eu-west"):
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )
    for iid, label in ((INSTANCE_ID, "rules-host"), (OTHER_ID, "rules-other")):
        sim.store.put("compute.instances", iid, {"id": iid, "label": label, "status": "running"})


def snapshot(sim: Simulator) -> dict[str, Any]:
    return copy.deepcopy({k: v for k, v in sim.store.tables.items() if k.startswith("managed.")})


async def invalid(
    sim: Simulator,
    api: ApiClient,
    name: str,
    params: dict[str, Any] | None,
    body: Any,
    field: str,
) -> None:
    """400 naming ``field``, and no managed table changed."""
    before = snapshot(sim)
    error = await refused(api, name, params, body)
    assert field in error.field_errors(), error
    assert snapshot(sim) == before


def _params(name: str) -> dict[str, Any]:
    return {p: 1 for p in REGISTRY[name].params}


# -- access ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MANAGED)
async def test_restricted_user_is_refused_every_operation(
    name: str, sim: Simulator, client_for: Callable[..., ApiClient]
) -> None:
    api = client_for("restricted")
    before = snapshot(sim)
    body = {"label": "abc"} if REGISTRY[name].writes else None
    error = await refused(api, name, _params(name), body, status=403)
    assert "unrestricted" in error.reasons
    assert snapshot(sim) == before


async def test_readonly_token_reads_but_cannot_write(
    sim: Simulator, client_for: Callable[..., ApiClient]
) -> None:
    api = client_for("readonly")
    assert (await api.call("managed.services.list", model=dict))["results"] >= 1
    await refused(api, "managed.contacts.create", body={"name": "Ann"}, status=403)


async def test_anonymous_is_401(client_for: Callable[..., ApiClient]) -> None:
    await refused(client_for("anonymous"), "managed.stats", status=401)


async def test_page_size_bounds(client: ApiClient) -> None:
    with pytest.raises(ApiError) as info:
        await client.call("managed.contacts.list", query={"page_size": 24}, model=dict)
    assert info.value.status == 400 and "page_size" in info.value.field_errors()
    with pytest.raises(ApiError):
        await client.call("managed.contacts.list", query={"page_size": 101}, model=dict)


# -- contacts -------------------------------------------------------------------------------

GOOD_CONTACT = {"name": "Ann Lee", "email": "ann@example.com"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"email": "ann@example.com"}, "name"),
        ({**GOOD_CONTACT, "name": "A"}, "name"),
        ({**GOOD_CONTACT, "name": "x" * 65}, "name"),
        ({"name": "Ann"}, "email"),
        ({**GOOD_CONTACT, "email": "ann.example.com"}, "email"),
        ({**GOOD_CONTACT, "group": "g"}, "group"),
        ({**GOOD_CONTACT, "group": "g" * 51}, "group"),
        ({**GOOD_CONTACT, "phone": "555"}, "phone"),
        ({**GOOD_CONTACT, "phone": {"primary": "call me"}}, "phone.primary"),
        ({**GOOD_CONTACT, "phone": {"secondary": "+1 23"}}, "phone.secondary"),
        ({**GOOD_CONTACT, "phone": {"primary": "1" * 16}}, "phone.primary"),
        ({**GOOD_CONTACT, "phone": {"fax": "+1 215 555 0100"}}, "phone.fax"),
        ({**GOOD_CONTACT, "twitter": "@ann"}, "twitter"),
    ],
)
async def test_contact_create_rules(
    body: dict[str, Any], field: str, sim: Simulator, client: ApiClient
) -> None:
    await invalid(sim, client, "managed.contacts.create", None, body, field)


async def test_contact_group_and_phone_are_nullable(client: ApiClient) -> None:
    made = await client.call(
        "managed.contacts.create",
        body={**GOOD_CONTACT, "group": None, "phone": {"primary": "+1 (215) 555-0100"}},
        model=dict,
    )
    assert made["group"] is None
    assert made["phone"] == {"primary": "+1 (215) 555-0100", "secondary": None}
    cleared = await client.call(
        "managed.contacts.update", {"contactId": made["id"]}, body={"phone": None}, model=dict
    )
    assert cleared["phone"] == {"primary": None, "secondary": None}


async def test_contact_update_is_partial_and_validated(sim: Simulator, client: ApiClient) -> None:
    made = await client.call(
        "managed.contacts.create", body={**GOOD_CONTACT, "group": "ops"}, model=dict
    )
    params = {"contactId": made["id"]}
    await invalid(
        sim, client, "managed.contacts.update", params, {"name": "Ann B", "group": "x"}, "group"
    )
    changed = await client.call(
        "managed.contacts.update", params, body={"name": "Ann B"}, model=dict
    )
    assert changed["name"] == "Ann B" and changed["group"] == "ops"
    assert changed["email"] == "ann@example.com"


async def test_unknown_contact_is_404(client: ApiClient) -> None:
    await refused(client, "managed.contacts.view", {"contactId": 1}, status=404)
    await refused(client, "managed.contacts.delete", {"contactId": "abc"}, status=404)


# -- credentials ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"password": "p"}, "label"),
        ({"label": "x", "password": "p"}, "label"),
        ({"label": "x" * 76, "password": "p"}, "label"),
        ({"label": "mysql-monitor", "password": "p"}, "label"),
        ({"label": "new-cred"}, "password"),
        ({"label": "new-cred", "password": ""}, "password"),
        ({"label": "new-cred", "password": "p", "username": "u" * 5001}, "username"),
        ({"label": "new-cred", "password": "p", "note": "x"}, "note"),
    ],
)
async def test_credential_create_rules(
    body: dict[str, Any], field: str, sim: Simulator, client: ApiClient
) -> None:
    await invalid(sim, client, "managed.credentials.create", None, body, field)


async def test_credential_username_at_limit_is_accepted(client: ApiClient) -> None:
    made = await client.call(
        "managed.credentials.create",
        body={"label": "long-user", "password": "p", "username": "u" * 5000},
        model=dict,
    )
    assert made["label"] == "long-user"


async def test_password_is_never_returned(client: ApiClient) -> None:
    secret = "Zebra-Secret-42"
    made = await client.call(
        "managed.credentials.create",
        body={"label": "secretive", "password": secret, "username": "svc-user"},
        model=dict,
    )
    params = {"credentialId": made["id"]}
    answers = [
        made,
        await client.call("managed.credentials.view", params, model=dict),
        await client.call("managed.credentials.list", model=dict),
        await client.call(
            "managed.credentials.update", params, body={"label": "secretive-2"}, model=dict
        ),
        await client.call(
            "managed.credentials.update_secret", params, body={"password": secret + "!"}, model=dict
        ),
    ]
    for answer in answers:
        text = repr(answer)
        assert secret not in text and "password" not in text and "svc-user" not in text


async def test_credential_update_changes_label_only(sim: Simulator, client: ApiClient) -> None:
    made = await client.call(
        "managed.credentials.create", body={"label": "only", "password": "p"}, model=dict
    )
    params = {"credentialId": made["id"]}
    await invalid(
        sim,
        client,
        "managed.credentials.update",
        params,
        {"label": "ok", "password": "q"},
        "password",
    )
    await invalid(sim, client, "managed.credentials.update", params, {}, "label")
    await invalid(
        sim, client, "managed.credentials.update", params, {"label": "mysql-monitor"}, "label"
    )
    same = await client.call(
        "managed.credentials.update", params, body={"label": "only"}, model=dict
    )
    assert same["label"] == "only"


async def test_credential_update_secret_rules(sim: Simulator, client: ApiClient) -> None:
    made = await client.call(
        "managed.credentials.create",
        body={"label": "sec", "password": "p", "username": "u1"},
        model=dict,
    )
    params = {"credentialId": made["id"]}
    await invalid(
        sim, client, "managed.credentials.update_secret", params, {"username": "u2"}, "password"
    )
    await invalid(
        sim,
        client,
        "managed.credentials.update_secret",
        params,
        {"password": "q", "label": "x"},
        "label",
    )
    assert (
        await client.call(
            "managed.credentials.update_secret", params, body={"password": "q"}, model=dict
        )
        == {}
    )
    record = sim.store.get("managed.credentials", made["id"])
    assert record is not None and record["_password"] == "q" and record["_username"] == "u1"


async def test_revoke_deletes_and_unlinks_services(sim: Simulator, client: ApiClient) -> None:
    made = await client.call(
        "managed.credentials.create", body={"label": "gone", "password": "p"}, model=dict
    )
    service = await client.call(
        "managed.services.create",
        body={
            "label": "uses-cred",
            "service_type": "url",
            "address": "https://x.example.com/",
            "timeout": 5,
            "credentials": [made["id"]],
        },
        model=dict,
    )
    assert service["credentials"] == [made["id"]]
    assert (
        await client.call("managed.credentials.revoke", {"credentialId": made["id"]}, model=dict)
        == {}
    )
    await refused(client, "managed.credentials.view", {"credentialId": made["id"]}, status=404)
    after = await client.call("managed.services.view", {"serviceId": service["id"]}, model=dict)
    assert after["credentials"] == []
    await refused(client, "managed.credentials.revoke", {"credentialId": made["id"]}, status=404)


async def test_ssh_key_is_a_deterministic_ed25519_key(sim: Simulator, client: ApiClient) -> None:
    key = (await client.call("managed.credentials.sshkey", model=dict))["ssh_key"]
    kind, blob, comment = key.split(" ")
    assert kind == "ssh-ed25519" and comment == "managedservices@cloudtui"
    raw = base64.b64decode(blob)
    assert raw[:4] == (11).to_bytes(4, "big") and raw[4:15] == b"ssh-ed25519"
    assert raw[15:19] == (32).to_bytes(4, "big") and len(raw) == 51
    other = Simulator(clock=VirtualClock())
    api = other.client()
    assert (await api.call("managed.credentials.sshkey", model=dict))["ssh_key"] == key
    await api.aclose()


# -- issues ---------------------------------------------------------------------------------


async def test_issues_are_read_only(sim: Simulator, client: ApiClient) -> None:
    issues = (await client.call("managed.issues.list", model=dict))["data"]
    assert len(issues) >= 2
    created = [i["created"] for i in issues]
    assert created == sorted(created, reverse=True)
    first = issues[0]
    assert set(first) >= {"id", "created", "entity", "services", "ticket"}
    assert set(first["entity"]) == {"id", "label", "type", "url"}
    service_ids = {s["id"] for s in sim.store.rows("managed.services")}
    assert set(first["services"]) <= service_ids
    with pytest.raises(ApiError) as info:
        await client.request("POST", "/managed/issues", json={})
    assert info.value.status == 405
    await refused(client, "managed.issues.view", {"issueId": 5}, status=404)


# -- compute settings -----------------------------------------------------------------------


async def test_one_settings_entry_per_instance_with_defaults(
    sim: Simulator, client: ApiClient
) -> None:
    rows = (await client.call("managed.compute_settings.list", model=dict))["data"]
    ids = [r["id"] for r in rows]
    assert sorted(ids) == sorted(r["id"] for r in sim.store.rows("compute.instances"))
    entry = next(r for r in rows if r["id"] == INSTANCE_ID)
    assert entry == {
        "id": INSTANCE_ID,
        "label": "rules-host",
        "group": "",
        "ssh": {"access": True, "ip": "any", "port": None, "user": None},
    }


async def test_deleted_instance_settings_disappear(sim: Simulator, client: ApiClient) -> None:
    params = {"computeId": OTHER_ID}
    await client.call(
        "managed.compute_settings.update", params, body={"ssh": {"port": 2022}}, model=dict
    )
    sim.store.delete("compute.instances", OTHER_ID)
    ids = [
        r["id"] for r in (await client.call("managed.compute_settings.list", model=dict))["data"]
    ]
    assert OTHER_ID not in ids
    await refused(client, "managed.compute_settings.view", params, status=404)
    await refused(client, "managed.compute_settings.update", params, {"ssh": {}}, status=404)


async def test_settings_follow_live_instance_label(sim: Simulator, client: ApiClient) -> None:
    record = sim.store.get("compute.instances", INSTANCE_ID)
    assert record is not None
    record["label"] = "renamed-host"
    seen = await client.call(
        "managed.compute_settings.view", {"computeId": INSTANCE_ID}, model=dict
    )
    assert seen["label"] == "renamed-host"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "ssh"),
        ({"ssh": "on"}, "ssh"),
        ({"ssh": {"port": 0}}, "ssh.port"),
        ({"ssh": {"port": 65536}}, "ssh.port"),
        ({"ssh": {"port": "22"}}, "ssh.port"),
        ({"ssh": {"user": "u" * 33}}, "ssh.user"),
        ({"ssh": {"ip": "somewhere"}}, "ssh.ip"),
        ({"ssh": {"access": "yes"}}, "ssh.access"),
        ({"ssh": {"shell": "bash"}}, "ssh.shell"),
        ({"ssh": {}, "label": "x"}, "label"),
    ],
)
async def test_compute_settings_update_rules(
    body: dict[str, Any], field: str, sim: Simulator, client: ApiClient
) -> None:
    await invalid(
        sim, client, "managed.compute_settings.update", {"computeId": INSTANCE_ID}, body, field
    )


async def test_compute_settings_update_merges_and_nulls_mean_defaults(client: ApiClient) -> None:
    params = {"computeId": INSTANCE_ID}
    first = await client.call(
        "managed.compute_settings.update",
        params,
        body={"ssh": {"port": 65535, "user": "u" * 32, "ip": "2001:db8::1"}},
        model=dict,
    )
    assert first["ssh"] == {"access": True, "ip": "2001:db8::1", "port": 65535, "user": "u" * 32}
    second = await client.call(
        "managed.compute_settings.update",
        params,
        body={"ssh": {"access": False, "port": None}},
        model=dict,
    )
    assert second["ssh"] == {"access": False, "ip": "2001:db8::1", "port": None, "user": "u" * 32}
    third = await client.call(
        "managed.compute_settings.update",
        params,
        body={"ssh": {"ip": "any", "user": None}},
        model=dict,
    )
    assert third["ssh"]["ip"] == "any" and third["ssh"]["user"] is None


# -- services -------------------------------------------------------------------------------

GOOD_SERVICE = {
    "label": "checker",
    "service_type": "url",
    "address": "https://www.example.com/health",
    "timeout": 10,
}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**GOOD_SERVICE, "label": None}, "label"),
        ({k: v for k, v in GOOD_SERVICE.items() if k != "label"}, "label"),
        ({**GOOD_SERVICE, "label": "ab"}, "label"),
        ({**GOOD_SERVICE, "label": "x" * 65}, "label"),
        ({k: v for k, v in GOOD_SERVICE.items() if k != "address"}, "address"),
        ({**GOOD_SERVICE, "address": "ab"}, "address"),
        ({**GOOD_SERVICE, "address": "https://example.com/" + "a" * 81}, "address"),
        ({**GOOD_SERVICE, "address": "ftp://example.com/"}, "address"),
        ({**GOOD_SERVICE, "address": "example.com/health"}, "address"),
        ({**GOOD_SERVICE, "address": "https://exa mple.com/"}, "address"),
        ({**GOOD_SERVICE, "service_type": "tcp"}, "address"),
        ({**GOOD_SERVICE, "service_type": "tcp", "address": "db.example.com"}, "address"),
        ({**GOOD_SERVICE, "service_type": "tcp", "address": "db.example.com:70000"}, "address"),
        ({k: v for k, v in GOOD_SERVICE.items() if k != "service_type"}, "service_type"),
        ({**GOOD_SERVICE, "service_type": "icmp"}, "service_type"),
        ({k: v for k, v in GOOD_SERVICE.items() if k != "timeout"}, "timeout"),
        ({**GOOD_SERVICE, "timeout": 0}, "timeout"),
        ({**GOOD_SERVICE, "timeout": 256}, "timeout"),
        ({**GOOD_SERVICE, "timeout": 1.5}, "timeout"),
        ({**GOOD_SERVICE, "body": "b" * 101}, "body"),
        ({**GOOD_SERVICE, "consultation_group": "g" * 51}, "consultation_group"),
        ({**GOOD_SERVICE, "credentials": [424242]}, "credentials"),
        ({**GOOD_SERVICE, "credentials": "all"}, "credentials"),
        ({**GOOD_SERVICE, "notes": 5}, "notes"),
        ({**GOOD_SERVICE, "region": "us-east"}, "region"),
        ({**GOOD_SERVICE, "address": "http://10.0.0.5:8080/health"}, "region"),
        ({**GOOD_SERVICE, "address": "http://192.168.1.5/", "region": "mars-1"}, "region"),
        ({**GOOD_SERVICE, "service_type": "tcp", "address": "172.16.0.9:22"}, "region"),
        ({**GOOD_SERVICE, "service_type": "tcp", "address": "[fd00::5]:22"}, "region"),
        ({**GOOD_SERVICE, "colour": "red"}, "colour"),
    ],
)
async def test_service_create_rules(
    body: dict[str, Any], field: str, sim: Simulator, client: ApiClient
) -> None:
    await invalid(sim, client, "managed.services.create", None, body, field)


async def test_service_limits_at_their_edges_are_accepted(client: ApiClient) -> None:
    cred = (await client.call("managed.credentials.list", model=dict))["data"][0]["id"]
    made = await client.call(
        "managed.services.create",
        body={
            "label": "x" * 64,
            "service_type": "tcp",
            "address": "10.20.30.40:65535",
            "timeout": 255,
            "region": "us-east",
            "body": "b" * 100,
            "consultation_group": "g" * 50,
            "credentials": [cred, cred],
            "notes": None,
        },
        model=dict,
    )
    assert made["region"] == "us-east" and made["credentials"] == [cred]
    short = await client.call(
        "managed.services.create",
        body={**GOOD_SERVICE, "label": "abc", "address": "http://a.b", "timeout": 1},
        model=dict,
    )
    assert short["address"] == "http://a.b" and short["region"] is None


async def test_address_keeps_query_and_drops_fragment(client: ApiClient) -> None:
    made = await client.call(
        "managed.services.create",
        body={**GOOD_SERVICE, "address": "https://shop.example.com/p?no-cache=1&x=2#monitor"},
        model=dict,
    )
    assert made["address"] == "https://shop.example.com/p?no-cache=1&x=2"
    seen = await client.call("managed.services.view", {"serviceId": made["id"]}, model=dict)
    assert seen["address"] == made["address"]


async def test_public_ip_needs_no_region(client: ApiClient) -> None:
    made = await client.call(
        "managed.services.create",
        body={**GOOD_SERVICE, "service_type": "tcp", "address": "203.0.113.10:443"},
        model=dict,
    )
    assert made["region"] is None and made["service_type"] == "tcp"


async def test_service_update_checks_the_merged_result(sim: Simulator, client: ApiClient) -> None:
    made = await client.call("managed.services.create", body=GOOD_SERVICE, model=dict)
    params = {"serviceId": made["id"]}
    update = "managed.services.update"
    await invalid(sim, client, update, params, {"service_type": "tcp"}, "service_type")
    await invalid(sim, client, update, params, {"address": "http://10.9.8.7/"}, "region")
    await invalid(sim, client, update, params, {"region": "us-east"}, "region")
    await invalid(sim, client, update, params, {"label": "ab"}, "label")
    await invalid(sim, client, update, params, {"timeout": 0}, "timeout")
    private = await client.call(
        update, params, body={"address": "http://10.9.8.7/#x", "region": "eu-west"}, model=dict
    )
    assert private["address"] == "http://10.9.8.7/" and private["region"] == "eu-west"
    # Leaving the private address without mentioning region drops the region.
    public_again = await client.call(
        update, params, body={"address": "https://example.net/"}, model=dict
    )
    assert public_again["region"] is None
    cleared = await client.call(update, params, body={"body": None, "notes": None}, model=dict)
    assert cleared["body"] is None and cleared["label"] == "checker"


def check_delay(sim: Simulator) -> float:
    """Seconds a new or re-enabled service stays pending (the simulator's timing)."""
    return sim.timings.get("managed.check", 5.0)


async def test_service_starts_pending_then_ok(
    sim: Simulator, client: ApiClient, clock: VirtualClock
) -> None:
    made = await client.call("managed.services.create", body=GOOD_SERVICE, model=dict)
    params = {"serviceId": made["id"]}
    assert made["status"] == "pending"
    clock.advance(check_delay(sim) - 1)
    assert (await client.call("managed.services.view", params, model=dict))["status"] == "pending"
    clock.advance(1)
    assert (await client.call("managed.services.view", params, model=dict))["status"] == "ok"


async def test_disable_and_enable(sim: Simulator, client: ApiClient, clock: VirtualClock) -> None:
    made = await client.call("managed.services.create", body=GOOD_SERVICE, model=dict)
    params = {"serviceId": made["id"]}
    disabled = await client.call("managed.services.disable", params, model=dict)
    assert disabled["status"] == "disabled"
    clock.advance(check_delay(sim) * 2)
    # The pending check was cancelled: a disabled service stays disabled.
    assert (await client.call("managed.services.view", params, model=dict))["status"] == "disabled"
    assert (await client.call("managed.services.disable", params, model=dict))[
        "status"
    ] == "disabled"
    enabled = await client.call("managed.services.enable", params, model=dict)
    assert enabled["status"] == "pending"
    clock.advance(check_delay(sim))
    assert (await client.call("managed.services.view", params, model=dict))["status"] == "ok"
    again = await client.call("managed.services.enable", params, model=dict)
    assert again["status"] == "ok"


async def test_delete_stops_monitoring(sim: Simulator, client: ApiClient) -> None:
    made = await client.call("managed.services.create", body=GOOD_SERVICE, model=dict)
    params = {"serviceId": made["id"]}
    assert await client.call("managed.services.delete", params, model=dict) == {}
    assert not [e for e in sim.store.events if e["args"].get("id") == made["id"]]
    await refused(client, "managed.services.view", params, status=404)
    await refused(client, "managed.services.enable", params, status=404)


# -- stats ----------------------------------------------------------------------------------


async def test_stats_cover_the_last_24_hours_deterministically(
    client: ApiClient, clock: VirtualClock
) -> None:
    first = (await client.call("managed.stats", model=dict))["data"]
    assert set(first) == {"cpu", "disk", "swap", "net_in", "net_out"}
    now_ms = clock.now() * 1000
    for series in first.values():
        xs = [p["x"] for p in series]
        assert xs == sorted(xs) and len(xs) == 288
        assert now_ms - 24 * 3600 * 1000 < xs[0] and xs[-1] <= now_ms
        assert all(p["y"] >= 0 for p in series)
    assert all(0 <= p["y"] <= 100 for p in first["cpu"])
    assert (await client.call("managed.stats", model=dict))["data"] == first
    clock.advance(300)
    later = (await client.call("managed.stats", model=dict))["data"]
    assert later["cpu"][:-1] == first["cpu"][1:]


# -- seed -----------------------------------------------------------------------------------


def test_seed_has_varied_demo_data() -> None:
    import random

    store = Store()
    store.put("compute.instances", 5, {"id": 5, "label": "seeded"})
    ctx = SeedContext(store, VirtualClock().now(), random.Random("x"))
    seed_managed(ctx)
    contacts = store.rows("managed.contacts")
    assert any(not c["name"].isascii() for c in contacts)
    services = store.rows("managed.services")
    assert {"ok", "disabled", "problem", "pending"} <= {s["status"] for s in services}
    tcp_private = [s for s in services if s["service_type"] == "tcp" and s["region"]]
    assert tcp_private and tcp_private[0]["address"].startswith("192.168.")
    assert any(s["service_type"] == "url" for s in services)
    assert store.rows("managed.credentials") and store.rows("managed.issues")
    assert all(r["_password"] for r in store.rows("managed.credentials"))
    assert store.get("managed.compute_settings", 5) is not None
