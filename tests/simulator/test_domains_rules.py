"""Domain rules: zone names, types, timings, records per type, Null MX, zone files, clone,
import, permissions. Every refusal names its field and leaves the state unchanged."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.simulator.rules import refusal_check
from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.api.retry import RetryPolicy
from tui.simulator import Simulator, VirtualClock
from tui.simulator.auth import DEMO_TOKENS
from tui.simulator.context import SeedContext
from tui.simulator.handlers.domains import (
    FOREIGN_DOMAINS,
    NAMESERVERS,
    RECORD_TYPES,
    round_record_ttl,
    round_zone_seconds,
)
from tui.simulator.seed import ensure_users
from tui.simulator.seeds.domains import seed_domains
from tui.simulator.store import Store

DOMAINS = "domains.domains"
RECORDS = "domains.records"
MASTER = {"type": "master", "soa_email": "hostmaster@rules.example"}


# -- helpers --------------------------------------------------------------------------------


def dom(sim: Simulator, name: str) -> dict[str, Any]:
    return next(d for d in sim.store.rows(DOMAINS) if d["domain"] == name)


def did(sim: Simulator, name: str) -> int:
    return int(dom(sim, name)["id"])


def records(sim: Simulator, domain_id: int) -> list[dict[str, Any]]:
    return [r for r in sim.store.rows(RECORDS) if r["_domain_id"] == domain_id]


def _state(sim: Simulator) -> dict[str, Any]:
    return copy.deepcopy(
        {
            "tables": {k: v for k, v in sim.store.tables.items() if k.startswith("domains.")},
            "counters": {k: v for k, v in sim.store.counters.items() if k.startswith("domains.")},
            "users": sim.store.tables.get("users"),
            "events": sim.store.events,
        }
    )


_bad = refusal_check(_state)
"""The call is refused with ``status``, names ``field``, and changes nothing."""


async def _new_zone(client: ApiClient, name: str = "rules.example", **extra: Any) -> int:
    made = await client.call("domains.create", body={"domain": name, **MASTER, **extra}, model=dict)
    return int(made["id"])


async def _add(client: ApiClient, domain_id: int, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = await client.call(
        "domains.records.create", {"domainId": domain_id}, body=fields, model=dict
    )
    return out


async def _bad_record(
    client: ApiClient, sim: Simulator, domain_id: int, body: dict[str, Any], field: str, **kw: Any
) -> ApiError:
    return await _bad(
        client, sim, "domains.records.create", {"domainId": domain_id}, body, field, **kw
    )


async def _zone(client: ApiClient, domain_id: int) -> list[str]:
    out = await client.call("domains.zone_file", {"domainId": domain_id}, model=dict)
    return list(out["zone_file"])


def _serial(lines: list[str]) -> int:
    soa = next(line for line in lines if " SOA " in line)
    return int(soa.split()[-5])


# -- authentication and scopes --------------------------------------------------------------


async def test_anonymous_and_unscoped_tokens_refused(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    await _refused(client_for("anonymous"), "domains.list", status=401)
    readonly = client_for("readonly")
    assert (await readonly.call("domains.list", model=dict))["results"] == len(
        sim.store.rows(DOMAINS)
    )
    before = _state(sim)
    await _refused(readonly, "domains.create", body={"domain": "ro.example", **MASTER}, status=403)
    assert _state(sim) == before


async def test_page_size_bounds(client: ApiClient) -> None:
    for size in (24, 101):
        with pytest.raises(ApiError) as info:
            await client.call("domains.list", query={"page_size": size}, model=dict)
        assert info.value.status == 400 and "page_size" in info.value.field_errors()


# -- zone names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        None,
        "",
        "nodot",
        "a" * 64 + ".example",
        ".".join(["abcdefghi"] * 26),  # 259 characters
        "-lead.example",
        "trail-.example",
        "under_score.example",
        "café.example",
        "has space.example",
        "double..dot.example",
        123,
    ],
)
async def test_domain_name_rules(client: ApiClient, sim: Simulator, name: Any) -> None:
    body: dict[str, Any] = dict(MASTER)
    if name is not None:
        body["domain"] = name
    await _bad(client, sim, "domains.create", None, body, "domain")


async def test_domain_name_limits_accepted_and_normalised(client: ApiClient) -> None:
    longest_label = "a" * 63 + ".example"
    made = await client.call("domains.create", body={"domain": longest_label, **MASTER}, model=dict)
    assert made["domain"] == longest_label
    mixed = await client.call(
        "domains.create", body={"domain": "MiXeD.Example.", **MASTER}, model=dict
    )
    assert mixed["domain"] == "mixed.example"
    puny = await client.call(
        "domains.create", body={"domain": "xn--caf-dma.example", **MASTER}, model=dict
    )
    assert puny["domain"] == "xn--caf-dma.example"


@pytest.mark.parametrize("name", ["example.com", "EXAMPLE.com", "example.com.", *FOREIGN_DOMAINS])
async def test_domain_unique_platform_wide(client: ApiClient, sim: Simulator, name: str) -> None:
    err = await _bad(client, sim, "domains.create", None, {"domain": name, **MASTER}, "domain")
    if name in FOREIGN_DOMAINS:
        assert "another account" in err.field_errors()["domain"]


async def test_domain_unique_on_rename_clone_and_import(client: ApiClient, sim: Simulator) -> None:
    staging = did(sim, "staging.example.com")
    for taken in ("example.com", "example.org"):
        await _bad(
            client, sim, "domains.update", {"domainId": staging}, {"domain": taken}, "domain"
        )
        await _bad(client, sim, "domains.clone", {"domainId": staging}, {"domain": taken}, "domain")
        await _bad(
            client,
            sim,
            "domains.import",
            None,
            {"domain": taken, "remote_nameserver": "ns1.allows-axfr.example"},
            "domain",
        )
    # Keeping its own name is no clash.
    same = await client.call(
        "domains.update", {"domainId": staging}, body={"domain": "staging.example.com"}, model=dict
    )
    assert same["domain"] == "staging.example.com"


# -- type, SOA address, IP lists ------------------------------------------------------------


@pytest.mark.parametrize("kind", [None, "primary", "MASTER", 1])
async def test_type_required_and_known(client: ApiClient, sim: Simulator, kind: Any) -> None:
    body: dict[str, Any] = {"domain": "t.example", "soa_email": "a@t.example"}
    if kind is not None:
        body["type"] = kind
    await _bad(client, sim, "domains.create", None, body, "type")


async def test_master_needs_soa_email(client: ApiClient, sim: Simulator) -> None:
    await _bad(
        client, sim, "domains.create", None, {"domain": "m.example", "type": "master"}, "soa_email"
    )
    await _bad(
        client,
        sim,
        "domains.create",
        None,
        {"domain": "m.example", "type": "master", "soa_email": "not-an-email"},
        "soa_email",
    )
    main = did(sim, "example.com")
    await _bad(client, sim, "domains.update", {"domainId": main}, {"soa_email": None}, "soa_email")
    mirror = did(sim, "partner-mirror.example")
    await _bad(client, sim, "domains.update", {"domainId": mirror}, {"type": "master"}, "soa_email")


async def test_slave_needs_master_ips(client: ApiClient, sim: Simulator) -> None:
    await _bad(
        client, sim, "domains.create", None, {"domain": "s.example", "type": "slave"}, "master_ips"
    )
    await _bad(
        client,
        sim,
        "domains.create",
        None,
        {"domain": "s.example", "type": "slave", "master_ips": []},
        "master_ips",
    )
    mirror = did(sim, "partner-mirror.example")
    await _bad(
        client, sim, "domains.update", {"domainId": mirror}, {"master_ips": []}, "master_ips"
    )
    main = did(sim, "example.com")
    await _bad(client, sim, "domains.update", {"domainId": main}, {"type": "slave"}, "master_ips")
    made = await client.call(
        "domains.create",
        body={"domain": "s.example", "type": "slave", "master_ips": ["192.0.2.1"]},
        model=dict,
    )
    assert made["soa_email"] is None


@pytest.mark.parametrize("field", ["master_ips", "axfr_ips"])
async def test_ip_lists_hold_ips_within_1000_chars(
    client: ApiClient, sim: Simulator, field: str
) -> None:
    base = {"domain": "ips.example", "type": "slave", "master_ips": ["192.0.2.1"]}
    too_long = ["192.0.2.100"] * 91  # 11 characters each: 1001 in all
    for value in (["not-an-ip"], too_long, "192.0.2.1", [1]):
        await _bad(client, sim, "domains.create", None, {**base, field: value}, field)
    exact = ["192.0.2.10"] * 100  # 10 characters each: exactly 1000
    made = await client.call("domains.create", body={**base, field: exact}, model=dict)
    assert len(made[field]) == 100


# -- timings, text fields, tags, unknown fields ---------------------------------------------


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        (0, 0),
        (1, 300),
        (300, 300),
        (301, 3600),
        (14401, 28800),
        (86401, 172800),
        (2419200, 2419200),
    ],
)
async def test_zone_seconds_rounded_up(client: ApiClient, given: int, stored: int) -> None:
    fields = {f: given for f in ("expire_sec", "refresh_sec", "retry_sec", "ttl_sec")}
    made = await client.call(
        "domains.create", body={"domain": "sec.example", **MASTER, **fields}, model=dict
    )
    assert all(made[f] == stored for f in fields)
    assert round_zone_seconds(given) == stored


@pytest.mark.parametrize("field", ["expire_sec", "refresh_sec", "retry_sec", "ttl_sec"])
@pytest.mark.parametrize("value", [2419201, -1, "300", 1.5])
async def test_zone_seconds_bounds(
    client: ApiClient, sim: Simulator, field: str, value: Any
) -> None:
    body = {"domain": "sec.example", **MASTER, field: value}
    await _bad(client, sim, "domains.create", None, body, field)
    main = did(sim, "example.com")
    await _bad(client, sim, "domains.update", {"domainId": main}, {field: value}, field)


@pytest.mark.parametrize(
    ("field", "value"),
    [("description", ""), ("description", "d" * 256), ("group", ""), ("group", "g" * 51)],
)
async def test_description_and_group_lengths(
    client: ApiClient, sim: Simulator, field: str, value: str
) -> None:
    await _bad(
        client, sim, "domains.create", None, {"domain": "t.example", **MASTER, field: value}, field
    )


async def test_status_choices_and_unknown_fields(client: ApiClient, sim: Simulator) -> None:
    body = {"domain": "st.example", **MASTER}
    await _bad(client, sim, "domains.create", None, {**body, "status": "edit_mode"}, "status")
    await _bad(client, sim, "domains.create", None, {**body, "colour": "red"}, "colour")
    main = did(sim, "example.com")
    await _bad(client, sim, "domains.update", {"domainId": main}, {"id": 5}, "id")


async def test_only_unrestricted_users_set_tags(
    client: ApiClient, client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    body = {"domain": "tagged.example", **MASTER, "tags": ["mine"]}
    await _bad(restricted, sim, "domains.create", None, body, "tags", status=403)
    staging = dom(sim, "staging.example.com")
    await _bad(
        restricted,
        sim,
        "domains.update",
        {"domainId": staging["id"]},
        {"tags": ["x-tag"]},
        "tags",
        status=403,
    )
    # Sending the current tags back unchanged is fine (forms send whole objects).
    same = await restricted.call(
        "domains.update", {"domainId": staging["id"]}, body={"tags": staging["tags"]}, model=dict
    )
    assert same["tags"] == staging["tags"]
    await _bad(client, sim, "domains.create", None, {**body, "tags": ["ab"]}, "tags")
    made = await client.call("domains.create", body=body, model=dict)
    assert made["tags"] == ["mine"]


# -- permissions ----------------------------------------------------------------------------


async def test_restricted_user_grants(client_for: Callable[..., ApiClient], sim: Simulator) -> None:
    restricted = client_for("restricted")
    seen = {d["domain"] for d in (await restricted.call("domains.list", model=dict))["data"]}
    assert seen == {"example.com", "staging.example.com"}
    hidden = did(sim, "partner-mirror.example")
    read_only = did(sim, "example.com")
    record_id = records(sim, read_only)[0]["id"]
    before = _state(sim)
    hidden_calls: list[tuple[str, dict[str, Any], Any]] = [
        ("domains.view", {"domainId": hidden}, None),
        ("domains.records.list", {"domainId": hidden}, None),
        ("domains.zone_file", {"domainId": hidden}, None),
        ("domains.update", {"domainId": hidden}, {"group": "x"}),
        ("domains.delete", {"domainId": hidden}, None),
        ("domains.clone", {"domainId": hidden}, {"domain": "c.example"}),
        ("domains.records.create", {"domainId": hidden}, {"type": "TXT", "target": "x"}),
    ]
    for name, params, body in hidden_calls:
        await _refused(restricted, name, params, body, status=404)
    read_only_calls: list[tuple[str, dict[str, Any], Any]] = [
        ("domains.update", {"domainId": read_only}, {"group": "x"}),
        ("domains.delete", {"domainId": read_only}, None),
        ("domains.records.create", {"domainId": read_only}, {"type": "TXT", "target": "x"}),
        (
            "domains.records.update",
            {"domainId": read_only, "recordId": record_id},
            {"ttl_sec": 300},
        ),
        ("domains.records.delete", {"domainId": read_only, "recordId": record_id}, None),
    ]
    for name, params, body in read_only_calls:
        await _refused(restricted, name, params, body, status=403)
    assert _state(sim) == before
    # Reading a read-only zone works.
    assert (await restricted.call("domains.zone_file", {"domainId": read_only}, model=dict))[
        "zone_file"
    ]
    assert (await restricted.call("domains.records.list", {"domainId": read_only}, model=dict))[
        "results"
    ]


async def test_restricted_user_needs_add_domains(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    made = await restricted.call(
        "domains.create", body={"domain": "mine.example", **MASTER}, model=dict
    )
    user = sim.store.get("users", "ops-restricted")
    assert user is not None
    assert {"id": made["id"], "label": "mine.example", "permissions": "read_write"} in user[
        "grants"
    ]["domain"]
    copy_made = await restricted.call(
        "domains.clone",
        {"domainId": did(sim, "example.com")},
        body={"domain": "mine2.example"},
        model=dict,
    )
    assert copy_made["domain"] == "mine2.example"
    user["grants"]["global"]["add_domains"] = False
    before = _state(sim)
    await _refused(
        restricted, "domains.create", body={"domain": "no.example", **MASTER}, status=403
    )
    await _refused(
        restricted,
        "domains.import",
        body={"domain": "no.example", "remote_nameserver": "ns1.allows-axfr.example"},
        status=403,
    )
    await _refused(
        restricted,
        "domains.clone",
        {"domainId": did(sim, "staging.example.com")},
        {"domain": "no.example"},
        status=403,
    )
    assert _state(sim) == before


async def test_delete_removes_records_and_grants(client: ApiClient, sim: Simulator) -> None:
    staging = did(sim, "staging.example.com")
    assert records(sim, staging)
    await client.call("domains.delete", {"domainId": staging}, model=dict)
    assert sim.store.get(DOMAINS, staging) is None
    assert records(sim, staging) == []
    user = sim.store.get("users", "ops-restricted")
    assert user is not None
    assert all(str(g["id"]) != str(staging) for g in user["grants"]["domain"])
    await _refused(client, "domains.zone_file", {"domainId": staging}, status=404)


# -- clone and import -----------------------------------------------------------------------


async def test_clone_copies_records_to_a_new_zone(client: ApiClient, sim: Simulator) -> None:
    source = dom(sim, "example.com")
    made = await client.call(
        "domains.clone",
        {"domainId": str(source["id"])},
        body={"domain": "clone.example"},
        model=dict,
    )
    assert made["soa_email"] == source["soa_email"] and made["ttl_sec"] == source["ttl_sec"]
    assert made["tags"] == []
    key = ("type", "name", "target", "priority", "weight", "port", "service", "protocol", "tag")

    def shape(domain_id: int) -> list[tuple[Any, ...]]:
        return sorted(tuple(str(r[k]) for k in key) for r in records(sim, domain_id))

    assert shape(made["id"]) == shape(source["id"])
    assert "$ORIGIN clone.example." in await _zone(client, made["id"])
    for body in (
        {},
        {"domain": "bad name"},
        {"domain": "clone.example"},
        {"domain": "x.example", "y": 1},
    ):
        field = next(iter(set(body) - {"domain"}), "domain")
        await _bad(client, sim, "domains.clone", {"domainId": source["id"]}, body, field)
    await _refused(
        client, "domains.clone", {"domainId": 999999}, {"domain": "z.example"}, status=404
    )


async def test_import_from_a_nameserver_that_allows_axfr(client: ApiClient) -> None:
    made = await client.call(
        "domains.import",
        body={"domain": "Imported.Example", "remote_nameserver": "NS1.allows-axfr.example."},
        model=dict,
    )
    assert made["domain"] == "imported.example" and made["type"] == "master"
    assert made["soa_email"] == "hostmaster@imported.example"
    listed = (await client.call("domains.records.list", {"domainId": made["id"]}, model=dict))[
        "data"
    ]
    assert {r["type"] for r in listed} == {"A", "AAAA", "MX", "TXT", "CNAME", "CAA"}
    mx = next(r for r in listed if r["type"] == "MX")
    assert mx["target"] == "mail.imported.example"
    zone = await _zone(client, made["id"])
    assert any(line.split()[3:] == ["NS", f"{NAMESERVERS[0]}."] for line in zone if " NS " in line)


@pytest.mark.parametrize(
    ("nameserver", "needle"),
    [
        ("ns1.refuses-axfr.example", "refused"),
        ("ns9.unknown.example", "no answer"),
        ("192.0.2.200", "no answer"),
        ("not a host!", "host name"),
        ("", "at least"),
    ],
)
async def test_import_failures_name_remote_nameserver(
    client: ApiClient, sim: Simulator, nameserver: str, needle: str
) -> None:
    body = {"domain": "imp.example", "remote_nameserver": nameserver}
    err = await _bad(client, sim, "domains.import", None, body, "remote_nameserver")
    assert needle in err.field_errors()["remote_nameserver"]
    if needle == "refused":
        assert "203.0.113.11" in err.field_errors()["remote_nameserver"]


async def test_import_requires_both_fields(client: ApiClient, sim: Simulator) -> None:
    await _bad(client, sim, "domains.import", None, {"domain": "imp.example"}, "remote_nameserver")
    await _bad(
        client,
        sim,
        "domains.import",
        None,
        {"remote_nameserver": "ns1.allows-axfr.example"},
        "domain",
    )


# -- zone file ------------------------------------------------------------------------------


async def test_zone_file_layout(client: ApiClient, sim: Simulator) -> None:
    zone = await _zone(client, did(sim, "example.com"))
    body = [line for line in zone if not line.startswith(";")]
    assert body[0] == "$ORIGIN example.com." and body[1] == "$TTL 3600"
    assert body[2].split()[:5] == ["@", "3600", "IN", "SOA", f"{NAMESERVERS[0]}."]
    assert body[2].split()[5] == "hostmaster.example.com."
    assert [line.split()[4] for line in body[3:8]] == [f"{ns}." for ns in NAMESERVERS]
    kinds = [line.split()[3] for line in body[8:]]
    assert set(kinds) == set(RECORD_TYPES)
    assert kinds == sorted(kinds, key=RECORD_TYPES.index)  # grouped by type
    assert '@                 86400   IN CAA   0 issuewild "*.letsencrypt.org"' in zone
    assert any(
        line.startswith("_sip._tcp ") and line.endswith("5060 sip.example.com.") for line in zone
    )


async def test_zone_file_follows_changes_with_growing_serial(
    client: ApiClient, sim: Simulator
) -> None:
    zid = await _new_zone(client)
    serials = [_serial(await _zone(client, zid))]
    made = await _add(client, zid, type="TXT", name="note", target='say "hi" – ok')
    zone = await _zone(client, zid)
    assert any(line.endswith('"say \\"hi\\" \\226\\128\\147 ok"') for line in zone)
    serials.append(_serial(zone))
    await client.call(
        "domains.records.update",
        {"domainId": zid, "recordId": made["id"]},
        body={"name": "memo"},
        model=dict,
    )
    zone = await _zone(client, zid)
    assert any(line.startswith("memo ") for line in zone)
    serials.append(_serial(zone))
    await client.call("domains.update", {"domainId": zid}, body={"ttl_sec": 300}, model=dict)
    zone = await _zone(client, zid)
    assert "$TTL 300" in zone
    serials.append(_serial(zone))
    # Updates that change nothing keep the serial.
    await client.call("domains.update", {"domainId": zid}, body={"ttl_sec": 200}, model=dict)
    await client.call(
        "domains.records.update",
        {"domainId": zid, "recordId": made["id"]},
        body={"name": "memo"},
        model=dict,
    )
    assert _serial(await _zone(client, zid)) == serials[-1]
    await client.call(
        "domains.records.delete", {"domainId": zid, "recordId": made["id"]}, model=dict
    )
    zone = await _zone(client, zid)
    assert not any(line.startswith("memo ") for line in zone)
    serials.append(_serial(zone))
    assert serials == sorted(set(serials))  # strictly increasing


async def test_disabled_zone_renders_only_a_comment(client: ApiClient, sim: Simulator) -> None:
    legacy = did(sim, "legacy-shop.example")
    zone = await _zone(client, legacy)
    assert zone and all(line.startswith(";") for line in zone)
    await client.call("domains.update", {"domainId": legacy}, body={"status": "active"}, model=dict)
    zone = await _zone(client, legacy)
    assert "$ORIGIN legacy-shop.example." in zone and any(" A " in line for line in zone)


async def test_slave_zone_names_its_masters(client: ApiClient, sim: Simulator) -> None:
    zone = await _zone(client, did(sim, "partner-mirror.example"))
    assert any(line.startswith(";") and "192.0.2.53" in line for line in zone)


# -- records: general -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", [None, "SOA", "a", "HTTPS", 5])
async def test_record_type_required_and_known(client: ApiClient, sim: Simulator, kind: Any) -> None:
    body: dict[str, Any] = {"target": "192.0.2.1"}
    if kind is not None:
        body["type"] = kind
    await _bad_record(client, sim, did(sim, "example.com"), body, "type")


async def test_record_unknown_fields_refused(client: ApiClient, sim: Simulator) -> None:
    body = {"type": "A", "target": "192.0.2.1", "comment": "x"}
    await _bad_record(client, sim, did(sim, "example.com"), body, "comment")


@pytest.mark.parametrize(
    "name", ["a" * 101, "bad name", "semi;colon", "-lead", "www.other.example.", "a..b", 7]
)
async def test_record_name_rules(client: ApiClient, sim: Simulator, name: Any) -> None:
    body = {"type": "A", "name": name, "target": "192.0.2.1"}
    await _bad_record(client, sim, did(sim, "example.com"), body, "name")


async def test_record_names_stored_relative(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    for given, stored in (
        ("api.example.com", "api"),
        ("api2.example.com.", "api2"),
        ("example.com.", ""),
        ("*.wild", "*.wild"),
        ("_acme-challenge", "_acme-challenge"),
    ):
        made = await _add(client, main, type="TXT", name=given, target="x")
        assert made["name"] == stored


@pytest.mark.parametrize(
    ("given", "stored"),
    [(0, 300), (1, 300), (1950, 3600), (1949, 300), (5000, 3600), (5400, 7200), (10**7, 2419200)],
)
async def test_record_ttl_rounded_to_nearest(
    client: ApiClient, sim: Simulator, given: int, stored: int
) -> None:
    made = await _add(
        client, did(sim, "example.com"), type="A", name="t", target="192.0.2.1", ttl_sec=given
    )
    assert made["ttl_sec"] == stored == round_record_ttl(given)


@pytest.mark.parametrize("ttl", [-1, "300", 2.5])
async def test_record_ttl_must_be_a_non_negative_integer(
    client: ApiClient, sim: Simulator, ttl: Any
) -> None:
    body = {"type": "A", "target": "192.0.2.1", "ttl_sec": ttl}
    await _bad_record(client, sim, did(sim, "example.com"), body, "ttl_sec")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "A", "target": "192.0.2.1", "priority": 1}, "priority"),
        ({"type": "CNAME", "name": "p", "target": "a.example.com", "priority": 1}, "priority"),
        ({"type": "A", "target": "192.0.2.1", "weight": 1}, "weight"),
        ({"type": "MX", "target": "m.example.com", "port": 25}, "port"),
        ({"type": "TXT", "target": "x", "service": "sip"}, "service"),
        ({"type": "TXT", "target": "x", "protocol": "tcp"}, "protocol"),
        ({"type": "A", "target": "192.0.2.1", "tag": "issue"}, "tag"),
        ({"type": "MX", "target": "m.example.com", "priority": 256}, "priority"),
        ({"type": "MX", "target": "m.example.com", "priority": -1}, "priority"),
    ],
)
async def test_fields_only_for_their_types(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad_record(client, sim, did(sim, "example.com"), body, field)


async def test_mx_priority_defaults_to_zero(client: ApiClient, sim: Simulator) -> None:
    made = await _add(
        client, did(sim, "example.com"), type="MX", name="lists", target="mx.example.net."
    )
    assert made["priority"] == 0 and made["target"] == "mx.example.net"
    a = await _add(client, did(sim, "example.com"), type="A", name="np", target="192.0.2.9")
    assert a["priority"] == 0 and a["weight"] == 0 and a["port"] == 0 and a["tag"] is None


# -- records: per type ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "target"),
    [
        ("A", None),
        ("A", ""),
        ("A", "2001:db8::1"),
        ("A", "192.0.2.1."),
        ("A", "999.0.0.1"),
        ("AAAA", None),
        ("AAAA", "192.0.2.1"),
        ("AAAA", "2001:db8::1."),
        ("AAAA", "[remote_addr]"),
    ],
)
async def test_address_targets(client: ApiClient, sim: Simulator, kind: str, target: Any) -> None:
    body: dict[str, Any] = {"type": kind, "name": "host"}
    if target is not None:
        body["target"] = target
    await _bad_record(client, sim, did(sim, "example.com"), body, "target")


async def test_remote_addr_becomes_the_callers_ipv4(client: ApiClient, sim: Simulator) -> None:
    made = await _add(
        client, did(sim, "example.com"), type="A", name="home", target="[remote_addr]"
    )
    assert made["target"] == "127.0.0.1"  # the in-process transport's client address


def _client_from(sim: Simulator, address: str) -> ApiClient:
    transport = httpx.ASGITransport(app=sim, client=(address, 40000))
    return ApiClient(
        "http://sim.local/v4",
        DEMO_TOKENS["unrestricted"],
        transport=transport,
        allow_insecure=True,
        retry=RetryPolicy(sleep=lambda _s: _none()),
    )


async def _none() -> None:
    return None


async def test_remote_addr_needs_an_ipv4_caller(sim: Simulator) -> None:
    main = did(sim, "example.com")
    v6 = _client_from(sim, "2001:db8::77")
    mapped = _client_from(sim, "::ffff:198.51.100.7")
    try:
        body = {"type": "A", "name": "home", "target": "[remote_addr]"}
        await _bad_record(v6, sim, main, body, "target")
        made = await _add(mapped, main, **body)
        assert made["target"] == "198.51.100.7"
    finally:
        await v6.aclose()
        await mapped.aclose()


@pytest.mark.parametrize("kind", ["NS", "MX", "CNAME"])
@pytest.mark.parametrize(
    "target", [None, "bad host!", "nodot", "-x.example.com", "a" * 64 + ".example"]
)
async def test_domain_targets(client: ApiClient, sim: Simulator, kind: str, target: Any) -> None:
    body: dict[str, Any] = {"type": kind, "name": "sub"}
    if target is not None:
        body["target"] = target
    await _bad_record(client, sim, did(sim, "staging.example.com"), body, "target")


@pytest.mark.parametrize("kind", ["NS", "MX", "CNAME", "PTR", "SRV"])
async def test_trailing_period_accepted_and_dropped(
    client: ApiClient, sim: Simulator, kind: str
) -> None:
    body: dict[str, Any] = {
        "type": kind,
        "name": f"tp-{kind.lower()}",
        "target": "host.example.net.",
    }
    if kind == "SRV":
        body.update(service="ldap", priority=1, weight=1, port=389)
    made = await _add(client, did(sim, "staging.example.com"), **body)
    assert made["target"] == "host.example.net"


async def test_cname_name_required_and_unique(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    for name in (None, "", "example.com."):
        body: dict[str, Any] = {"type": "CNAME", "target": "x.example.net"}
        if name is not None:
            body["name"] = name
        await _bad_record(client, sim, main, body, "name")
    # "shop" is a CNAME already; "www" has A and AAAA records.
    for name in ("shop", "SHOP", "www", "shop.example.com"):
        body = {"type": "CNAME", "name": name, "target": "x.example.net"}
        await _bad_record(client, sim, main, body, "name")
    # Nothing else may be added under a CNAME's name.
    await _bad_record(client, sim, main, {"type": "TXT", "name": "shop", "target": "x"}, "name")
    made = await _add(client, main, type="CNAME", name="docs", target="docs.host.example")
    assert made["name"] == "docs"


async def test_cname_clash_on_update(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    www_a = next(r for r in records(sim, main) if r["type"] == "A" and r["name"] == "www")
    await _bad(
        client,
        sim,
        "domains.records.update",
        {"domainId": main, "recordId": www_a["id"]},
        {"name": "shop"},
        "name",
    )
    shop = next(r for r in records(sim, main) if r["type"] == "CNAME" and r["name"] == "shop")
    same = await client.call(
        "domains.records.update",
        {"domainId": main, "recordId": shop["id"]},
        body={"target": "new.storefront.example"},
        model=dict,
    )
    assert same["name"] == "shop"


async def test_txt_needs_a_value(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    for target in (None, "", 5):
        body: dict[str, Any] = {"type": "TXT", "name": "t"}
        if target is not None:
            body["target"] = target
        await _bad_record(client, sim, main, body, "target")
    made = await _add(client, main, type="TXT", name="t", target="ends with a period.")
    assert made["target"] == "ends with a period."


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"target": "sip", "priority": 1, "weight": 1, "port": 5060}, "service"),
        ({"service": "sip", "target": "sip", "weight": 1, "port": 5060}, "priority"),
        ({"service": "sip", "target": "sip", "priority": 1, "port": 5060}, "weight"),
        ({"service": "sip", "target": "sip", "priority": 1, "weight": 1}, "port"),
        ({"service": "sip", "priority": 1, "weight": 1, "port": 5060}, "target"),
        ({"service": "sip", "target": "sip", "priority": 1, "weight": 65536, "port": 1}, "weight"),
        ({"service": "sip", "target": "sip", "priority": 1, "weight": 1, "port": 65536}, "port"),
        (
            {"service": "bad service", "target": "sip", "priority": 1, "weight": 1, "port": 1},
            "service",
        ),
        (
            {
                "service": "sip",
                "protocol": "t/cp",
                "target": "sip",
                "priority": 1,
                "weight": 1,
                "port": 1,
            },
            "protocol",
        ),
        (
            {"service": "sip", "target": "bad host!", "priority": 1, "weight": 1, "port": 1},
            "target",
        ),
    ],
)
async def test_srv_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad_record(client, sim, did(sim, "example.com"), {"type": "SRV", **body}, field)


async def test_srv_normalised(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    base = {"type": "SRV", "priority": 0, "weight": 0, "port": 443}
    made = await _add(client, main, **base, service="https", protocol="tcp", target="web")
    assert (made["service"], made["protocol"], made["name"]) == ("_https.", "_tcp", "_https._tcp")
    assert made["target"] == "web.example.com"
    again = await _add(
        client, main, **base, service="_turn.", protocol="_udp", target="turn.example.net"
    )
    assert (again["service"], again["protocol"]) == ("_turn.", "_udp")
    assert again["target"] == "turn.example.net"
    default = await _add(client, main, **base, service="ldap", target="ldap")
    assert default["protocol"] == "_tcp"


@pytest.mark.parametrize(
    ("service", "protocol"), [("_sip", "_tls"), ("_sip", "tls"), ("sip", "_tls")]
)
async def test_srv_service_and_protocol_may_come_with_their_underscore(
    client: ApiClient, sim: Simulator, service: str, protocol: str
) -> None:
    main = did(sim, "example.com")
    base = {"type": "SRV", "priority": 10, "weight": 5, "port": 5061, "target": "sip"}
    made = await _add(client, main, **base, service=service, protocol=protocol)
    assert (made["service"], made["protocol"], made["name"]) == ("_sip.", "_tls", "_sip._tls")
    params = {"domainId": main, "recordId": made["id"]}
    moved = await client.call(
        "domains.records.update",
        params,
        body={"service": "_sips", "protocol": "_tcp"},
        model=dict,
    )
    assert (moved["service"], moved["protocol"], moved["name"]) == ("_sips.", "_tcp", "_sips._tcp")


@pytest.mark.parametrize(
    ("tag", "target"),
    [
        (None, "letsencrypt.org"),
        ("issuer", "letsencrypt.org"),
        ("issue", None),
        ("issue", "not a domain"),
        ("issue", "letsencrypt.org."),
        ("issuewild", "letsencrypt.org"),
        ("issuewild", "*.bad domain"),
        ("iodef", "ftp://example.com/report"),
        ("iodef", "mailto:not-an-address"),
        ("iodef", "https://"),
    ],
)
async def test_caa_rules(client: ApiClient, sim: Simulator, tag: Any, target: Any) -> None:
    body: dict[str, Any] = {"type": "CAA"}
    if tag is not None:
        body["tag"] = tag
    if target is not None:
        body["target"] = target
    field = "tag" if tag in (None, "issuer") else "target"
    await _bad_record(client, sim, did(sim, "example.com"), body, field)


@pytest.mark.parametrize(
    ("tag", "target"),
    [
        ("issue", "pki.goog"),
        ("issuewild", "*.sectigo.com"),
        ("iodef", "mailto:caa@example.com"),
        ("iodef", "https://example.com/caa-report"),
        ("iodef", "reports.example.com"),
    ],
)
async def test_caa_accepted_values(
    client: ApiClient, sim: Simulator, tag: str, target: str
) -> None:
    made = await _add(client, did(sim, "example.com"), type="CAA", tag=tag, target=target)
    assert made["tag"] == tag and made["target"] == target and made["name"] == ""


async def test_ptr_needs_a_target(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    for target in (None, "", "."):
        body: dict[str, Any] = {"type": "PTR", "name": "20"}
        if target is not None:
            body["target"] = target
        await _bad_record(client, sim, main, body, "target")


# -- Null MX --------------------------------------------------------------------------------


async def test_null_mx_shape(client: ApiClient, sim: Simulator) -> None:
    zid = await _new_zone(client)
    await _bad_record(client, sim, zid, {"type": "MX", "name": "mail", "target": ""}, "name")
    await _bad_record(client, sim, zid, {"type": "MX", "target": "", "priority": 10}, "priority")
    await _bad_record(client, sim, zid, {"type": "MX", "name": ""}, "target")


async def test_null_mx_only_without_other_mx(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")  # has two MX records
    await _bad_record(
        client, sim, main, {"type": "MX", "name": "", "target": ""}, "target", status=409
    )
    zid = await _new_zone(client)
    null = await _add(client, zid, type="MX", name="", target="", priority=0)
    assert null["target"] == "" and null["priority"] == 0
    assert any(line.endswith("IN MX    0 .") for line in await _zone(client, zid))
    # "." is the same empty target with its trailing period (what a form can send).
    other = await _new_zone(client, "rules2.example")
    dotted = await _add(client, other, type="MX", target=".")
    assert dotted["target"] == "" and dotted["priority"] == 0 and dotted["name"] == ""


async def test_no_new_mx_once_a_null_mx_exists(client: ApiClient, sim: Simulator) -> None:
    books = did(sim, "xn--bcher-kva.example")  # seeded with a Null MX
    body = {"type": "MX", "target": "mail.example.com", "priority": 10}
    await _bad_record(client, sim, books, body, "type", status=409)
    await _bad_record(client, sim, books, {"type": "MX", "target": ""}, "target", status=409)
    # Other record types are still welcome.
    assert (await _add(client, books, type="A", name="www", target="203.0.113.91"))["id"]


async def test_mx_cannot_become_null_while_others_exist(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    mx = next(r for r in records(sim, main) if r["type"] == "MX")
    await _bad(
        client,
        sim,
        "domains.records.update",
        {"domainId": main, "recordId": mx["id"]},
        {"target": "", "priority": 0},
        "target",
        status=409,
    )


# -- record update and lookups --------------------------------------------------------------


async def test_record_update_rules(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    a = next(r for r in records(sim, main) if r["type"] == "A")
    params = {"domainId": main, "recordId": a["id"]}
    await _bad(client, sim, "domains.records.update", params, {"type": "AAAA"}, "type")
    await _bad(client, sim, "domains.records.update", params, {"target": "nope"}, "target")
    await _bad(client, sim, "domains.records.update", params, {"priority": 3}, "priority")
    await _bad(client, sim, "domains.records.update", params, {"extra": 1}, "extra")
    same_type = await client.call(
        "domains.records.update", params, body={"type": "A", "ttl_sec": 300}, model=dict
    )
    assert same_type["ttl_sec"] == 300 and same_type["target"] == a["target"]


async def test_records_belong_to_their_zone(client: ApiClient, sim: Simulator) -> None:
    main = did(sim, "example.com")
    staging_record = records(sim, did(sim, "staging.example.com"))[0]
    params = {"domainId": main, "recordId": staging_record["id"]}
    before = _state(sim)
    await _refused(client, "domains.records.view", params, status=404)
    await _refused(client, "domains.records.update", params, {"ttl_sec": 300}, status=404)
    await _refused(client, "domains.records.delete", params, status=404)
    await _refused(
        client, "domains.records.view", {"domainId": main, "recordId": "abc"}, status=404
    )
    assert _state(sim) == before


# -- demo data ------------------------------------------------------------------------------


def test_seed_domains() -> None:
    store = Store()
    ensure_users(store)
    seed_domains(SeedContext(store, VirtualClock().now(), random.Random("t")))
    zones = store.rows(DOMAINS)
    assert {z["type"] for z in zones} == {"master", "slave"}
    assert any(z["status"] == "disabled" for z in zones)
    assert any(z["tags"] for z in zones)
    assert any(not str(z.get("description")).isascii() for z in zones)
    assert any("[" in str(z.get("description")) for z in zones)
    main = next(z for z in zones if z["domain"] == "example.com")
    kinds = {r["type"] for r in store.rows(RECORDS) if r["_domain_id"] == main["id"]}
    assert kinds == set(RECORD_TYPES)
    grants = store.table("users")["ops-restricted"]["grants"]["domain"]
    assert {g["permissions"] for g in grants} == {"read_write", "read_only"}
    assert all(isinstance(z.get("_zone_file"), list) for z in zones)


def test_seed_is_deterministic_and_scales() -> None:
    def make(scale: int) -> Store:
        store = Store()
        ensure_users(store)
        seed_domains(SeedContext(store, VirtualClock().now(), random.Random("t"), scale))
        return store

    assert make(0).to_json() == make(0).to_json()
    assert len(make(16).rows(DOMAINS)) == len(make(0).rows(DOMAINS)) + 2
