"""Relations between objects: what uses what, what a delete breaks, and the ``:xray`` trees.

One table says how kinds connect (:mod:`tui.relations.table`, matched by the small functions
of :mod:`tui.relations.matchers`); :class:`RelationIndex` holds the objects the app lists and
the links between them, updated object by object; :func:`impact` turns the links of what an
action removes into sentences and clean-up requests; :class:`Xray` shows the links as trees.
Headless: plain dicts in, dataclasses with shown text out.
"""

from tui.relations.answers import Dangling, Related, Relations
from tui.relations.graph import Ref
from tui.relations.impact import (
    CleanupRequest,
    CleanupResult,
    Finding,
    Impact,
    action_of,
    impact,
    run_cleanup,
)
from tui.relations.index import RelationIndex
from tui.relations.xray import Xray, XrayNode, tree_name

__all__ = [
    "CleanupRequest",
    "CleanupResult",
    "Dangling",
    "Finding",
    "Impact",
    "Ref",
    "Related",
    "RelationIndex",
    "Relations",
    "Xray",
    "XrayNode",
    "action_of",
    "impact",
    "run_cleanup",
    "tree_name",
]
