"""Prices from what the API returns, without a terminal.

The reference prices only instance types: ``GET /compute/types`` gives each type a
``price {hourly, monthly}`` in US dollars, and ``addons.backups.price`` for the backup service
("pricing comes from the types listing"). Everything else is derived from those and nothing is
invented:

- an instance: its type's price, plus the backups add-on when backups are enabled;
- a Kubernetes node pool: ``count`` x its type's price (the nodes are instances of that type);
- a resize: old type -> new type and the difference (the add-on follows the type);
- databases, load balancers and volumes: the API gives no price for them, unless a record
  carries a ``price`` object of its own; the result then says "price not given" (a
  :class:`Missing`), never a guess.

Public API (reused by the account overview's monthly estimate):

- :class:`Price` (``monthly``/``hourly``, addition, ``times``, ``text()``)
- :func:`price_from`, :func:`price_of_instance`, :func:`price_of_backups`,
  :func:`price_of_pool`, :func:`price_of_database`, :func:`price_of_volume`,
  :func:`price_of_balancer`, :func:`resize_diff`, :func:`total`
- :class:`Quote` / :class:`QuoteLine`: what a request will cost, line by line, with a total.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.untrusted import Shown, shown

HOURS_PER_MONTH = 730
"""Hours the API's monthly prices are based on (its hourly price is monthly / 730)."""

NOT_GIVEN = "price not given"
"""What is shown where the API gives no price."""


@dataclass(frozen=True)
class Price:
    """A price in US dollars.

    Attributes:
        monthly: Per month (the API's cap on hourly billing).
        hourly: Per hour.
    """

    monthly: float
    hourly: float

    def __add__(self, other: Price) -> Price:
        return Price(self.monthly + other.monthly, self.hourly + other.hourly)

    def __sub__(self, other: Price) -> Price:
        return Price(self.monthly - other.monthly, self.hourly - other.hourly)

    def times(self, count: int | float) -> Price:
        """This price ``count`` times (a pool of ``count`` nodes)."""
        return Price(self.monthly * count, self.hourly * count)

    def text(self, *, signed: bool = False) -> Shown:
        """``$24.00/month ($0.0329/hour)``; ``signed`` writes ``+``/``-`` (a difference)."""
        per_month = money(self.monthly, signed=signed)
        return f"{per_month}/month ({hourly(self.hourly, signed=signed)}/hour)"


def money(amount: float, *, signed: bool = False) -> Shown:
    """Dollars with cents: ``$1,234.50``; ``signed``: ``+$5.00``, ``-$5.00``, ``$0.00``."""
    sign = ""
    if signed and round(amount, 2) != 0:
        sign = "+" if amount > 0 else "-"
    elif amount < 0 and round(amount, 2) != 0:
        sign = "-"
    return f"{sign}${abs(amount):,.2f}"


def hourly(amount: float, *, signed: bool = False) -> Shown:
    """An hourly price to four decimals (they are fractions of a cent): ``$0.0329``."""
    sign = ""
    if signed and round(amount, 4) != 0:
        sign = "+" if amount > 0 else "-"
    elif amount < 0 and round(amount, 4) != 0:
        sign = "-"
    return f"{sign}${abs(amount):,.4f}"


@dataclass(frozen=True)
class Missing:
    """No price: the API does not give one for this (or the type is unknown).

    Attributes:
        reason: Why, in words (shown after "price not given").
    """

    reason: str = ""

    def text(self) -> Shown:
        """``price not given (reason)``."""
        return f"{NOT_GIVEN} ({shown(self.reason)})" if self.reason else NOT_GIVEN


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def price_from(raw: Any) -> Price | None:
    """A ``{monthly, hourly}`` object as a :class:`Price` (None when it has neither).

    A missing half is derived from the other with :data:`HOURS_PER_MONTH`.
    """
    if not isinstance(raw, Mapping):
        return None
    monthly, per_hour = _number(raw.get("monthly")), _number(raw.get("hourly"))
    if monthly is None and per_hour is None:
        return None
    if monthly is None:
        assert per_hour is not None
        monthly = round(per_hour * HOURS_PER_MONTH, 2)
    if per_hour is None:
        per_hour = monthly / HOURS_PER_MONTH
    return Price(monthly, per_hour)


def price_of_instance(kind: Mapping[str, Any] | None) -> Price | None:
    """The price of one instance of type ``kind`` (an entry of the types listing)."""
    return price_from(kind.get("price")) if kind else None


def price_of_backups(kind: Mapping[str, Any] | None) -> Price | None:
    """The backup service add-on of type ``kind`` (``addons.backups.price``)."""
    if not kind:
        return None
    addons = kind.get("addons")
    backups = addons.get("backups") if isinstance(addons, Mapping) else None
    return price_from(backups.get("price")) if isinstance(backups, Mapping) else None


def price_of_pool(kind: Mapping[str, Any] | None, count: int) -> Price | None:
    """A Kubernetes node pool: ``count`` nodes of type ``kind``."""
    each = price_of_instance(kind)
    return each.times(count) if each is not None and count >= 0 else None


def price_of_database(database: Mapping[str, Any] | None) -> Price | None:
    """A database's price when its record carries one (the reference lists none)."""
    return price_from(database.get("price")) if database else None


def price_of_volume(volume: Mapping[str, Any] | None) -> Price | None:
    """A volume's price when its record carries one (the reference lists none)."""
    return price_from(volume.get("price")) if volume else None


def price_of_balancer(balancer: Mapping[str, Any] | None) -> Price | None:
    """A load balancer's price when its record carries one (the reference lists none)."""
    return price_from(balancer.get("price")) if balancer else None


