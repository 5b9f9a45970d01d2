"""Keyboard safety: keys never reach a screen the user cannot see, changes are sent
only by the top dialog's confirm/send, focus is never lost and always in sight, and keys shown
work.

Two parts:

* targeted pilot tests of the reported reproductions, typing at full speed
  (:func:`tests.ui.keyboard.type_fast`: no waiting for workers between keys);
* a seeded, bounded keyboard fuzz over every area at 80x24 and 120x40. Replay a failure with
  ``CLOUDTUI_FUZZ_SEED=<seed> pytest tests/ui/test_keyboard_fuzz.py -k '<area> and <size>'``;
  ``CLOUDTUI_FUZZ_STEPS`` changes the number of steps and ``CLOUDTUI_FUZZ_COLLECT=1`` keeps
  going after a failure and reports every problem found (used for FUZZ_FINDINGS.md).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from textual.widgets import TabbedContent

from screens.actions.form import FormModal
from screens.details.resource_detail import ResourceDetailScreen
from screens.details.stats import StatsPane, TransferPane
from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import make_app
from tests.ui.keyboard import (
    KeyProbe,
    fingerprint,
    focus_problem,
    is_dialog,
    is_mutating,
    key_of,
    mark,
    safety_violations,
    shown_footer_bindings,
    type_fast,
)
from tests.ui.visibility import focus_visibility_problem
from tui.resources.areas import AREAS
from widgets.resource_table import ResourceTable

# -- helpers ----------------------------------------------------------------------------------


async def start(pilot: Any, probe: KeyProbe, area: str) -> None:
    """Show ``area`` with its list focused, everything loaded."""
    await probe.settle(pilot)
    pilot.app.go_to_area(area)
    await probe.settle(pilot)
    target = pilot.app.screen.content_focus_target()
    if target is not None:
        target.focus()
    await probe.settle(pilot)


async def keys(pilot: Any, probe: KeyProbe, *names: str) -> None:
    """Type ``names`` at full speed, then let the app finish what they started."""
    type_fast(pilot.app, names)
    await probe.settle(pilot)


async def show_tab(pilot: Any, probe: KeyProbe, title: str) -> None:
    """Cycle the detail screen's tabs with ``]`` until the tab called ``title`` shows."""
    tabs = pilot.app.screen.query_one("#detail-tabs", TabbedContent)
    for _ in range(10):
        if str(tabs.get_tab(tabs.active).label) == title:
            return
        await keys(pilot, probe, "right_square_bracket")
    raise AssertionError(f"no {title} tab")


async def open_tabs(pilot: Any, probe: KeyProbe, area: str, *tabs: str) -> None:
    """From ``area``'s list, open the first item's tab ``tabs[0]``, its first row's ``tabs[1]``..."""
    await start(pilot, probe, area)
    for title in tabs:
        await keys(pilot, probe, "enter")
        await show_tab(pilot, probe, title)


def modals(app: Any) -> list[Any]:
    """Dialogs in the current stack, bottom first."""
    return [s for s in app.screen_stack if is_dialog(s)]


def sent(app: Any, since: int = 0) -> list[str]:
    """Mutating endpoints the simulator handled since index ``since`` of its log."""
    return [n for n in app.state.session.simulator.request_log[since:] if is_mutating(n)]


def footer_keys(app: Any) -> set[str]:
    """Keys the footer shows now."""
    return {key for key, _action, _enabled in shown_footer_bindings(app)}


# -- targeted reproductions -------------------------------------------------------------------


