"""Profile: the acting user's settings, authorized apps, trusted devices, grants, logins, phone
verification and per-client preferences.

Choices where the reference is silent:

* Everything is per user (the demo user and the restricted user each have their own profile,
  apps, devices, logins and preferences). ``email``, ``uid``, ``username`` and ``restricted`` come
  from the shared ``users`` table; the other profile fields live in ``profile.profiles``.
* ``restricted`` is listed as updatable, but a user cannot change their own restriction (the
  account's administrator does): sending a different value is refused.
* Referral figures belong to the account: the profile shows them to every user of the account
  once the account's payments (store meta :data:`PAYMENTS_META`, in US cents) reach 25.00 USD, and
  omits the field before that.
* Trusted devices whose remember-me session has ended are no longer listed (nor viewable).
* Logins list the acting user's own successful logins of the last 90 days.
* The phone code is "sent by SMS": it goes to the simulator's SMS outbox (store meta
  :data:`OUTBOX_META`) and the log, and the pending code is kept per user in
  :data:`CODES_META`. Sending while a verified number is set is refused (delete it first).
* Preferences are replaced as a whole by an update; with nothing stored the view is ``{}``.
"""

from __future__ import annotations

import copy
import logging
import re
import secrets
import zoneinfo
from typing import Any

from starlette.responses import Response

from tui.simulator.auth import GLOBAL_GRANTS, GRANT_KINDS
from tui.simulator.clock import iso, parse_iso
from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import SimError, conflict, not_found
from tui.simulator.registry import handles
from tui.simulator.store import Store
from tui.simulator.validate import Check

log = logging.getLogger("cloudtui.simulator.sms")

PROFILES = "profile.profiles"
APPS = "profile.apps"
DEVICES = "profile.devices"
LOGINS = "profile.logins"
PREFERENCES = "profile.preferences"

PAYMENTS_META = "profile.payments_total_cents"
"""Total payments of the account so far, in US cents."""
REFERRALS_META = "profile.referrals"
"""The account's referral figures (shown once payments reach the threshold)."""
CODES_META = "profile.phone_codes"
"""Username -> pending phone verification ``{code, iso_code, phone_number, sent, expires}``."""
OUTBOX_META = "profile.sms_outbox"
"""SMS the simulator "sent": ``[{to, username, text, at}]``, newest last (demo and tests)."""

REFERRAL_THRESHOLD_CENTS = 2500
PHONE_CODE_TTL = 600.0
LOGIN_WINDOW = 90 * 86400.0
OUTBOX_KEEP = 20

SHELL_AUTH_METHODS = ("password_keys", "keys_only", "disabled")
UPDATE_FIELDS = (
    "email",
    "timezone",
    "email_notifications",
    "shell_auth_method",
    "authorized_keys",
    "two_factor_auth",
    "restricted",
    "ip_whitelist_enabled",
)
ISO_CODE = re.compile(r"[A-Za-z]{2}")
PHONE = re.compile(r"\+?[0-9][0-9 ().-]*")
SSH_KEY = re.compile(
    r"(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)"
    r"@openssh\.com) [A-Za-z0-9+/]+={0,3}( .*)?"
)


# -- records --------------------------------------------------------------------------------


def default_profile(username: str) -> dict[str, Any]:
    """The profile settings of a user who has none stored yet."""
    return {
        "_user": username,
        "authentication_type": "password",
        "authorized_keys": None,
        "email_notifications": True,
        "ip_whitelist_enabled": False,
        "shell_auth_method": "password_keys",
        "timezone": "UTC",
        "two_factor_auth": False,
        "verified_phone_number": None,
    }


def profile_record(store: Store, username: str) -> dict[str, Any]:
    """The stored profile settings of ``username`` (created with defaults on first use)."""
    record = store.get(PROFILES, username)
    if record is None:
        record = store.put(PROFILES, username, default_profile(username))
    return record


def payments_total_cents(store: Store) -> int:
    """The account's total payments so far, US cents (0 when never recorded)."""
    value = store.meta.get(PAYMENTS_META, 0)
    return int(value) if isinstance(value, int | float) else 0


