"""Opening every dialog an action can open, widest first, and walking it with the keyboard.

The forms and dialogs come from the resource specs (every action with a form or a hand-written
dialog), not from a hand list, so a new action is walked as soon as it exists. Each one is
opened through :func:`screens.actions.run.run_action` on a sample item from the demo data (the same
code a key runs), then *widened*: every input that decides which others are asked takes the
value that shows the most of them, a chosen record's inputs are added (a deployment script with
the most fields), and every repeated list gets one more row. Only then is it walked.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from textual.pilot import Pilot
from textual.screen import ModalScreen

from screens.actions.form import FormModal
from screens.actions.run import ACTION_SCREENS, run_action
from tests.ui.helpers import wait_until
from tests.ui.visibility import screen_workers_done
from tui.api.endpoints import REGISTRY
from tui.resources.areas import AREA_OF_SPEC, SPECS
from tui.resources.availability import UserContext, availability
from tui.resources.expansions import EXPANSIONS
from tui.resources.form_rules import hidden_names
from tui.resources.loader import fetch_all
from tui.resources.spec import Action, ResourceSpec, dig

NO_INPUT_DIALOG: dict[str, str] = {
    "compute.stats": "shows the statistics tab, not a dialog",
    "deployscripts.edit_script": "hands the script to $EDITOR",
    "domains.zone_edit": "hands the zone file to $EDITOR",
    "handoff": "hands the terminal to another program (its address picker is walked alone)",
}
"""Hand-written action flows that open no dialog with inputs, and why."""


@dataclass(frozen=True)
class DialogAction:
    """An action that opens a dialog with inputs."""

    area: str
    spec: ResourceSpec
    action: Action

    @property
    def name(self) -> str:
        """``spec id / action id`` for messages."""
        return f"{self.spec.id}/{self.action.id}"


def _same_dialog(action: Action) -> tuple[Any, ...]:
    """What makes two actions open the same dialog: the flow, the request model, and whether
    it is prefilled (an edit). Five areas' "Tag" open one tag prompt; it is walked once."""
    edit = REGISTRY[action.endpoint].method == "PUT" and action.target == "item"
    return (action.screen, action.form, edit)


def dialog_actions() -> list[DialogAction]:
    """Every dialog with inputs an action opens, once each (the first action that opens it)."""
    seen: set[tuple[Any, ...]] = set()
    out: list[DialogAction] = []
    for spec in SPECS.values():
        for action in spec.actions:
            if not (action.form or action.screen) or action.screen in NO_INPUT_DIALOG:
                continue
            if _same_dialog(action) in seen:
                continue
            seen.add(_same_dialog(action))
            out.append(DialogAction(AREA_OF_SPEC[spec.id], spec, action))
    return out


def unknown_screens() -> set[str]:
    """Hand-written flows neither walked nor listed in :data:`NO_INPUT_DIALOG`."""
    used = {a.screen for spec in SPECS.values() for a in spec.actions if a.screen}
    return (
        (used | set(ACTION_SCREENS))
        - set(NO_INPUT_DIALOG)
        - {d.action.screen for d in dialog_actions() if d.action.screen}
    )


def _parent_of(spec_id: str) -> tuple[str, dict[str, str]] | None:
    """The spec whose detail tab lists ``spec_id``, and the tab's parameter mapping."""
    for parent in SPECS.values():
        for child in parent.children:
            if child.resource == spec_id:
                return parent.id, dict(child.params)
    return None


