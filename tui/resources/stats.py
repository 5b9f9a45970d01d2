"""Statistics and transfer as chartable series and summaries (headless).

The API gives series as ``[[timestamp_ms, value], ...]`` arrays (an instance's CPU; disk and
swap I/O; IPv4 and IPv6 traffic) or as ``[{x: timestamp_ms, y: value}, ...]`` (managed
statistics); which series an answer has is the spec's data (its ``charts``). This module picks
them out of an answer, summarises them (average, peak, latest) and does the month arithmetic
of the month picker, so the screens only draw.
"""

from __future__ import annotations

import calendar
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tui.resources.format import human_size, series_points
from tui.resources.spec import ChartSpec, dig
from tui.untrusted import Shown, shown


@dataclass(frozen=True)
class Series:
    """One metric over time.

    Attributes:
        name: Legend text.
        points: ``(epoch seconds, value)`` in time order.
    """

    name: Shown
    points: tuple[tuple[float, float], ...]

    @property
    def average(self) -> float | None:
        """Mean value (None when empty)."""
        if not self.points:
            return None
        return sum(v for _t, v in self.points) / len(self.points)

    @property
    def peak(self) -> float | None:
        """Largest value (None when empty)."""
        return max((v for _t, v in self.points), default=None)

    @property
    def latest(self) -> float | None:
        """Most recent value (None when empty)."""
        return self.points[-1][1] if self.points else None


@dataclass(frozen=True)
class Chart:
    """A chart: a title, a unit and the series drawn together."""

    title: Shown
    unit: Shown
    series: tuple[Series, ...]

    @property
    def empty(self) -> bool:
        """True when no series has a point."""
        return not any(s.points for s in self.series)


def charts_of(stats: Mapping[str, Any], layout: Sequence[ChartSpec]) -> tuple[Chart, ...]:
    """Every chart of a statistics answer (charts with no data are kept, marked empty).

    Args:
        stats: The answer.
        layout: The charts to draw (a spec's :attr:`~tui.resources.spec.ResourceSpec.charts`).
    """
    return tuple(
        Chart(
            chart.title,
            chart.unit,
            tuple(
                Series(shown(legend), series_points(dig(stats, path)))
                for path, legend in chart.series
            ),
        )
        for chart in layout
    )


def human_rate(value: float | None, unit: Shown) -> Shown:
    """A compact number with its unit: ``12.5 %``, ``3.4 Mbit/s``, ``120 blocks/s``."""
    if value is None:
        return "—"
    if unit == "bits/s":
        for factor, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
            if abs(value) >= factor:
                return f"{value / factor:.1f} {prefix}bit/s"
        return f"{value:.0f} bit/s"
    if unit == "%":
        return f"{value:.1f} %"
    return f"{value:.0f} {unit}"


TICK_STEPS = (1, 2, 3, 5, 6, 10, 12, 15, 20, 24, 25, 50, 100)
"""Steps between axis ticks that read well for days and hours."""


def axis_ticks(lo: int, hi: int, most: int = 8) -> list[int]:
    """Whole-number ticks for an axis of days or hours (``1 5 10 … 30``, ``-24 -18 … 0``).

    Charts would otherwise label a day axis ``1.0 … 32.0``: days and hours are counted, so
    their ticks are integers on a round step, plus the axis's start.

    Args:
        lo: First value on the axis.
        hi: Last value on the axis.
        most: At most this many ticks besides ``lo``.

    Returns:
        Sorted ticks from ``lo`` to at most ``hi``.
    """
    span = max(1, hi - lo)
    step = next((s for s in TICK_STEPS if span / s <= most), TICK_STEPS[-1])
    first = -(-lo // step) * step  # the first multiple of step at or after lo
    return sorted({lo, *range(first, hi + 1, step)})


@dataclass(frozen=True)
class Month:
    """A calendar month (the month picker's state)."""

    year: int
    month: int

    def shift(self, delta: int) -> Month:
        """The month ``delta`` months later (earlier when negative)."""
        index = self.year * 12 + (self.month - 1) + delta
        return Month(index // 12, index % 12 + 1)

    @property
    def days(self) -> int:
        """Days in the month."""
        return calendar.monthrange(self.year, self.month)[1]

    def label(self) -> Shown:
        """``March 2026``."""
        return shown(datetime(self.year, self.month, 1, tzinfo=UTC).strftime("%B %Y"))

    @classmethod
    def of(cls, epoch: float) -> Month:
        """The month containing ``epoch`` (UTC)."""
        moment = datetime.fromtimestamp(epoch, UTC)
        return cls(moment.year, moment.month)

    def __le__(self, other: Month) -> bool:
        return (self.year, self.month) <= (other.year, other.month)

    def __lt__(self, other: Month) -> bool:
        return (self.year, self.month) < (other.year, other.month)


def clamp_month(month: Month, earliest: Month, latest: Month) -> Month:
    """``month`` kept within ``earliest..latest``."""
    if month < earliest:
        return earliest
    if latest < month:
        return latest
    return month


def transfer_usage(transfer: Mapping[str, Any]) -> tuple[float | None, Shown]:
    """Share of the quota used this month and a sentence about it.

    ``used`` is in bytes, ``quota`` and ``billable`` in GB (the reference's units).

    Returns:
        ``(fraction or None, text)``.
    """
    used = transfer.get("used")
    quota = transfer.get("quota")
    billable = transfer.get("billable")
    if not isinstance(used, int | float):
        return None, "No transfer figures."
    if not isinstance(quota, int | float) or quota <= 0:
        return None, f"{human_size(used)} used this month; no quota."
    fraction = used / 1024**3 / quota
    text = f"{human_size(used)} of {human_size(quota, 'gb')} used this month ({fraction:.1%})"
    if isinstance(billable, int | float) and billable > 0:
        text += f"; {human_size(billable, 'gb')} billable beyond the quota"
    return fraction, text + "."