def render_profile(ctx: Ctx) -> dict[str, Any]:
    """The Profile resource of the acting user."""
    user = ctx.principal.user or {}
    record = profile_record(ctx.store, ctx.principal.username)
    result: dict[str, Any] = {
        "authentication_type": record["authentication_type"],
        "authorized_keys": copy.deepcopy(record["authorized_keys"]),
        "email": user.get("email"),
        "email_notifications": record["email_notifications"],
        "ip_whitelist_enabled": record["ip_whitelist_enabled"],
        "shell_auth_method": record["shell_auth_method"],
        "restricted": ctx.principal.restricted,
        "timezone": record["timezone"],
        "two_factor_auth": record["two_factor_auth"],
        "uid": user.get("uid"),
        "username": ctx.principal.username,
        "verified_phone_number": record["verified_phone_number"],
    }
    referrals = ctx.store.meta.get(REFERRALS_META)
    if payments_total_cents(ctx.store) >= REFERRAL_THRESHOLD_CENTS and isinstance(referrals, dict):
        result["referrals"] = copy.deepcopy(referrals)
    return result


def _own(ctx: Ctx, table: str, param: str) -> dict[str, Any]:
    """A record of ``table`` belonging to the acting user (404 otherwise)."""
    record = ctx.store.get(table, ctx.param_int(param))
    if record is None or record.get("_user") != ctx.principal.username:
        raise not_found()
    return record


def _device_active(device: dict[str, Any], now: float) -> bool:
    expiry = device.get("expiry")
    return expiry is None or parse_iso(expiry) > now


def _login_recent(login: dict[str, Any], now: float) -> bool:
    return parse_iso(login["datetime"]) >= now - LOGIN_WINDOW


# -- profile --------------------------------------------------------------------------------


@handles("profile.view")
def view_profile(ctx: Ctx) -> dict[str, Any]:
    """Any valid token may read its user's profile."""
    return render_profile(ctx)


@handles("profile.update")
def update_profile(ctx: Ctx) -> dict[str, Any]:
    """Change the listed settings; every field is checked before anything changes."""
    v = ctx.check()
    v.unknown(UPDATE_FIELDS, nullable=("authorized_keys",))
    record = profile_record(ctx.store, ctx.principal.username)
    email = v.email("email")
    timezone = v.string("timezone", min_len=1, max_len=64)
    if isinstance(timezone, str) and len(timezone) <= 64 and not _is_timezone(timezone):
        v.fail("timezone", "timezone is not a known time zone (for example Europe/Berlin)")
    notifications = v.boolean("email_notifications")
    shell = v.string("shell_auth_method", choices=SHELL_AUTH_METHODS)
    # null clears the keys (the field is nullable); anything else must be a list of key lines.
    keys = None
    if v.raw("authorized_keys") is not None:
        keys = v.string_list("authorized_keys", max_items=100)
    for index, key in enumerate(keys or []):
        if not SSH_KEY.fullmatch(key.strip()):
            v.fail("authorized_keys", f"authorized_keys entry {index + 1} is not an SSH public key")
    two_factor = v.boolean("two_factor_auth")
    restricted = v.boolean("restricted")
    if restricted is not None and restricted != ctx.principal.restricted:
        v.fail(
            "restricted", "restricted cannot be changed from the profile; an administrator sets it"
        )
    whitelist = v.boolean("ip_whitelist_enabled")
    if whitelist is True and not record["ip_whitelist_enabled"]:
        v.fail(
            "ip_whitelist_enabled",
            "ip_whitelist_enabled is deprecated: it cannot be enabled, and once disabled it "
            "cannot be re-enabled",
        )
    v.done()

    user = ctx.principal.user
    if email is not None and user is not None:
        user["email"] = email
    changes = {
        "timezone": timezone,
        "email_notifications": notifications,
        "shell_auth_method": shell,
        "two_factor_auth": two_factor,
        "ip_whitelist_enabled": whitelist,
    }
    for name, value in changes.items():
        if value is not None:
            record[name] = value
    if v.has("authorized_keys"):
        record["authorized_keys"] = [k.strip() for k in keys] if keys is not None else None
    ctx.store.put(PROFILES, ctx.principal.username, record)
    return render_profile(ctx)


def _is_timezone(name: str) -> bool:
    """True for an IANA time zone name (``Europe/Berlin``, ``UTC``)."""
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


# -- apps and devices -----------------------------------------------------------------------


