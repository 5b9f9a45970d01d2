"""``:xray``: how objects hang together, as a tree expanded one level at a time (headless).

The levels of each tree are data (:data:`LEVELS`); a node's children are the objects of the next
level's kinds linked to it by any relation of the table, in either direction (a cluster's pools
are its parts, a balancer node's instance is what it sends traffic to, a config's disks and
volumes are what it uses). Expanding a node first fetches what the index lists only on demand
(an instance's configs and disks), so the tree costs nothing for the branches nobody opens.
"""

from __future__ import annotations

from dataclasses import dataclass

from tui.api.client import ApiClient
from tui.relations.graph import Ref, natural
from tui.relations.index import RelationIndex

LEVELS: dict[str, tuple[tuple[str, ...], ...]] = {
    "k8s": (("k8s.clusters",), ("k8s.pools",), ("k8s.nodes",), ("compute.instances",)),
    "loadbalancers": (
        ("loadbalancers",),
        ("loadbalancers.configs",),
        ("loadbalancers.nodes",),
        ("compute.instances",),
    ),
    "compute": (("compute.instances",), ("compute.configs",), ("compute.disks", "volumes")),
}
"""Each tree's levels, top first: the kinds shown at each depth."""

ALIASES: dict[str, str] = {
    "clusters": "k8s",
    "kubernetes": "k8s",
    "k8s.clusters": "k8s",
    "lb": "loadbalancers",
    "balancers": "loadbalancers",
    "instances": "compute",
    "compute.instances": "compute",
}
"""Other words ``:xray`` accepts for a tree."""


OFFERED = ("clusters", "balancers", "instances")
"""The words ``:xray`` completes to, one per tree."""


def complete_xray(text: str) -> list[str]:
    """Completions of a partial ``:xray WORD`` (none for any other command)."""
    word, space, rest = text.lstrip().lstrip(":").lower().partition(" ")
    if word != "xray" or not space:
        return []
    return [f"xray {name}" for name in OFFERED if name.startswith(rest.strip())]


def tree_name(word: str) -> str | None:
    """The tree ``:xray WORD`` means, or None for a word that names none."""
    word = word.strip().lower()
    if word in LEVELS:
        return word
    return ALIASES.get(word)


@dataclass(eq=False)
class XrayNode:
    """One line of the tree.

    Attributes:
        ref: The object (open it with ``ref.kind`` and ``ref.path_params()``).
        depth: 0 for the top level.
        expandable: Whether a level exists below it.
        children: Its children once expanded; None before.
        expanded: Whether its children are shown.
    """

    ref: Ref
    depth: int
    expandable: bool
    children: list[XrayNode] | None = None
    expanded: bool = False


class Xray:
    """A tree over the index; see the module docstring.

    Args:
        index: The relations index (built: :meth:`RelationIndex.build`).
        tree: A key of :data:`LEVELS` (``k8s``, ``loadbalancers``, ``compute``) or an alias.

    Raises:
        KeyError: ``tree`` names no tree.
    """

    def __init__(self, index: RelationIndex, tree: str) -> None:
        name = tree_name(tree)
        if name is None:
            raise KeyError(tree)
        self.name = name
        self.index = index
        self.levels = LEVELS[name]
        self.roots: list[XrayNode] = []
        self.reload()

    def reload(self) -> None:
        """Rebuild the tree from the index as it is now, keeping what was expanded open."""
        opened = {node.ref.key for node in self._walk(self.roots) if node.expanded}
        graph = self.index.graph
        refs = [e.ref for kind in self.levels[0] for e in graph.entries(kind)]
        self.roots = [self._node(ref, 0) for ref in sorted(refs, key=_order)]
        pending = list(self.roots)
        while pending:
            node = pending.pop()
            if node.ref.key in opened and node.expandable:
                node.children = self._children(node)
                node.expanded = True
                pending.extend(node.children)

    async def expand(self, node: XrayNode, client: ApiClient | None = None) -> list[XrayNode]:
        """Show ``node``'s children, fetching what the index lists only on demand first.

        Args:
            node: A node of this tree.
            client: The API client; None to use only what the index holds.

        Returns:
            The children (empty for a leaf).
        """
        if not node.expandable:
            return []
        if client is not None:
            await self.index.ensure(client, node.ref)
        node.children = self._children(node)
        node.expanded = True
        return node.children

    def collapse(self, node: XrayNode) -> None:
        """Hide ``node``'s children (they stay loaded)."""
        node.expanded = False

    def rows(self) -> list[XrayNode]:
        """The visible lines, top to bottom: every root, and the children of expanded nodes."""
        return list(self._walk(self.roots, visible=True))

    def _node(self, ref: Ref, depth: int) -> XrayNode:
        return XrayNode(ref, depth, depth + 1 < len(self.levels))

    def _children(self, node: XrayNode) -> list[XrayNode]:
        kinds = self.levels[node.depth + 1]
        graph = self.index.graph
        found: dict[object, Ref] = {}
        for link in graph.links_out(node.ref.key):
            if link.target[0] in kinds and (entry := graph.at(link.target)) is not None:
                found[entry.key] = entry.ref
        for link in graph.links_in(node.ref.key):
            if link.source[0] in kinds and (entry := graph.at(link.source)) is not None:
                found[entry.key] = entry.ref
        refs = sorted(found.values(), key=lambda r: (kinds.index(r.kind), *_order(r)))
        return [self._node(ref, node.depth + 1) for ref in refs]

    def _walk(self, nodes: list[XrayNode], *, visible: bool = False) -> list[XrayNode]:
        out: list[XrayNode] = []
        stack = list(reversed(nodes))
        while stack:
            node = stack.pop()
            out.append(node)
            if node.children and (node.expanded or not visible):
                stack.extend(reversed(node.children))
        return out


def _order(ref: Ref) -> tuple[tuple[tuple[int, int, str], ...], str]:
    return natural(ref.label), str(ref.id)
