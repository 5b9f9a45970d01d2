"""Deployment script rules: visibility, validation, publishing, ownership, restricted users."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.simulator.rules import refusal_check
from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.simulator import Simulator
from tui.simulator.handlers.deployscripts import new_script

GOOD: dict[str, Any] = {
    "label": "hello script",
    "images": ["compute/debian12"],
    "script": "#!/bin/bash\necho hello\n",
}


def sid(sim: Simulator, label: str) -> int:
    return int(
        next(s["id"] for s in sim.store.rows("deployscripts.scripts") if s["label"] == label)
    )


@pytest.fixture
def foreign_private(sim: Simulator) -> int:
    """A private script of another account's user: never visible here."""
    rec = new_script(
        sim.store,
        username="someone-else",
        label="their secret",
        images=["any/all"],
        script="#!/bin/sh\n",
        now_iso="2026-01-01T00:00:00",
    )
    return int(rec["id"])


def _rec(sim: Simulator, table: str, key: object) -> dict[str, Any]:
    """A record that must exist."""
    record = sim.store.get(table, key)
    assert record is not None, (table, key)
    return record


def _state(sim: Simulator) -> dict[str, Any]:
    return copy.deepcopy(
        {
            "scripts": sim.store.tables.get("deployscripts.scripts"),
            "users": sim.store.tables.get("users"),
        }
    )


_bad = refusal_check(_state)
"""The call is refused with ``status``, names ``field``, and changes nothing."""


# -- visibility -----------------------------------------------------------------------------


async def test_list_without_token_shows_only_public(
    client_for: Callable[..., ApiClient], sim: Simulator, foreign_private: int
) -> None:
    data = (await client_for("anonymous").call("deployscripts.list", model=dict))["data"]
    assert data and all(s["is_public"] for s in data)
    assert {s["label"] for s in data} == {"LAMP stack", "Docker host"}


async def test_list_with_token_adds_own_private_only(
    client: ApiClient, sim: Simulator, foreign_private: int
) -> None:
    data = (await client.call("deployscripts.list", model=dict))["data"]
    labels = {s["label"] for s in data}
    assert {"LAMP stack", "Docker host", "nightly backup agent", "café terminal setup"} <= labels
    assert "their secret" not in labels
    assert all(isinstance(s["id"], int) for s in data)
    await _refused(client, "deployscripts.view", {"deployscriptId": foreign_private}, status=404)


