"""``ApiClient.call`` answers with the model the registry declares for the operation."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tui.api.client import ApiClient
from tui.api.pagination import Page
from tui.models.compute import Instance, Region
from tui.models.profile import Preferences, Profile

BASE = "https://api.example.test/v4"


def answering(payload: Any, status: int = 200) -> ApiClient:
    """A client whose every request gets ``payload`` back."""
    return ApiClient(
        BASE, "tok", transport=httpx.MockTransport(lambda r: httpx.Response(status, json=payload))
    )


async def test_answer_is_validated_into_the_declared_model() -> None:
    profile = await answering({"username": "demo", "restricted": False}).call("profile.view")
    assert isinstance(profile, Profile) and profile.username == "demo"


async def test_naming_the_declared_model_types_the_result() -> None:
    instance = await answering({"id": 7, "label": "web"}).call(
        "compute.instances.view", {"computeId": 7}, model=Instance
    )
    assert isinstance(instance, Instance) and instance.id == 7


async def test_naming_another_model_is_refused_before_sending() -> None:
    client = answering({"id": 7})
    with pytest.raises(TypeError, match="compute:Instance"):
        await client.call("compute.instances.update", {"computeId": 7}, body={}, model=Region)
    assert client.request_count == 0


async def test_model_dict_keeps_the_json() -> None:
    raw = await answering({"id": 7, "new_field": [1]}).call(
        "compute.instances.view", {"computeId": 7}, model=dict
    )
    assert raw == {"id": 7, "new_field": [1]}


async def test_operation_without_response_model_answers_none() -> None:
    assert await answering({}).call("compute.instances.boot", {"computeId": 1}) is None


async def test_collection_answers_a_page_of_the_item_model() -> None:
    page = await answering({"data": [{"id": "us-east"}], "page": 1, "pages": 1, "results": 1}).call(
        "compute.regions.list"
    )
    assert isinstance(page, Page) and isinstance(page.data[0], Region)
    with pytest.raises(TypeError, match="fetch_page"):
        await answering({"data": []}).call("compute.regions.list", model=Region)


async def test_free_form_preferences_keep_any_object() -> None:
    prefs = await answering({"theme": "nord", "n": [1, 2]}).call("profile.preferences.view")
    assert isinstance(prefs, Preferences) and prefs.root == {"theme": "nord", "n": [1, 2]}
