"""The refresh policy (interval choice, backoff, Retry-After) and the diff keyed by id."""

from __future__ import annotations

from tui.api.errors import ConnectFailure, FieldError, Forbidden, RateLimited, ServerError
from tui.refresh import (
    Diff,
    RefreshPolicy,
    RefreshSchedule,
    Settled,
    classify,
    describe_error,
    diff_items,
    diff_polled,
    index_items,
    next_delay,
    settled_items,
)

POLICY = RefreshPolicy(fast=2.5, slow=30.0, max_backoff=300.0)


def key(item):
    return item["id"]


def test_fast_while_transitional_slow_at_rest() -> None:
    assert next_delay(POLICY, transitional=True) == 2.5
    assert next_delay(POLICY, transitional=False) == 30.0


def test_backoff_doubles_per_failure_and_is_capped() -> None:
    delays = [next_delay(POLICY, transitional=False, failures=n) for n in range(1, 6)]
    assert delays == [60.0, 120.0, 240.0, 300.0, 300.0]
    fast = [next_delay(POLICY, transitional=True, failures=n) for n in range(1, 4)]
    assert fast == [5.0, 10.0, 20.0]
    # However long the outage, the delay stays bounded and finite.
    assert next_delay(POLICY, transitional=True, failures=10_000) == 300.0


def test_retry_after_is_honoured_even_beyond_the_cap() -> None:
    assert next_delay(POLICY, transitional=True, failures=1, retry_after=42) == 42
    assert next_delay(POLICY, transitional=False, failures=1, retry_after=1) == 60
    assert next_delay(POLICY, transitional=False, failures=1, retry_after=900) == 900


def test_schedule_resets_after_success() -> None:
    schedule = RefreshSchedule(POLICY)
    error = RateLimited(429, "GET", "/x", retry_after=7.0)
    assert schedule.failed(error, transitional=True) == 7.0
    assert schedule.failures == 1
    assert schedule.failed(ServerError(503, "GET", "/x"), transitional=True) == 10.0
    assert schedule.succeeded(transitional=False) == 30.0
    assert schedule.failures == 0


def test_classify_health() -> None:
    assert classify(None) == "online"
    assert classify(RateLimited(429, "GET", "/x")) == "rate_limited"
    assert classify(ConnectFailure("GET", "/x", "refused", sent=False)) == "unreachable"
    assert classify(ServerError(500, "GET", "/x")) == "error"


def test_describe_error_explains_403_and_429() -> None:
    text = describe_error(Forbidden(403, "GET", "/managed/contacts"))
    assert "Not allowed" in text and "unrestricted" in text  # no reason given: the usual causes
    reasoned = Forbidden(403, "PUT", "/x", [FieldError("You can change only your own scripts")])
    assert describe_error(reasoned) == "Not allowed: You can change only your own scripts."
    assert "wait 5 s" in describe_error(RateLimited(429, "GET", "/x", retry_after=5))
    assert "unreachable" in describe_error(ConnectFailure("GET", "/x", "refused", sent=False))


def test_diff_keyed_by_id() -> None:
    old = index_items([{"id": 1, "s": "a"}, {"id": 2, "s": "b"}, {"id": 3, "s": "c"}], key)
    new = [{"id": 3, "s": "c"}, {"id": 1, "s": "A"}, {"id": 4, "s": "d"}]
    diff = diff_items(old, new, key)
    assert diff.added == (4,)
    assert diff.removed == (2,)
    assert diff.changed == (1,)
    assert diff.order == (3, 1, 4)
    assert not diff.empty


def test_diff_of_polled_items_matches_the_full_diff() -> None:
    old = {1: {"id": 1, "s": "booting"}, 2: {"id": 2, "s": "running"}, 3: {"id": 3, "s": "x"}}
    fresh = {1: {"id": 1, "s": "running"}, 3: {"id": 3, "s": "x"}}
    diff = diff_polled(old, fresh, gone={2})
    full = diff_items(old, [fresh[1], fresh[3]], key)
    assert (diff.added, diff.removed, diff.changed, diff.order) == (
        full.added,
        full.removed,
        full.changed,
        full.order,
    )
    assert diff.changed == (1,)
    assert diff.items[1]["s"] == "running"
    assert old[1]["s"] == "booting"  # the current items are not touched
    assert diff_polled(old, {2: old[2]}, gone=set()).empty


def test_diff_of_identical_lists_is_empty() -> None:
    items = [{"id": n, "label": f"x{n}"} for n in range(100)]
    diff = diff_items(index_items(items, key), [dict(i) for i in items], key)
    assert diff.empty
    assert Diff().empty


def test_settled_items_only_transitional_to_settled() -> None:
    old = index_items(
        [
            {"id": 1, "label": "web-1", "status": "provisioning"},
            {"id": 2, "label": "web-2", "status": "running"},
            {"id": 3, "label": "web-3", "status": "booting"},
        ],
        key,
    )
    new = index_items(
        [
            {"id": 1, "label": "web-1", "status": "running"},
            {"id": 2, "label": "web-2", "status": "offline"},
            {"id": 3, "label": "web-3", "status": "rebooting"},
            {"id": 4, "label": "web-4", "status": "running"},
        ],
        key,
    )
    found = settled_items(
        old,
        new,
        status=lambda i: i.get("status"),
        transitional=lambda s: s in {"provisioning", "booting", "rebooting"},
        label=lambda i: i["label"],
    )
    assert found == [Settled(1, "web-1", "provisioning", "running")]
    assert found[0].message == "web-1 is now running"
