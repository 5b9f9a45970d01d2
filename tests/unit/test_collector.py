"""The cyclic collector is held off while a listing's objects are made, and always comes back."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import httpx
import pytest

from tests.unit.test_pagination import BASE, FakeCollection, client_for
from tui.api import ApiClient, collector


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    """Each test starts with the collector on and no hold out, and leaves it so."""
    was = gc.isenabled()
    gc.enable()
    assert collector.holds() == 0
    yield
    assert collector.holds() == 0, "a hold leaked"
    if not was:
        gc.disable()


def test_holds_nest_and_the_last_release_turns_it_back_on() -> None:
    first = collector.hold()
    second = collector.hold()
    assert not gc.isenabled()
    first()
    first()  # a second call releases nothing more
    assert not gc.isenabled()
    second()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector.held():
        pass
    assert not gc.isenabled()


def test_resume_during_a_hold_waits_for_it() -> None:
    gc.disable()
    with collector.held():
        collector.resume()
        assert not gc.isenabled()
    assert gc.isenabled()


async def test_a_listing_runs_with_the_collector_off_and_restores_it() -> None:
    fake = FakeCollection(total=500)
    seen: list[bool] = []

    async def watching(request: httpx.Request) -> httpx.Response:
        seen.append(gc.isenabled())
        return await fake.handler(request)

    client = ApiClient(BASE, "t", transport=httpx.MockTransport(watching), page_size=25)
    pages = [page async for page in client.iter_all("compute.instances.list", model=dict)]
    assert len(pages) == 20
    assert seen and not any(seen)
    assert gc.isenabled()


async def test_a_consumer_that_stops_early_releases_the_hold() -> None:
    client = client_for(FakeCollection(total=500))
    listing = client.iter_all("compute.instances.list", model=dict)
    async for _page in listing:
        assert not gc.isenabled()
        break
    await listing.aclose()
    assert gc.isenabled()


@pytest.mark.parametrize("failing", [1, 3])
async def test_a_failed_page_releases_the_hold(failing: int) -> None:
    fake = FakeCollection(total=500)
    fake.fail_page = failing
    client = client_for(fake)
    with pytest.raises(Exception, match="boom"):
        async for _page in client.iter_all("compute.instances.list", model=dict):
            pass
    assert gc.isenabled()


def test_parsing_a_page_that_is_not_an_envelope_releases_the_hold() -> None:
    from tui.api.pagination import PageFormatError, parse_page_json

    with pytest.raises(PageFormatError):
        parse_page_json(b"[1, 2", dict)
    assert gc.isenabled()


def test_the_last_release_sweeps_the_young_generation_and_others_do_not() -> None:
    swept: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            swept.append(info["generation"])

    first, second = collector.hold(), collector.hold()
    gc.callbacks.append(note)
    try:
        collector.release_and_sweep(first)
        assert swept == [] and not gc.isenabled()
        collector.release_and_sweep(second)
        assert swept == [0] and gc.isenabled()
    finally:
        gc.callbacks.remove(note)
