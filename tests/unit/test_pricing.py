"""Prices from the types listing: instances, backups add-on, pools, resize, "price not given"."""

from __future__ import annotations

import pytest

from tui.resources.pricing import (
    NOT_GIVEN,
    Missing,
    Price,
    Quote,
    QuoteLine,
    instance_quote,
    money,
    price_from,
    price_of_backups,
    price_of_balancer,
    price_of_database,
    price_of_instance,
    price_of_pool,
    price_of_volume,
    resize_diff,
    resize_quote,
    total,
    types_by_id,
)
from tui.simulator.seeds.compute import TYPE_CATALOG

TYPES = types_by_id(TYPE_CATALOG)
STD2, STD4 = TYPES["std-2"], TYPES["std-4"]


def test_instance_price_is_the_types_price() -> None:
    price = price_of_instance(STD2)
    assert price is not None
    assert price.monthly == 24.0
    assert price.hourly == pytest.approx(24.0 / 730, abs=1e-4)
    assert price.text() == "$24.00/month ($0.0329/hour)"


def test_backups_addon_comes_from_the_types_addons() -> None:
    addon = price_of_backups(STD2)
    assert addon is not None and addon.monthly == 5.0
    assert price_of_backups({"id": "x", "price": {"monthly": 1}}) is None
    assert price_of_backups({"id": "x", "addons": {"backups": "cheap"}}) is None


def test_half_a_price_is_derived_and_nonsense_is_no_price() -> None:
    assert price_from({"monthly": 73.0}) == Price(73.0, 0.1)
    assert price_from({"hourly": 0.1}) == Price(73.0, 0.1)
    assert price_from({"monthly": None, "hourly": None}) is None
    assert price_from({"monthly": True}) is None  # a bool is not a number here
    assert price_from("24") is None
    assert price_of_instance(None) is None
    assert price_of_instance({"id": "std-2"}) is None


def test_pool_is_count_times_the_node_price() -> None:
    pool = price_of_pool(STD4, 3)
    assert pool is not None and pool.monthly == 144.0
    assert price_of_pool(None, 3) is None


def test_records_without_a_price_say_so() -> None:
    assert price_of_database({"id": 1, "type": "std-2", "cluster_size": 3}) is None
    assert price_of_volume({"id": 1, "size": 20}) is None
    assert price_of_balancer({"id": 1}) is None
    assert price_of_volume({"id": 1, "price": {"monthly": 2.0}}) == Price(2.0, 2.0 / 730)


def test_instance_quote_adds_backups_and_totals() -> None:
    quote = instance_quote(STD2, "std-2", backups=True)
    assert [line.what for line in quote.lines] == ["Instance std-2", "Backups add-on"]
    assert quote.total is not None and quote.total.monthly == 29.0
    assert quote.text_lines()[-1].startswith("Total: $29.00/month")


def test_unknown_type_is_price_not_given_not_zero() -> None:
    quote = instance_quote(None, "gpu-9")
    assert quote.total is None
    assert isinstance(quote.lines[0].price, Missing)
    assert NOT_GIVEN in quote.text() and "gpu-9" in quote.text()


def test_resize_diff_old_new_and_difference() -> None:
    diff = resize_diff(STD2, STD4)
    assert diff.old == price_of_instance(STD2)
    assert diff.difference is not None and diff.difference.monthly == 24.0
    down = resize_diff(STD4, STD2, backups=True)
    assert down.difference is not None and down.difference.monthly == -(24.0 + 5.0)
    assert resize_diff(None, STD4).difference is None


def test_resize_quote_text_shows_old_new_and_signed_difference() -> None:
    text = resize_quote(STD2, STD4, "std-4", old_id="std-2").text()
    assert "Old -> new: $24.00/month ($0.0329/hour) -> $48.00/month ($0.0658/hour)" in text
    assert "Difference: +$24.00/month (+$0.0329/hour)" in text
    cheaper = resize_quote(STD4, STD2, "std-2").text()
    assert "Difference: -$24.00/month" in cheaper
    unknown = resize_quote(None, STD4, "std-4", old_id="old-1").text()
    assert "type old-1 is not in the types listing" in unknown
    assert f"Difference: {NOT_GIVEN}" in unknown


def test_total_counts_what_has_no_price() -> None:
    summed, missing = total([Price(24.0, 0.03), None, Price(5.0, 0.01)])
    assert summed.monthly == 29.0 and missing == 1
    quote = Quote((QuoteLine("a", Price(1, 0.001)), QuoteLine("b", Missing("why"))))
    assert quote.total is None
    assert quote.text_lines()[1] == "b: price not given (why)"


def test_money_signs() -> None:
    assert money(1234.5) == "$1,234.50"
    assert money(-5, signed=True) == "-$5.00"
    assert money(0.001, signed=True) == "$0.00"


def test_rules_price_instance_create_with_backups() -> None:
    from tui.resources.price_rules import quote_for

    quote = quote_for(
        "compute.instances.create", {"type": "std-2", "backups_enabled": True}, None, TYPES
    )
    assert quote is not None and quote.total is not None and quote.total.monthly == 29.0
    assert quote_for("domains.create", {"domain": "x.test"}) is None  # not billed


def test_rules_price_a_cluster_pool_by_pool_and_a_pool_count_change() -> None:
    from tui.resources.price_rules import quote_for

    body = {"node_pools": [{"type": "std-2", "count": 3}, {"type": "std-4", "count": 1}]}
    quote = quote_for("k8s.clusters.create", body, None, TYPES)
    assert quote is not None
    assert [line.what for line in quote.lines] == ["pool 1: 3 x std-2", "pool 2: 1 x std-4"]
    assert quote.total is not None and quote.total.monthly == 3 * 24.0 + 48.0
    new_pool = quote_for("k8s.pools.create", {"type": "std-4", "count": 1}, None, TYPES)
    assert new_pool is not None
    assert [line.what for line in new_pool.lines] == ["new pool: 1 x std-4"]
    pool = {"id": 7, "type": "std-2", "count": 3}
    grow = quote_for("k8s.pools.update", {"count": 5}, pool, TYPES)
    assert grow is not None and [line.what for line in grow.lines] == ["pool 7: 5 x std-2"]
    assert grow is not None and grow.difference is not None and grow.difference.monthly == 48.0
    assert quote_for("k8s.pools.update", {"autoscaler": {"enabled": True}}, {}, TYPES) is None


def test_rules_say_price_not_given_where_the_api_has_none() -> None:
    from tui.resources.price_rules import quote_for

    for endpoint in ("databases.mysql.create", "volumes.create", "loadbalancers.create"):
        quote = quote_for(endpoint, {}, None, {})
        assert quote is not None and quote.total is None
        assert NOT_GIVEN in quote.text()


def test_rules_resize_uses_the_instances_type_and_backups() -> None:
    from tui.resources.price_rules import quote_for

    item = {"type": "std-2", "backups": {"enabled": False}}
    quote = quote_for("compute.instances.resize", {"type": "std-4"}, item, TYPES)
    assert quote is not None and quote.difference is not None
    assert quote.difference.monthly == 24.0
    missing_types = quote_for("compute.instances.resize", {"type": "std-4"}, item, {})
    assert missing_types is not None and NOT_GIVEN in missing_types.text()
