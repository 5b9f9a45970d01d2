"""What the relations index answers, as plain data a screen shows (headless).

Every label and value in them went through :func:`~tui.untrusted.shown`; phrases are our text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tui.relations.graph import Ref
from tui.untrusted import Shown


@dataclass(frozen=True)
class Related:
    """One row of a Relations tab: the other object and how it is related.

    Attributes:
        relation: Name of the relation (``dns_address``).
        phrase: The link in words, seen from the object asked about (``points at``,
            ``DNS record pointing at it``): our text.
        other: The other object (open it with ``other.kind`` and ``other.path_params()``).
        via: The values that matched (an address, ``ip:port``), shown; '' for a part.
        direction: ``uses`` (the object uses ``other``) or ``used_by``.
    """

    relation: str
    phrase: str
    other: Ref
    via: Shown
    direction: Literal["uses", "used_by"]


@dataclass(frozen=True)
class Relations:
    """What an object uses and what uses it.

    Attributes:
        subject: The object asked about (None when the index does not hold it).
        uses: What it uses (its parts, what it points at), in the relations table's order.
        used_by: What uses it.
        addresses: Its own addresses that records may point at (an instance's IPv4 and IPv6,
            a balancer's), shown.
    """

    subject: Ref | None
    uses: tuple[Related, ...] = ()
    used_by: tuple[Related, ...] = ()
    addresses: tuple[Shown, ...] = ()


@dataclass(frozen=True)
class Dangling:
    """An object pointing at something no object of the account owns.

    Attributes:
        source: The object (a DNS record, a balancer node).
        family: The relation family (``dns_address``, ``balancer_backend``).
        values: What it points at (shown).
        text: One sentence saying so.
    """

    source: Ref
    family: str
    values: tuple[Shown, ...]
    text: Shown
