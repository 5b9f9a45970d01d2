"""Which actions a user may run, and the reasons given when not."""

from __future__ import annotations

from typing import Any

from tui.resources.areas import SPECS
from tui.resources.availability import UserContext, availability, cautions
from tui.resources.spec import ResourceSpec
from tui.resources.volumes import VOLUMES

INSTANCES = SPECS["compute.instances"]
IMAGES = SPECS["images"]
RUNNING = {"id": 7, "label": "web-1", "status": "running"}
OFFLINE = {"id": 7, "label": "web-1", "status": "offline"}

RESTRICTED = UserContext(
    "ops",
    restricted=True,
    grants={
        "compute": [
            {"id": 7, "label": "web-1", "permissions": "read_write"},
            {"id": 8, "label": "db-1", "permissions": "read_only"},
        ],
        "image": [{"id": 31001, "label": "golden", "permissions": "read_write"}],
        "global": {"add_computes": False, "add_volumes": True},
    },
)


ANYONE = UserContext()
"""An unrestricted user with a personal token."""


def allowed(
    spec: ResourceSpec,
    action_id: str,
    item: dict[str, Any] | None,
    user: UserContext = ANYONE,
) -> tuple[bool, str]:
    action = spec.action(action_id)
    assert action is not None
    return availability(spec, action, item, user)


def test_unrestricted_personal_token_may_do_everything_the_status_allows() -> None:
    assert allowed(INSTANCES, "compute.create", None) == (True, "")
    assert allowed(INSTANCES, "compute.reboot", RUNNING) == (True, "")
    ok, reason = allowed(INSTANCES, "compute.boot", RUNNING)
    assert not ok and reason == "the instance is running; needs offline or stopped"
    assert allowed(INSTANCES, "compute.boot", OFFLINE) == (True, "")


def test_item_actions_need_an_item() -> None:
    assert allowed(INSTANCES, "compute.delete", None) == (False, "select a instance first")


def test_restricted_user_grants() -> None:
    ok, reason = allowed(INSTANCES, "compute.create", None, RESTRICTED)
    assert not ok and "add_computes" in reason
    assert allowed(INSTANCES, "compute.delete", RUNNING, RESTRICTED) == (True, "")
    ok, reason = allowed(INSTANCES, "compute.delete", {**RUNNING, "id": 8}, RESTRICTED)
    assert not ok and reason == "you have only read_only access to this instance"
    ok, reason = allowed(INSTANCES, "compute.delete", {**RUNNING, "id": 9}, RESTRICTED)
    assert not ok and reason == "you have no access to this instance"
    # Statistics need no grant beyond seeing the instance.
    assert allowed(INSTANCES, "compute.stats", {**RUNNING, "id": 8}, RESTRICTED) == (True, "")


def test_unrestricted_only_actions() -> None:
    tags = SPECS["tags"]
    action = next(a for a in tags.actions if a.grant == "unrestricted")
    ok, reason = availability(tags, action, {"label": "x"}, RESTRICTED)
    assert not ok and "unrestricted" in reason


def test_image_grants_use_the_number_after_private() -> None:
    private = {"id": "private/31001", "label": "golden", "is_public": False}
    assert allowed(IMAGES, "images.edit", private, RESTRICTED) == (True, "")
    other = {"id": "private/31002", "label": "other", "is_public": False}
    assert not allowed(IMAGES, "images.edit", other, RESTRICTED)[0]


def test_public_items_refuse_changes_for_everyone() -> None:
    public = {"id": "compute/debian12", "label": "Debian 12", "is_public": True}
    assert allowed(IMAGES, "images.delete", public) == (False, "public images cannot be deleted")


def test_scopes_of_a_read_only_token() -> None:
    reader = UserContext("demo", scopes=frozenset({"computes:read_only"}))
    ok, reason = allowed(INSTANCES, "compute.reboot", RUNNING, reader)
    assert not ok and reason == "this token lacks the computes:read_write scope"
    assert allowed(INSTANCES, "compute.stats", RUNNING, reader) == (True, "")
    writer = UserContext("demo", scopes=frozenset({"computes:read_write"}))
    assert allowed(INSTANCES, "compute.stats", RUNNING, writer) == (True, "")


def test_deleting_an_attached_volume_warns_in_the_confirmation() -> None:
    delete = next(a for a in VOLUMES.actions if a.id == "volumes.delete")
    assert any("attached" in text for text in cautions(delete, {"id": 1, "compute_id": 7}))
    assert cautions(delete, {"id": 1, "compute_id": None}) == []
    assert cautions(delete, None) == []