@handles("profile.apps.list")
def list_apps(ctx: Ctx) -> Collection:
    """The acting user's authorized apps."""
    mine = [public(a) for a in ctx.store.rows(APPS) if a["_user"] == ctx.principal.username]
    return Collection(mine)


@handles("profile.apps.view")
def view_app(ctx: Ctx) -> dict[str, Any]:
    """One authorized app of the acting user."""
    return public(_own(ctx, APPS, "appId"))


@handles("profile.apps.revoke")
def revoke_app(ctx: Ctx) -> None:
    """Withdraw an app's authorization: its token stops working."""
    app = _own(ctx, APPS, "appId")
    ctx.store.delete(APPS, app["id"])


@handles("profile.devices.list")
def list_devices(ctx: Ctx) -> Collection:
    """The acting user's trusted devices whose session has not ended."""
    now = ctx.now
    mine = [
        public(d)
        for d in ctx.store.rows(DEVICES)
        if d["_user"] == ctx.principal.username and _device_active(d, now)
    ]
    return Collection(mine)


@handles("profile.devices.view")
def view_device(ctx: Ctx) -> dict[str, Any]:
    """One trusted device (404 once its session has ended)."""
    device = _own(ctx, DEVICES, "deviceId")
    if not _device_active(device, ctx.now):
        raise not_found()
    return public(device)


@handles("profile.devices.revoke")
def revoke_device(ctx: Ctx) -> None:
    """Forget a trusted device: it must log in again with two-factor authentication."""
    device = _own(ctx, DEVICES, "deviceId")
    if not _device_active(device, ctx.now):
        raise not_found()
    ctx.store.delete(DEVICES, device["id"])


# -- grants and logins ----------------------------------------------------------------------


@handles("profile.grants")
def view_grants(ctx: Ctx) -> Any:
    """204 with no body for an unrestricted user; the Grants object for a restricted one."""
    if not ctx.principal.restricted:
        return Response(status_code=204)
    grants = (ctx.principal.user or {}).get("grants", {})
    result: dict[str, Any] = {
        kind: [
            {"id": e.get("id"), "label": e.get("label"), "permissions": e.get("permissions")}
            for e in grants.get(kind, [])
        ]
        for kind in GRANT_KINDS
    }
    stored_global = grants.get("global", {})
    result["global"] = {name: bool(stored_global.get(name)) for name in GLOBAL_GRANTS}
    result["global"]["account_access"] = stored_global.get("account_access")
    return result


@handles("profile.logins.list")
def list_logins(ctx: Ctx) -> Collection:
    """The acting user's successful logins of the last 90 days, newest first."""
    now = ctx.now
    mine = [
        public(entry)
        for entry in ctx.store.rows(LOGINS)
        if entry["username"] == ctx.principal.username and _login_recent(entry, now)
    ]
    mine.sort(key=lambda e: (e["datetime"], e["id"]), reverse=True)
    return Collection(mine)


@handles("profile.logins.view")
def view_login(ctx: Ctx) -> dict[str, Any]:
    """One login of the acting user (404 once older than 90 days)."""
    entry = ctx.store.get(LOGINS, ctx.param_int("loginId"))
    if (
        entry is None
        or entry["username"] != ctx.principal.username
        or not _login_recent(entry, ctx.now)
    ):
        raise not_found()
    return public(entry)


# -- phone verification ---------------------------------------------------------------------


def _codes(store: Store) -> dict[str, Any]:
    """Pending codes by username (a new dict in the meta on first write)."""
    codes: dict[str, Any] = store.meta.setdefault(CODES_META, {})
    return codes


def _pending(store: Store, username: str) -> dict[str, Any] | None:
    """The user's pending code; reading adds nothing to the state."""
    codes = store.meta.get(CODES_META)
    return codes.get(username) if isinstance(codes, dict) else None


def pending_phone_code(store: Store, username: str) -> str | None:
    """The code "sent by SMS" to ``username`` and not yet used (demo mode and tests read it)."""
    pending = _pending(store, username)
    return str(pending["code"]) if pending else None


def normalise_phone(number: str) -> str:
    """The number without separators, keeping a leading ``+``."""
    digits = "".join(ch for ch in number if ch.isdigit())
    return f"+{digits}" if number.strip().startswith("+") else digits