def total(prices: Iterable[Price | None]) -> tuple[Price, int]:
    """The sum of the prices given, and how many were not given.

    Returns:
        ``(sum, missing)``: an overview says "+ N without a price" rather than hide them.
    """
    out = Price(0.0, 0.0)
    missing = 0
    for price in prices:
        if price is None:
            missing += 1
        else:
            out = out + price
    return out, missing


@dataclass(frozen=True)
class QuoteLine:
    """One part of what a request costs.

    Attributes:
        what: What is priced ("Instance std-2", "Backups add-on", "pool 2: 3 x std-4").
        price: Its price, or why there is none.
    """

    what: str
    price: Price | Missing

    def text(self) -> str:
        """``what: $24.00/month ($0.0329/hour)`` or ``what: price not given (...)``."""
        return f"{self.what}: {self.price.text()}"


@dataclass(frozen=True)
class Quote:
    """What a request will cost, line by line.

    Attributes:
        lines: The priced parts.
        before: The price of what is replaced (a resize's old type), if any.
    """

    lines: tuple[QuoteLine, ...]
    before: Price | Missing | None = None

    @property
    def total(self) -> Price | None:
        """The sum of the lines, or None when any line has no price."""
        if not self.lines or any(isinstance(line.price, Missing) for line in self.lines):
            return None
        out = Price(0.0, 0.0)
        for line in self.lines:
            assert isinstance(line.price, Price)
            out = out + line.price
        return out

    @property
    def difference(self) -> Price | None:
        """New total minus :attr:`before` (None unless both are known)."""
        after = self.total
        if after is None or not isinstance(self.before, Price):
            return None
        return after - self.before

    def text_lines(self) -> list[str]:
        """Every line in words, then the total (when there are several) or the change."""
        out = [line.text() for line in self.lines]
        after = self.total
        if self.before is not None:
            old = self.before.text()
            new = after.text() if after is not None else NOT_GIVEN
            out.append(f"Old -> new: {old} -> {new}")
            diff = self.difference
            out.append(f"Difference: {diff.text(signed=True) if diff else NOT_GIVEN}")
        elif len(self.lines) > 1:
            out.append(
                f"Total: {after.text() if after is not None else NOT_GIVEN + ' for every part'}"
            )
        return out

    def text(self) -> str:
        """:meth:`text_lines` joined by newlines."""
        return "\n".join(self.text_lines())


def _line(what: str, price: Price | None, reason: str) -> QuoteLine:
    return QuoteLine(what, price if price is not None else Missing(reason))


def instance_quote(
    kind: Mapping[str, Any] | None,
    type_id: str,
    *,
    backups: bool = False,
    count: int = 1,
    pool: str = "",
) -> Quote:
    """What ``count`` instances of type ``type_id`` cost, with backups if enabled.

    Args:
        kind: The type's entry in the types listing (None when not found).
        type_id: The type's id (named in the lines).
        backups: The backup service is enabled.
        count: Number of instances (nodes of a pool).
        pool: The node pool they make up (``pool 2``, ``new pool``): named in the line as
            ``pool 2: 3 x std-2``, so a cluster's lines say which pool each is.
    """
    unknown = f"type {type_id} is not in the types listing"
    base = price_of_instance(kind)
    what = f"{pool}: {count} x {type_id}" if pool else f"Instance {type_id}"
    if not pool and count != 1:
        what = f"{count} x {type_id}"
    lines = [_line(what, base.times(count) if base else None, unknown if not kind else "")]
    if backups:
        addon = price_of_backups(kind)
        lines.append(
            _line(
                "Backups add-on" if count == 1 else f"Backups add-on x {count}",
                addon.times(count) if addon else None,
                unknown if not kind else "the type lists no backups add-on",
            )
        )
    return Quote(tuple(lines))


@dataclass(frozen=True)
class ResizeDiff:
    """A resize's price change.

    Attributes:
        old: The current type's price (with the add-on when backups are on).
        new: The new type's price (likewise).
    """

    old: Price | None
    new: Price | None

    @property
    def difference(self) -> Price | None:
        """``new - old`` (None unless both are known)."""
        if self.old is None or self.new is None:
            return None
        return self.new - self.old


def resize_diff(
    old: Mapping[str, Any] | None, new: Mapping[str, Any] | None, *, backups: bool = False
) -> ResizeDiff:
    """Old and new price of a resize from type ``old`` to type ``new``.

    Args:
        old: The current type's entry in the types listing.
        new: The new type's entry.
        backups: The instance has backups enabled: the add-on follows the type.
    """

    def with_addon(kind: Mapping[str, Any] | None) -> Price | None:
        base = price_of_instance(kind)
        if base is None or not backups:
            return base
        addon = price_of_backups(kind)
        return base + addon if addon is not None else None

    return ResizeDiff(with_addon(old), with_addon(new))


def resize_quote(
    old: Mapping[str, Any] | None,
    new: Mapping[str, Any] | None,
    new_id: str,
    *,
    old_id: str = "",
    backups: bool = False,
) -> Quote:
    """A resize as a :class:`Quote`: the new type's lines, and the old price to compare."""
    quote = instance_quote(new, new_id, backups=backups)
    diff = resize_diff(old, new, backups=backups)
    before: Price | Missing = (
        diff.old
        if diff.old is not None
        else Missing(f"type {old_id or 'current'} is not in the types listing")
    )
    return Quote(quote.lines, before=before)


def types_by_id(types: Iterable[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """The types listing keyed by id."""
    return {str(t.get("id")): t for t in types if t.get("id") is not None}
