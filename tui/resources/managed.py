"""Managed support: services, issues, contacts, credentials, compute settings, SSH key, stats.

Every operation requires an unrestricted user; a restricted user sees the API's 403 explained.
"""

from __future__ import annotations

from tui.resources.spec import Action, ChartSpec, Column, FieldSpec, ResourceSpec, Section

SERVICES = ResourceSpec(
    id="managed.services",
    title="Monitored services",
    singular="service",
    list_endpoint="managed.services.list",
    view_endpoint="managed.services.view",
    id_param="serviceId",
    columns=(
        Column("label", "Label"),
        Column("status", "Status", "status", 12),
        Column("service_type", "Type", width=5),
        Column("address", "Address"),
        Column("timeout", "Timeout", "int", 7),
        Column("consultation_group", "Group", width=12),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Service",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("status", "Status", "status"),
                FieldSpec("service_type", "Type"),
                FieldSpec("address", "Address"),
                FieldSpec("body", "Expected body"),
                FieldSpec("timeout", "Timeout (s)", "int"),
                FieldSpec("region", "Region"),
                FieldSpec("consultation_group", "Consultation group"),
                FieldSpec("credentials", "Credentials", "list"),
                FieldSpec("notes", "Notes"),
                FieldSpec("created", "Created", "datetime"),
                FieldSpec("updated", "Updated", "datetime"),
            ),
        ),
    ),
    actions=(
        Action(
            "managed.service_create",
            "New service",
            "managed.services.create",
            key="n",
            target="collection",
            form="managed:ServiceCreate",
            grant="unrestricted",
            description="Start monitoring a URL or TCP service",
        ),
        Action(
            "managed.service_edit",
            "Edit",
            "managed.services.update",
            key="e",
            form="managed:ServiceUpdate",
            grant="unrestricted",
            description="Change the monitored service",
        ),
        Action(
            "managed.service_disable",
            "Disable",
            "managed.services.disable",
            bulk=True,
            key="D",
            confirm="confirm",
            grant="unrestricted",
            description="Pause monitoring",
        ),
        Action(
            "managed.service_enable",
            "Enable",
            "managed.services.enable",
            bulk=True,
            key="E",
            grant="unrestricted",
            allowed_statuses=("disabled",),
            description="Resume monitoring",
            confirm="confirm",
        ),
        Action(
            "managed.service_delete",
            "Delete",
            "managed.services.delete",
            bulk=True,
            key="d",
            confirm="confirm",
            grant="unrestricted",
            description="Stop monitoring and delete the service",
        ),
    ),
    transitional=frozenset({"pending"}),
    copy_fields=("address", "id"),
    empty_hint="No monitored services. Press n to add one.",
)

ISSUES = ResourceSpec(
    id="managed.issues",
    title="Issues",
    singular="issue",
    list_endpoint="managed.issues.list",
    view_endpoint="managed.issues.view",
    id_param="issueId",
    label_field="ticket.summary",
    columns=(
        Column("created", "Opened", "datetime", 16),
        Column("ticket.summary", "Summary"),
        Column("entity.label", "Entity", width=16),
        Column("services", "Services", "list", 12),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Issue",
            (
                FieldSpec("id", "ID"),
                FieldSpec("created", "Opened", "datetime"),
                FieldSpec("ticket.summary", "Summary"),
                FieldSpec("ticket.id", "Ticket"),
                FieldSpec("ticket.opened", "Ticket opened", "datetime"),
                FieldSpec("entity.type", "Entity type"),
                FieldSpec("entity.label", "Entity"),
                FieldSpec("entity.url", "Entity URL"),
                FieldSpec("services", "Services", "list"),
            ),
        ),
    ),
    status_field=None,
    copy_fields=("entity.url", "id"),
    empty_hint="No issues: every monitored service answered as expected.",
)

CONTACTS = ResourceSpec(
    id="managed.contacts",
    title="Contacts",
    singular="contact",
    list_endpoint="managed.contacts.list",
    view_endpoint="managed.contacts.view",
    id_param="contactId",
    label_field="name",
    columns=(
        Column("name", "Name"),
        Column("email", "Email"),
        Column("phone.primary", "Phone", width=16),
        Column("group", "Group", width=12),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Contact",
            (
                FieldSpec("name", "Name"),
                FieldSpec("id", "ID"),
                FieldSpec("email", "Email"),
                FieldSpec("phone.primary", "Primary phone"),
                FieldSpec("phone.secondary", "Secondary phone"),
                FieldSpec("group", "Group"),
                FieldSpec("updated", "Updated", "datetime"),
            ),
        ),
    ),
    actions=(
        Action(
            "managed.contact_create",
            "New contact",
            "managed.contacts.create",
            key="n",
            target="collection",
            form="managed:ContactCreate",
            grant="unrestricted",
            description="Add someone to call when a service fails",
        ),
        Action(
            "managed.contact_edit",
            "Edit",
            "managed.contacts.update",
            key="e",
            form="managed:ContactUpdate",
            grant="unrestricted",
            description="Change the contact",
        ),
        Action(
            "managed.contact_delete",
            "Delete",
            "managed.contacts.delete",
            bulk=True,
            key="d",
            confirm="confirm",
            grant="unrestricted",
            description="Delete the contact",
        ),
    ),
    status_field=None,
    copy_fields=("email", "id"),
    empty_hint="No contacts. Press n to add one.",
)

