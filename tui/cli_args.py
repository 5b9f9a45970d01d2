"""The command line's argparse pieces: a parser that refuses a bad command line in one line, and
number flags that check their range and name it in their help (see ``tui/__main__.py``)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any, NoReturn

EXIT_USAGE = 2
"""Exit status of a command line that cannot be used."""


class Parser(argparse.ArgumentParser):
    """Refuses a bad command line with one line (argparse prints the whole usage first), and
    names the range of every range-checked flag in its help."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see: {self.prog} --help)\n")

    def add_argument(self, *name_or_flags: str, **kwargs: Any) -> argparse.Action:
        kind = kwargs.get("type")
        if isinstance(kind, Range):
            # Here, not in each flag's text: a new range-checked flag cannot forget it.
            kwargs["help"] = kind.in_help(kwargs.get("help"))
        return super().add_argument(*name_or_flags, **kwargs)


class Range:
    """An argparse type: a number of ``kind`` between ``low`` and ``high`` (None: no limit).

    Attributes:
        span: The range in words (``from 0 to 60 seconds``), in the flag's help and in the
            message refusing a value outside it.
    """

    def __init__(
        self, kind: type[int] | type[float], low: float, high: float | None, unit: str = ""
    ) -> None:
        self.kind = kind
        self.low = low
        self.high = high
        suffix = f" {unit}" if unit else ""
        bounds = f"from {low:g} to {high:g}" if high is not None else f"at least {low:g}"
        self.span = bounds + suffix
        self.what = "a whole number" if kind is int else "a number"
        self.__name__ = self.what  # argparse names the type in some messages

    def __call__(self, text: str) -> int | float:
        try:
            value = self.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {self.what}") from None
        if not math.isfinite(value):  # nan passes every comparison
            raise argparse.ArgumentTypeError(f"{text!r} is not {self.what}")
        if value < self.low or (self.high is not None and value > self.high):
            raise argparse.ArgumentTypeError(f"{text} is out of range: {self.span}")
        return value

    def in_help(self, text: str | None) -> str:
        """A flag's help naming this range before its default: ``..., from 0 to 1 (default:
        0)`` (unchanged when it names the range already)."""
        text = text or ""
        if self.span in text:
            return text
        head, default, rest = text.partition(" (default: ")
        return f"{head}, {self.span}{default}{rest}" if head else self.span


def number(
    kind: type[int] | type[float], low: float, high: float | None, unit: str = ""
) -> Callable[[str], int | float]:
    """An argparse type: a number of ``kind`` between ``low`` and ``high`` (None: no limit);
    a flag of this type names the range in its help."""
    return Range(kind, low, high, unit)
