"""The acting user's profile: settings, authorized apps, trusted devices, grants, logins, phone.

Response models (:class:`Profile`, :class:`AuthorizedApp`, ...) are tolerant; request models
(:class:`ProfileUpdate`, :class:`PhoneCodeSend`, :class:`PhoneVerify`) carry the reference's
rules so bad input is refused before it is sent.
"""

from __future__ import annotations

import re
import zoneinfo
from typing import Annotated, Any, Literal

from pydantic import Field, RootModel, StringConstraints, field_validator

from tui.models.base import ApiModel, RequestModel
from tui.models.rules import suggested

ShellAuthMethod = Literal["password_keys", "keys_only", "disabled"]
"""How the user may authenticate to the remote shell."""

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
PHONE = re.compile(r"^\+?[0-9][0-9 ().-]*$")
SSH_KEY = re.compile(
    r"^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)"
    r"@openssh\.com) [A-Za-z0-9+/]+={0,3}( .*)?$"
)
"""An OpenSSH public key line: key type, Base64 body, optional comment."""


def phone_digits(number: str) -> int:
    """How many digits a phone number has (separators such as spaces and dashes not counted)."""
    return sum(ch.isdigit() for ch in number)


def is_timezone(name: str) -> bool:
    """True when ``name`` is an IANA time zone such as ``Europe/Berlin`` or ``UTC``."""
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


# -- responses ------------------------------------------------------------------------------


class Referrals(ApiModel):
    """The account's referral programme figures (only after 25.00 USD of payments)."""

    code: str | None = None
    """Referral code to share."""
    completed: int | None = None
    """Referrals that became paying customers."""
    credit: int | None = None
    """Credit earned through referrals."""
    pending: int | None = None
    """Referrals not yet completed."""
    total: int | None = None
    """All referrals."""
    url: str | None = None
    """Sign-up link carrying the referral code."""


class Profile(ApiModel):
    """The acting user's profile."""

    authentication_type: str | None = None
    """``password``, or the third-party identity provider the user logs in with."""
    authorized_keys: list[str] | None = None
    """SSH public keys allowed for remote shell access."""
    email: str | None = None
    """Email address."""
    email_notifications: bool | None = None
    """False still allows business-critical mail."""
    ip_whitelist_enabled: bool | None = None
    """Deprecated; cannot be enabled, and once disabled cannot be re-enabled."""
    shell_auth_method: str | None = None
    """``password_keys``, ``keys_only`` or ``disabled``."""
    referrals: Referrals | None = None
    """Referral figures; absent until the account has paid at least 25.00 USD."""
    restricted: bool | None = None
    """True when the user acts only within grants (see the grants operation)."""
    timezone: str | None = None
    """Display preference only; every API time is UTC."""
    two_factor_auth: bool | None = None
    """True: logins from untrusted computers require two-factor authentication."""
    uid: int | None = None
    """User id; never changes."""
    username: str | None = None
    """User name."""
    verified_phone_number: str | None = None
    """Phone number set by the phone verification operations."""


class AuthorizedApp(ApiModel):
    """A third-party application the user authorized through OAuth."""

    id: int | None = None
    """App authorization id."""
    label: str | None = None
    """Application name."""
    scopes: str | None = None
    """OAuth scopes the app was authorized with."""
    created: str | None = None
    """When the app was authorized (UTC)."""
    expiry: str | None = None
    """When the authorization ends (UTC); null when it does not expire."""
    thumbnail_url: str | None = None
    """Application icon, if any."""
    website: str | None = None
    """Application website."""


class TrustedDevice(ApiModel):
    """A computer remembered after a two-factor login."""

    id: int | None = None
    """Device id."""
    created: str | None = None
    """Start of the remember-me session (UTC)."""
    expiry: str | None = None
    """End of the session (UTC); sessions typically last 30 days."""
    last_authenticated: str | None = None
    """Last successful authentication (UTC)."""
    last_remote_addr: str | None = None
    """Address of the last authentication."""
    user_agent: str | None = None
    """Browser that authenticated."""


class GrantEntry(ApiModel):
    """Access of a restricted user to one entity."""

    id: int | str | None = None
    """Entity id."""
    label: str | None = None
    """Entity label."""
    permissions: str | None = None
    """``read_only`` or ``read_write``."""