async def test_typing_ndy_on_configs_opens_only_the_new_config_form_and_deletes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app()
    probe = KeyProbe.install(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_tabs(pilot, probe, "instances", "Configs")
        detail = app.screen
        configs = app.state.session.simulator.store.rows("compute.configs")
        before = len(configs)
        since = mark(probe)

        await keys(pilot, probe, "n", "d", "y")

        problems = safety_violations(probe, since)
        assert not problems, problems
        assert [type(m) for m in modals(app)] == [FormModal], (
            f"one dialog, the New config form, expected; the stack is {app.screen_stack}"
        )
        assert isinstance(app.screen, FormModal)
        await keys(pilot, probe, "escape")
        assert app.screen is detail
        assert "compute.configs.delete" not in app.state.session.simulator.request_log
        assert len(app.state.session.simulator.store.rows("compute.configs")) == before


async def test_typing_cdaily_on_volumes_opens_at_most_one_dialog_and_sends_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app()
    probe = KeyProbe.install(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, probe, "volumes")
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        while pane.current_item and pane.current_item.get("status") != "active":
            await keys(pilot, probe, "down")  # Clone needs an active volume
        since = mark(probe)
        log_at = len(app.state.session.simulator.request_log)

        await keys(pilot, probe, *"cdaily")

        problems = safety_violations(probe, since)
        assert not problems, problems
        opened = modals(app)
        assert len(opened) <= 1, f"dialogs stacked: {opened}"
        if opened:
            assert app.screen is opened[0], "the dialog opened is on top"
        assert sent(app, log_at) == []


async def test_escape_three_times_from_balancer_config_nodes_leaves_keys_on_a_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app()
    probe = KeyProbe.install(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_tabs(pilot, probe, "loadbalancers", "Configs", "Nodes")

        await keys(pilot, probe, "escape", "escape", "escape")

        assert isinstance(app.focused, ResourceTable), (
            f"keys belong to {app.focused!r}, not to the table returned to"
        )
        assert "n" in footer_keys(app), "the footer shows the table's keys"
        await keys(pilot, probe, "n")
        assert isinstance(app.screen, FormModal), "n opens the New form at once"
        assert app.screen.title_text.startswith("New")


@pytest.mark.parametrize(
    ("tab", "pane_type", "pressed"),
    [
        ("Stats", StatsPane, ("c", "m", "less_than_sign", "greater_than_sign", "t")),
        ("Transfer", TransferPane, ("less_than_sign", "greater_than_sign", "t")),
    ],
)
async def test_stats_and_transfer_tab_keys_work_in_the_pane(
    monkeypatch: pytest.MonkeyPatch, tab: str, pane_type: type[Any], pressed: tuple[str, ...]
) -> None:
    app = make_app()
    probe = KeyProbe.install(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_tabs(pilot, probe, "instances", tab)
        assert isinstance(app.screen, ResourceDetailScreen)
        pane = app.screen.query_one(pane_type)
        shown_keys = footer_keys(app)
        for key in pressed:
            assert key in shown_keys, f"{key} is not in the footer of the {tab} tab"
        log = app.state.session.simulator.request_log
        for key in pressed:
            before = (getattr(pane, "chart_index", None), pane.month, len(log))
            await keys(pilot, probe, key)
            after = (getattr(pane, "chart_index", None), pane.month, len(log))
            assert after != before, f"{key} did nothing on the {tab} tab"
        month_endpoint = "compute.stats.month" if tab == "Stats" else "compute.transfer.month"
        assert month_endpoint in log, f"the monthly view of {tab} was not reachable"


# -- the fuzz ----------------------------------------------------------------------------------

SEEDS = (20260410,)
"""Base seeds; each case's seed is derived from one with its area and size (see ``case_seed``)."""

STEPS = int(os.environ.get("CLOUDTUI_FUZZ_STEPS", "6"))
"""Steps per case (area x size)."""

SIZES = ((80, 24), (120, 40))

NAV_KEYS = (
    "tab",
    "escape",
    "enter",
    "up",
    "down",
    "left_square_bracket",
    "right_square_bracket",
)
"""Navigation keys (``[``/``]`` cycle detail tabs, so every child tab gets visited). Not
``shift+tab``: the app does not bind it, so it is Textual's plain focus traversal, which may
legitimately stop on a tab strip."""

TYPED = "abcdefghijklmnopqrstuvwxyzJDERS0123456789- "
"""Characters of typing bursts: labels, the spec actions' capital keys, digits, space."""

NEVER_PRESSED = frozenset({"ctrl+q", "ctrl+e", "ctrl+p"})
"""Quit, the external editor (suspends the terminal) and the palette: not keyboard safety."""

SAME_AGAIN = frozenset({"submit", "confirm", "complete", "filter"})
"""Footer actions allowed to change nothing: a form's send (or a confirm whose typed label does
not match) shows the same errors again; ``complete`` (tab on an empty command line) and
``filter`` (``/`` with the filter already open and focused) have nothing to add."""


def case_seed(base: int, area: str, size: tuple[int, int]) -> int:
    """A stable seed per case (``hash`` of a str is salted per process, so no ``hash``)."""
    text = f"{base}:{area}:{size[0]}x{size[1]}"
    return sum((i + 1) * ord(c) for i, c in enumerate(text))


def choose_step(rng: random.Random, app: Any) -> tuple[str, list[str], str | None]:
    """One step: (kind, keys, footer action) — a footer key, a typed burst or a navigation key."""
    roll = rng.random()
    footer = [(k, a) for k, a, _enabled in shown_footer_bindings(app) if k not in NEVER_PRESSED]
    if roll < 0.5 and footer:
        key, action = rng.choice(footer)
        return "footer", [key], action
    if roll < 0.75:
        burst = "".join(rng.choice(TYPED) for _ in range(rng.randint(1, 6)))
        return "typed", [key_of(c) for c in burst], None
    return "nav", [rng.choice(NAV_KEYS)], None


FUZZED_HOME = ("check",)
"""Home areas fuzzed too: the check sends fixes from its own keys."""

CASES = [
    pytest.param(area, size, id=f"{area}-{size[0]}x{size[1]}")
    for area in (*(a.id for a in AREAS), *FUZZED_HOME)
    for size in SIZES
]


@pytest.mark.parametrize(("area", "size"), CASES)
async def test_keyboard_fuzz(
    monkeypatch: pytest.MonkeyPatch, area: str, size: tuple[int, int]
) -> None:
    """Random keys from the footer, typing bursts and navigation; invariants after each step."""
    replay = os.environ.get("CLOUDTUI_FUZZ_SEED")
    collect = os.environ.get("CLOUDTUI_FUZZ_COLLECT") == "1"
    seeds = [int(replay)] if replay else [case_seed(b, area, size) for b in SEEDS]
    found: list[str] = []
    for seed in seeds:
        found += await fuzz_once(monkeypatch, area, size, seed, collect=collect)
    assert not found, "\n".join(found)


async def fuzz_once(
    monkeypatch: pytest.MonkeyPatch,
    area: str,
    size: tuple[int, int],
    seed: int,
    *,
    collect: bool,
) -> list[str]:
    """Run one seeded case; returns its failure messages (stops at the first unless collecting)."""
    rng = random.Random(seed)
    app = make_app()
    probe = KeyProbe.install(app, monkeypatch)
    history: list[str] = []
    found: list[str] = []
    replay = f"CLOUDTUI_FUZZ_SEED={seed} (area {area}, {size[0]}x{size[1]})"
    async with app.run_test(size=size) as pilot:
        await start(pilot, probe, area)
        if size == SIZES[1]:
            # Half the cases start inside an item, on one of its tabs: detail tabs (statistics,
            # child lists, single objects) are otherwise rarely reached in a few steps.
            tabs = rng.randint(0, 6)
            await keys(pilot, probe, "enter", *["right_square_bracket"] * tabs)
            history.append(f"start: enter, ] x{tabs} on {type(app.screen).__name__}")
        for step in range(STEPS):
            kind, pressed, action = choose_step(rng, app)
            where = f"{type(app.screen).__name__}/{type(app.focused).__name__}"
            history.append(f"{step}: {kind} {' '.join(pressed)} on {where}")
            since = mark(probe)
            before = fingerprint(app) if kind == "footer" else None
            fingerprint_focus = id(app.focused)
            type_fast(app, pressed)
            await probe.settle(pilot)
            problems = safety_violations(probe, since)
            focus = focus_problem(app, arrived=fingerprint_focus != id(app.focused))
            if focus:
                problems.append(f"focus: {focus}")
            unseen = focus_visibility_problem(app)
            if unseen:
                problems.append(f"focus out of sight: {unseen}")
            if before is not None and action not in SAME_AGAIN and fingerprint(app) == before:
                problems.append(f"footer key {pressed[0]!r} ({action}) did nothing")
            for problem in problems:
                found.append(
                    f"{replay} step {step} [{kind} {' '.join(pressed)}]: {problem}\n"
                    f"  last steps: {' | '.join(history[-6:])}"
                )
            if found and not collect:
                return found
    return found
