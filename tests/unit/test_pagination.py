"""Concurrent pagination: page 1 first, then bounded concurrent pages, yielded in order."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tui.api import ApiClient, ServerError

BASE = "https://api.test/v4"


class FakeCollection:
    """An async transport serving ``total`` items; later pages answer faster than earlier ones."""

    def __init__(self, total: int, page_size: int = 25) -> None:
        self.total = total
        self.page_size = page_size
        self.in_flight = 0
        self.max_in_flight = 0
        self.requested: list[int] = []
        self.fail_page: int | None = None

    async def handler(self, request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        size = int(request.url.params["page_size"])
        self.requested.append(page)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            pages = max(1, -(-self.total // size))
            # Reverse latency: the highest page returns first, so ordering is really tested.
            await asyncio.sleep(0.001 * (pages - page + 1))
            if page == self.fail_page:
                return httpx.Response(500, json={"errors": [{"reason": "boom"}]})
            start = (page - 1) * size
            data = [
                {"id": i, "label": f"i{i}"} for i in range(start, min(start + size, self.total))
            ]
            body = {"data": data, "page": page, "pages": pages, "results": self.total}
            return httpx.Response(200, content=json.dumps(body).encode())
        finally:
            self.in_flight -= 1


def client_for(fake: FakeCollection, **kwargs: object) -> ApiClient:
    return ApiClient(BASE, "t", transport=httpx.MockTransport(fake.handler), page_size=25, **kwargs)  # type: ignore[arg-type]


async def test_pages_arrive_in_order_with_every_item() -> None:
    fake = FakeCollection(total=500)
    client = client_for(fake)
    numbers = []
    ids: list[int] = []
    async for page in client.iter_all("compute.instances.list", model=dict):
        numbers.append(page.page)
        ids.extend(item["id"] for item in page.data)
    assert numbers == list(range(1, 21))
    assert ids == list(range(500))


async def test_page_one_is_fetched_alone_first() -> None:
    fake = FakeCollection(total=100)
    client = client_for(fake)
    pages = client.iter_all("compute.instances.list", model=dict)
    first = await anext(pages)
    assert first.page == 1
    assert fake.requested[0] == 1
    await pages.aclose()


@pytest.mark.parametrize("bound", [1, 3, 8])
async def test_in_flight_requests_never_exceed_the_bound(bound: int) -> None:
    fake = FakeCollection(total=25 * 30)
    client = client_for(fake, max_concurrency=bound)
    items = await client.fetch_all("compute.instances.list", model=dict)
    assert len(items) == 750
    assert fake.max_in_flight == bound


async def test_default_bound_is_24_so_10000_instances_go_in_one_wave() -> None:
    fake = FakeCollection(total=500 * 40)  # 19 small pages and 39 large ones after page 1
    client = client_for(fake)
    await client.fetch_all("compute.instances.list", model=dict)
    assert fake.max_in_flight == 24


async def test_after_page_1_every_page_of_10012_instances_is_requested_at_once() -> None:
    fake = FakeCollection(total=10012)
    client = ApiClient(BASE, "t", transport=httpx.MockTransport(fake.handler), page_size=100)
    items = await client.fetch_all("compute.instances.list", model=dict)
    assert len(items) == 10012
    assert len(fake.requested) == 25 and fake.max_in_flight == 24


async def test_single_page_collection_makes_one_request() -> None:
    fake = FakeCollection(total=3)
    client = client_for(fake)
    assert len(await client.fetch_all("compute.instances.list", model=dict)) == 3
    assert fake.requested == [1]


async def test_failure_of_a_later_page_surfaces_after_earlier_pages() -> None:
    fake = FakeCollection(total=200)
    fake.fail_page = 5
    client = ApiClient(
        BASE,
        "t",
        transport=httpx.MockTransport(fake.handler),
        page_size=25,
        retry=__import__("tui.api.retry", fromlist=["RetryPolicy"]).RetryPolicy(max_attempts=1),
    )
    seen = []
    with pytest.raises(ServerError):
        async for page in client.iter_all("compute.instances.list", model=dict):
            seen.append(page.page)
    assert seen == [1, 2, 3, 4]


async def test_page_size_is_capped_by_the_endpoint_bound() -> None:
    fake = FakeCollection(total=10)
    client = ApiClient(BASE, "t", transport=httpx.MockTransport(fake.handler), page_size=500)
    await client.fetch_page("domains.list", model=dict)
    await client.fetch_page("compute.instances.list", model=dict)
    assert fake.requested == [1, 1]


async def test_typed_page_uses_the_endpoint_model() -> None:
    from pydantic import BaseModel

    class Item(BaseModel):
        id: int
        label: str

    fake = FakeCollection(total=30)
    client = client_for(fake)
    page = await client.fetch_page("compute.instances.list", model=Item)
    assert isinstance(page.data[0], Item)
    assert (page.page, page.pages, page.results) == (1, 2, 30)


class GatedPageOne(FakeCollection):
    """Page 1 answers only once page 2 has been asked for (when ``gated``): a listing that
    waited for page 1 before asking for the rest would never finish."""

    def __init__(self, total: int) -> None:
        super().__init__(total)
        self.gated = False
        self.page_two_asked = asyncio.Event()

    async def handler(self, request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        if page == 2:
            self.page_two_asked.set()
        if page == 1 and self.gated:
            await self.page_two_asked.wait()
        return await super().handler(request)


async def test_a_listing_made_before_asks_for_every_page_at_once() -> None:
    fake = GatedPageOne(total=100)
    client = client_for(fake)
    first = await client.fetch_all("compute.instances.list", model=dict)
    assert fake.requested[0] == 1  # the first time, page 1 tells how many there are
    fake.gated, fake.requested = True, []
    fake.page_two_asked.clear()
    # The timeout only keeps a wrong client from hanging the suite.
    again = await asyncio.wait_for(client.fetch_all("compute.instances.list", model=dict), 30)
    assert again == first
    assert sorted(fake.requested) == [1, 2, 3, 4]


@pytest.mark.parametrize("now", [30, 60, 100, 160])
async def test_page_one_still_decides_when_the_list_shrank_or_grew(now: int) -> None:
    fake = FakeCollection(total=100)
    client = client_for(fake)
    await client.fetch_all("compute.instances.list", model=dict)
    fake.total = now
    items = await client.fetch_all("compute.instances.list", model=dict)
    assert [item["id"] for item in items] == list(range(now))
    assert client.known_counts  # remembered for the next listing
    assert next(iter(client.known_counts.values())) == now


async def test_each_listing_remembers_its_own_count() -> None:
    fake = FakeCollection(total=100)
    client = client_for(fake)
    await client.fetch_all("compute.instances.list", model=dict)
    await client.fetch_all("compute.instances.list", model=dict, query={"region": "x"})
    assert sorted(client.known_counts.values()) == [100, 100]
    assert len(client.known_counts) == 2


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    envelope=st.dictionaries(
        st.sampled_from(["data", "page", "pages", "results", "extra"]), JSON_VALUES, max_size=5
    )
    | st.builds(
        lambda items, page: {"data": items, "page": page, "pages": 3, "results": 7},
        st.lists(st.dictionaries(st.text(), JSON_VALUES, max_size=3), max_size=4),
        st.integers() | st.text(max_size=3) | st.floats(allow_nan=False),
    )
    | JSON_VALUES
)
@example({"data": [{"id": 1}, 2]})
@example({"data": [{"id": 1}], "page": "2"})
@example({"data": [{"id": 1}], "results": True})
@example({"data": {"id": 1}})
def test_pages_of_plain_dicts_decode_exactly_as_validation_does(envelope: object) -> None:
    """Rows decoded as dicts take a path without validation; it must give what validating the
    same bytes gives (the same page, or a refusal where validation refuses)."""
    from tui.api.envelope import envelope_type
    from tui.api.pagination import PageFormatError, parse_page_json

    content = json.dumps(envelope).encode()
    try:
        expected = envelope_type(dict).model_validate_json(content)
    except ValueError:
        with pytest.raises(PageFormatError):
            parse_page_json(content, dict)
        return
    got = parse_page_json(content, dict)
    assert (got.data, got.page, got.pages, got.results) == (
        expected.data,
        expected.page,
        expected.pages,
        expected.results,
    )
