"""The account's relations index as the app keeps it (fed by its lists, built once however many
ask), and what a confirmation shows of an impact (the offer and its clean-up after a partial
bulk run)."""

from __future__ import annotations

import asyncio

from tests.ui.helpers import demo_session
from tests.unit.relations_account import fed_index, ref
from tui.relations.cache import RelationCache, kind_of
from tui.relations.impact import CleanupResult
from tui.relations.offer import offer_for, results_text


async def test_lists_the_app_loads_are_fed_whole_and_child_lists_find_their_parent() -> None:
    session = demo_session()
    async with session.client as client:
        cache = RelationCache(client)
        assert await cache.feed("domains", {}, [{"id": 10, "domain": "example.com"}])
        records = [{"id": 7, "type": "A", "name": "www", "target": "203.0.113.5"}]
        # A path parameter may arrive as text: the parent is found all the same.
        assert await cache.feed("domains.records", {"domainId": "10"}, records)
        assert cache.index.ref("domains.records", 7) is not None
        # Not a kind of the index, or part of a kind only: never taken as a whole listing.
        assert not await cache.feed("compute.volumes", {"computeId": 1}, [{"id": 1}])
        assert not await cache.feed("databases.mysql", {}, [{"id": 1, "engine": "mysql"}])
        # A child list whose parent is not held is not taken.
        assert not await cache.feed("domains.records", {"domainId": 99}, records)
        cache.close()


def test_a_screen_finds_its_object_by_the_kind_its_spec_shows() -> None:
    assert kind_of("databases.mongodb") == "databases"
    assert kind_of("compute.instances") == "compute.instances"
    assert kind_of("images") is None


async def test_callers_at_once_share_one_build_and_later_ones_only_refresh() -> None:
    session = demo_session()
    async with session.client as client:
        alone = RelationCache(client)
        await alone.ready(client)
        one_build = client.request_count
        alone.close()
        shared = RelationCache(client)
        before = client.request_count
        first, second = await asyncio.gather(shared.ready(client), shared.ready(client))
        assert first is second is shared.index and shared.built
        assert client.request_count - before == one_build
        again = client.request_count
        await shared.ready(client)
        assert client.request_count == again  # nothing old, nothing stale: no request
        shared.close()
        assert shared.index.note_change not in client.change_observers


def test_the_offer_says_what_breaks_and_lists_each_cleanup_request_as_sent() -> None:
    index = fed_index()
    web = ref(index, "compute.instances", 1)
    offer = offer_for(index, [web])
    assert offer.summary() == "It breaks 3 things (listed below); 4 clean-up requests offered."
    assert offer.option() == "Clean up too: send the 4 requests listed at the end once it succeeded"
    preview = offer.preview()
    assert "  - load balancer web-lb port 80 has a node at 192.168.128.7:80" in preview
    assert "  - volume pg-data will be detached" in preview
    assert (
        "  DELETE /loadbalancers/20/configs/21/nodes/22\n      delete balancer node n1" in preview
    )
    assert preview.index("What this breaks:") < preview.index("Clean-up, sent after")


def test_after_a_partial_bulk_run_only_the_deleted_targets_are_cleaned_up() -> None:
    index = fed_index()
    web, api = ref(index, "compute.instances", 1), ref(index, "compute.instances", 2)
    offer = offer_for(index, [web, api])
    everything = {r.path for r in offer.requests}
    assert "/domains/10/records/102" in everything  # api-1's AAAA record
    only_web = {r.path for r in offer.requests_after([web.key])}
    assert "/domains/10/records/100" in only_web
    assert "/loadbalancers/20/configs/21/nodes/22" in only_web
    assert "/domains/10/records/102" not in only_web  # api-1 was not deleted: its record stays
    assert offer.requests_after([]) == ()


def test_cleanup_results_read_a_line_each() -> None:
    index = fed_index()
    requests = offer_for(index, [ref(index, "compute.instances", 1)]).requests
    text = results_text(
        [CleanupResult(requests[0], True), CleanupResult(requests[1], False, "409 busy")]
    )
    assert text.splitlines() == [
        f"done: {requests[0].says}",
        f"FAILED: {requests[1].says}: 409 busy",
    ]
