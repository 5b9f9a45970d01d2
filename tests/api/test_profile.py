"""Every profile operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from collections.abc import Callable

from tui.api.client import ApiClient
from tui.models.profile import Grants, PhoneCodeSend, PhoneVerify, Profile, ProfileUpdate
from tui.simulator import Simulator

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9yZGVycy1wcm9kLWtleS0xMjM0NTY3ODkw new@host"


async def test_view_profile(client: ApiClient) -> None:
    profile = await client.call("profile.view")
    assert isinstance(profile, Profile)
    assert profile.username == "demo"
    assert profile.uid == 4101
    assert profile.restricted is False
    assert profile.email == "demo@example.com"
    assert profile.shell_auth_method == "password_keys"
    assert profile.referrals is not None and profile.referrals.code


async def test_update_profile_with_model_and_keywords(client: ApiClient) -> None:
    updated = await client.call(
        "profile.update",
        body=ProfileUpdate(
            email="ops@cafe.example",
            timezone="Asia/Tokyo",
            email_notifications=False,
            shell_auth_method="keys_only",
            authorized_keys=[KEY],
            two_factor_auth=False,
            restricted=False,
            ip_whitelist_enabled=False,
        ),
    )
    assert updated.email == "ops@cafe.example"
    assert updated.timezone == "Asia/Tokyo"
    assert updated.email_notifications is False
    assert updated.shell_auth_method == "keys_only"
    assert updated.authorized_keys == [KEY]
    assert updated.two_factor_auth is False
    assert updated.ip_whitelist_enabled is False
    again = await client.call(
        "profile.update", body=ProfileUpdate(timezone="UTC", authorized_keys=None)
    )
    assert again.timezone == "UTC" and again.authorized_keys is None
    assert (await client.call("profile.view")).email == "ops@cafe.example"


async def test_apps_list_iter_view_revoke(client: ApiClient) -> None:
    page = await client.fetch_page("profile.apps.list")
    labels = [a.label for a in page.data]
    assert "Café Status Board" in labels and "Backup Monitor [beta]" in labels
    assert "Pager Bridge" not in labels  # the restricted user's app
    pages = [p async for p in client.iter_all("profile.apps.list")]
    assert [a.id for p in pages for a in p.data] == [a.id for a in page.data]
    first = page.data[0]
    assert first.id is not None
    app = await client.call("profile.apps.view", {"appId": first.id})
    assert app.label == first.label and app.scopes
    await client.call("profile.apps.revoke", {"appId": first.id})
    assert first.id not in [a.id for a in (await client.fetch_page("profile.apps.list")).data]


async def test_devices_list_iter_view_revoke(client: ApiClient) -> None:
    page = await client.fetch_page("profile.devices.list")
    assert page.results == 3  # the fourth session has already ended
    assert [
        d.id for p in [p async for p in client.iter_all("profile.devices.list")] for d in p.data
    ] == [d.id for d in page.data]
    device_id = page.data[0].id
    assert device_id is not None
    device = await client.call("profile.devices.view", {"deviceId": device_id})
    assert device.user_agent and device.last_remote_addr and device.expiry
    await client.call("profile.devices.revoke", {"deviceId": device_id})
    assert (await client.fetch_page("profile.devices.list")).results == 2


async def test_grants_none_for_unrestricted_and_object_for_restricted(
    client: ApiClient, client_for: Callable[..., ApiClient]
) -> None:
    assert await client.call("profile.grants") is None
    grants = await client_for("restricted").call("profile.grants")
    assert isinstance(grants, Grants)
    assert grants.global_ is not None and grants.global_.add_volumes is True
    assert grants.global_.add_computes is False


async def test_logins_list_iter_view(client: ApiClient) -> None:
    page = await client.fetch_page("profile.logins.list")
    assert page.results > 0
    assert all(login.username == "demo" and login.restricted is False for login in page.data)
    dates = [login.datetime or "" for login in page.data]
    assert dates == sorted(dates, reverse=True)
    pages = [p async for p in client.iter_all("profile.logins.list")]
    assert sum(len(p.data) for p in pages) == page.results
    login_id = page.data[0].id
    assert login_id is not None
    login = await client.call("profile.logins.view", {"loginId": login_id})
    assert login.ip == page.data[0].ip


async def test_phone_delete_send_verify(client: ApiClient, sim: Simulator) -> None:
    await client.call("profile.phone.delete")
    assert (await client.call("profile.view")).verified_phone_number is None
    await client.call(
        "profile.phone.send", body=PhoneCodeSend(iso_code="de", phone_number="+49 30 1234567")
    )
    code = sim.store.meta["profile.phone_codes"]["demo"]["code"]
    assert code in sim.store.meta["profile.sms_outbox"][-1]["text"]
    await client.call("profile.phone.verify", body=PhoneVerify(otp_code=code))
    assert (await client.call("profile.view")).verified_phone_number == "+49301234567"


async def test_preferences_view_and_update(client: ApiClient) -> None:
    view, update = "profile.preferences.view", "profile.preferences.update"
    assert (await client.call(view)).root == {"theme": "textual-dark"}
    stored = await client.call(update, body={"theme": "nord", "columns": ["label", "région"]})
    assert stored.root == {"theme": "nord", "columns": ["label", "région"]}
    assert await client.call(view) == stored