class GlobalGrants(ApiModel):
    """Account-wide permissions of a restricted user."""

    account_access: str | None = None
    """``read_only`` (other values not shown), or null for no account access."""
    add_databases: bool | None = None
    """May create managed databases."""
    add_domains: bool | None = None
    """May create domains."""
    add_firewalls: bool | None = None
    """May create firewalls."""
    add_images: bool | None = None
    """May create images."""
    add_computes: bool | None = None
    """May create compute instances."""
    add_metrics: bool | None = None
    """May create monitoring clients."""
    add_loadbalancers: bool | None = None
    """May create load balancers."""
    add_deployscripts: bool | None = None
    """May create deployment scripts."""
    add_volumes: bool | None = None
    """May create volumes."""
    cancel_account: bool | None = None
    """May cancel the account."""
    metrics_subscription: bool | None = None
    """May change the monitoring subscription."""


class Grants(ApiModel):
    """What a restricted user may access (unrestricted users have no grants object)."""

    compute: list[GrantEntry] = Field(default_factory=list)
    """Compute instances."""
    domain: list[GrantEntry] = Field(default_factory=list)
    """Domains."""
    image: list[GrantEntry] = Field(default_factory=list)
    """Images."""
    loadbalancer: list[GrantEntry] = Field(default_factory=list)
    """Load balancers."""
    deployscript: list[GrantEntry] = Field(default_factory=list)
    """Deployment scripts."""
    volume: list[GrantEntry] = Field(default_factory=list)
    """Volumes."""
    metrics: list[GrantEntry] = Field(default_factory=list)
    """Monitoring clients."""
    global_: GlobalGrants | None = Field(default=None, alias="global")
    """Account-wide permissions."""


class Login(ApiModel):
    """A successful login of the user (the last 90 days are listed)."""

    id: int | None = None
    """Login id."""
    datetime: str | None = None
    """When the login happened (UTC)."""
    ip: str | None = None
    """Address the login came from."""
    restricted: bool | None = None
    """True when the user was restricted at the time."""
    username: str | None = None
    """Who logged in."""


# -- requests -------------------------------------------------------------------------------


class ProfileUpdate(RequestModel):
    """Changes to the acting user's profile; only the fields set are sent."""

    email: Annotated[str, StringConstraints(max_length=128)] | None = None
    """Email address for account mail."""
    timezone: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None
    """IANA time zone for display, for example ``Europe/Berlin`` (API times stay UTC)."""
    email_notifications: bool | None = None
    """Receive notification mail (business-critical mail is always sent)."""
    shell_auth_method: ShellAuthMethod | None = None
    """Remote shell login: ``password_keys``, ``keys_only`` or ``disabled``."""
    authorized_keys: list[str] | None = Field(None, json_schema_extra=suggested("local_ssh_keys"))
    """SSH public keys for remote shell access, one OpenSSH key line each."""
    two_factor_auth: bool | None = None
    """Require two-factor authentication for logins from untrusted computers."""
    restricted: bool | None = None
    """Restricted status; set by the account's administrator, so it must stay as it is."""
    ip_whitelist_enabled: Literal[False] | None = None
    """Deprecated IP whitelist: may only be disabled (and never re-enabled)."""

    @field_validator("email")
    @classmethod
    def _email_shape(cls, value: str | None) -> str | None:
        if value is not None and not EMAIL.match(value):
            raise ValueError("not a valid email address")
        return value

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str | None) -> str | None:
        if value is not None and not is_timezone(value):
            raise ValueError("not a known time zone (use a name such as Europe/Berlin or UTC)")
        return value

    @field_validator("authorized_keys")
    @classmethod
    def _ssh_keys(cls, value: list[str] | None) -> list[str] | None:
        for index, key in enumerate(value or []):
            if not SSH_KEY.match(key.strip()):
                raise ValueError(f"entry {index + 1} is not an SSH public key line")
        return value


class PhoneCodeSend(RequestModel):
    """Ask for a one-time code by SMS to verify a phone number."""

    iso_code: Annotated[str, StringConstraints(pattern=r"^[A-Za-z]{2}$")] = Field(
        json_schema_extra=suggested("countries")
    )
    """Two-letter ISO 3166 country code of the number, for example ``US`` or ``DE``."""
    phone_number: Annotated[str, StringConstraints(min_length=4, max_length=32)]
    """Phone number; digits with optional leading ``+``, spaces, dashes, dots or brackets."""

    @field_validator("phone_number")
    @classmethod
    def _phone_shape(cls, value: str) -> str:
        if not PHONE.match(value) or not 6 <= phone_digits(value) <= 15:
            raise ValueError("use 6 to 15 digits, optionally with a leading + and separators")
        return value


class PhoneVerify(RequestModel):
    """The one-time code received by SMS."""

    otp_code: Annotated[str, StringConstraints(min_length=1, max_length=16)]
    """Code from the SMS; valid for 10 minutes."""


class Preferences(RootModel[dict[str, Any]]):
    """The preferences object of the OAuth client that made the token: any JSON object the
    client chose to store (the API gives it no fixed shape)."""