async def test_under_scoped_token_lists_public_and_cannot_view(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    readonly = client_for("readonly")  # no deployscripts scope
    data = (await readonly.call("deployscripts.list", model=dict))["data"]
    assert all(s["is_public"] for s in data)
    await _refused(
        readonly, "deployscripts.view", {"deployscriptId": sid(sim, "Docker host")}, status=403
    )
    await _refused(
        client_for("anonymous"),
        "deployscripts.view",
        {"deployscriptId": sid(sim, "Docker host")},
        status=401,
    )


async def test_view_path_param_is_a_string(client: ApiClient, sim: Simulator) -> None:
    target = sid(sim, "LAMP stack")
    view = await client.call("deployscripts.view", {"deployscriptId": str(target)}, model=dict)
    assert view["id"] == target and view["script"].startswith("#!")
    await _refused(client, "deployscripts.view", {"deployscriptId": "lamp"}, status=404)
    await _refused(client, "deployscripts.view", {"deployscriptId": "999999"}, status=404)


async def test_page_size_bounds(client: ApiClient) -> None:
    for size in (24, 101):
        with pytest.raises(ApiError) as info:
            await client.call("deployscripts.list", query={"page_size": size}, model=dict)
        assert info.value.status == 400 and "page_size" in info.value.field_errors()


# -- create validation ----------------------------------------------------------------------


@pytest.mark.parametrize("label", [None, "ab", "x" * 129, 5])
async def test_create_label_rules(client: ApiClient, sim: Simulator, label: Any) -> None:
    body = {k: v for k, v in GOOD.items() if k != "label"}
    if label is not None:
        body["label"] = label
    await _bad(client, sim, "deployscripts.create", None, body, "label")


@pytest.mark.parametrize(
    "images",
    [None, [], "compute/debian12", ["compute/nope"], ["any/all", "private/1"], [3]],
)
async def test_create_images_rules(client: ApiClient, sim: Simulator, images: Any) -> None:
    body = {k: v for k, v in GOOD.items() if k != "images"}
    if images is not None:
        body["images"] = images
    await _bad(client, sim, "deployscripts.create", None, body, "images")


async def test_create_images_accept_any_all_and_private(client: ApiClient, sim: Simulator) -> None:
    private = next(i["id"] for i in sim.store.rows("images.images") if not i["is_public"])
    out = await client.call(
        "deployscripts.create", body={**GOOD, "images": ["any/all", private]}, model=dict
    )
    assert out["images"] == ["any/all", private]


async def test_create_images_must_be_visible_to_restricted_user(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    hidden = next(
        i["id"] for i in sim.store.rows("images.images") if i["label"] == "web-[prod]-golden"
    )
    await _bad(
        client_for("restricted"),
        sim,
        "deployscripts.create",
        None,
        {**GOOD, "images": [hidden]},
        "images",
    )


@pytest.mark.parametrize(
    "script",
    [None, "", "echo no shebang", 42, '#!/bin/sh\n# <UDF label="No name" />\n'],
)
async def test_create_script_rules(client: ApiClient, sim: Simulator, script: Any) -> None:
    body = {k: v for k, v in GOOD.items() if k != "script"}
    if script is not None:
        body["script"] = script
    await _bad(client, sim, "deployscripts.create", None, body, "script")


async def test_create_refuses_unknown_fields_and_bad_types(
    client: ApiClient, sim: Simulator
) -> None:
    await _bad(client, sim, "deployscripts.create", None, {**GOOD, "owner": "x"}, "owner")
    await _bad(client, sim, "deployscripts.create", None, {**GOOD, "is_public": "yes"}, "is_public")
    await _bad(client, sim, "deployscripts.create", None, {**GOOD, "description": 1}, "description")


async def test_create_defaults_private_and_owned(client: ApiClient, sim: Simulator) -> None:
    out = await client.call("deployscripts.create", body=GOOD, model=dict)
    assert out["is_public"] is False and out["username"] == "demo"
    assert out["deployments_total"] == 0 and out["deployments_active"] == 0
    assert out["description"] == "" and out["rev_note"] == ""
    assert out["created"] and out["updated"]
    listed_ids = {s["id"] for s in (await client.call("deployscripts.list", model=dict))["data"]}
    assert out["id"] in listed_ids


async def test_user_defined_fields_parsed_from_udf_tags(client: ApiClient, sim: Simulator) -> None:
    script = (
        "#!/bin/bash\n"
        '# <UDF name="hostname" label="Host name" default="web-1" />\n'
        "# <UDF name='role' label='Role' oneOf='web,db' example='web'/>\n"
        '# <udf name="token" label="API &amp; token"/>\n'
    )
    out = await client.call("deployscripts.create", body={**GOOD, "script": script}, model=dict)
    assert out["user_defined_fields"] == [
        {"name": "hostname", "label": "Host name", "default": "web-1"},
        {"name": "role", "label": "Role", "oneof": "web,db", "example": "web"},
        {"name": "token", "label": "API & token"},
    ]
    updated = await client.call(
        "deployscripts.update",
        {"deployscriptId": out["id"]},
        body={"script": '#!/bin/sh\n# <UDF name="only" label="Only" />\n'},
        model=dict,
    )
    assert updated["user_defined_fields"] == [{"name": "only", "label": "Only"}]


# -- update and publish ---------------------------------------------------------------------


async def test_update_fields(client: ApiClient, sim: Simulator) -> None:
    target = sid(sim, "nightly backup agent")
    out = await client.call(
        "deployscripts.update",
        {"deployscriptId": str(target)},
        body={"label": "nightly backup v2", "rev_note": "v2", "description": None},
        model=dict,
    )
    assert (out["label"], out["rev_note"], out["description"]) == ("nightly backup v2", "v2", "")
    await _bad(
        client, sim, "deployscripts.update", {"deployscriptId": target}, {"images": []}, "images"
    )
    await _bad(
        client, sim, "deployscripts.update", {"deployscriptId": target}, {"label": "x"}, "label"
    )
    await _bad(
        client, sim, "deployscripts.update", {"deployscriptId": target}, {"script": "rm"}, "script"
    )


async def test_public_can_never_become_private(client: ApiClient, sim: Simulator) -> None:
    target = sid(sim, "nightly backup agent")
    out = await client.call(
        "deployscripts.update", {"deployscriptId": target}, body={"is_public": True}, model=dict
    )
    assert out["is_public"] is True
    await _bad(
        client,
        sim,
        "deployscripts.update",
        {"deployscriptId": target},
        {"is_public": False},
        "is_public",
    )
    # Saying public again is fine.
    again = await client.call(
        "deployscripts.update", {"deployscriptId": target}, body={"is_public": True}, model=dict
    )
    assert again["is_public"] is True


async def test_public_scripts_cannot_be_deleted(client: ApiClient, sim: Simulator) -> None:
    before = _state(sim)
    await _refused(
        client, "deployscripts.delete", {"deployscriptId": sid(sim, "Docker host")}, status=409
    )
    assert _state(sim) == before


async def test_others_public_scripts_are_read_only(client: ApiClient, sim: Simulator) -> None:
    lamp = sid(sim, "LAMP stack")
    before = _state(sim)
    await _refused(
        client,
        "deployscripts.update",
        {"deployscriptId": lamp},
        body={"label": "mine now"},
        status=403,
    )
    await _refused(client, "deployscripts.delete", {"deployscriptId": lamp}, status=403)
    assert _state(sim) == before


async def test_delete_private_script(client: ApiClient, sim: Simulator) -> None:
    target = sid(sim, "web-[prod] hardening")
    assert await client.call("deployscripts.delete", {"deployscriptId": target}, model=dict) == {}
    await _refused(client, "deployscripts.view", {"deployscriptId": target}, status=404)
    grants = _rec(sim, "users", "ops-restricted")["grants"]["deployscript"]
    assert all(g["id"] != target for g in grants)


# -- restricted users -----------------------------------------------------------------------


async def test_restricted_sees_public_and_granted(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    labels = {s["label"] for s in (await restricted.call("deployscripts.list", model=dict))["data"]}
    assert labels == {"LAMP stack", "Docker host", "web-[prod] hardening"}
    await _refused(
        restricted,
        "deployscripts.view",
        {"deployscriptId": sid(sim, "nightly backup agent")},
        status=404,
    )


async def test_restricted_creates_with_add_deployscripts(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    out = await restricted.call("deployscripts.create", body=GOOD, model=dict)
    assert out["username"] == "ops-restricted"
    assert (await restricted.call("deployscripts.view", {"deployscriptId": out["id"]}, model=dict))[
        "id"
    ] == out["id"]
    _rec(sim, "users", "ops-restricted")["grants"]["global"]["add_deployscripts"] = False
    before = _state(sim)
    await _refused(restricted, "deployscripts.create", body=GOOD, status=403)
    assert _state(sim) == before


async def test_restricted_update_needs_read_write_grant(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    target = sid(sim, "web-[prod] hardening")
    out = await restricted.call(
        "deployscripts.update", {"deployscriptId": target}, body={"rev_note": "by ops"}, model=dict
    )
    assert out["rev_note"] == "by ops"
    grants = _rec(sim, "users", "ops-restricted")["grants"]["deployscript"]
    for g in grants:
        g["permissions"] = "read_only"
    before = _state(sim)
    await _refused(
        restricted,
        "deployscripts.update",
        {"deployscriptId": target},
        body={"rev_note": "x"},
        status=403,
    )
    await _refused(restricted, "deployscripts.delete", {"deployscriptId": target}, status=403)
    assert _state(sim) == before


def test_seeded_scripts(sim: Simulator) -> None:
    rows = sim.store.rows("deployscripts.scripts")
    assert any(s["is_public"] for s in rows) and any(not s["is_public"] for s in rows)
    assert any(s["user_defined_fields"] for s in rows)
    assert all(s["script"].startswith("#!") for s in rows)
    grants = _rec(sim, "users", "ops-restricted")["grants"]["deployscript"]
    assert len(grants) == 1
