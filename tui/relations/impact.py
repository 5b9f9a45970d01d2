"""What an irreversible action will break, and the requests that clean up after it (headless).

:func:`impact` reads the graph: everything the targets take with them (the ``cascade`` effects:
an instance's configs, a cluster's pools, nodes and their instances), then every link from
what goes to what stays, and says in one sentence per finding what that link's effect is
(``2 DNS records point at 203.0.113.5 (www.example.com A, api.example.com A)``). Several
targets (a bulk delete) make one combined impact: a record deleted together with its instance
is not reported as broken. Each finding may carry clean-up requests, to be sent only after the
action succeeded (:func:`run_cleanup`), and a request to send *instead* (recycle a node rather
than delete its instance).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tui.api.changes import change_target
from tui.api.client import ApiClient
from tui.api.endpoints import REGISTRY
from tui.api.errors import CloudError
from tui.api.paths import fill_path
from tui.relations.graph import Entry, Graph, ObjKey, Ref, entry_order, natural
from tui.relations.kinds import KINDS
from tui.relations.matchers import host_of_network, network
from tui.relations.paths import fill
from tui.relations.table import Cleanup, Effect, EffectKind
from tui.untrusted import Shown, shown

ActionKind = Literal["delete", "replace"]
"""``delete``: the targets and what goes with them are gone; ``replace``: the instances under
the targets are replaced by new ones (new ids, new addresses), the targets stay."""

NOTHING: Shown = ""
"""Empty shown text."""

REPLACING: dict[str, str] = {
    "k8s.nodes.recycle": "k8s.nodes",
    "k8s.pools.recycle": "k8s.pools",
    "k8s.clusters.recycle": "k8s.clusters",
}
"""Endpoints that replace the instances under an object of a kind (no rebuild exists for
instances themselves in this API)."""


def action_of(endpoint_name: str) -> tuple[ActionKind, str] | None:
    """Whether running ``endpoint_name`` on an object has an impact worth showing, and its kind.

    Every ``DELETE`` of an object whose path a kind names is a delete of that kind; the
    :data:`REPLACING` endpoints replace.

    Returns:
        ``(action, kind)``, or None for an action with no impact to compute.
    """
    if endpoint_name in REPLACING:
        return "replace", REPLACING[endpoint_name]
    ep = REGISTRY.get(endpoint_name)
    if ep is None or ep.method != "DELETE":
        return None
    for kind in KINDS:
        if ep.path in kind.path:
            return "delete", kind.name
    return None


@dataclass(frozen=True)
class CleanupRequest:
    """One request offered to tidy up after the action (or instead of it).

    Attributes:
        endpoint: Registry name of the operation.
        params: Its path parameters.
        body: Its JSON body, or None.
        says: What it does, in words (``delete DNS record www.example.com A``).
        label: Label of the object it changes (the activity log names it).
    """

    endpoint: str
    params: tuple[tuple[str, Any], ...]
    body: Mapping[str, Any] | None = field(default=None, hash=False)
    says: Shown = field(default=NOTHING, compare=False)
    label: Shown = field(default=NOTHING, compare=False)

    @property
    def method(self) -> str:
        """HTTP method of the operation."""
        return REGISTRY[self.endpoint].method

    @property
    def path(self) -> str:
        """The concrete path (ids filled in)."""
        return fill_path(REGISTRY[self.endpoint].path, dict(self.params))

    def path_params(self) -> dict[str, Any]:
        """The path parameters as a dict, ready for ``ApiClient.call``."""
        return dict(self.params)


@dataclass(frozen=True)
class Finding:
    """One thing the action will break (or detach, or take with it), in one sentence.

    Attributes:
        text: The sentence; API text in it went through :func:`~tui.untrusted.shown`.
        effect: ``breaks``, ``detaches``, ``cascade`` (deleted with a target) or ``replaced``.
        relation: Name of the relation behind it ('' for the summaries).
        subjects: The objects going away that cause it.
        affected: The objects it is about.
        cleanup: Requests that tidy up, sent after the action succeeded.
        instead: Requests to send instead of the action.
    """

    text: Shown
    effect: EffectKind | Literal["replaced"]
    relation: str
    subjects: tuple[Ref, ...]
    affected: tuple[Ref, ...] = ()
    cleanup: tuple[CleanupRequest, ...] = ()
    instead: tuple[CleanupRequest, ...] = ()


@dataclass(frozen=True)
class Impact:
    """The combined impact of one action on one or several targets.

    Attributes:
        action: ``delete`` or ``replace``.
        targets: The objects acted on that the index knows.
        findings: What happens, breaking findings first.
        deleted: Everything else deleted with the targets.
        unknown: Targets the index does not hold (nothing can be said about them).
    """

    action: ActionKind
    targets: tuple[Ref, ...]
    findings: tuple[Finding, ...]
    deleted: tuple[Ref, ...] = ()
    unknown: tuple[Any, ...] = ()

    @property
    def breaks(self) -> bool:
        """Whether anything will be left pointing at what is gone."""
        return any(f.effect == "breaks" for f in self.findings)

    @property
    def cleanup(self) -> tuple[CleanupRequest, ...]:
        """Every clean-up request, once each, in the order of the findings."""
        return tuple(dict.fromkeys(r for f in self.findings for r in f.cleanup))

    @property
    def lines(self) -> list[Shown]:
        """The findings' sentences, in order."""
        return [f.text for f in self.findings]