CREDENTIALS = ResourceSpec(
    id="managed.credentials",
    title="Credentials",
    singular="credential",
    list_endpoint="managed.credentials.list",
    view_endpoint="managed.credentials.view",
    id_param="credentialId",
    columns=(
        Column("label", "Label"),
        Column("last_decrypted", "Last used", "datetime", 16),
        Column("id", "ID", "int", 8),
    ),
    sections=(
        Section(
            "Credential",
            (
                FieldSpec("label", "Label"),
                FieldSpec("id", "ID"),
                FieldSpec("last_decrypted", "Last used by support", "datetime"),
            ),
        ),
    ),
    actions=(
        Action(
            "managed.credential_create",
            "New credential",
            "managed.credentials.create",
            key="n",
            target="collection",
            form="managed:CredentialCreate",
            grant="unrestricted",
            description="Store a login support may use",
        ),
        Action(
            "managed.credential_edit",
            "Rename",
            "managed.credentials.update",
            key="e",
            form="managed:CredentialUpdate",
            grant="unrestricted",
            description="Change the label",
        ),
        Action(
            "managed.credential_secret",
            "Change username/password",
            "managed.credentials.update_secret",
            key="p",
            form="managed:CredentialSecretUpdate",
            grant="unrestricted",
            description="Replace the stored username and password",
        ),
        Action(
            "managed.credential_revoke",
            "Revoke",
            "managed.credentials.revoke",
            bulk=True,
            key="d",
            confirm="confirm",
            grant="unrestricted",
            description="Delete the credential",
        ),
    ),
    status_field=None,
    empty_hint="No credentials. Press n to add one.",
)

COMPUTE_SETTINGS = ResourceSpec(
    id="managed.compute_settings",
    title="Compute settings",
    singular="compute settings",
    list_endpoint="managed.compute_settings.list",
    view_endpoint="managed.compute_settings.view",
    id_param="computeId",
    columns=(
        Column("label", "Instance"),
        Column("ssh.access", "SSH access", "bool", 10),
        Column("ssh.user", "User", width=10),
        Column("ssh.ip", "IP", width=16),
        Column("ssh.port", "Port", "int", 6),
        Column("id", "ID", "int", 10),
    ),
    sections=(
        Section(
            "SSH access for support",
            (
                FieldSpec("label", "Instance"),
                FieldSpec("id", "Instance id"),
                FieldSpec("group", "Group"),
                FieldSpec("ssh.access", "Access", "bool"),
                FieldSpec("ssh.user", "User (empty = root)"),
                FieldSpec("ssh.ip", "IP"),
                FieldSpec("ssh.port", "Port (empty = 22)", "int"),
            ),
        ),
    ),
    actions=(
        Action(
            "managed.compute_settings_edit",
            "Edit SSH access",
            "managed.compute_settings.update",
            key="e",
            form="managed:ComputeSettingsUpdate",
            grant="unrestricted",
            description="How support logs in to this instance",
        ),
    ),
    status_field=None,
    empty_hint="No instances.",
)

SSH_KEY = ResourceSpec(
    id="managed.sshkey",
    title="SSH key",
    singular="SSH key",
    list_endpoint="managed.credentials.sshkey",
    singleton=True,
    status_field=None,
    sections=(Section("Support's public key", (FieldSpec("ssh_key", "Public key"),)),),
    copy_fields=("ssh_key",),
)

STATS = ResourceSpec(
    id="managed.stats",
    title="Stats",
    singular="stats",
    list_endpoint="managed.stats",
    singleton=True,
    status_field=None,
    sections=(
        Section(
            "Last 24 hours",
            (
                FieldSpec("data.cpu", "CPU", "series"),
                FieldSpec("data.disk", "Disk", "series"),
                FieldSpec("data.swap", "Swap", "series"),
                FieldSpec("data.net_in", "Network in", "series"),
                FieldSpec("data.net_out", "Network out", "series"),
            ),
        ),
    ),
    charts=(
        ChartSpec("CPU", "%", (("data.cpu", "CPU"),)),
        ChartSpec("Disk I/O", "blocks/s", (("data.disk", "disk"), ("data.swap", "swap"))),
        ChartSpec("Network", "bits/s", (("data.net_in", "in"), ("data.net_out", "out"))),
    ),
)
"""Combined usage of the managed instances, drawn as charts like an instance's statistics."""

SPECS = (SERVICES, ISSUES, CONTACTS, CREDENTIALS, COMPUTE_SETTINGS, SSH_KEY, STATS)
