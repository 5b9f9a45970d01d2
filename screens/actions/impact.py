"""What an irreversible action breaks, found before its confirmation, and the clean-up sent
after it.

:func:`check_impact` readies the account's relations index (within :data:`IMPACT_WAIT`
seconds: a confirmation is never held back longer), looks at the targets' parts fetched on
demand (an instance's configs and disks) and returns the offer the confirmation shows
(:class:`~tui.relations.offer.ImpactOffer`). Once the action succeeded, :func:`clean_up` sends
the clean-up requests the user ticked, each through the account's client (so each goes to the
activity log), and says how each went in one notification.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from textual.widget import Widget

from screens.app_surface import Change, surface
from tui.api.errors import CloudError
from tui.relations.cache import RelationCache
from tui.relations.graph import ObjKey, Ref
from tui.relations.impact import CleanupRequest, action_of, run_cleanup
from tui.relations.offer import ImpactOffer, offer_for, results_text
from tui.session.runtime import Session
from tui.untrusted import Shown

IMPACT_WAIT = 20.0
"""Seconds a confirmation waits for the relations index (the first build of a large account);
past that it opens saying the impact was not checked."""

NOTICE_AFTER = 0.5
"""Seconds after which the user is told why the confirmation is not open yet."""

ENSURED_AT_MOST = 20
"""Targets whose on-demand parts are fetched before a bulk confirmation (three requests each);
beyond that the counts of what goes with them may be short, what they break is not."""


@dataclass(frozen=True)
class ImpactCheck:
    """The offer for an action on some items, and the object each item is.

    Attributes:
        offer: What the confirmation shows.
        refs: Per item, in the order given, the object it is (None when not held).
    """

    offer: ImpactOffer
    refs: tuple[Ref | None, ...]

    def requests_after(self, done: Sequence[bool]) -> tuple[CleanupRequest, ...]:
        """The clean-up requests due once the items flagged in ``done`` were acted on."""
        gone: list[ObjKey] = [
            ref.key for ref, ok in zip(self.refs, done, strict=False) if ok and ref is not None
        ]
        return self.offer.requests_after(gone)


async def check_impact(
    host: Widget, session: Session, endpoint: str, items: Sequence[Mapping[str, Any]]
) -> ImpactCheck | None:
    """The impact of running ``endpoint`` on ``items``, or None when it has none to show (not
    a delete or a recycle, or not on the app's own account).

    Args:
        host: The screen the action was started from.
        session: The account the action is sent to.
        endpoint: The action's operation.
        items: The items it acts on.
    """
    found = action_of(endpoint)
    state = surface(host).state
    cache = state.relation_cache()
    if found is None or not items or cache is None or session is not state.session:
        return None
    action, kind = found
    work = asyncio.ensure_future(_prepared(cache, session, kind, items))
    try:
        done, _pending = await asyncio.wait({work}, timeout=NOTICE_AFTER)
        if not done:
            # The first look of a visit lists the account's relations: say why nothing opens.
            host.app.notify(
                "Looking up what this breaks (the first time lists the account's relations)…",
                title="Impact",
                timeout=3,
            )
        await asyncio.wait_for(work, IMPACT_WAIT - NOTICE_AFTER)
    except TimeoutError:
        note: Shown = f"What it breaks was not checked: the relations took over {IMPACT_WAIT:g} s."
        return ImpactCheck(ImpactOffer(cache.index.impact([], action), note=note), ())
    except CloudError:
        pass  # a listing the index could not read is counted in the offer as not checked
    finally:
        work.cancel()  # the dialog's flow was cancelled meanwhile: stop fetching for it
    refs = tuple(cache.index.ref_of(kind, item) for item in items)
    targets = [ref for ref in refs if ref is not None]
    return ImpactCheck(offer_for(cache.index, targets, action), refs)


async def _prepared(
    cache: RelationCache, session: Session, kind: str, items: Sequence[Mapping[str, Any]]
) -> None:
    """Ready the index and fetch the on-demand parts of (the first) targets."""
    index = await cache.ready(session.client)
    refs = [ref for item in items[:ENSURED_AT_MOST] if (ref := index.ref_of(kind, item))]
    await asyncio.gather(*(index.ensure(session.client, ref) for ref in refs))


async def clean_up(host: Widget, session: Session, requests: Sequence[CleanupRequest]) -> bool:
    """Send the clean-up ``requests`` and say how each went (one notification).

    Returns:
        True when every request succeeded.
    """
    if not requests:
        return True
    results = await run_cleanup(session.client, requests)
    all_ok = all(r.ok for r in results)
    done = sum(1 for r in results if r.ok)
    host.app.notify(
        results_text(results),
        title=f"Clean-up: {done} of {len(results)} done",
        severity="information" if all_ok else "warning",
        markup=False,
    )
    if done:
        surface(host).change_signal.publish(Change())
    return all_ok