Builder = Callable[[Cleanup, Entry, Sequence[str]], CleanupRequest | None]
"""Makes the clean-up request for one affected object from the values it matched."""


def object_request(cleanup: Cleanup, other: Entry, values: Sequence[str]) -> CleanupRequest | None:
    """The cleanup's endpoint on the affected object itself, without a body (delete a record,
    delete a balancer node, recycle a Kubernetes node)."""
    name = other.kind.endpoint_name(cleanup.endpoint, other)
    ep = REGISTRY.get(name)
    if ep is None:
        return None
    params = {p: v for p, v in other.kind.path_params(other).items() if p in ep.params}
    if set(ep.params) - set(params):
        return None
    says = shown(f"{cleanup.verb} {other.kind.singular} {other.label}")
    return CleanupRequest(name, tuple(params.items()), None, says, other.label)


def allow_list_without(
    cleanup: Cleanup, other: Entry, values: Sequence[str]
) -> CleanupRequest | None:
    """The database's allow list without the entries that admit only a deleted address.

    A range (``203.0.113.0/24``) may admit other hosts too, so it stays; an update overwrites
    the whole list, so the body is the list as it should be.
    """
    current = [str(entry) for entry in other.row.get("allow_list") or []]
    single = {v for v in values if (key := network(v)) is not None and host_of_network(key)}
    keep = [entry for entry in current if entry not in single]
    if keep == current:
        return None
    name = other.kind.endpoint_name(cleanup.endpoint, other)
    ep = REGISTRY.get(name)
    if ep is None:
        return None
    params = {p: v for p, v in other.kind.path_params(other).items() if p in ep.params}
    removed = ", ".join(entry for entry in current if entry in single)
    says = f"remove {removed} from the allow list of {other.kind.singular} {other.label}"
    if not keep:
        says += " (the list becomes empty: no connection is admitted)"
    body = {"allow_list": keep}
    return CleanupRequest(name, tuple(params.items()), body, shown(says), other.label)


BUILDERS: dict[str, Builder] = {
    "object": object_request,
    "allow_list_without": allow_list_without,
}
"""Clean-up builders by the name :class:`~tui.relations.table.Cleanup` gives."""

_ORDER = {"replaced": 0, "breaks": 1, "detaches": 2, "cascade": 3}


@dataclass
class _Hit:
    """One affected object along one relation: what it matched, which objects it loses."""

    other: Entry
    effect: Effect
    relation: str
    values: list[str] = field(default_factory=list)
    gone: list[Entry] = field(default_factory=list)


def impact(graph: Graph, targets: Iterable[Ref | ObjKey], action: ActionKind = "delete") -> Impact:
    """The combined impact of ``action`` on ``targets``; see the module docstring.

    Args:
        graph: The objects and links.
        targets: The objects acted on (refs or ``(kind, id)``).
        action: ``delete``, or ``replace`` for a recycle.

    Returns:
        The impact (empty findings when nothing depends on the targets).
    """
    keys = [t.key if isinstance(t, Ref) else t for t in targets]
    known = [k for k in keys if graph.at(k) is not None]
    unknown = tuple(k for k in keys if graph.at(k) is None)
    doomed = graph.cascade(known)
    if action == "replace":
        gone = [k for k in doomed if k[0] == "compute.instances"]
    else:
        gone = list(doomed)
    hits: dict[tuple[str, ObjKey], _Hit] = {}
    for key in gone:
        entry = graph.at(key)
        if entry is None:
            continue
        pairs = [
            (link, link.target, link.relation.if_source_deleted) for link in graph.links_out(key)
        ]
        pairs += [
            (link, link.source, link.relation.if_target_deleted) for link in graph.links_in(key)
        ]
        for link, other_key, effect in pairs:
            other = graph.at(other_key)
            if effect is None or effect.kind == "cascade" or other_key in doomed or other is None:
                continue
            hit = hits.setdefault(
                (link.relation.name, other_key), _Hit(other, effect, link.relation.name)
            )
            hit.values.extend(v for v in link.values if v not in hit.values)
            if entry not in hit.gone:
                hit.gone.append(entry)
    # Answers must not depend on the order listings arrived in: objects by label, then id.
    for hit in hits.values():
        hit.gone.sort(key=entry_order)
    found = sorted(hits.values(), key=lambda h: entry_order(h.other))
    findings = _findings(found, keep_requests=action == "delete")
    refs = _refs(graph, known)
    if action == "replace":
        findings.insert(0, _replaced(graph, gone, refs))
        deleted: tuple[Ref, ...] = ()
    else:
        findings.extend(_cascades(graph, doomed, known))
        taken = [e for k in doomed if k not in known and (e := graph.at(k)) is not None]
        kinds = list(graph.kinds)
        taken.sort(key=lambda e: (kinds.index(e.kind.name), *entry_order(e)))
        deleted = tuple(e.ref for e in taken)
    order = {r.name: n for n, r in enumerate(graph.relations)}
    findings.sort(
        key=lambda f: (_ORDER[f.effect], order.get(f.relation, len(order)), natural(f.text))
    )
    return Impact(action, refs, tuple(findings), deleted, unknown)


