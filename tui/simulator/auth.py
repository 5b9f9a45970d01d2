"""Tokens, users, scopes and grants of the simulated account."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tui.simulator.errors import SimError, forbidden

GRANT_KINDS = (
    "compute",
    "domain",
    "image",
    "loadbalancer",
    "deployscript",
    "volume",
    "metrics",
)
"""Per-entity grant lists of a restricted user (the Grants resource)."""

GLOBAL_GRANTS = (
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
)

DEMO_TOKENS = {
    "unrestricted": "demo-unrestricted-token",
    "readonly": "demo-readonly-token",
    "restricted": "demo-restricted-token",
}
"""Demo user kind -> bearer token. Printed by ``cloudtui sim``; used by ``--demo-user``."""

READONLY_SCOPES = (
    "account:read_only",
    "computes:read_only",
    "domains:read_only",
    "volumes:read_only",
    "images:read_only",
    "object_storage:read_only",
)


@dataclass(frozen=True)
class TokenInfo:
    """What a bearer token stands for.

    Attributes:
        username: The user acting.
        scopes: OAuth scopes, or None for a personal token (all scopes).
        client_id: OAuth client (preferences are kept per client).
    """

    username: str
    scopes: frozenset[str] | None = None
    client_id: str = "personal"


@dataclass
class Principal:
    """The caller of one request.

    Attributes:
        token: Token info, or None for an anonymous call.
        user: The user's record (``username``, ``restricted``, ``grants``), or None.
    """

    token: TokenInfo | None
    user: dict[str, Any] | None = field(default=None)

    @property
    def authenticated(self) -> bool:
        """True when a valid token was presented."""
        return self.token is not None

    @property
    def username(self) -> str:
        """User name ('' when anonymous)."""
        return self.token.username if self.token else ""

    @property
    def restricted(self) -> bool:
        """True for a restricted user."""
        return bool(self.user and self.user.get("restricted"))

    def has_scope(self, scope: str) -> bool:
        """True when the token carries ``scope``; ``read_write`` implies ``read_only``."""
        if self.token is None:
            return False
        if self.token.scopes is None or "*" in self.token.scopes:
            return True
        if scope in self.token.scopes:
            return True
        area, _, level = scope.partition(":")
        return level == "read_only" and f"{area}:read_write" in self.token.scopes

    def grant(self, kind: str, entity_id: object) -> str | None:
        """The user's permission on one entity: ``read_write``, ``read_only`` or None.

        Unrestricted users have ``read_write`` on everything.
        """
        if not self.restricted:
            return "read_write"
        grants = (self.user or {}).get("grants", {})
        for entry in grants.get(kind, []):
            if str(entry.get("id")) == str(entity_id):
                return str(entry.get("permissions") or "") or None
        return None

    def can_read(self, kind: str, entity_id: object) -> bool:
        """True when the user may see the entity."""
        return self.grant(kind, entity_id) in ("read_only", "read_write")

    def can_write(self, kind: str, entity_id: object) -> bool:
        """True when the user may change the entity."""
        return self.grant(kind, entity_id) == "read_write"

    def global_grant(self, name: str) -> bool:
        """True when the user holds the global grant ``name`` (always, when unrestricted)."""
        if not self.restricted:
            return True
        return bool((self.user or {}).get("grants", {}).get("global", {}).get(name))

    # -- raising checks ---------------------------------------------------------------------

    def require_read(self, kind: str, entity_id: object) -> None:
        """404 when the restricted user has no grant (the entity is invisible to them)."""
        if not self.can_read(kind, entity_id):
            raise SimError(404, "Not found")

    def require_write(self, kind: str, entity_id: object) -> None:
        """404 when invisible, 403 when visible but read-only."""
        self.require_read(kind, entity_id)
        if not self.can_write(kind, entity_id):
            raise forbidden(f"You have read-only access to this {kind}")

    def require_global(self, name: str) -> None:
        """403 unless the user holds the global grant ``name``."""
        if not self.global_grant(name):
            raise forbidden(f"You do not have the '{name}' grant")

    def require_unrestricted(self) -> None:
        """403 for restricted users."""
        if self.restricted:
            raise forbidden("This operation requires an unrestricted user")

    def add_grant(self, kind: str, entity_id: object, label: str) -> None:
        """Give a restricted user ``read_write`` on an entity they just created."""
        if not self.restricted or self.user is None:
            return
        entries = self.user.setdefault("grants", {}).setdefault(kind, [])
        entries.append({"id": entity_id, "label": label, "permissions": "read_write"})
