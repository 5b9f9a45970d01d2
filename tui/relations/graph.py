"""The objects and their links, kept up to date one object at a time (headless, no I/O).

:class:`Graph` holds every object the index knows (an :class:`Entry`: kind, id, row, parent)
and the links the relations table makes between them. Putting an object computes its keys once
per *side* (a kind, the paths read and the key function; relations that read the same side
share it: an instance's addresses serve DNS records, balancer nodes and allow lists alike) and
relinks it only when those keys changed; removing one drops its links and its descendants. So a
refresh that changes three rows of 10,000 relinks three objects.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tui.relations.kinds import KINDS, LABELS, Kind
from tui.relations.matchers import MATCHERS, Key, KeyFunction, Matcher, same_id
from tui.relations.paths import fill, values_at
from tui.relations.table import RELATIONS, Relation
from tui.untrusted import Shown, shown

ObjKey = tuple[str, Hashable]
"""``(kind, id)``: one object among all of every kind."""

_DIGITS = re.compile(r"(\d+)")


def natural(text: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key reading numbers as numbers (port 80 before port 443, digits before letters)."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in _DIGITS.split(text.lower())
        if part
    )


def entry_order(entry: Entry) -> tuple[tuple[tuple[int, int, str], ...], str]:
    """Objects in a stable order for answers and sentences: by label, then id."""
    return natural(entry.label), str(entry.ident)


Side = Literal["source", "target"]


@dataclass(frozen=True)
class Ref:
    """An object as answers name it: enough for a UI row to show it and open it.

    Two refs are equal when kind and id are; label, noun and parameters come along.

    Attributes:
        kind: Id of the ResourceSpec that opens it (``compute.instances``).
        id: Its id (an integer, a node's text id, ``cluster/label`` for a bucket).
        label: Its display label (already through :func:`~tui.untrusted.shown`).
        noun: What one of its kind is called (``DNS record``).
        params: Path parameters of its view (``(("domainId", 1), ("recordId", 7))``).
    """

    kind: str
    id: Any
    label: Shown = field(compare=False)
    noun: str = field(compare=False, default="")
    params: tuple[tuple[str, Any], ...] = field(compare=False, default=())

    @property
    def key(self) -> ObjKey:
        """``(kind, id)``."""
        return (self.kind, self.id)

    def path_params(self) -> dict[str, Any]:
        """The path parameters as a dict, ready for ``ApiClient.call``."""
        return dict(self.params)


class Entry:
    """One object: its kind, id, row and parent; its label and ref are computed on demand."""

    __slots__ = ("_label", "_ref", "ident", "kind", "parent", "row")

    def __init__(self, kind: Kind, ident: Any, row: Mapping[str, Any], parent: Entry | None):
        self.kind = kind
        self.ident = ident
        self.row = row
        self.parent = parent
        self._label: Shown | None = None
        self._ref: Ref | None = None

    @property
    def key(self) -> ObjKey:
        """``(kind, id)``."""
        return (self.kind.name, self.ident)

    @property
    def label(self) -> Shown:
        """Display label: the kind's template (or label function), else ``<noun> <id>``."""
        if self._label is None:
            template = self.kind.label
            text = LABELS[template[1:]](self) if template.startswith("@") else fill(template, self)
            self._label = shown(text.strip() or f"{self.kind.singular} {self.ident}")
        return self._label

    @property
    def ref(self) -> Ref:
        """The object as answers name it."""
        if self._ref is None:
            params = tuple(self.kind.path_params(self).items())
            self._ref = Ref(self.kind.name, self.ident, self.label, self.kind.singular, params)
        return self._ref

    def forget_names(self) -> None:
        """Drop the cached label and ref (the row, or a parent's, changed)."""
        self._label = None
        self._ref = None


@dataclass(frozen=True)
class Link:
    """The source uses the target along a relation.

    Attributes:
        relation: The row of the relations table.
        source: The object holding the reference.
        target: The object referred to.
        values: The source's values that matched (an address, an ``ip:port``); empty for a
            parent and its part.
    """

    relation: Relation
    source: ObjKey
    target: ObjKey
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Signature:
    kind: str
    paths: tuple[str, ...]
    key: KeyFunction
    when: tuple[tuple[str, frozenset[str]], ...]


class _KeyMap:
    """The keys of every object on one side, and the objects of every key."""

    __slots__ = ("by_key", "keys_of")

    def __init__(self) -> None:
        self.keys_of: dict[ObjKey, tuple[tuple[Key, str], ...]] = {}
        self.by_key: dict[Key, set[ObjKey]] = {}

    def put(self, obj: ObjKey, keys: tuple[tuple[Key, str], ...]) -> bool:
        """Record ``obj``'s keys; True when they changed."""
        old = self.keys_of.get(obj, ())
        if old == keys:
            return False
        self.drop(obj)
        if keys:
            self.keys_of[obj] = keys
            for key, _raw in keys:
                self.by_key.setdefault(key, set()).add(obj)
        return True

    def drop(self, obj: ObjKey) -> None:
        """Forget ``obj``'s keys."""
        for key, _raw in self.keys_of.pop(obj, ()):
            holders = self.by_key.get(key)
            if holders is not None:
                holders.discard(obj)
                if not holders:
                    del self.by_key[key]


def _signature(relation: Relation, side: Side) -> _Signature:
    matcher = MATCHERS[relation.match]
    if side == "source":
        return _Signature(
            relation.source, relation.source_paths, matcher.source_key, relation.source_when
        )
    return _Signature(relation.target, relation.target_paths, matcher.target_key, ())


def _keys(entry: Entry, sig: _Signature) -> tuple[tuple[Key, str], ...]:
    for name, allowed in sig.when:
        if entry.row.get(name) not in allowed:
            return ()
    found: list[tuple[Key, str]] = []
    for path in sig.paths:
        for value in values_at(entry, path):
            key = sig.key(value)
            if key is not None:
                # Text values (an address, ip:port) say how the link was made; ids say nothing.
                found.append((key, value if isinstance(value, str) else ""))
    return tuple(found) if len(found) < 2 else tuple(dict.fromkeys(found))


class Graph:
    """Objects and links; see the module docstring.

    Args:
        kinds: The kinds table.
        relations: The relations table.
    """

    def __init__(
        self, kinds: Iterable[Kind] = KINDS, relations: Iterable[Relation] = RELATIONS
    ) -> None:
        self.kinds = {kind.name: kind for kind in kinds}
        self.relations = tuple(relations)
        self._entries: dict[ObjKey, Entry] = {}
        self._of_kind: dict[str, dict[Hashable, Entry]] = {name: {} for name in self.kinds}
        self._children: dict[ObjKey, set[ObjKey]] = {}
        self._out: dict[ObjKey, dict[tuple[str, ObjKey], Link]] = {}
        self._in: dict[ObjKey, dict[tuple[str, ObjKey], Link]] = {}
        maps: dict[_Signature, _KeyMap] = {}
        self._side: dict[tuple[str, Side], _KeyMap] = {}
        """(relation, side) -> the key map of that side (shared by relations reading alike)."""
        self._uses: dict[str, dict[_Signature, list[tuple[Relation, Side]]]] = {}
        self._maps: dict[_Signature, _KeyMap] = maps
        self._parts: dict[tuple[str, str], list[Relation]] = {}
        for relation in self.relations:
            if MATCHERS[relation.match].structural:
                self._parts.setdefault((relation.source, relation.target), []).append(relation)
                continue
            for side in ("source", "target"):
                sig = _signature(relation, side)
                self._side[(relation.name, side)] = maps.setdefault(sig, _KeyMap())
                plan = self._uses.setdefault(sig.kind, {}).setdefault(sig, [])
                plan.append((relation, side))

    # -- objects ----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, kind: str, ident: Any) -> Entry | None:
        """The object of ``kind`` with id ``ident`` (``"51200"`` finds ``51200``), or None."""
        found = self._of_kind.get(kind, {})
        entry = found.get(ident)
        if entry is None and isinstance(ident, str):
            entry = found.get(same_id(ident))
        return entry

    def at(self, key: ObjKey) -> Entry | None:
        """The object with ``key``, or None."""
        return self._entries.get(key)

    def entries(self, kind: str) -> Iterator[Entry]:
        """Every object of ``kind``."""
        return iter(list(self._of_kind.get(kind, {}).values()))

    def children(self, key: ObjKey) -> set[ObjKey]:
        """The objects listed under ``key`` (an instance's configs, a pool's nodes)."""
        return set(self._children.get(key, ()))

    def put(self, kind: Kind, row: Mapping[str, Any], parent: Entry | None = None) -> Entry | None:
        """Add or update one object and relink it where its keys changed.

        Args:
            kind: Its kind.
            row: The object as the API returned it.
            parent: The object it is listed under, for a child kind.

        Returns:
            The entry, or None when the row has no id.
        """
        ident = kind.ident(row)
        if ident is None:
            return None
        key = (kind.name, ident)
        entry = self._entries.get(key)
        fresh = entry is None
        if entry is None:
            entry = Entry(kind, ident, row, parent)
            self._entries[key] = entry
            self._of_kind.setdefault(kind.name, {})[ident] = entry
            if parent is not None:
                self._children.setdefault(parent.key, set()).add(key)
                for relation in self._parts.get((parent.kind.name, kind.name), ()):
                    self._link(relation, parent.key, key, "")
        else:
            if row is not entry.row and row == entry.row:
                entry.row = row  # unchanged (a refresh's new copy): nothing to relink
                return entry
            entry.row = row
            entry.forget_names()
            for child in self._children.get(key, ()):
                found = self._entries.get(child)
                if found is not None:
                    found.forget_names()  # a record's label names its domain
        for sig, plan in self._uses.get(kind.name, {}).items():
            if self._maps[sig].put(key, _keys(entry, sig)):
                for relation, side in plan:
                    self._relink(entry, relation, side, fresh)
        return entry

    def remove(self, key: ObjKey) -> list[ObjKey]:
        """Remove an object, its descendants and all their links.

        Returns:
            The keys removed (the object first).
        """
        gone: list[ObjKey] = []
        seen: set[ObjKey] = set()
        stack = [key]
        while stack:
            current = stack.pop()
            if current in self._entries and current not in seen:
                seen.add(current)
                gone.append(current)
                stack.extend(self._children.get(current, ()))
        for current in reversed(gone):
            entry = self._entries.pop(current)
            self._of_kind[entry.kind.name].pop(entry.ident, None)
            self._children.pop(current, None)
            if entry.parent is not None:
                self._children.get(entry.parent.key, set()).discard(current)
            for sig in self._uses.get(entry.kind.name, {}):
                self._maps[sig].drop(current)
            for link in [*self._out.pop(current, {}).values(), *self._in.pop(current, {}).values()]:
                self._unlink(link)
        return gone

    # -- links ------------------------------------------------------------------------------

    def values_of(self, key: ObjKey, relation: Relation, side: Side) -> tuple[str, ...]:
        """The values ``key`` shows on one side of a relation (an instance's addresses)."""
        return tuple(raw for _key, raw in self._side[(relation.name, side)].keys_of.get(key, ()))

    def links_out(self, key: ObjKey) -> list[Link]:
        """Links where ``key`` is the source (what it uses)."""
        return list(self._out.get(key, {}).values())

    def links_in(self, key: ObjKey) -> list[Link]:
        """Links where ``key`` is the target (what uses it)."""
        return list(self._in.get(key, {}).values())

    def cascade(self, keys: Iterable[ObjKey]) -> dict[ObjKey, ObjKey]:
        """Everything deleting ``keys`` deletes too, along the ``cascade`` effects.

        Returns:
            Each object deleted (``keys`` included) -> the one of ``keys`` it goes with.
        """
        doomed: dict[ObjKey, ObjKey] = {}
        stack = [(key, key) for key in keys if key in self._entries]
        while stack:
            key, cause = stack.pop()
            if key in doomed:
                continue
            doomed[key] = cause
            for link in self._out.get(key, {}).values():
                effect = link.relation.if_source_deleted
                if effect is not None and effect.kind == "cascade":
                    stack.append((link.target, cause))
            for link in self._in.get(key, {}).values():
                effect = link.relation.if_target_deleted
                if effect is not None and effect.kind == "cascade":
                    stack.append((link.source, cause))
        return doomed

    def dangling(self, family: str | None = None) -> list[tuple[Entry, Relation, tuple[str, ...]]]:
        """Sources that point at nothing the account owns, by relation family.

        Args:
            family: Only this family (``dns_address``, ``balancer_backend``); None: all.

        Returns:
            ``(source, relation, values)`` for each dangling source of a family whose
            relations are marked ``dangling``.
        """
        families: dict[str, list[Relation]] = {}
        for relation in self.relations:
            if relation.dangling and family in (None, relation.family):
                families.setdefault(relation.family, []).append(relation)
        found: list[tuple[Entry, Relation, tuple[str, ...]]] = []
        for relations in families.values():
            names = {r.name for r in relations}
            first = relations[0]
            keymap = self._side[(first.name, "source")]
            for obj, keys in keymap.keys_of.items():
                if any(name in names for name, _target in self._out.get(obj, {})):
                    continue
                entry = self._entries.get(obj)
                if entry is not None:
                    found.append((entry, first, tuple(raw for _key, raw in keys)))
        return found

    def owners(self, value: str, family: str) -> list[Entry]:
        """The objects a source value of ``family`` would point at (who owns an address)."""
        found: dict[ObjKey, Entry] = {}
        for relation in self.relations:
            if relation.family != family or MATCHERS[relation.match].structural:
                continue
            matcher = MATCHERS[relation.match]
            key = matcher.source_key(value)
            if key is None:
                continue
            targets = self._side[(relation.name, "target")]
            for obj in _targets(matcher, key, targets):
                entry = self._entries.get(obj)
                if entry is not None:
                    found[obj] = entry
        return list(found.values())

    def _relink(self, entry: Entry, relation: Relation, side: Side, fresh: bool = False) -> None:
        """Remake ``entry``'s links along ``relation`` on ``side`` from the key maps."""
        mine = self._out if side == "source" else self._in
        if not fresh:  # a new object has no links to drop
            for (name, _other), link in list(mine.get(entry.key, {}).items()):
                if name == relation.name:
                    self._unlink(link)
        other = self._side[(relation.name, "target" if side == "source" else "source")]
        if not other.by_key:
            return  # nothing on the other side yet (no Kubernetes node, no database)
        matcher = MATCHERS[relation.match]
        own = self._side[(relation.name, side)].keys_of.get(entry.key, ())
        if side == "source":
            targets = other
            for key, raw in own:
                for target in _targets(matcher, key, targets):
                    self._link(relation, entry.key, target, raw)
        else:
            sources = other
            for key, _raw in own:
                for source, raw in _sources(matcher, key, sources):
                    self._link(relation, source, entry.key, raw)

    def _link(self, relation: Relation, source: ObjKey, target: ObjKey, raw: str) -> None:
        out = self._out.setdefault(source, {})
        old = out.get((relation.name, target))
        values = old.values if old is not None else ()
        if raw and raw not in values:
            values = (*values, raw)
        link = Link(relation, source, target, values)
        out[(relation.name, target)] = link
        self._in.setdefault(target, {})[(relation.name, source)] = link

    def _unlink(self, link: Link) -> None:
        self._out.get(link.source, {}).pop((link.relation.name, link.target), None)
        self._in.get(link.target, {}).pop((link.relation.name, link.source), None)


def _targets(matcher: Matcher, key: Key, targets: _KeyMap) -> list[ObjKey]:
    """Targets whose keys match the source key ``key``."""
    if matcher.covers is None:
        return list(targets.by_key.get(key, ()))
    exact = matcher.exact(key) if matcher.exact is not None else None
    if exact is not None:
        return list(targets.by_key.get(exact, ()))
    covers = matcher.covers
    return [obj for other, objs in targets.by_key.items() if covers(key, other) for obj in objs]


def _sources(matcher: Matcher, key: Key, sources: _KeyMap) -> list[tuple[ObjKey, str]]:
    """Sources whose keys match the target key ``key``, each with its value that matched."""
    covers = matcher.covers
    found: list[tuple[ObjKey, str]] = []
    for skey, objs in (
        [(key, sources.by_key.get(key, set()))]
        if covers is None
        else [(k, o) for k, o in sources.by_key.items() if covers(k, key)]
    ):
        for obj in objs:
            found.extend((obj, raw) for k, raw in sources.keys_of.get(obj, ()) if k == skey)
    return found
