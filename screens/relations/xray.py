"""``:xray AREA``: how the objects of an area hang together, as a tree opened from the keyboard.

The levels of each tree are data (:data:`tui.relations.xray.LEVELS`: clusters, pools, nodes,
instances; balancers, ports, nodes, instances; instances, configs, disks and volumes). A node's
children are fetched when it is first expanded (an instance's configs and disks cost requests,
so only the branches opened do); enter opens the object of the node.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | xray.open | Open the object of the node |
| space | xray.toggle | Expand or collapse the node |
| right, l | xray.expand | Expand the node |
| left, h | xray.collapse | Collapse the node (on a leaf or a closed node: go to its parent) |
| r | xray.refresh | List the relations again and redraw the tree |
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from screens.frame import ShellScreen
from screens.relations.loading import cache_of, open_ref, ready_index
from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.relations.index import RelationIndex
from tui.relations.xray import Xray, XrayNode, tree_name
from tui.untrusted import Shown, shown

TITLES: dict[str, str] = {
    "k8s": "Kubernetes clusters, their pools, nodes and instances",
    "loadbalancers": "Load balancers, their ports, nodes and instances",
    "compute": "Instances, their configs, disks and volumes",
}
"""What each tree shows, for its title line."""

USAGE = "xray clusters | balancers | instances"
"""What ``:xray`` takes (said when the word names no tree)."""


def node_label(node: XrayNode) -> Text:
    """``instance web-prod-1``: the kind in words, then the object's label (never markup)."""
    text = Text(shown(node.ref.noun), style="dim")
    text.append(" ")
    text.append(node.ref.label)
    return text


class XrayTree(Tree[XrayNode]):
    """The tree, with keys that expand, collapse and open (enter opens, never toggles)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open", id="xray.open"),
        Binding("space", "toggle_node", "Expand", id="xray.toggle"),
        Binding("right,l", "expand_here", "Expand", show=False, id="xray.expand"),
        Binding("left,h", "collapse_here", "Collapse", show=False, id="xray.collapse"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("xray"), id=id)
        self.show_root = False
        self.auto_expand = False  # enter opens the object; space and right expand

    def action_expand_here(self) -> None:
        """Expand the node under the cursor."""
        node = self.cursor_node
        if node is not None and node.allow_expand and not node.is_expanded:
            node.expand()

    def action_collapse_here(self) -> None:
        """Collapse the node under the cursor, or go up to its parent."""
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)


class XrayScreen(ShellScreen):
    """One ``:xray`` tree; see the module docstring.

    Args:
        tree: A key of :data:`~tui.relations.xray.LEVELS`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh_tree", "Refresh", id="xray.refresh"),
    ]

    DEFAULT_CSS = """
    XrayScreen #xray-title { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    XrayScreen #xray-status { height: auto; padding: 0 1; color: $text-muted; }
    XrayScreen XrayTree { height: 1fr; }
    """

    def __init__(self, tree: str) -> None:
        super().__init__()
        self.tree_name = tree
        self.xray: Xray | None = None
        self.status: Shown = ""

    def compose_content(self) -> ComposeResult:
        yield Static(Text(f"xray: {TITLES[self.tree_name]}"), id="xray-title")
        yield Static(id="xray-status")
        yield XrayTree(id="xray-tree")

    @property
    def xray_tree(self) -> XrayTree:
        """The tree widget."""
        return self.query_one(XrayTree)

    def on_mount(self) -> None:
        self.xray_tree.focus()
        self._load()

    def _say(self, text: Shown) -> None:
        self.status = text
        self.query_one("#xray-status", Static).update(Text(text))

    @work(group="xray", exclusive=True, exit_on_error=False, name="loading the xray tree")
    async def _load(self, force: bool = False) -> None:
        found = cache_of(self)
        if found is None:
            return
        cache, session = found
        try:
            index = await ready_index(self, cache, session, self._say, force=force)
        except CloudError as error:
            self._say(describe_error(error))
            return
        self._show(index)

    def _show(self, index: RelationIndex) -> None:
        if self.xray is None:
            self.xray = Xray(index, self.tree_name)
        else:
            self.xray.reload()
        tree = self.xray_tree
        tree.clear()
        for node in self.xray.roots:
            self._add(tree.root, node)
        count = len(self.xray.roots)
        unread = len(index.failures)
        said = f"{count} at the top · space or right expands, enter opens"
        if unread:
            said += f" · {unread} listing(s) could not be read"
        self._say(said)

    def _add(self, parent: TreeNode[XrayNode], node: XrayNode) -> None:
        added = parent.add(node_label(node), data=node, allow_expand=node.expandable)
        if node.expanded and node.children:
            for child in node.children:
                self._add(added, child)
            added.expand()

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[XrayNode]) -> None:
        node = event.node
        if node.data is not None and not node.children:
            self._expand(node)

    def on_tree_node_collapsed(self, event: Tree.NodeCollapsed[XrayNode]) -> None:
        if event.node.data is not None and self.xray is not None:
            self.xray.collapse(event.node.data)

    @work(group="xray-expand", exit_on_error=False, name="expanding an xray node")
    async def _expand(self, tree_node: TreeNode[XrayNode]) -> None:
        found = cache_of(self)
        data = tree_node.data
        if found is None or data is None or self.xray is None:
            return
        _cache, session = found
        try:
            children = await self.xray.expand(data, session.client)
        except CloudError as error:
            self.app.notify(describe_error(error), title="xray", severity="warning", markup=False)
            return
        if tree_node.children:
            return  # expanded twice meanwhile
        for child in children:
            self._add(tree_node, child)
        if not children:
            tree_node.allow_expand = False
            self._say(shown(f"{data.ref.noun} {data.ref.label} has nothing below it"))

    def on_tree_node_selected(self, event: Tree.NodeSelected[XrayNode]) -> None:
        event.stop()
        data = event.node.data
        if data is None or self.xray is None or not open_ref(self, self.xray.index, data.ref):
            self.app.notify("Nothing to open here.", title="xray")

    def action_refresh_tree(self) -> None:
        """List the relations again and redraw the tree (what was open stays open)."""
        self._load(force=True)

    def refresh_all(self) -> None:
        """``:refresh``: as ``r``."""
        self.action_refresh_tree()

    def help_title(self) -> str:
        """What the help screen calls this screen."""
        return f"xray {self.tree_name}"


def open_xray(app: App[Any], argument: str) -> None:
    """Run ``:xray ARGUMENT``: push the tree it names, or say which words it takes."""
    name = tree_name(argument)
    if name is None:
        app.notify(f"Usage: :{USAGE}", title=":xray", severity="warning", markup=False)
        return
    app.push_screen(XrayScreen(name))
