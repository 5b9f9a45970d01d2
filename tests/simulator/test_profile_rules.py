"""Profile rules: validation, per-user data, referrals, grants, logins window, phone codes on the
clock and per-client preferences."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.profile import PhoneCodeSend, ProfileUpdate
from tui.simulator import Simulator, VirtualClock
from tui.simulator.auth import DEMO_TOKENS, TokenInfo
from tui.simulator.clock import parse_iso
from tui.simulator.handlers.profile import pending_phone_code

DAY = 86400


def _state(sim: Simulator) -> dict[str, Any]:
    tables = {k: v for k, v in sim.store.tables.items() if k.startswith("profile.") or k == "users"}
    meta = {k: v for k, v in sim.store.meta.items() if k.startswith("profile.")}
    return copy.deepcopy({"tables": tables, "meta": meta})


async def _bad_update(client: ApiClient, sim: Simulator, body: Any, field: str) -> None:
    before = _state(sim)
    err = await _refused(client, "profile.update", body=body)
    assert field in err.field_errors(), err
    assert _state(sim) == before


def _code(sim: Simulator, user: str = "demo") -> str:
    code = pending_phone_code(sim.store, user)
    assert code is not None and code == sim.store.meta["profile.phone_codes"][user]["code"]
    return code


# -- authentication -------------------------------------------------------------------------


async def test_profile_view_works_with_any_valid_token(
    client_for: Callable[..., ApiClient],
) -> None:
    readonly = await client_for("readonly").call("profile.view", model=dict)
    assert readonly["username"] == "demo"
    restricted = await client_for("restricted").call("profile.view", model=dict)
    assert restricted["username"] == "ops-restricted"
    await _refused(client_for("anonymous"), "profile.view", status=401)


async def test_readonly_oauth_token_cannot_update(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    before = _state(sim)
    await _refused(client_for("readonly"), "profile.update", body={"timezone": "UTC"}, status=403)
    assert _state(sim) == before


async def test_restricted_reflects_the_user(
    client: ApiClient, client_for: Callable[..., ApiClient]
) -> None:
    assert (await client.call("profile.view", model=dict))["restricted"] is False
    assert (await client_for("restricted").call("profile.view", model=dict))["restricted"] is True


async def test_profiles_are_per_user(
    client: ApiClient, client_for: Callable[..., ApiClient]
) -> None:
    ops = client_for("restricted")
    await ops.call("profile.update", body={"timezone": "Asia/Singapore"}, model=dict)
    assert (await ops.call("profile.view", model=dict))["timezone"] == "Asia/Singapore"
    assert (await client.call("profile.view", model=dict))["timezone"] == "Europe/Berlin"


# -- update validation ----------------------------------------------------------------------


async def test_ip_whitelist_cannot_be_enabled(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    ops = client_for("restricted")
    assert (await ops.call("profile.view", model=dict))["ip_whitelist_enabled"] is False
    await _bad_update(ops, sim, {"ip_whitelist_enabled": True}, "ip_whitelist_enabled")


async def test_ip_whitelist_once_disabled_is_never_re_enabled(
    client: ApiClient, sim: Simulator
) -> None:
    assert (await client.call("profile.view", model=dict))["ip_whitelist_enabled"] is True
    # Sending the current value is not enabling it.
    await client.call("profile.update", body={"ip_whitelist_enabled": True}, model=dict)
    disabled = await client.call("profile.update", body={"ip_whitelist_enabled": False}, model=dict)
    assert disabled["ip_whitelist_enabled"] is False
    await _bad_update(client, sim, {"ip_whitelist_enabled": True}, "ip_whitelist_enabled")


async def test_shell_auth_method_choices(client: ApiClient, sim: Simulator) -> None:
    await _bad_update(client, sim, {"shell_auth_method": "password_only"}, "shell_auth_method")
    for method in ("keys_only", "disabled", "password_keys"):
        answer = await client.call("profile.update", body={"shell_auth_method": method}, model=dict)
        assert answer["shell_auth_method"] == method


@pytest.mark.parametrize("email", ["not-an-email", "a@b", "two words@example.com", 42])
async def test_email_must_be_valid(client: ApiClient, sim: Simulator, email: Any) -> None:
    await _bad_update(client, sim, {"email": email}, "email")


async def test_bad_field_changes_nothing_even_beside_good_ones(
    client: ApiClient, sim: Simulator
) -> None:
    await _bad_update(client, sim, {"timezone": "Asia/Tokyo", "email": "nope"}, "email")
    assert (await client.call("profile.view", model=dict))["timezone"] == "Europe/Berlin"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"timezone": "Mars/Olympus_Mons"}, "timezone"),
        ({"authorized_keys": ["not a key"]}, "authorized_keys"),
        ({"authorized_keys": "ssh-ed25519 AAAA"}, "authorized_keys"),
        ({"two_factor_auth": "yes"}, "two_factor_auth"),
        ({"email_notifications": 1}, "email_notifications"),
        ({"restricted": True}, "restricted"),
        ({"username": "root"}, "username"),
    ],
)
async def test_update_field_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    await _bad_update(client, sim, body, field)


async def test_restricted_user_cannot_lift_own_restriction(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    ops = client_for("restricted")
    await _bad_update(ops, sim, {"restricted": False}, "restricted")
    assert (await ops.call("profile.update", body={"restricted": True}, model=dict))[
        "restricted"
    ] is True


def test_client_models_refuse_what_the_server_refuses() -> None:
    with pytest.raises(ValidationError):
        ProfileUpdate(ip_whitelist_enabled=True)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        ProfileUpdate(shell_auth_method="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        ProfileUpdate(email="nope")
    with pytest.raises(ValidationError):
        ProfileUpdate(timezone="Nowhere/Special")
    with pytest.raises(ValidationError):
        PhoneCodeSend(iso_code="USA", phone_number="+1 555 0100 22")
    with pytest.raises(ValidationError):
        PhoneCodeSend(iso_code="US", phone_number="call me")


# -- referrals ------------------------------------------------------------------------------


async def test_referrals_shown_to_every_user_after_25_usd(
    client: ApiClient, client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    ops = client_for("restricted")
    sim.store.meta["profile.payments_total_cents"] = 2500
    demo_view = await client.call("profile.view", model=dict)
    ops_view = await ops.call("profile.view", model=dict)
    assert demo_view["referrals"]["code"] == "demo4101x"
    assert ops_view["referrals"] == demo_view["referrals"]
    sim.store.meta["profile.payments_total_cents"] = 2499
    assert "referrals" not in await client.call("profile.view", model=dict)
    assert "referrals" not in await ops.call("profile.view", model=dict)
    assert (await client.call("profile.view")).referrals is None


async def test_referrals_absent_when_no_payment_is_recorded(
    client: ApiClient, sim: Simulator
) -> None:
    del sim.store.meta["profile.payments_total_cents"]
    assert "referrals" not in await client.call("profile.view", model=dict)


# -- apps and devices -----------------------------------------------------------------------


async def test_apps_are_per_user(
    client: ApiClient, client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    ops = client_for("restricted")
    mine = (await client.call("profile.apps.list", model=dict))["data"]
    theirs = (await ops.call("profile.apps.list", model=dict))["data"]
    assert [a["label"] for a in theirs] == ["Pager Bridge"]
    before = _state(sim)
    await _refused(ops, "profile.apps.view", {"appId": mine[0]["id"]}, status=404)
    await _refused(ops, "profile.apps.revoke", {"appId": mine[0]["id"]}, status=404)
    await _refused(client, "profile.apps.view", {"appId": "abc"}, status=404)
    await _refused(client, "profile.apps.revoke", {"appId": 999999}, status=404)
    assert _state(sim) == before


async def test_apps_need_account_scope(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    readonly = client_for("readonly")
    apps = (await readonly.call("profile.apps.list", model=dict))["data"]
    before = _state(sim)
    await _refused(readonly, "profile.apps.revoke", {"appId": apps[0]["id"]}, status=403)
    await _refused(readonly, "profile.devices.revoke", {"deviceId": 5200}, status=403)
    assert _state(sim) == before


async def test_ended_device_sessions_are_not_listed(
    client: ApiClient, clock: VirtualClock, sim: Simulator
) -> None:
    devices = sim.store.rows("profile.devices")
    ended = next(
        d for d in devices if d["_user"] == "demo" and parse_iso(d["expiry"]) <= clock.now()
    )
    listed = (await client.call("profile.devices.list", model=dict))["data"]
    assert ended["id"] not in [d["id"] for d in listed]
    await _refused(client, "profile.devices.view", {"deviceId": ended["id"]}, status=404)
    await _refused(client, "profile.devices.revoke", {"deviceId": ended["id"]}, status=404)
    soonest = min(parse_iso(d["expiry"]) for d in listed)
    clock.advance(soonest - clock.now() + 1)
    assert len((await client.call("profile.devices.list", model=dict))["data"]) == len(listed) - 1


async def test_devices_are_per_user(
    client: ApiClient, client_for: Callable[..., ApiClient]
) -> None:
    theirs = (await client_for("restricted").call("profile.devices.list", model=dict))["data"]
    assert len(theirs) == 1
    await _refused(client, "profile.devices.view", {"deviceId": theirs[0]["id"]}, status=404)


# -- grants ---------------------------------------------------------------------------------


async def test_grants_204_without_body_for_unrestricted(sim: Simulator) -> None:
    for token in (DEMO_TOKENS["unrestricted"], DEMO_TOKENS["readonly"]):
        async with httpx.AsyncClient(transport=sim.transport()) as http:
            answer = await http.get(
                "http://sim.local/v4/profile/grants", headers={"Authorization": f"Bearer {token}"}
            )
        assert answer.status_code == 204
        assert answer.content == b""


async def test_grants_object_for_restricted_user(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    sim.store.table("users")["ops-restricted"]["grants"]["compute"] = [
        {"id": 123, "label": "web-[prod]-1", "permissions": "read_only"}
    ]
    grants = await client_for("restricted").call("profile.grants", model=dict)
    for kind in ("domain", "image", "compute", "metrics", "loadbalancer", "deployscript", "volume"):
        assert isinstance(grants[kind], list)
    assert grants["compute"] == [{"id": 123, "label": "web-[prod]-1", "permissions": "read_only"}]
    assert set(grants["global"]) >= {
        "add_databases",
        "add_domains",
        "add_firewalls",
        "add_images",
        "add_computes",
        "add_metrics",
        "add_loadbalancers",
        "add_deployscripts",
        "add_volumes",
        "cancel_account",
        "metrics_subscription",
        "account_access",
    }
    assert grants["global"]["add_volumes"] is True and grants["global"]["add_computes"] is False


# -- logins ---------------------------------------------------------------------------------


async def test_logins_only_last_90_days(
    client: ApiClient, clock: VirtualClock, sim: Simulator
) -> None:
    now = clock.now()
    own = [e for e in sim.store.rows("profile.logins") if e["username"] == "demo"]
    recent = [e for e in own if parse_iso(e["datetime"]) >= now - 90 * DAY]
    old = [e for e in own if parse_iso(e["datetime"]) < now - 90 * DAY]
    assert recent and old
    listed = await client.call("profile.logins.list", model=dict)
    assert listed["results"] == len(recent)
    await _refused(client, "profile.logins.view", {"loginId": old[0]["id"]}, status=404)
    clock.advance(30 * DAY)
    later = await client.call("profile.logins.list", model=dict)
    still = [e for e in own if parse_iso(e["datetime"]) >= now + 30 * DAY - 90 * DAY]
    assert later["results"] == len(still) < len(recent)


async def test_logins_are_the_users_own(
    client: ApiClient, client_for: Callable[..., ApiClient]
) -> None:
    ops = client_for("restricted")
    theirs = (await ops.call("profile.logins.list", model=dict))["data"]
    assert theirs and all(e["username"] == "ops-restricted" and e["restricted"] for e in theirs)
    await _refused(client, "profile.logins.view", {"loginId": theirs[0]["id"]}, status=404)


# -- phone ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"phone_number": "+1 555 010 0123"}, "iso_code"),
        ({"iso_code": "USA", "phone_number": "+1 555 010 0123"}, "iso_code"),
        ({"iso_code": "1", "phone_number": "+1 555 010 0123"}, "iso_code"),
        ({"iso_code": "US"}, "phone_number"),
        ({"iso_code": "US", "phone_number": "call me maybe"}, "phone_number"),
        ({"iso_code": "US", "phone_number": "12345"}, "phone_number"),
        ({"iso_code": "US", "phone_number": 15550100123}, "phone_number"),
    ],
)
async def test_phone_send_validation(
    client_for: Callable[..., ApiClient], sim: Simulator, body: dict[str, Any], field: str
) -> None:
    ops = client_for("restricted")
    before = _state(sim)
    err = await _refused(ops, "profile.phone.send", body=body)
    assert field in err.field_errors()
    assert _state(sim) == before


async def test_send_refused_while_a_verified_number_is_set(
    client: ApiClient, sim: Simulator
) -> None:
    before = _state(sim)
    err = await _refused(
        client,
        "profile.phone.send",
        body={"iso_code": "US", "phone_number": "+1 555 010 9999"},
        status=409,
    )
    assert "phone_number" in err.field_errors()
    assert _state(sim) == before


async def test_change_number_by_delete_then_send_and_verify(
    client: ApiClient, sim: Simulator
) -> None:
    await client.call("profile.phone.delete", model=dict)
    assert (await client.call("profile.view", model=dict))["verified_phone_number"] is None
    await client.call(
        "profile.phone.send", body={"iso_code": "gb", "phone_number": "07700 900123"}, model=dict
    )
    sms = sim.store.meta["profile.sms_outbox"][-1]
    assert sms["to"] == "07700900123" and _code(sim) in sms["text"]
    await client.call("profile.phone.verify", body={"otp_code": _code(sim)}, model=dict)
    assert (await client.call("profile.view", model=dict))["verified_phone_number"] == "07700900123"
    assert "demo" not in sim.store.meta["profile.phone_codes"]


async def test_resend_before_expiry_keeps_the_code(
    client_for: Callable[..., ApiClient], sim: Simulator, clock: VirtualClock
) -> None:
    ops = client_for("restricted")
    body = {"iso_code": "US", "phone_number": "+1 555 010 0123"}
    await ops.call("profile.phone.send", body=body, model=dict)
    first = dict(sim.store.meta["profile.phone_codes"]["ops-restricted"])
    clock.advance(9 * 60)
    await ops.call("profile.phone.send", body=body, model=dict)
    again = sim.store.meta["profile.phone_codes"]["ops-restricted"]
    assert again["code"] == first["code"] and again["expires"] == first["expires"]
    assert len(sim.store.meta["profile.sms_outbox"]) == 2
    clock.advance(61)
    await ops.call("profile.phone.send", body=body, model=dict)
    renewed = sim.store.meta["profile.phone_codes"]["ops-restricted"]
    assert renewed["expires"] == clock.now() + 600


async def test_code_expires_after_10_minutes(
    client_for: Callable[..., ApiClient], sim: Simulator, clock: VirtualClock
) -> None:
    ops = client_for("restricted")
    await ops.call(
        "profile.phone.send", body={"iso_code": "US", "phone_number": "+15550100123"}, model=dict
    )
    code = _code(sim, "ops-restricted")
    clock.advance(600)
    before = _state(sim)
    err = await _refused(ops, "profile.phone.verify", body={"otp_code": code})
    assert "otp_code" in err.field_errors() and "expired" in err.reasons
    assert _state(sim) == before
    assert (await ops.call("profile.view", model=dict))["verified_phone_number"] is None


async def test_code_verifies_just_before_expiry(
    client_for: Callable[..., ApiClient], sim: Simulator, clock: VirtualClock
) -> None:
    ops = client_for("restricted")
    await ops.call(
        "profile.phone.send", body={"iso_code": "US", "phone_number": "+15550100123"}, model=dict
    )
    clock.advance(599)
    await ops.call(
        "profile.phone.verify", body={"otp_code": _code(sim, "ops-restricted")}, model=dict
    )
    assert (await ops.call("profile.view", model=dict))["verified_phone_number"] == "+15550100123"


async def test_wrong_code_refused_then_right_code_accepted(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    ops = client_for("restricted")
    await ops.call(
        "profile.phone.send", body={"iso_code": "DE", "phone_number": "+49 30 1234567"}, model=dict
    )
    code = _code(sim, "ops-restricted")
    wrong = "000000" if code != "000000" else "111111"
    before = _state(sim)
    for bad in (wrong, "ünïcode", 123456, ""):
        err = await _refused(ops, "profile.phone.verify", body={"otp_code": bad})
        assert "otp_code" in err.field_errors()
    assert _state(sim) == before
    await ops.call("profile.phone.verify", body={"otp_code": code}, model=dict)
    assert (await ops.call("profile.view", model=dict))["verified_phone_number"] == "+49301234567"


async def test_only_the_requesting_user_may_verify(
    client: ApiClient, client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    ops = client_for("restricted")
    await ops.call(
        "profile.phone.send", body={"iso_code": "US", "phone_number": "+15550100123"}, model=dict
    )
    code = _code(sim, "ops-restricted")
    await client.call("profile.phone.delete", model=dict)
    before = _state(sim)
    err = await _refused(client, "profile.phone.verify", body={"otp_code": code})
    assert "otp_code" in err.field_errors()
    assert _state(sim) == before
    assert (await client.call("profile.view", model=dict))["verified_phone_number"] is None


async def test_verify_needs_a_code(client: ApiClient, sim: Simulator) -> None:
    before = _state(sim)
    err = await _refused(client, "profile.phone.verify", body={})
    assert "otp_code" in err.field_errors()
    err = await _refused(client, "profile.phone.verify", body={"otp_code": "123456"})
    assert "otp_code" in err.field_errors()  # nothing was sent to this user
    assert _state(sim) == before


async def test_delete_also_drops_a_pending_code(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    ops = client_for("restricted")
    await ops.call(
        "profile.phone.send", body={"iso_code": "US", "phone_number": "+15550100123"}, model=dict
    )
    code = _code(sim, "ops-restricted")
    await ops.call("profile.phone.delete", model=dict)
    await _refused(ops, "profile.phone.verify", body={"otp_code": code})


# -- preferences ----------------------------------------------------------------------------


async def test_preferences_are_per_oauth_client(
    client: ApiClient, client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    sim.add_token(
        "other-app-token",
        TokenInfo("demo", frozenset({"account:read_write"}), client_id="other-app"),
    )
    other = ApiClient(
        "http://sim.local/v4", "other-app-token", transport=sim.transport(), allow_insecure=True
    )
    try:
        assert await other.call("profile.preferences.view", model=dict) == {}
        await other.call("profile.preferences.update", body={"layout": "wide"}, model=dict)
        assert await other.call("profile.preferences.view", model=dict) == {"layout": "wide"}
    finally:
        await other.aclose()
    assert await client.call("profile.preferences.view", model=dict) == {"theme": "textual-dark"}
    dashboard = await client_for("readonly").call("profile.preferences.view", model=dict)
    assert dashboard["refresh_seconds"] == 30
    assert await client_for("restricted").call("profile.preferences.view", model=dict) == {}


async def test_preferences_update_keeps_arbitrary_json(client: ApiClient) -> None:
    body = {"_private": 1, "nested": {"list": [1, None, "é"]}, "flag": False}
    assert await client.call("profile.preferences.update", body=body, model=dict) == body
    assert await client.call("profile.preferences.view", model=dict) == body


@pytest.mark.parametrize("body", [[1, 2], "text", 5, True])
async def test_preferences_must_be_an_object(client: ApiClient, sim: Simulator, body: Any) -> None:
    before = _state(sim)
    with pytest.raises(ApiError) as info:
        await client.request("PUT", "/profile/preferences", json=body)
    assert info.value.status == 400
    assert _state(sim) == before
