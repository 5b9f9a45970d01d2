"""Every tag operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.tags import Tag, TagCreate, TaggedObject
from tui.simulator import Simulator

INSTANCE_ID = 990800
DOMAIN_ID = 770800
BALANCER_ID = 660800


@pytest.fixture(autouse=True)
def objects(sim: Simulator) -> None:
    """One object of each kind, in case those areas have not seeded any."""
    sim.store.put(
        "compute.instances",
        INSTANCE_ID,
        {"id": INSTANCE_ID, "label": "tag-host", "status": "running", "tags": ["web"]},
    )
    sim.store.put(
        "domains.domains",
        DOMAIN_ID,
        {"id": DOMAIN_ID, "domain": "tagged.example", "status": "active", "tags": []},
    )
    sim.store.put(
        "loadbalancers.balancers",
        BALANCER_ID,
        {"id": BALANCER_ID, "label": "tag-lb", "region": "us-east", "tags": [], "_lb": 1},
    )


async def test_list_iter_all(client: ApiClient) -> None:
    page = await client.fetch_page("tags.list", page_size=25)
    assert all(isinstance(t, Tag) for t in page.data)
    labels = [t.label for t in page.data]
    assert "web" in labels
    pages = [p async for p in client.iter_all("tags.list")]
    assert [t.label for p in pages for t in p.data] == labels
    assert [t.label for t in await client.fetch_all("tags.list")] == labels


async def test_create_objects_delete(client: ApiClient, sim: Simulator) -> None:
    volume_id = sim.store.rows("volumes.volumes")[0]["id"]
    made = await client.call(
        "tags.create",
        body=TagCreate(
            label="blue-green",
            computes=[INSTANCE_ID],
            domains=[DOMAIN_ID],
            loadbalancers=[BALANCER_ID],
            volumes=[volume_id],
        ),
    )
    assert made.label == "blue-green"
    objects = await client.fetch_page("tags.objects", {"label": "blue-green"})
    assert all(isinstance(o, TaggedObject) for o in objects.data)
    assert [(o.type, o.object_id) for o in objects.data] == [
        ("compute", INSTANCE_ID),
        ("domain", DOMAIN_ID),
        ("volume", volume_id),
        ("loadbalancer", BALANCER_ID),
    ]
    assert objects.data[1].object_label == "tagged.example"
    assert "_lb" not in objects.data[3].data
    pages = [p async for p in client.iter_all("tags.objects", {"label": "blue-green"})]
    assert [o.object_id for p in pages for o in p.data] == [o.object_id for o in objects.data]
    assert len(await client.fetch_all("tags.objects", {"label": "blue-green"})) == 4
    await client.call("tags.delete", {"label": "blue-green"})
    assert "blue-green" not in [t.label for t in await client.fetch_all("tags.list")]
    with pytest.raises(ApiError) as info:
        await client.fetch_page("tags.objects", {"label": "blue-green"})
    assert info.value.status == 404


async def test_create_by_keywords_with_special_characters(client: ApiClient) -> None:
    made = await client.call(
        "tags.create", body=TagCreate(label="team:[ops]/é #1", computes=[INSTANCE_ID])
    )
    assert made.label == "team:[ops]/é #1"
    objects = await client.fetch_all("tags.objects", {"label": "team:[ops]/é #1"})
    assert [o.object_id for o in objects] == [INSTANCE_ID]


@pytest.mark.parametrize(
    "fields",
    [
        {"label": "ab"},
        {"label": "x" * 51},
        {},
        {"label": "okay", "computes": ["a"]},
        {"label": "okay", "colour": "red"},
    ],
)
def test_request_model_is_strict(fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        TagCreate(**fields)
