"""Large accounts: tiled page plans, the refresh request budget and item polling (no timing)."""

from __future__ import annotations

import json

import httpx
import pytest

from tui.api import ApiClient
from tui.api.pagination import page_plan, parse_page, parse_page_json
from tui.refresh import RefreshPolicy, next_delay, pick_polls, refresh_mode, rest_interval

BASE = "https://api.test/v4"


@pytest.mark.parametrize(
    ("results", "size", "largest", "expected"),
    [
        (80, 100, 500, []),
        (300, 100, 500, [(2, 100), (3, 100)]),
        (1200, 100, 500, [(2, 100), (3, 100), (4, 100), (5, 100), (2, 500), (3, 500)]),
        (1200, 100, 100, [(n, 100) for n in range(2, 13)]),
        (1000, 30, 500, [(n, 30) for n in range(2, 35)]),  # 500 is not a multiple of 30
    ],
)
def test_page_plan(results: int, size: int, largest: int, expected: list[tuple[int, int]]) -> None:
    assert page_plan(results, size, largest) == expected


@pytest.mark.parametrize("results", [1, 99, 100, 101, 499, 500, 501, 999, 1000, 1001, 10012])
def test_page_plan_covers_every_position_exactly_once(results: int) -> None:
    covered = list(range(min(100, results)))
    for page, size in page_plan(results, 100, 500):
        covered.extend(range((page - 1) * size, min(page * size, results)))
    assert covered == list(range(results))


class Collection:
    """Serves ``total`` items at any page size the request asks for."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.requests: list[tuple[int, int]] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        size = int(request.url.params["page_size"])
        self.requests.append((page, size))
        start = (page - 1) * size
        data = [{"id": i} for i in range(start, min(start + size, self.total))]
        pages = max(1, -(-self.total // size))
        body = {"data": data, "page": page, "pages": pages, "results": self.total}
        return httpx.Response(200, content=json.dumps(body).encode())


async def test_default_listing_uses_large_pages_after_the_first() -> None:
    fake = Collection(1234)
    client = ApiClient(BASE, "t", transport=httpx.MockTransport(fake.handler), page_size=100)
    items = await client.fetch_all("compute.instances.list", model=dict)
    assert [i["id"] for i in items] == list(range(1234))
    assert fake.requests[0] == (1, 100)
    assert sorted(fake.requests[1:]) == [(2, 100), (2, 500), (3, 100), (3, 500), (4, 100), (5, 100)]
    assert client.listing_requests("compute.instances.list", 1234) == len(fake.requests)


async def test_explicit_page_size_keeps_one_size() -> None:
    fake = Collection(1234)
    client = ApiClient(BASE, "t", transport=httpx.MockTransport(fake.handler), page_size=100)
    items = [
        i
        async for page in client.iter_all("compute.instances.list", model=dict, page_size=100)
        for i in page.data
    ]
    assert len(items) == 1234
    assert {size for _page, size in fake.requests} == {100}


def test_page_parsed_from_bytes_equals_page_parsed_from_json() -> None:
    body = {"data": [{"id": 1, "label": "caf\u00e9"}], "page": 1, "pages": 1, "results": 1}
    raw = json.dumps(body).encode()
    assert parse_page_json(raw, dict) == parse_page(body, dict)


POLICY = RefreshPolicy(fast=2.5, slow=30.0, max_backoff=300.0, budget=30.0, item_polls=4)


def test_rest_interval_keeps_any_list_within_the_budget() -> None:
    assert rest_interval(POLICY, 1) == 30.0
    assert rest_interval(POLICY, 15) == 30.0
    assert rest_interval(POLICY, 25) == 50.0
    for requests in (1, 25, 101, 2001):
        assert requests * 60 / rest_interval(POLICY, requests) <= POLICY.budget
    assert next_delay(POLICY, transitional=False, requests=25) == 50.0
    assert next_delay(POLICY, transitional=True, requests=25) == 2.5


def test_long_lists_poll_only_changing_items_between_full_refreshes() -> None:
    assert refresh_mode(POLICY, requests=1, transitional=1, since_full=5) == "full"
    assert refresh_mode(POLICY, requests=4, transitional=1, since_full=5) == "full"
    assert refresh_mode(POLICY, requests=25, transitional=0, since_full=5) == "full"
    assert refresh_mode(POLICY, requests=25, transitional=1, since_full=5) == "items"
    assert refresh_mode(POLICY, requests=25, transitional=9, since_full=5) == "items"
    assert refresh_mode(POLICY, requests=25, transitional=1, since_full=50) == "full"


def test_polls_prefer_visible_items_then_take_turns() -> None:
    keys = [1, 2, 3, 4, 5, 6]
    assert pick_polls(keys, visible={5}, polled_at={}, limit=2) == [5, 1]
    polled = {5: 10.0, 1: 10.0, 2: 3.0}
    assert pick_polls(keys, visible=set(), polled_at=polled, limit=3) == [3, 4, 6]


def test_fast_item_keys_match_the_spec() -> None:
    from tui.resources.areas import SPECS
    from tui.resources.rows import item_key_of

    items = [{"id": 7, "label": "a"}, {"id": None, "label": "b"}, {"label": "c"}, {}, {"id": "x"}]
    for spec in SPECS.values():
        key = item_key_of(spec)
        for item in items:
            shaped = {spec.id_field: item.get("id"), spec.label_field: item.get("label")}
            assert key(shaped) == spec.item_key(shaped)
            assert key(item) == spec.item_key(item)
