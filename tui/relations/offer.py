"""What a confirmation says before an irreversible action, and the clean-up it offers (headless).

:func:`offer_for` turns the impact of deleting (or replacing) some objects into what the
confirmation shows: a short summary for its message, the findings and the clean-up requests for
its request preview (each request as it will be sent), and the label of the tick that sends
them. The requests go only after the action succeeded, and, when several objects were deleted
and some were not, only those caused by objects really gone (:meth:`ImpactOffer.requests_after`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tui.relations.graph import ObjKey, Ref
from tui.relations.impact import ActionKind, CleanupRequest, CleanupResult, Impact
from tui.relations.index import RelationIndex
from tui.untrusted import Shown, shown


@dataclass(frozen=True)
class ImpactOffer:
    """The impact of one action on its targets, as a confirmation shows it.

    Attributes:
        impact: What the action breaks, detaches and takes with it.
        causes: Each object that goes -> the target it goes with (to keep, after a partial bulk
            run, only the clean-up of the targets really deleted).
        unchecked: Listings the index could not read (their count), so the impact may be
            incomplete.
        note: Why the impact is missing (the index took too long), '' when it is not.
    """

    impact: Impact
    causes: Mapping[ObjKey, ObjKey] = field(default_factory=dict)
    unchecked: int = 0
    note: Shown = ""

    @property
    def requests(self) -> tuple[CleanupRequest, ...]:
        """Every clean-up request offered."""
        return self.impact.cleanup

    @property
    def says_anything(self) -> bool:
        """Whether there is anything to show (a finding, listings left unchecked, a note)."""
        return bool(self.impact.findings) or self.unchecked > 0 or bool(self.note)

    def requests_after(self, done: Iterable[ObjKey]) -> tuple[CleanupRequest, ...]:
        """The clean-up requests of the findings whose causes all went with targets in
        ``done`` (the targets whose action succeeded)."""
        gone = set(done)
        out: list[CleanupRequest] = []
        for finding in self.impact.findings:
            targets = {self.causes.get(ref.key, ref.key) for ref in finding.subjects}
            if targets and targets <= gone:
                out.extend(r for r in finding.cleanup if r not in out)
        return tuple(out)

    def summary(self) -> Shown:
        """One sentence for the confirmation's message (our text and counts only)."""
        broken = sum(1 for f in self.impact.findings if f.effect in ("breaks", "replaced"))
        parts: list[str] = []
        if broken:
            parts.append(f"It breaks {broken} thing{'s' if broken != 1 else ''} (listed below)")
        elif self.impact.findings:
            parts.append("Nothing else breaks; what goes with it is listed below")
        if self.requests:
            count = len(self.requests)
            parts.append(f"{count} clean-up request{'s' if count != 1 else ''} offered")
        if self.unchecked:
            parts.append(f"{self.unchecked} listing(s) could not be read, so it may break more")
        if self.note:
            parts.append(self.note.rstrip("."))
        return "; ".join(parts) + "." if parts else ""

    def option(self) -> Shown:
        """Label of the tick that sends the clean-up ('' when none is offered)."""
        count = len(self.requests)
        if not count:
            return ""
        what = "the request" if count == 1 else f"the {count} requests"
        return f"Clean up too: send {what} listed at the end once it succeeded"

    def preview(self) -> Shown:
        """The findings and the clean-up requests, for the request preview."""
        lines: list[str] = []
        breaks = [f.text for f in self.impact.findings if f.effect in ("breaks", "replaced")]
        rest = [f.text for f in self.impact.findings if f.effect not in ("breaks", "replaced")]
        if breaks:
            lines += ["", "What this breaks:", *(f"  - {text}" for text in breaks)]
        if rest:
            lines += ["", "What goes or changes with it:", *(f"  - {text}" for text in rest)]
        if self.requests:
            lines += ["", "Clean-up, sent after it succeeded when ticked:"]
            for request in self.requests:
                lines.append(f"  {request.method} {shown(request.path)}")
                lines.append(f"      {request.says}")
        return "\n".join(lines)


def offer_for(
    index: RelationIndex, targets: Sequence[Ref], action: ActionKind = "delete"
) -> ImpactOffer:
    """The offer for ``action`` on ``targets`` (call ``index.ensure`` on them first)."""
    found = index.impact(targets, action)
    causes = index.graph.cascade([ref.key for ref in targets])
    return ImpactOffer(found, causes, len(index.failures))


def results_text(results: Sequence[CleanupResult]) -> Shown:
    """The clean-up's results, a line each (``done: delete DNS record www.example.com A``)."""
    lines = [
        f"done: {r.request.says}" if r.ok else f"FAILED: {r.request.says}: {r.error}"
        for r in results
    ]
    return "\n".join(lines)
