"""What each billable request costs, as data read by the one confirmation step.

:data:`PRICE_RULES` maps an operation to the function that prices its body; the form and the
resize dialog ask :func:`quote_for` before sending and show the answer on the confirmation
(monthly and hourly; a resize old -> new and the difference). Operations the reference bills
but gives no price for (databases, volumes, load balancers) say "price not given", never a
guess. Without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.resources.pricing import Missing, Quote, QuoteLine, instance_quote, resize_quote

TYPES_ENDPOINT = "compute.types.list"
"""The listing every price comes from (instance types with their backups add-on)."""

Types = Mapping[str, Mapping[str, Any]]
"""The types listing keyed by id."""

Pricer = Callable[[Mapping[str, Any], Mapping[str, Any] | None, Types], Quote]
"""``(body, item the action runs on, types) -> Quote``."""


@dataclass(frozen=True)
class PriceRule:
    """How one operation is priced.

    Attributes:
        quote: Prices a body.
        needs_types: The rule reads the types listing (loaded before asking it).
    """

    quote: Pricer
    needs_types: bool = True


def _instance_create(body: Mapping[str, Any], _item: Any, types: Types) -> Quote:
    type_id = str(body.get("type") or "")
    return instance_quote(types.get(type_id), type_id, backups=bool(body.get("backups_enabled")))


def _backups_on(item: Mapping[str, Any] | None) -> bool:
    backups = (item or {}).get("backups")
    return isinstance(backups, Mapping) and bool(backups.get("enabled"))


def _instance_resize(
    body: Mapping[str, Any], item: Mapping[str, Any] | None, types: Types
) -> Quote:
    old_id = str((item or {}).get("type") or "")
    new_id = str(body.get("type") or "")
    return resize_quote(
        types.get(old_id), types.get(new_id), new_id, old_id=old_id, backups=_backups_on(item)
    )


def _count(raw: Any) -> int:
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else 0


def _pool_lines(pools: Any, types: Types, names: Callable[[int], str]) -> list[QuoteLine]:
    """One line per pool, named ``names(index)`` (``pool 2``), index counted from 1."""
    lines: list[QuoteLine] = []
    rows = [p for p in pools if isinstance(p, Mapping)] if isinstance(pools, list) else []
    for index, pool in enumerate(rows, start=1):
        type_id = str(pool.get("type") or "")
        count = _count(pool.get("count"))
        quote = instance_quote(types.get(type_id), type_id, count=count, pool=names(index))
        lines.extend(quote.lines)
    return lines


def _cluster_create(body: Mapping[str, Any], _item: Any, types: Types) -> Quote:
    return Quote(tuple(_pool_lines(body.get("node_pools"), types, lambda i: f"pool {i}")))


def _pool_create(body: Mapping[str, Any], _item: Any, types: Types) -> Quote:
    return Quote(tuple(_pool_lines([body], types, lambda _i: "new pool")))


def _pool_update(body: Mapping[str, Any], item: Mapping[str, Any] | None, types: Types) -> Quote:
    item = item or {}
    count = body.get("count")
    if not isinstance(count, int):
        return Quote(())  # only the autoscaler changes: nothing to price now
    type_id = str(item.get("type") or "")
    old_count = _count(item.get("count"))
    name = f"pool {item['id']}" if item.get("id") is not None else "pool"
    new = instance_quote(types.get(type_id), type_id, count=count, pool=name)
    old = instance_quote(types.get(type_id), type_id, count=old_count).total
    return Quote(new.lines, before=old if old is not None else Missing("type not in the listing"))


def _not_given(reason: str) -> Pricer:
    def quote(_body: Mapping[str, Any], _item: Any, _types: Types) -> Quote:
        return Quote((QuoteLine("This request", Missing(reason)),))

    return quote


PRICE_RULES: dict[str, PriceRule] = {
    "compute.instances.create": PriceRule(_instance_create),
    "compute.instances.resize": PriceRule(_instance_resize),
    "k8s.clusters.create": PriceRule(_cluster_create),
    "k8s.pools.create": PriceRule(_pool_create),
    "k8s.pools.update": PriceRule(_pool_update),
    "databases.mysql.create": PriceRule(
        _not_given("the API lists no database prices"), needs_types=False
    ),
    "volumes.create": PriceRule(_not_given("the API lists no volume prices"), needs_types=False),
    "volumes.resize": PriceRule(_not_given("the API lists no volume prices"), needs_types=False),
    "volumes.clone": PriceRule(_not_given("the API lists no volume prices"), needs_types=False),
    "loadbalancers.create": PriceRule(
        _not_given("the API lists no load balancer prices"), needs_types=False
    ),
}
"""Operation -> its price rule. Instance creation covers "enable backups" (``backups_enabled``
adds the type's backups add-on); a resize carries the add-on along when backups are on."""


def quote_for(
    endpoint: str,
    body: Mapping[str, Any],
    item: Mapping[str, Any] | None = None,
    types: Types | None = None,
) -> Quote | None:
    """What sending ``body`` to ``endpoint`` costs (None: the operation is not billed).

    Args:
        endpoint: Operation name.
        body: The request body.
        item: The record the action runs on (a resize's instance, an updated pool).
        types: The types listing by id (empty when it could not be loaded: "not given").
    """
    rule = PRICE_RULES.get(endpoint)
    if rule is None:
        return None
    quote = rule.quote(body, item, types or {})
    return quote if quote.lines else None
