"""Every managed-support operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr, ValidationError

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.docs import field_help
from tui.models.managed import (
    ComputeSettings,
    ComputeSettingsUpdate,
    Contact,
    ContactCreate,
    ContactUpdate,
    CredentialCreate,
    CredentialSecretUpdate,
    CredentialUpdate,
    ManagedCredential,
    ManagedIssue,
    ManagedStats,
    PhoneUpdate,
    ServiceCreate,
    ServiceUpdate,
    SshKey,
    SshSettingsUpdate,
)
from tui.models.managed import ManagedService as MonitoredService
from tui.simulator import Simulator, VirtualClock

INSTANCE_ID = 990700


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """Regions and one instance, in case the compute area has not seeded them."""
    for rid in ("us-east", "eu-west"):
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )
    sim.store.put(
        "compute.instances",
        INSTANCE_ID,
        {"id": INSTANCE_ID, "label": "managed-host", "group": "web", "status": "running"},
    )


# -- contacts -------------------------------------------------------------------------------


async def test_contacts_list_iter_all(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("managed.contacts.list", page_size=25)
    assert page.results == len(sim.store.rows("managed.contacts")) >= 3
    assert all(isinstance(c, Contact) for c in page.data)
    assert any(not (c.name or "").isascii() for c in page.data)
    pages = [p async for p in client.iter_all("managed.contacts.list")]
    assert [c.id for p in pages for c in p.data] == [c.id for c in page.data]
    assert [c.id for c in await client.fetch_all("managed.contacts.list")] == [
        c.id for c in page.data
    ]


async def test_contact_create_view_update_delete(client: ApiClient) -> None:
    made = await client.call(
        "managed.contacts.create",
        body=ContactCreate(
            name="Jörg Nußbaum",
            email="joerg@example.de",
            group="night",
            phone=PhoneUpdate(primary="+49 89 1234567"),
        ),
    )
    assert made.id is not None and made.name == "Jörg Nußbaum" and made.group == "night"
    assert made.phone is not None and made.phone.primary == "+49 89 1234567"
    assert made.phone.secondary is None
    seen = await client.call("managed.contacts.view", {"contactId": made.id})
    assert seen.email == "joerg@example.de"
    changed = await client.call(
        "managed.contacts.update",
        {"contactId": made.id},
        body=ContactUpdate(group=None, name="Jörg N."),
    )
    assert changed.name == "Jörg N." and changed.group is None
    assert changed.email == "joerg@example.de"
    by_kw = await client.call(
        "managed.contacts.update",
        {"contactId": made.id},
        body=ContactUpdate(phone=PhoneUpdate(secondary="(030) 555-0199")),
    )
    assert by_kw.phone is not None
    assert by_kw.phone.primary == "+49 89 1234567" and by_kw.phone.secondary == "(030) 555-0199"
    await client.call("managed.contacts.delete", {"contactId": made.id})
    with pytest.raises(ApiError) as info:
        await client.call("managed.contacts.view", {"contactId": made.id})
    assert info.value.status == 404


async def test_contact_create_by_keywords(client: ApiClient) -> None:
    made = await client.call(
        "managed.contacts.create", body=ContactCreate(name="Li Wei", email="li@example.cn")
    )
    assert made.name == "Li Wei" and made.group is None


# -- credentials ----------------------------------------------------------------------------


async def test_credentials_list_iter_all(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("managed.credentials.list")
    assert page.results == len(sim.store.rows("managed.credentials")) >= 2
    assert all(isinstance(c, ManagedCredential) for c in page.data)
    pages = [p async for p in client.iter_all("managed.credentials.list")]
    assert [c.id for p in pages for c in p.data] == [c.id for c in page.data]
    assert [c.id for c in await client.fetch_all("managed.credentials.list")] == [
        c.id for c in page.data
    ]


async def test_credential_lifecycle(client: ApiClient, sim: Simulator) -> None:
    made = await client.call(
        "managed.credentials.create",
        body=CredentialCreate(label="api-cred", password=SecretStr("pa55word"), username="bob"),
    )
    assert made.id is not None and made.label == "api-cred" and made.last_decrypted is None
    assert "password" not in made.raw() and "username" not in made.raw()
    assert (
        await client.call("managed.credentials.view", {"credentialId": made.id})
    ).label == "api-cred"
    renamed = await client.call(
        "managed.credentials.update",
        {"credentialId": made.id},
        body=CredentialUpdate(label="api-cred-2"),
    )
    assert renamed.label == "api-cred-2"
    await client.call(
        "managed.credentials.update_secret",
        {"credentialId": made.id},
        body=CredentialSecretUpdate(password=SecretStr("n3w"), username="alice"),
    )
    record = sim.store.get("managed.credentials", made.id)
    assert record is not None and record["_password"] == "n3w" and record["_username"] == "alice"
    await client.call(
        "managed.credentials.update_secret",
        {"credentialId": made.id},
        body=CredentialSecretUpdate(password=SecretStr("newer")),
    )
    assert record["_password"] == "newer" and record["_username"] == "alice"
    await client.call("managed.credentials.revoke", {"credentialId": made.id})
    with pytest.raises(ApiError) as info:
        await client.call("managed.credentials.view", {"credentialId": made.id})
    assert info.value.status == 404


async def test_credential_create_by_keywords(client: ApiClient) -> None:
    made = await client.call(
        "managed.credentials.create", body=CredentialCreate(label="kw-cred", password="plain-given")
    )
    assert made.label == "kw-cred"


async def test_ssh_key(client: ApiClient) -> None:
    key = await client.call("managed.credentials.sshkey")
    assert isinstance(key, SshKey)
    assert (key.ssh_key or "").startswith("ssh-ed25519 AAAA")
    assert (key.ssh_key or "").endswith(" managedservices@cloudtui")
    assert (await client.call("managed.credentials.sshkey")).ssh_key == key.ssh_key


# -- issues ---------------------------------------------------------------------------------


async def test_issues_list_iter_view(client: ApiClient) -> None:
    page = await client.fetch_page("managed.issues.list")
    assert page.results >= 2
    assert all(isinstance(i, ManagedIssue) for i in page.data)
    first = page.data[0]
    assert first.entity is not None and first.entity.type == "ticket"
    assert first.ticket is not None and first.ticket.summary
    pages = [p async for p in client.iter_all("managed.issues.list")]
    assert [i.id for p in pages for i in p.data] == [i.id for i in page.data]
    seen = await client.call("managed.issues.view", {"issueId": first.id or 0})
    assert seen.services == first.services and seen.created == first.created


# -- compute settings -----------------------------------------------------------------------


async def test_compute_settings_list_view_update(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("managed.compute_settings.list")
    assert page.results == len(sim.store.rows("compute.instances"))
    assert all(isinstance(s, ComputeSettings) for s in page.data)
    pages = [p async for p in client.iter_all("managed.compute_settings.list")]
    assert [s.id for p in pages for s in p.data] == [s.id for s in page.data]
    seen = await client.call("managed.compute_settings.view", {"computeId": INSTANCE_ID})
    assert seen.label == "managed-host" and seen.group == "web"
    assert seen.ssh is not None and seen.ssh.access is True and seen.ssh.ip == "any"
    update = "managed.compute_settings.update"
    changed = await client.call(
        update,
        {"computeId": INSTANCE_ID},
        body=ComputeSettingsUpdate(ssh=SshSettingsUpdate(port=2200, user="ops")),
    )
    assert changed.ssh is not None and changed.ssh.port == 2200 and changed.ssh.user == "ops"
    by_kw = await client.call(
        update,
        {"computeId": INSTANCE_ID},
        body=ComputeSettingsUpdate(ssh=SshSettingsUpdate(access=False, ip="203.0.113.7")),
    )
    assert by_kw.ssh is not None
    assert by_kw.ssh.access is False and by_kw.ssh.ip == "203.0.113.7" and by_kw.ssh.port == 2200


# -- services -------------------------------------------------------------------------------


async def test_services_list_iter_all(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("managed.services.list")
    assert page.results == len(sim.store.rows("managed.services")) >= 4
    assert all(isinstance(s, MonitoredService) for s in page.data)
    assert {"url", "tcp"} <= {s.service_type for s in page.data}
    pages = [p async for p in client.iter_all("managed.services.list")]
    assert [s.id for p in pages for s in p.data] == [s.id for s in page.data]
    assert [s.id for s in await client.fetch_all("managed.services.list")] == [
        s.id for s in page.data
    ]


async def test_service_lifecycle(client: ApiClient, sim: Simulator, clock: VirtualClock) -> None:
    delay = sim.timings.get("managed.check", 5.0)
    made = await client.call(
        "managed.services.create",
        body=ServiceCreate(
            label="api-check",
            service_type="url",
            address="https://app.example.com/status?full=1#top",
            timeout=20,
            expected_body="healthy",
            consultation_group="on-call",
        ),
    )
    assert made.id is not None and made.status == "pending"
    assert made.address == "https://app.example.com/status?full=1"
    assert made.body == "healthy"
    clock.advance(delay)
    assert (await client.call("managed.services.view", {"serviceId": made.id})).status == "ok"
    changed = await client.call(
        "managed.services.update",
        {"serviceId": made.id},
        body=ServiceUpdate(timeout=45, notes="look at logs"),
    )
    assert changed.timeout == 45 and changed.notes == "look at logs"
    assert changed.label == "api-check"
    moved = await client.call(
        "managed.services.update",
        {"serviceId": made.id},
        body=ServiceUpdate(service_type="tcp", address="10.1.2.3:5432", region="eu-west"),
    )
    assert moved.service_type == "tcp" and moved.region == "eu-west"
    assert (
        await client.call("managed.services.disable", {"serviceId": made.id})
    ).status == "disabled"
    assert (
        await client.call("managed.services.enable", {"serviceId": made.id})
    ).status == "pending"
    clock.advance(delay)
    assert (await client.call("managed.services.view", {"serviceId": made.id})).status == "ok"
    await client.call("managed.services.delete", {"serviceId": made.id})
    with pytest.raises(ApiError) as info:
        await client.call("managed.services.view", {"serviceId": made.id})
    assert info.value.status == 404


async def test_service_create_by_keywords(client: ApiClient) -> None:
    made = await client.call(
        "managed.services.create",
        body=ServiceCreate(
            label="tcp-check", service_type="tcp", address="db.example.com:5432", timeout=5
        ),
    )
    assert made.region is None and made.credentials == []


async def test_server_errors_name_fields(client: ApiClient) -> None:
    with pytest.raises(ApiError) as info:
        await client.call(
            "managed.services.create",
            body=ServiceCreate(
                label="private",
                service_type="url",
                address="http://10.0.0.9/",
                timeout=5,
                region="mars",
            ),
        )
    assert "region" in info.value.field_errors()


# -- stats ----------------------------------------------------------------------------------


async def test_stats(client: ApiClient) -> None:
    stats = await client.call("managed.stats")
    assert isinstance(stats, ManagedStats) and stats.data is not None
    for series in (stats.data.cpu, stats.data.disk, stats.data.swap, stats.data.net_in):
        assert len(series) == 288
    assert stats.data.net_out[-1].x is not None


# -- request models -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (ContactCreate, {"name": "A", "email": "a@example.com"}),
        (ContactCreate, {"name": "x" * 65, "email": "a@example.com"}),
        (ContactCreate, {"name": "Ann", "email": "not-an-email"}),
        (ContactCreate, {"name": "Ann", "email": "a@example.com", "group": "g"}),
        (ContactCreate, {"name": "Ann", "email": "a@example.com", "phone": {"primary": "12"}}),
        (ContactCreate, {"name": "Ann", "email": "a@example.com", "fax": "1"}),
        (ContactUpdate, {"email": None}),
        (CredentialCreate, {"label": "ok-label"}),
        (CredentialCreate, {"label": "x", "password": "p"}),
        (CredentialCreate, {"label": "x" * 76, "password": "p"}),
        (CredentialCreate, {"label": "ok", "password": ""}),
        (CredentialCreate, {"label": "ok", "password": "p", "username": "u" * 5001}),
        (CredentialUpdate, {}),
        (CredentialUpdate, {"label": "ok", "password": "p"}),
        (CredentialSecretUpdate, {"username": "u"}),
        (ComputeSettingsUpdate, {}),
        (ComputeSettingsUpdate, {"ssh": {"port": 0}}),
        (ComputeSettingsUpdate, {"ssh": {"port": 65536}}),
        (ComputeSettingsUpdate, {"ssh": {"user": "u" * 33}}),
        (ComputeSettingsUpdate, {"ssh": {"ip": "not-an-ip"}}),
        (
            ServiceCreate,
            {"label": "ab", "service_type": "url", "address": "http://a.b", "timeout": 1},
        ),
        (ServiceCreate, {"label": "abc", "service_type": "udp", "address": "a.b:1", "timeout": 1}),
        (ServiceCreate, {"label": "abc", "service_type": "url", "address": "ab", "timeout": 1}),
        (
            ServiceCreate,
            {"label": "abc", "service_type": "url", "address": "http://a.b", "timeout": 0},
        ),
        (
            ServiceCreate,
            {"label": "abc", "service_type": "url", "address": "http://a.b", "timeout": 256},
        ),
        (
            ServiceCreate,
            {
                "label": "abc",
                "service_type": "url",
                "address": "http://a.b",
                "timeout": 5,
                "body": "b" * 101,
            },
        ),
        (
            ServiceCreate,
            {"label": "abc", "service_type": "tcp", "address": "10.0.0.1:22", "timeout": 5},
        ),
        (
            ServiceCreate,
            {
                "label": "abc",
                "service_type": "url",
                "address": "http://a.b",
                "timeout": 5,
                "region": "us-east",
            },
        ),
        (ServiceUpdate, {"address": "http://example.com/", "region": "us-east"}),
        (ServiceUpdate, {"timeout": 300}),
    ],
)
def test_request_models_are_strict(model: Any, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**fields)


def test_password_is_secret_and_revealed_only_in_body() -> None:
    request = CredentialCreate(label="lbl", password=SecretStr("hidden-pw"))
    assert "hidden-pw" not in repr(request)
    assert request.body()["password"] == "hidden-pw"
    assert field_help(CredentialCreate, "label")
