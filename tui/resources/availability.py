"""Whether the signed-in user may run an action, and why not (headless).

Screens grey out what this module refuses and show the reason; the API keeps the last word (its
403 is explained when it comes anyway). The rules mirror what the reference says about scopes,
restricted users and grants, plus each action's own conditions (statuses, public items).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tui.api.endpoints import REGISTRY
from tui.resources.spec import IS_SET, Action, ResourceSpec, dig
from tui.untrusted import Shown, shown


@dataclass(frozen=True)
class UserContext:
    """What the app knows about the signed-in user.

    Attributes:
        username: User name.
        restricted: True for a restricted user.
        grants: The grants object of a restricted user (None when unrestricted or unknown).
        scopes: OAuth scopes of the token when known (the read-only demo token); None means a
            personal token or unknown scopes, which the API judges.
        read_only: The session is read-only (``--read-only``, ``:read-only`` or the profile's
            setting): every mutating action is refused, whatever the token could do.
        email: The profile's email address ('' when unknown).
    """

    username: str = ""
    restricted: bool = False
    grants: Mapping[str, Any] | None = None
    scopes: frozenset[str] | None = None
    read_only: bool = False
    email: str = ""

    def entity_permission(self, kind: str, entity_id: object) -> str | None:
        """``read_write``, ``read_only`` or None for one entity (unrestricted: read_write)."""
        if not self.restricted:
            return "read_write"
        for entry in (self.grants or {}).get(kind) or []:
            if isinstance(entry, Mapping) and str(entry.get("id")) == str(entity_id):
                permissions = entry.get("permissions")
                return str(permissions) if permissions else None
        return None

    def has_global(self, name: str) -> bool:
        """True when the user holds the global grant ``name`` (always when unrestricted)."""
        if not self.restricted:
            return True
        glob = (self.grants or {}).get("global") or {}
        return bool(glob.get(name)) if isinstance(glob, Mapping) else False

    def has_scope(self, scope: str) -> bool:
        """True when the token carries ``scope`` (``read_write`` implies ``read_only``)."""
        if self.scopes is None or scope in self.scopes:
            return True
        area, _, level = scope.partition(":")
        return level == "read_only" and f"{area}:read_write" in self.scopes


READ_ONLY_REASON = "read-only session"
"""Why every mutating action is greyed in a read-only session (footer, palette, key press)."""


def is_mutating(action: Action) -> bool:
    """True when ``action`` changes something: its own ``mutating`` flag, else any method but
    GET (hand-offs to other programs and read-only flows set the flag to False)."""
    if action.mutating is not None:
        return action.mutating
    endpoint = REGISTRY.get(action.endpoint)
    return endpoint is None or endpoint.method != "GET"


def grant_id(kind: str, item: Mapping[str, Any], spec: ResourceSpec) -> object:
    """The id a grant names for ``item``: images are granted by the number after ``private/``."""
    value = dig(item, spec.id_field)
    if kind == "image" and isinstance(value, str) and "/" in value:
        return value.rsplit("/", 1)[1]
    return value


def field_locks(user: UserContext) -> dict[str, str]:
    """Form inputs this user may not change, and why (shown locked rather than refused later).

    The API refuses any change of tags from a restricted user (403), in every area.
    """
    if user.restricted:
        return {"tags": "only unrestricted users may add or change tags."}
    return {}


USER_DEFAULTS: Mapping[str, str] = {
    # A zone's SOA contact is, unless said otherwise, the person who makes the zone.
    "soa_email": "email",
}
"""Form input -> the :class:`UserContext` attribute a new object's form starts it with."""


def user_defaults(user: UserContext) -> dict[str, str]:
    """Inputs a form that makes something starts with, from what the app knows of the user
    (:data:`USER_DEFAULTS`); an input is left out when the user's value is unknown."""
    found = {name: str(getattr(user, attribute)) for name, attribute in USER_DEFAULTS.items()}
    return {name: value for name, value in found.items() if value}


def field_matches(item: Mapping[str, Any], field: str, value: Any) -> bool:
    """True when ``item``'s ``field`` equals ``value`` (:data:`IS_SET`: holds any value)."""
    current = dig(item, field)
    return current not in (None, "", []) if value is IS_SET else bool(current == value)


def cautions(action: Action, item: Mapping[str, Any] | None) -> list[Shown]:
    """What the confirmation of ``action`` should add for this item (``caution_when``)."""
    if not item:
        return []
    return [
        shown(text)
        for field, value, text in action.caution_when
        if field_matches(item, field, value)
    ]


def availability(
    spec: ResourceSpec,
    action: Action,
    item: Mapping[str, Any] | None,
    user: UserContext,
) -> tuple[bool, str]:
    """Whether ``action`` may run on ``item`` for ``user``.

    Args:
        spec: The resource the action belongs to.
        action: The action.
        item: The selected item (None for collection actions).
        user: The signed-in user.

    Returns:
        ``(True, "")``, or ``(False, reason)`` with a reason a user can act on.
    """
    if user.read_only and is_mutating(action):
        return False, READ_ONLY_REASON
    if action.target == "item" and not item:
        return False, f"select a {spec.singular} first"
    endpoint = REGISTRY.get(action.endpoint)
    if endpoint is not None and endpoint.auth == "scope":
        missing = [s for s in endpoint.scopes if not user.has_scope(s)]
        if missing:
            return False, f"this token lacks the {', '.join(missing)} scope"
    if item:
        for field, value, reason in action.refuse_when:
            if field_matches(item, field, value):
                return False, reason
        owner = dig(item, spec.owner_field) if spec.owner_field else None
        # Another account's items are visible only when public; those are never yours to change.
        if (
            action.owner_only
            and owner
            and user.username
            and owner != user.username
            and dig(item, "is_public")
        ):
            return False, f"owned by {owner}; you can change only your own"
        status = spec.status_of(item)
        if status in action.refused_statuses:
            return False, f"the {spec.singular} is {status}; try again once that finishes"
        if action.allowed_statuses and status not in action.allowed_statuses:
            allowed = " or ".join(action.allowed_statuses)
            return (
                False,
                f"the {spec.singular} is {status or 'in an unknown state'}; needs {allowed}",
            )
    return _grant_allows(spec, action, item, user)


def _grant_allows(
    spec: ResourceSpec, action: Action, item: Mapping[str, Any] | None, user: UserContext
) -> tuple[bool, str]:
    rule = action.grant
    if rule == "none" or not user.restricted:
        return True, ""
    if rule == "unrestricted":
        return False, "this needs an unrestricted user; yours is restricted"
    if rule.startswith("global:"):
        name = rule.split(":", 1)[1]
        if not user.has_global(name):
            return False, f"your user lacks the {name} grant"
        return True, ""
    # read_write on the item itself. Child resources carry no grant kind: the grant is on the
    # parent, and the API's answer is explained if it refuses.
    if rule == "read_write" and item and spec.grant_kind:
        permission = user.entity_permission(spec.grant_kind, grant_id(spec.grant_kind, item, spec))
        if permission != "read_write":
            have = f"only {permission}" if permission else "no"
            return False, f"you have {have} access to this {spec.singular}"
    return True, ""