class Samples:
    """Sample items of each spec from the demo data (fetched once per app)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._items: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {}

    async def items(self, spec_id: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The items of ``spec_id`` under its parent's first item, and their path parameters."""
        if spec_id not in self._items:
            params: dict[str, Any] = {}
            parent = _parent_of(spec_id) if SPECS[spec_id].parent_params else None
            if parent is not None:
                parent_id, mapping = parent
                parents, parent_params = await self.items(parent_id)
                if parents:
                    first = parents[0]
                    params = SPECS[parent_id].params_for(first, parent_params)
                    params.update({k: dig(first, v) for k, v in mapping.items()})
            found = await fetch_all(self.client, SPECS[spec_id], params)
            self._items[spec_id] = (found, params)
        return self._items[spec_id]

    async def target(self, d: DialogAction) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """An item the action may run on (None for collection actions) and its parameters."""
        items, params = await self.items(d.spec.id)
        if d.action.target == "collection":
            return None, params
        user = UserContext()
        usable = [i for i in items if availability(d.spec, d.action, i, user)[0]]
        chosen = (usable or items or [None])[0]
        if chosen is None:
            raise AssertionError(f"{d.name}: the demo data has no {d.spec.singular} to open it on")
        return chosen, d.spec.params_for(chosen, params)


async def wait_for(pilot: Pilot[Any], condition: Callable[[], Any], what: str) -> None:
    """Pause until ``condition()`` holds; fail naming ``what`` at the deadline (seconds)."""
    await wait_until(pilot, condition, what=what)


async def quiet(pilot: Pilot[Any], screen: Any) -> None:
    """Let ``screen``'s own workers (choice lists, a script's fields) finish, then repaint."""
    await screen_workers_done(pilot.app, screen)
    await pilot.pause()


@contextlib.asynccontextmanager
async def opened(pilot: Pilot[Any], samples: Samples, d: DialogAction) -> Any:
    """Run ``d``'s action from the current screen; yields the dialog it opens, closes it after."""
    app = pilot.app
    host = app.screen
    item, params = await samples.target(d)
    worker = host.run_worker(
        run_action(host, d.spec, d.action, item, params), group="walked-action", exit_on_error=False
    )
    await wait_for(pilot, lambda: isinstance(app.screen, ModalScreen) or worker.is_finished, d.name)
    assert isinstance(app.screen, ModalScreen), f"{d.name} opened no dialog ({worker.error!r})"
    dialog = app.screen
    await quiet(pilot, dialog)
    try:
        yield dialog
    finally:
        while app.screen is not host and isinstance(app.screen, ModalScreen):
            top = app.screen
            await pilot.press("escape")
            await wait_for(pilot, lambda top=top: app.screen is not top, f"closing {top!r}")
        await worker.wait()


def _deciders(form: Any) -> Iterator[str]:
    """Inputs that decide whether others are asked, in form order."""
    deciding = {f.rule.field for f in form.fields if f.rule is not None}
    yield from (f.name for f in form.fields if f.name in deciding)


def _candidates(f: Any) -> list[Any]:
    if f.kind == "bool":
        return [True, False]
    return [value for _text, value in f.choices]


async def widen(pilot: Pilot[Any], modal: FormModal) -> None:
    """Show as many inputs as the form can have at once (see the module docstring)."""
    model_form = modal.model_form
    for name in list(_deciders(model_form.form)):
        f = model_form.form.field(name)
        if f is None or not model_form.query(f"#{model_form.id_of(name)}"):
            continue
        values = model_form.values()
        best = min(
            _candidates(f),
            key=lambda v: len(hidden_names(model_form.form, {**values, name: v}, modal.context)),
            default=None,
        )
        if best is not None:
            model_form.set_value(name, best)
            await pilot.pause()
    for name, expansion in EXPANSIONS.items():
        f = model_form.form.field(name)
        if f is None or f.source is None or modal.load_items is None:
            continue
        items = await modal.load_items(f.source, model_form.values())
        richest = max(items, key=lambda i: len(expansion.fields(i)), default=None)
        if richest is None:
            continue
        model_form.set_value(name, f.source.option(richest)[1])
        prefix = expansion.prefix
        await wait_for(
            pilot,
            lambda prefix=prefix: any(x.name.startswith(prefix) for x in model_form.form.fields),
            f"the inputs of the {name} chosen",
        )
        await quiet(pilot, modal)
    for button in list(model_form.query(".form-add")):
        button.focus()
        await pilot.press("enter")
        await quiet(pilot, modal)
