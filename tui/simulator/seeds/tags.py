"""Demo tags: ``production`` and ``team:[ops]`` across kinds (when those areas seeded objects), a
non-ASCII tag, and one explicit tag that nothing carries yet."""

from __future__ import annotations

from typing import Any

from tui.simulator.context import SeedContext
from tui.simulator.handlers.tags import KINDS, TAGS, Kind, objects_of, tags_of
from tui.simulator.registry import seeder

EXPLICIT = ("team:[ops]", "decommission-2027")
"""Tags created explicitly; the second is on no object."""


def _tag(ctx: SeedContext, kind: Kind, record: dict[str, Any], label: str) -> None:
    tags = tags_of(record)
    if label not in tags:
        record["tags"] = [*tags, label]
        ctx.store.put(kind.table, record["id"], record)


@seeder("tags", order=90)
def seed_tags(ctx: SeedContext) -> None:
    """Tag the first objects of each kind; create the explicit tags."""
    by_type = {kind.type: (kind, objects_of(ctx.store, kind)) for kind in KINDS}
    plan = {
        "compute": [(0, "production"), (1, "production"), (0, "team:[ops]"), (2, "équipe-nord")],
        "domain": [(0, "production"), (1, "équipe-nord")],
        "volume": [(0, "production"), (1, "team:[ops]")],
        "loadbalancer": [(0, "team:[ops]"), (0, "production")],
    }
    for type_name, entries in plan.items():
        kind, rows = by_type[type_name]
        for index, label in entries:
            if index < len(rows):
                _tag(ctx, kind, rows[index], label)
    for label in EXPLICIT:
        ctx.store.put(TAGS, label, {"label": label})
