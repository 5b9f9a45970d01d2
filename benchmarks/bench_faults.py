"""A scripted session of 200 operations through the app's action runner, under faults.

The simulator is served over real HTTP on 127.0.0.1 (the code of ``cloudtui sim``, in a thread
of this process so its state can be inspected afterwards) with ``--error-rate 0.2 --drop-rate
0.1 --lost-response-rate 0.05 --rate-limit 120``. The app runs headless with a profile session
against it. A scripted user runs creates, updates, deletes across volumes, domains and records,
tags, managed contacts, buckets and instances through :func:`screens.actions.run.run_action`: it
fills the generated forms, confirms dialogs (typing labels where asked), resends after a plain
failure (at most 4 times), and after "the request may have been carried out" cancels and looks
at the list instead of resending, as the message asks.

Report (goals in brackets): crashes [0], duplicate creates in the simulator's state [0],
operations that were carried out but reported failed without the "may have been carried out"
wording [0], inputs lost from a form after a failed send [0], operations reported done that
were not, and wall time against the same session without faults.

Run: .venv/bin/python benchmarks/bench_faults.py [--ops 200] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import SecretStr

from tests.integration.test_bad_servers import Served
from tui.refresh import MAYBE_DONE
from tui.session.config import RefreshSettings, Settings
from tui.session.runtime import Session
from tui.simulator import DEMO_TOKENS
from tui.simulator.faults import Faults
from tui.simulator.server import build_simulator

MAX_SENDS = 4
"""Sends a scripted user tries after plain failures before giving up on an operation."""
VERBOSE = False
STEP_LIMIT = 240.0
"""Seconds one operation may take (rate-limit waits included) before it counts as stuck."""


@dataclass
class Tally:
    """What the session found."""

    ops: int = 0
    ok: int = 0
    maybe: int = 0
    failed: int = 0
    crashes: int = 0
    stuck: int = 0
    duplicates: int = 0
    misreported_failures: int = 0
    false_successes: int = 0
    inputs_lost: int = 0
    sends: int = 0
    notes: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def median(self) -> float:
        """Median seconds of one operation."""
        return statistics.median(self.seconds) if self.seconds else 0.0


@dataclass
class Op:
    """One scripted operation.

    Attributes:
        spec: Spec id.
        action: Action id.
        values: Form values to fill (None: no form).
        find: Picks the target item from the simulator's state (None: a collection action).
        params: Path parameters from the target (or from the state for a collection).
        done: Whether the simulator's state shows the operation carried out.
        count: For creates: how many records match (duplicates when > 1).
    """

    spec: str
    action: str
    values: dict[str, Any] | None
    find: Callable[[Any], dict[str, Any] | None] | None
    params: Callable[[Any, dict[str, Any] | None], dict[str, Any]]
    done: Callable[[Any], bool]
    count: Callable[[Any], int] | None = None


def _rows(sim: Any, table: str) -> list[dict[str, Any]]:
    return list(sim.store.rows(table))


def _first(sim: Any, table: str, **match: Any) -> dict[str, Any] | None:
    for row in _rows(sim, table):
        if all(row.get(k) == v for k, v in match.items()):
            return row
    return None


def _count(table: str, **match: Any) -> Callable[[Any], int]:
    return lambda sim: sum(all(r.get(k) == v for k, v in match.items()) for r in _rows(sim, table))


def script(n: int) -> list[Op]:
    """The operations of round ``n`` (14 per round)."""
    vol, vol2 = f"bench-vol-{n}", f"bench-vol-{n}-b"
    dom = f"bench{n}.example.net"
    tag, contact, contact2 = f"bench-tag-{n}", f"Bench Person {n}", f"Bench Renamed {n}"
    bucket = f"bench-bucket-{n}"
    inst = f"bench-inst-{n}"
    none: Callable[[Any, dict[str, Any] | None], dict[str, Any]] = lambda _s, _i: {}  # noqa: E731
    by_id = {
        "volumes": lambda _s, i: {"volumeId": i["id"]},
        "domain": lambda _s, i: {"domainId": i["id"]},
        "tag": lambda _s, i: {"label": i["label"]},
        "contact": lambda _s, i: {"contactId": i["id"]},
        "bucket": lambda _s, i: {"clusterId": i["cluster"], "bucket": i["label"]},
        "instance": lambda _s, i: {"computeId": i["id"]},
    }
    return [
        Op(
            "volumes",
            "volumes.create",
            {"label": vol, "size": "20", "region": "us-east"},
            None,
            none,
            lambda s: _first(s, "volumes.volumes", label=vol) is not None,
            _count("volumes.volumes", label=vol),
        ),
        Op(
            "volumes",
            "volumes.edit",
            {"label": vol2},
            lambda s: _first(s, "volumes.volumes", label=vol),
            by_id["volumes"],
            lambda s: _first(s, "volumes.volumes", label=vol2) is not None,
        ),
        Op(
            "volumes",
            "volumes.delete",
            None,
            lambda s: _first(s, "volumes.volumes", label=vol2),
            by_id["volumes"],
            lambda s: _first(s, "volumes.volumes", label=vol2) is None,
        ),
        Op(
            "domains",
            "domains.create",
            {"domain": dom, "type": "master", "soa_email": "ops@example.net"},
            None,
            none,
            lambda s: _first(s, "domains.domains", domain=dom) is not None,
            _count("domains.domains", domain=dom),
        ),
        Op(
            "domains.records",
            "domains.record_create",
            {"type": "A", "name": "www", "target": "192.0.2.10"},
            lambda s: _first(s, "domains.domains", domain=dom),
            lambda _s, i: {"domainId": i["id"]} if i else {},
            lambda s: any(
                r.get("name") == "www" and r.get("target") == "192.0.2.10"
                for d in [_first(s, "domains.domains", domain=dom)]
                if d
                for r in _rows(s, "domains.records")
                if r.get("_domain_id") == d["id"]
            ),
        ),
        Op(
            "domains",
            "domains.delete",
            None,
            lambda s: _first(s, "domains.domains", domain=dom),
            by_id["domain"],
            lambda s: _first(s, "domains.domains", domain=dom) is None,
        ),
        Op(
            "tags",
            "tags.create",
            {"label": tag},
            None,
            none,
            lambda s: s.store.get("tags.tags", tag) is not None,
        ),
        Op(
            "tags",
            "tags.delete",
            None,
            lambda s: s.store.get("tags.tags", tag),
            lambda _s, i: {"label": tag},
            lambda s: s.store.get("tags.tags", tag) is None,
        ),
        Op(
            "managed.contacts",
            "managed.contact_create",
            {"name": contact, "email": f"bench{n}@example.net"},
            None,
            none,
            lambda s: _first(s, "managed.contacts", name=contact) is not None,
            _count("managed.contacts", name=contact),
        ),
        Op(
            "managed.contacts",
            "managed.contact_edit",
            {"name": contact2},
            lambda s: _first(s, "managed.contacts", name=contact),
            by_id["contact"],
            lambda s: _first(s, "managed.contacts", name=contact2) is not None,
        ),
        Op(
            "managed.contacts",
            "managed.contact_delete",
            None,
            lambda s: _first(s, "managed.contacts", name=contact2),
            by_id["contact"],
            lambda s: _first(s, "managed.contacts", name=contact2) is None,
        ),
        Op(
            "object_storage.buckets",
            "object_storage.bucket_create",
            {"label": bucket, "cluster": "us-east-1"},
            None,
            none,
            lambda s: _first(s, "object_storage.buckets", label=bucket) is not None,
            _count("object_storage.buckets", label=bucket),
        ),
        Op(
            "object_storage.buckets",
            "object_storage.bucket_delete",
            None,
            lambda s: _first(s, "object_storage.buckets", label=bucket),
            by_id["bucket"],
            lambda s: _first(s, "object_storage.buckets", label=bucket) is None,
        ),
        Op(
            "compute.instances",
            "compute.edit",
            {"label": inst},
            lambda s: (
                _first(s, "compute.instances", label="build-cache")
                or _first(s, "compute.instances", label=f"bench-inst-{n - 1}")
            ),
            by_id["instance"],
            lambda s: _first(s, "compute.instances", label=inst) is not None,
        ),
    ]


async def _until(condition: Callable[[], Any], pilot: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await pilot.pause(0.01)
    return True


def _choice_ready(form: Any, name: str) -> bool:
    from textual.css.query import NoMatches
    from textual.widgets import Select

    try:
        model_form = form.model_form
        if name in model_form._fallback:
            return True
        widget = model_form.widget_for(name)
    except NoMatches:
        return False  # the form is still being built
    if not isinstance(widget, Select):
        return True
    return len(widget._options) > 1  # type: ignore[attr-defined]


async def _fill(form: Any, values: dict[str, Any], pilot: Any) -> bool:
    for name in values:
        if not await _until(lambda name=name: _choice_ready(form, name), pilot, 60):
            return False
    for name, value in values.items():
        form.model_form.set_value(name, value)
    await pilot.pause()
    return True


def _kept(form: Any, values: dict[str, Any]) -> bool:
    shown = form.model_form.values()
    return all(str(shown.get(k)) == str(v) for k, v in values.items())


async def run_op(app: Any, pilot: Any, sim: Any, op: Op, tally: Tally) -> None:
    """Run one operation as the scripted user; classify what it reported and what happened."""
    from screens.actions.form import FormModal
    from screens.actions.run import run_action
    from screens.dialogs.confirm import ConfirmModal
    from screens.dialogs.error import ErrorScreen
    from tui.resources.areas import SPECS

    spec = SPECS[op.spec]
    action = spec.action(op.action)
    assert action is not None, op.action
    item = op.find(sim) if op.find else None
    if op.find is not None and item is None:
        return  # what it acts on was never made: a user would not find it either
    tally.ops += 1
    params = op.params(sim, item)
    notes_before = len(app.notification_log)
    host = app.screen
    worker = app.run_worker(
        run_action(host, spec, action, dict(item) if item else None, params),
        group="bench",
        exit_on_error=False,
    )
    sends = 0
    maybe = False
    filled_form: Any = None
    began = time.monotonic()
    while not worker.is_finished:
        if time.monotonic() - began > STEP_LIMIT:
            tally.stuck += 1
            worker.cancel()
            break
        screen = app.screen
        if isinstance(screen, ErrorScreen):
            tally.crashes += 1
            tally.notes.append(f"error screen during {op.action}")
            screen.dismiss()
        elif isinstance(screen, ConfirmModal):
            if screen.typed is not None:
                from textual.widgets import Input

                screen.query_one("#confirm-typed", Input).value = screen.typed
                await pilot.pause()
            if "send again" in screen.title_text:
                screen.action_cancel()  # the scripted user never resends a maybe
            else:
                screen.action_confirm()
        elif isinstance(screen, FormModal) and not screen.sending:
            if screen is not filled_form:
                assert op.values is not None
                if not await _fill(screen, op.values, pilot):
                    tally.notes.append(f"choices never loaded for {op.action}")
                    screen.action_cancel()
                    continue
                filled_form = screen
            elif screen.maybe_sent:
                maybe = True
                screen.action_cancel()  # look at the list instead of resending
                await pilot.pause()
                continue
            elif sends:
                # A plain failure: the inputs must still be there, then send again.
                if not _kept(screen, op.values or {}):
                    tally.inputs_lost += 1
                if sends >= MAX_SENDS:
                    screen.action_cancel()
                    await pilot.pause()
                    continue
            sends += 1
            screen.action_submit()
        await pilot.pause(0.01)
    tally.sends += max(sends, 1)
    said = " ".join(m for _t, m in app.notification_log[notes_before:]).lower()
    maybe = maybe or MAYBE_DONE in said
    succeeded = worker.is_finished and worker.error is None and bool(worker.result)
    if worker.error is not None:
        tally.crashes += 1
        tally.notes.append(f"{op.action}: {worker.error!r}")
    reported_ok = succeeded and not maybe and "failed" not in said
    await asyncio.sleep(0.05)  # let the server thread finish an answer the client lost
    done = op.done(sim)
    if op.count is not None and op.count(sim) > 1:
        tally.duplicates += op.count(sim) - 1
        tally.notes.append(f"duplicate after {op.action}")
    if maybe:
        tally.maybe += 1
        tally.notes.append(f"maybe: {op.action} (carried out: {done})")
    elif reported_ok:
        tally.ok += 1
        if not done:
            tally.false_successes += 1
            tally.notes.append(f"reported done, not done: {op.action}")
    else:
        tally.failed += 1
        if done:
            tally.misreported_failures += 1
            tally.notes.append(f"done but reported failed: {op.action}: {said[-160:]}")


async def session(url: str, sim: Any, ops: int) -> Tally:
    """Run the scripted session against ``url``; ``sim`` is the served simulator (oracle)."""
    from tui.app import CloudApp

    refresh = RefreshSettings.model_construct(fast=3600, slow=3600, max_backoff=3600)
    settings = Settings(refresh=refresh)
    token = SecretStr(DEMO_TOKENS["unrestricted"])
    app = CloudApp(settings, Session.for_profile(settings, "bench", url, token))
    tally = Tally()
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(lambda: app.state.user_context is not None, pilot, 120)
        round_no = 0
        while tally.ops < ops:
            for op in script(round_no):
                if tally.ops >= ops:
                    break
                began = time.perf_counter()
                counted = tally.ops
                await run_op(app, pilot, sim, op, tally)
                took = time.perf_counter() - began
                if tally.ops > counted:
                    tally.seconds.append(took)
                if VERBOSE:
                    print(f"{op.action}: {took:.2f} s", flush=True)
            round_no += 1
    await app.state.session.aclose()
    return tally


def measure(faults: Faults, ops: int) -> tuple[Tally, float]:
    """Serve a fresh simulator with ``faults`` and run the session; returns the tally and
    wall seconds."""
    sim = build_simulator(faults=faults)
    served = Served(sim)
    served.start()
    try:
        began = time.perf_counter()
        tally = asyncio.run(session(served.url, sim, ops))
        return tally, time.perf_counter() - began
    finally:
        with contextlib.suppress(Exception):
            served.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rate-limit", type=int, default=120)
    parser.add_argument("--verbose", action="store_true", help="print each operation's time")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    clean, clean_s = measure(Faults(seed=args.seed), args.ops)
    faulty = Faults(
        error_rate=0.2,
        drop_rate=0.1,
        lost_response_rate=0.05,
        rate_limit=args.rate_limit,
        seed=args.seed,
    )
    tally, faulty_s = measure(faulty, args.ops)
    print(f"bench_faults: {args.ops} operations (seed {args.seed})")
    print(
        f"  without faults: {clean.ok} done, {clean.maybe} 'may have been carried out', "
        f"{clean.failed} failed, {clean.crashes} crashes, {clean_s:.1f} s "
        f"(median {clean.median():.2f} s an operation)"
    )
    for note in clean.notes[:5]:
        print(f"    note: {note}")
    print(
        "  with --error-rate 0.2 --drop-rate 0.1 --lost-response-rate 0.05 "
        f"--rate-limit {args.rate_limit}:"
    )
    print(
        f"    reported: {tally.ok} done, {tally.maybe} 'may have been carried out', "
        f"{tally.failed} failed after up to {MAX_SENDS} sends ({tally.sends} sends in all)"
    )
    print(f"    crashes {tally.crashes} (goal 0), stuck operations {tally.stuck} (goal 0)")
    print(f"    duplicate creates {tally.duplicates} (goal 0)")
    print(
        f"    carried out but reported failed without the wording {tally.misreported_failures}"
        " (goal 0)"
    )
    print(f"    reported done but not carried out {tally.false_successes} (goal 0)")
    print(f"    inputs lost {tally.inputs_lost} (goal 0)")
    ratio = faulty_s / clean_s if clean_s else float("nan")
    print(
        f"    wall time {faulty_s:.1f} s = {ratio:.1f}x the session without faults "
        f"(median {tally.median():.2f} s an operation)"
    )
    for note in tally.notes[:10]:
        print(f"    note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