def _refs(graph: Graph, keys: Iterable[ObjKey]) -> tuple[Ref, ...]:
    return tuple(entry.ref for key in keys if (entry := graph.at(key)) is not None)


def _findings(hits: list[_Hit], *, keep_requests: bool) -> list[Finding]:
    """Sentences from hits: grouped by value where the effect has a ``many`` sentence."""
    findings: list[Finding] = []
    groups: dict[tuple[str, str], list[_Hit]] = {}
    for hit in hits:
        if hit.effect.many:
            for value in hit.values or [""]:
                groups.setdefault((hit.relation, value), []).append(hit)
        else:
            findings.append(_finding([hit], ", ".join(hit.values), keep_requests))
    for (_relation, value), grouped in groups.items():
        findings.append(_finding(grouped, value, keep_requests))
    return findings


def _finding(hits: list[_Hit], value: str, keep_requests: bool) -> Finding:
    effect = hits[0].effect
    gone = list(dict.fromkeys(g for h in hits for g in h.gone))
    variables = {
        "count": len(hits),
        "value": value,
        "others": ", ".join(h.other.label for h in hits),
        "gone": ", ".join(g.label for g in gone),
    }
    template = effect.many if effect.many and len(hits) > 1 else effect.one
    cleanup: list[CleanupRequest] = []
    instead: list[CleanupRequest] = []
    if keep_requests:
        for hit in hits:
            for spec, into in ((effect.cleanup, cleanup), (effect.instead, instead)):
                request = BUILDERS[spec.builder](spec, hit.other, hit.values) if spec else None
                if request is not None and request not in into:
                    into.append(request)
    return Finding(
        fill(template, hits[0].other, **variables),
        effect.kind,
        hits[0].relation,
        tuple(g.ref for g in gone),
        tuple(h.other.ref for h in hits),
        tuple(cleanup),
        tuple(instead),
    )


def _counted(entries: list[Entry]) -> str:
    """``1 config, 2 disks and 3 backups``."""
    counts: dict[str, list[Entry]] = {kind.name: [] for kind in KINDS}
    for entry in entries:
        counts.setdefault(entry.kind.name, []).append(entry)
    parts = [
        f"{len(group)} {group[0].kind.singular if len(group) == 1 else group[0].kind.plural}"
        for group in counts.values()
        if group
    ]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _cascades(graph: Graph, doomed: Mapping[ObjKey, ObjKey], known: list[ObjKey]) -> list[Finding]:
    """One summary per target of what goes with it."""
    found: list[Finding] = []
    for target in known:
        entry = graph.at(target)
        taken = [graph.at(k) for k, cause in doomed.items() if cause == target and k != target]
        parts = [e for e in taken if e is not None]
        if entry is None or not parts:
            continue
        text = f"{entry.kind.singular} {entry.label} is deleted with its {_counted(parts)}"
        found.append(Finding(shown(text), "cascade", "", (entry.ref,), tuple(e.ref for e in parts)))
    return found


def _replaced(graph: Graph, gone: list[ObjKey], refs: tuple[Ref, ...]) -> Finding:
    """The summary of a replacement: which instances get new ids and addresses."""
    instances = sorted((e for k in gone if (e := graph.at(k)) is not None), key=entry_order)
    if instances:
        labels = ", ".join(e.label for e in instances)
        noun = "instance" if len(instances) == 1 else "instances"
        text = f"{len(instances)} {noun} will be replaced by new ones with new addresses ({labels})"
    else:
        text = "the nodes' instances will be replaced by new ones with new addresses"
    return Finding(shown(text), "replaced", "", refs, tuple(e.ref for e in instances))


@dataclass(frozen=True)
class CleanupResult:
    """How one clean-up request went.

    Attributes:
        request: The request.
        ok: True when the API accepted it.
        error: Why not (the API's reason, shown), '' on success.
    """

    request: CleanupRequest
    ok: bool
    error: Shown = NOTHING


async def run_cleanup(
    client: ApiClient, requests: Iterable[CleanupRequest], *, concurrency: int = 4
) -> list[CleanupResult]:
    """Send the clean-up requests (after the action succeeded), each result reported.

    Args:
        client: The :class:`~tui.api.client.ApiClient`.
        requests: The requests, e.g. :attr:`Impact.cleanup`.
        concurrency: Requests in flight at once.

    Returns:
        One result per request, in the order given. A failure never stops the others.
    """
    bound = asyncio.Semaphore(max(1, concurrency))

    async def one(request: CleanupRequest) -> CleanupResult:
        async with bound:
            try:
                with change_target(request.label):
                    await client.call(
                        request.endpoint, request.path_params(), body=request.body, model=dict
                    )
            except CloudError as error:
                return CleanupResult(request, False, shown(str(error)))
        return CleanupResult(request, True)

    return list(await asyncio.gather(*(one(r) for r in requests)))