@handles("profile.phone.send")
def send_phone_code(ctx: Ctx) -> None:
    """Send (or re-send) a one-time code for the number by SMS."""
    v = Check(ctx.body)
    v.unknown(("iso_code", "phone_number"))
    iso_code = v.string("iso_code", required=True, pattern=ISO_CODE)
    number = v.string("phone_number", required=True, min_len=4, max_len=32)
    if isinstance(number, str) and 4 <= len(number) <= 32:
        digits = sum(ch.isdigit() for ch in number)
        if not PHONE.fullmatch(number) or not 6 <= digits <= 15:
            v.fail("phone_number", "phone_number must be a phone number (6 to 15 digits)")
    v.done()
    username = ctx.principal.username
    record = profile_record(ctx.store, username)
    if record["verified_phone_number"]:
        raise conflict(
            "A verified phone number is already set; delete it before verifying another",
            "phone_number",
        )
    iso_code = iso_code.upper()
    number = normalise_phone(number)
    codes = _codes(ctx.store)
    pending = codes.get(username)
    now = ctx.now
    # A re-send for the same number before expiry repeats the same code (and keeps its expiry).
    if (
        pending is None
        or pending["expires"] <= now
        or pending["phone_number"] != number
        or pending["iso_code"] != iso_code
    ):
        pending = {
            "code": f"{secrets.randbelow(1_000_000):06d}",
            "iso_code": iso_code,
            "phone_number": number,
            "sent": now,
            "expires": now + PHONE_CODE_TTL,
        }
        codes[username] = pending
    text = f"Your verification code is {pending['code']} (valid 10 minutes)."
    outbox = ctx.store.meta.setdefault(OUTBOX_META, [])
    outbox.append({"to": number, "username": username, "text": text, "at": iso(now)})
    del outbox[:-OUTBOX_KEEP]
    log.info("SMS to %s (%s): %s", number, username, text)
    ctx.store.dirty = True


@handles("profile.phone.verify")
def verify_phone(ctx: Ctx) -> None:
    """Check the code the acting user received; a match sets ``verified_phone_number``."""
    v = Check(ctx.body)
    v.unknown(("otp_code",))
    code = v.string("otp_code", required=True, min_len=1, max_len=16)
    v.done()
    username = ctx.principal.username
    pending = _pending(ctx.store, username)
    if pending is None:
        raise SimError(
            400, "No verification code was sent to this user; send one first", "otp_code"
        )
    if pending["expires"] <= ctx.now:
        raise SimError(400, "otp_code has expired; request a new code", "otp_code")
    if not secrets.compare_digest(str(code).strip().encode(), str(pending["code"]).encode()):
        raise SimError(400, "otp_code is not valid", "otp_code")
    record = profile_record(ctx.store, username)
    record["verified_phone_number"] = pending["phone_number"]
    del _codes(ctx.store)[username]
    ctx.store.put(PROFILES, username, record)


@handles("profile.phone.delete")
def delete_phone(ctx: Ctx) -> None:
    """Remove the verified number (opting out of SMS) and any pending code."""
    username = ctx.principal.username
    record = profile_record(ctx.store, username)
    record["verified_phone_number"] = None
    if _pending(ctx.store, username) is not None:
        del _codes(ctx.store)[username]
    ctx.store.put(PROFILES, username, record)


# -- preferences ----------------------------------------------------------------------------


def _preferences_key(ctx: Ctx) -> str:
    client = ctx.principal.token.client_id if ctx.principal.token else "personal"
    return f"{ctx.principal.username}|{client}"


@handles("profile.preferences.view")
def view_preferences(ctx: Ctx) -> dict[str, Any]:
    """The preferences object of the OAuth client that generated the token."""
    record = ctx.store.get(PREFERENCES, _preferences_key(ctx))
    return copy.deepcopy(record["value"]) if record else {}


@handles("profile.preferences.update")
def update_preferences(ctx: Ctx) -> dict[str, Any]:
    """Replace the client's preferences with an arbitrary JSON object."""
    if not isinstance(ctx.body, dict):
        raise SimError(400, "Preferences must be a JSON object")
    key = _preferences_key(ctx)
    client = ctx.principal.token.client_id if ctx.principal.token else "personal"
    ctx.store.put(
        PREFERENCES,
        key,
        {"_user": ctx.principal.username, "_client": client, "value": copy.deepcopy(ctx.body)},
    )
    return copy.deepcopy(ctx.body)
