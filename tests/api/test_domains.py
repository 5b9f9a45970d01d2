"""Every domain operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.docs import field_help
from tui.models.domains import (
    Domain,
    DomainClone,
    DomainCreate,
    DomainImport,
    DomainRecord,
    DomainUpdate,
    RecordCreate,
    RecordUpdate,
    ZoneFile,
)
from tui.simulator import Simulator


def domain_id(sim: Simulator, name: str) -> int:
    return int(next(d["id"] for d in sim.store.rows("domains.domains") if d["domain"] == name))


async def test_list_iter_all_view(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("domains.list", page_size=25)
    assert page.results == len(sim.store.rows("domains.domains"))
    assert all(isinstance(d, Domain) for d in page.data)
    pages = [p async for p in client.iter_all("domains.list")]
    assert [d.id for p in pages for d in p.data] == [d.id for d in page.data]
    assert [d.id for d in await client.fetch_all("domains.list")] == [d.id for d in page.data]
    main = await client.call("domains.view", {"domainId": domain_id(sim, "example.com")})
    assert main.type == "master" and main.soa_email == "hostmaster@example.com"
    assert main.status == "active" and "production" in main.tags
    kinds = {d.type for d in page.data}
    assert kinds == {"master", "slave"}
    assert any(d.status == "disabled" for d in page.data)


async def test_create_update_delete_domain(client: ApiClient) -> None:
    made = await client.call(
        "domains.create",
        body=DomainCreate(
            domain="api-test.example",
            type="master",
            soa_email="admin@api-test.example",
            ttl_sec=4000,
            description="Made by the API test",
        ),
    )
    assert made.domain == "api-test.example" and made.status == "active"
    assert made.ttl_sec == 7200  # rounded up
    changed = await client.call(
        "domains.update",
        {"domainId": made.id or 0},
        body=DomainUpdate(group="tests", tags=["qa-team"]),
    )
    assert changed.group == "tests" and changed.tags == ["qa-team"]
    disabled = await client.call(
        "domains.update", {"domainId": made.id or 0}, body=DomainUpdate(status="disabled")
    )
    assert disabled.status == "disabled"
    await client.call("domains.delete", {"domainId": made.id or 0})
    with pytest.raises(ApiError) as info:
        await client.call("domains.view", {"domainId": made.id or 0})
    assert info.value.status == 404


async def test_create_slave_by_keywords(client: ApiClient) -> None:
    made = await client.call(
        "domains.create",
        body=DomainCreate(domain="secondary.example", type="slave", master_ips=["192.0.2.1"]),
    )
    assert made.type == "slave" and made.master_ips == ["192.0.2.1"]


async def test_import_domain(client: ApiClient) -> None:
    made = await client.call(
        "domains.import",
        body=DomainImport(domain="imported.example", remote_nameserver="ns1.allows-axfr.example"),
    )
    assert made.type == "master" and made.soa_email == "hostmaster@imported.example"
    records = await client.fetch_all("domains.records.list", {"domainId": made.id or 0})
    assert {r.type for r in records} >= {"A", "MX", "TXT", "CNAME"}
    with pytest.raises(ApiError) as info:
        await client.call(
            "domains.import",
            body=DomainImport(domain="other.example", remote_nameserver="ns1.refuses-axfr.example"),
        )
    assert "remote_nameserver" in info.value.field_errors()


async def test_clone_domain(client: ApiClient, sim: Simulator) -> None:
    source = domain_id(sim, "example.com")
    copy = await client.call(
        "domains.clone", {"domainId": source}, body=DomainClone(domain="example-copy.example")
    )
    assert copy.domain == "example-copy.example" and copy.id != source
    original = await client.fetch_all("domains.records.list", {"domainId": source})
    copied = await client.fetch_all("domains.records.list", {"domainId": copy.id or 0})
    assert sorted((r.type, r.name, r.target) for r in copied) == sorted(
        (r.type, r.name, r.target) for r in original
    )


async def test_records_crud(client: ApiClient, sim: Simulator) -> None:
    did = domain_id(sim, "example.com")
    page = await client.fetch_page("domains.records.list", {"domainId": did}, page_size=25)
    assert page.results == len(
        [r for r in sim.store.rows("domains.records") if r["_domain_id"] == did]
    )
    assert all(isinstance(r, DomainRecord) for r in page.data)
    assert {r.type for r in page.data} == {
        "A", "AAAA", "NS", "MX", "CNAME", "TXT", "SRV", "PTR", "CAA"
    }  # fmt: skip
    pages = [p async for p in client.iter_all("domains.records.list", {"domainId": did})]
    assert sum(len(p.data) for p in pages) == page.results
    made = await client.call(
        "domains.records.create",
        {"domainId": did},
        body=RecordCreate(type="A", name="api", target="192.0.2.44"),
    )
    assert made.name == "api" and made.ttl_sec == 3600  # the zone's default TTL
    seen = await client.call("domains.records.view", {"domainId": did, "recordId": made.id or 0})
    assert seen.target == "192.0.2.44"
    changed = await client.call(
        "domains.records.update",
        {"domainId": did, "recordId": made.id or 0},
        body=RecordUpdate(target="192.0.2.45", ttl_sec=3000),
    )
    assert changed.target == "192.0.2.45" and changed.ttl_sec == 3600
    again = await client.call(
        "domains.records.update",
        {"domainId": did, "recordId": made.id or 0},
        body=RecordUpdate(name="api2"),
    )
    assert again.name == "api2"
    await client.call("domains.records.delete", {"domainId": did, "recordId": made.id or 0})
    with pytest.raises(ApiError) as info:
        await client.call("domains.records.view", {"domainId": did, "recordId": made.id or 0})
    assert info.value.status == 404


async def test_srv_record_by_keywords(client: ApiClient, sim: Simulator) -> None:
    did = domain_id(sim, "example.com")
    made = await client.call('domains.records.create', {'domainId': did}, body=RecordCreate(type='SRV', service='imaps', protocol='tcp', priority=0, weight=1, port=993, target='mail'))  # fmt: skip
    assert made.service == "_imaps." and made.protocol == "_tcp"
    assert made.name == "_imaps._tcp" and made.target == "mail.example.com"


async def test_zone_file(client: ApiClient, sim: Simulator) -> None:
    did = domain_id(sim, "example.com")
    zone = await client.call("domains.zone_file", {"domainId": did})
    assert isinstance(zone, ZoneFile)
    assert "$ORIGIN example.com." in zone.zone_file
    await client.call(
        "domains.records.create",
        {"domainId": did},
        body=RecordCreate(type="TXT", name="api-note", target="hello"),
    )
    after = await client.call("domains.zone_file", {"domainId": str(did)})
    assert any("api-note" in line for line in after.zone_file)


async def test_restricted_user_sees_only_granted(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    names = {d.domain for d in await restricted.fetch_all("domains.list")}
    assert names == {"example.com", "staging.example.com"}
    made = await restricted.call(
        "domains.create",
        body=DomainCreate(
            domain="restricted-made.example", type="master", soa_email="ops@example.com"
        ),
    )
    assert made.id in {d.id for d in await restricted.fetch_all("domains.list")}
    with pytest.raises(ApiError) as info:
        await restricted.call(
            "domains.update",
            {"domainId": domain_id(sim, "example.com")},
            body=DomainUpdate(group="nope"),
        )
    assert info.value.status == 403


async def test_server_errors_name_fields(client: ApiClient) -> None:
    with pytest.raises(ApiError) as info:
        await client.call(
            "domains.create",
            body=DomainCreate(domain="example.org", type="master", soa_email="a@b.example"),
        )
    assert "domain" in info.value.field_errors()


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (DomainCreate, {"domain": "x.example"}),
        (DomainCreate, {"domain": "x.example", "type": "master"}),
        (DomainCreate, {"domain": "x.example", "type": "slave"}),
        (DomainCreate, {"domain": "nodot", "type": "master", "soa_email": "a@b.example"}),
        (DomainCreate, {"domain": "a" * 64 + ".example", "type": "master", "soa_email": "a@b.c"}),
        (DomainCreate, {"domain": "x.example", "type": "primary"}),
        (DomainCreate, {"domain": "x.example", "type": "master", "soa_email": "not-an-email"}),
        (DomainCreate, {"domain": "x.example", "type": "slave", "master_ips": ["nope"]}),
        (DomainCreate, {"domain": "x.example", "type": "slave", "master_ips": ["1.2.3.4"] * 150}),
        (
            DomainCreate,
            {"domain": "x.example", "type": "master", "soa_email": "a@b.c", "ttl_sec": -1},
        ),
        (
            DomainCreate,
            {"domain": "x.example", "type": "master", "soa_email": "a@b.c", "group": ""},
        ),
        (DomainCreate, {"domain": "x.example", "type": "master", "soa_email": "a@b.c", "x": 1}),
        (DomainImport, {"domain": "x.example"}),
        (DomainImport, {"domain": "x.example", "remote_nameserver": "bad name!"}),
        (DomainUpdate, {"description": ""}),
        (DomainUpdate, {"type": "slave", "master_ips": []}),
        (DomainClone, {}),
        (RecordCreate, {}),
        (RecordCreate, {"type": "A"}),
        (RecordCreate, {"type": "A", "target": "2001:db8::1"}),
        (RecordCreate, {"type": "AAAA", "target": "192.0.2.1"}),
        (RecordCreate, {"type": "CNAME", "target": "www.example.com"}),
        (RecordCreate, {"type": "MX", "target": "", "priority": 5}),
        (RecordCreate, {"type": "MX", "target": ".", "name": "mail"}),
        (RecordCreate, {"type": "SRV", "target": "sip"}),
        (RecordCreate, {"type": "CAA", "target": "letsencrypt.org"}),
        (RecordCreate, {"type": "CAA", "tag": "issuewild", "target": "letsencrypt.org"}),
        (RecordCreate, {"type": "A", "target": "192.0.2.1", "priority": 1}),
        (RecordCreate, {"type": "MX", "target": "mail.example.com", "priority": 256}),
        (RecordCreate, {"type": "TXT", "target": "x", "name": "a" * 101}),
        (RecordUpdate, {"type": "A"}),
        (RecordUpdate, {"port": 70000}),
    ],
)
def test_request_models_are_strict(model: Any, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**fields)


def test_cross_field_errors_name_the_field() -> None:
    with pytest.raises(ValidationError) as info:
        DomainCreate(domain="x.example", type="master")
    assert [e["loc"] for e in info.value.errors()] == [("soa_email",)]
    with pytest.raises(ValidationError) as info:
        RecordCreate(type="SRV", target="sip", service="sip")
    assert {e["loc"] for e in info.value.errors()} == {("priority",), ("weight",), ("port",)}


def test_request_models_accept_valid_input() -> None:
    assert RecordCreate(type="A", target="[remote_addr]").body() == {
        "type": "A",
        "target": "[remote_addr]",
    }
    assert RecordCreate(type="MX", target="").target == ""
    assert RecordCreate(type="MX", target=".").target == "."
    assert next(iter(RecordCreate.model_fields)) == "type"  # forms ask for the type first
    assert RecordCreate(type="CAA", tag="iodef", target="https://example.com/caa").tag == "iodef"
    assert RecordCreate(type="CAA", tag="iodef", target="mailto:sec@example.com").target
    assert DomainCreate(domain="example.com.", type="slave", master_ips=["2001:db8::1"]).body()
    assert field_help(DomainCreate, "soa_email")


def test_response_models_are_tolerant() -> None:
    d = Domain.model_validate({"id": 1, "status": "edit_mode", "extra": {"a": 1}})
    assert d.status == "edit_mode" and d.raw()["extra"] == {"a": 1}
    assert Domain.model_validate({}).tags == [] and Domain.model_validate({}).master_ips == []
    assert DomainRecord.model_validate({"type": "HTTPS"}).type == "HTTPS"
    assert ZoneFile.model_validate({}).zone_file == []
