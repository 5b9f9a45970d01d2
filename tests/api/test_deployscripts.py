"""Every deployment script operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.deployscripts import DeployScript, DeployScriptCreate, DeployScriptUpdate
from tui.simulator import Simulator

SCRIPT = '#!/bin/bash\n# <UDF name="greeting" label="Greeting" default="hi" />\necho "$GREETING"\n'


def sid(sim: Simulator, label: str) -> int:
    return int(
        next(s["id"] for s in sim.store.rows("deployscripts.scripts") if s["label"] == label)
    )


async def test_list_iter_all_view(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("deployscripts.list", page_size=25)
    assert page.results == len(sim.store.rows("deployscripts.scripts"))
    assert all(isinstance(s, DeployScript) for s in page.data)
    pages = [p async for p in client.iter_all("deployscripts.list")]
    assert [s.id for p in pages for s in p.data] == [s.id for s in page.data]
    assert [s.id for s in await client.fetch_all("deployscripts.list")] == [s.id for s in page.data]
    lamp = await client.call("deployscripts.view", {"deployscriptId": str(sid(sim, "LAMP stack"))})
    assert lamp.is_public is True and lamp.script and lamp.script.startswith("#!")
    assert [f.name for f in lamp.user_defined_fields] == ["db_password", "site_name", "php_version"]
    assert lamp.user_defined_fields[2].oneof == "8.2,8.3"
    assert (
        await client.call("deployscripts.view", {"deployscriptId": str(str(lamp.id))})
    ).id == lamp.id


async def test_anonymous_service_lists_public(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    anon = client_for("anonymous")
    scripts = await anon.fetch_all("deployscripts.list")
    assert scripts and all(s.is_public for s in scripts)


async def test_create_update_delete(client: ApiClient) -> None:
    made = await client.call(
        "deployscripts.create",
        body=DeployScriptCreate(
            label="greeter",
            images=["compute/debian12", "any/all"],
            script=SCRIPT,
            description="says hi",
        ),
    )
    assert made.is_public is False and made.username == "demo"
    assert made.user_defined_fields[0].default == "hi"
    changed = await client.call(
        "deployscripts.update",
        {"deployscriptId": str(made.id or 0)},
        body=DeployScriptUpdate(rev_note="second", images=["compute/arch"]),
    )
    assert changed.rev_note == "second" and changed.images == ["compute/arch"]
    await client.call("deployscripts.delete", {"deployscriptId": str(made.id or 0)})
    with pytest.raises(ApiError) as info:
        await client.call("deployscripts.view", {"deployscriptId": str(made.id or 0)})
    assert info.value.status == 404


async def test_publish_is_one_way(client: ApiClient) -> None:
    made = await client.call(
        "deployscripts.create",
        body=DeployScriptCreate(label="pub", images=["any/all"], script="#!/bin/sh\n"),
    )
    published = await client.call(
        "deployscripts.update",
        {"deployscriptId": str(made.id or 0)},
        body=DeployScriptUpdate(is_public=True),
    )
    assert published.is_public is True
    with pytest.raises(ApiError) as info:
        await client.call(
            "deployscripts.update",
            {"deployscriptId": str(made.id or 0)},
            body=DeployScriptUpdate(is_public=False),
        )
    assert info.value.status == 400 and "is_public" in info.value.field_errors()
    with pytest.raises(ApiError) as info:
        await client.call("deployscripts.delete", {"deployscriptId": str(made.id or 0)})
    assert info.value.status == 409


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (DeployScriptCreate, {"label": "ok label", "images": ["any/all"]}),
        (DeployScriptCreate, {"label": "ab", "images": ["any/all"], "script": "#!/bin/sh"}),
        (DeployScriptCreate, {"label": "x" * 129, "images": ["any/all"], "script": "#!/bin/sh"}),
        (DeployScriptCreate, {"label": "okay", "images": [], "script": "#!/bin/sh"}),
        (DeployScriptCreate, {"label": "okay", "images": ["any/all"], "script": "echo"}),
        (DeployScriptUpdate, {"script": "no shebang"}),
        (DeployScriptUpdate, {"images": []}),
        (DeployScriptUpdate, {"owner": "me"}),
    ],
)
def test_request_models_are_strict(model: Any, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**fields)


def test_response_model_is_tolerant() -> None:
    s = DeployScript.model_validate({"id": 3, "mine": True, "user_defined_fields": [{"x": 1}]})
    assert s.raw()["mine"] is True and s.user_defined_fields[0].name is None
