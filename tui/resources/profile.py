"""The acting user's profile, authorized apps, trusted devices, logins and grants."""

from __future__ import annotations

from tui.resources.spec import IS_SET, Action, ChildSpec, Column, FieldSpec, ResourceSpec, Section

APPS = ResourceSpec(
    id="profile.apps",
    title="Authorized apps",
    singular="authorized app",
    list_endpoint="profile.apps.list",
    view_endpoint="profile.apps.view",
    id_param="appId",
    columns=(
        Column("label", "Label"),
        Column("scopes", "Scopes"),
        Column("website", "Website"),
        Column("created", "Created", "datetime", 16),
        Column("expiry", "Expires", "datetime", 16),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "App",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("scopes", "Scopes"),
                FieldSpec("website", "Website"),
                FieldSpec("thumbnail_url", "Thumbnail"),
                FieldSpec("created", "Authorized", "datetime"),
                FieldSpec("expiry", "Expires", "datetime"),
            ),
        ),
    ),
    actions=(
        Action(
            "profile.app_revoke",
            "Revoke",
            "profile.apps.revoke",
            bulk=True,
            key="d",
            confirm="confirm",
            grant="none",
            description="Revoke the app's access (its token expires)",
        ),
    ),
    status_field=None,
    copy_fields=("website", "id"),
    empty_hint="No third-party apps are authorized.",
)

DEVICES = ResourceSpec(
    id="profile.devices",
    title="Trusted devices",
    singular="trusted device",
    list_endpoint="profile.devices.list",
    view_endpoint="profile.devices.view",
    id_param="deviceId",
    label_field="user_agent",
    columns=(
        Column("user_agent", "User agent"),
        Column("last_remote_addr", "Last address", width=16),
        Column("last_authenticated", "Last seen", "datetime", 16),
        Column("expiry", "Expires", "datetime", 16),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Device",
            (
                FieldSpec("id", "ID"),
                FieldSpec("user_agent", "User agent"),
                FieldSpec("last_remote_addr", "Last address"),
                FieldSpec("last_authenticated", "Last authenticated", "datetime"),
                FieldSpec("created", "Trusted since", "datetime"),
                FieldSpec("expiry", "Expires", "datetime"),
            ),
        ),
    ),
    actions=(
        Action(
            "profile.device_revoke",
            "Revoke",
            "profile.devices.revoke",
            bulk=True,
            key="d",
            confirm="confirm",
            grant="none",
            description="Forget the device (it must log in again)",
        ),
    ),
    status_field=None,
    copy_fields=("last_remote_addr", "id"),
    empty_hint="No trusted devices.",
)

LOGINS = ResourceSpec(
    id="profile.logins",
    title="Logins",
    singular="login",
    list_endpoint="profile.logins.list",
    view_endpoint="profile.logins.view",
    id_param="loginId",
    label_field="ip",
    columns=(
        Column("datetime", "When", "datetime", 16),
        Column("ip", "Address", width=16),
        Column("username", "User"),
        Column("restricted", "Restricted", "bool", 10),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Login",
            (
                FieldSpec("id", "ID"),
                FieldSpec("datetime", "When", "datetime"),
                FieldSpec("ip", "Address"),
                FieldSpec("username", "User"),
                FieldSpec("restricted", "Restricted", "bool"),
            ),
        ),
    ),
    status_field=None,
    copy_fields=("ip", "id"),
    empty_hint="No logins in the last 90 days.",
)

GRANTS = ResourceSpec(
    id="profile.grants",
    title="Grants",
    singular="grant",
    list_endpoint="profile.grants",
    adapter="grants",
    id_field="_key",
    columns=(
        Column("kind", "Kind", width=14),
        Column("label", "Entity or grant"),
        Column("permissions", "Permission", width=12),
        Column("id", "ID", "int", 10),
    ),
    sections=(
        Section(
            "Grant",
            (
                FieldSpec("kind", "Kind"),
                FieldSpec("label", "Entity or grant"),
                FieldSpec("id", "ID"),
                FieldSpec("permissions", "Permission"),
            ),
        ),
    ),
    status_field=None,
    empty_hint="Unrestricted user: every action is allowed, no grants apply.",
)

PROFILE = ResourceSpec(
    id="profile",
    title="Profile",
    singular="profile",
    list_endpoint="profile.view",
    view_endpoint="profile.view",
    label_field="username",
    id_field="uid",
    singleton=True,
    status_field=None,
    sections=(
        Section(
            "User",
            (
                FieldSpec("username", "Username"),
                FieldSpec("uid", "User id"),
                FieldSpec("email", "Email"),
                FieldSpec("restricted", "Restricted", "bool"),
                FieldSpec("timezone", "Timezone"),
                FieldSpec("verified_phone_number", "Verified phone"),
            ),
        ),
        Section(
            "Security",
            (
                FieldSpec("authentication_type", "Authentication"),
                FieldSpec("two_factor_auth", "Two-factor", "bool"),
                FieldSpec("shell_auth_method", "Remote shell login"),
                FieldSpec("authorized_keys", "Authorized keys", "block"),  # a key per line
                FieldSpec("ip_whitelist_enabled", "IP allow list (deprecated)", "bool"),
                FieldSpec("email_notifications", "Email notifications", "bool"),
            ),
        ),
        Section(
            "Referrals",
            (
                FieldSpec("referrals.code", "Code"),
                FieldSpec("referrals.url", "URL"),
                FieldSpec("referrals.total", "Total", "int"),
                FieldSpec("referrals.completed", "Completed", "int"),
                FieldSpec("referrals.pending", "Pending", "int"),
                FieldSpec("referrals.credit", "Credit", "int"),
            ),
        ),
    ),
    children=(
        ChildSpec("Apps", "profile.apps"),
        ChildSpec("Devices", "profile.devices"),
        ChildSpec("Logins", "profile.logins"),
        ChildSpec("Grants", "profile.grants"),
    ),
    actions=(
        Action(
            "profile.edit",
            "Edit profile",
            "profile.update",
            key="e",
            form="profile:ProfileUpdate",
            grant="none",
            description="Email, timezone, notifications, remote shell login, keys, 2FA",
        ),
        Action(
            "profile.phone_send",
            "Send phone code",
            "profile.phone.send",
            key="p",
            form="profile:PhoneCodeSend",
            grant="none",
            description="Send a one-time code by SMS to verify a phone number",
            refuse_when=(
                (
                    "verified_phone_number",
                    IS_SET,
                    "a verified number is set; remove it first (P), then send a code",
                ),
            ),
        ),
        Action(
            "profile.phone_verify",
            "Verify phone",
            "profile.phone.verify",
            key="v",
            form="profile:PhoneVerify",
            grant="none",
            description="Enter the code received by SMS",
        ),
        Action(
            "profile.phone_delete",
            "Remove phone",
            "profile.phone.delete",
            key="P",
            confirm="confirm",
            grant="none",
            description="Remove the verified phone number (opts out of SMS)",
        ),
        Action(
            "profile.preferences",
            "Preferences",
            "profile.preferences.update",
            key="f",
            screen="profile.preferences",
            grant="none",
            description="Edit this client's preferences JSON",
        ),
    ),
    copy_fields=("email", "username"),
)

SPECS = (PROFILE, APPS, DEVICES, LOGINS, GRANTS)
