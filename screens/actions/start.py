"""Starting a spec action from a screen: its key binding, whether it is available, and running
it in a worker while the key gate holds the keys of the screen it was started from.

The action itself (form or confirmation, the call, what the user sees) is
:func:`screens.actions.run.run_action`, imported when the first action runs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from textual.binding import Binding
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.screen import Screen

from screens.app_surface import surface
from tui.resources.availability import UserContext, availability
from tui.resources.spec import Action, ResourceSpec
from tui.untrusted import Shown, shown
from widgets.textual_private import bind_first, bindings_after_keymap


def check_availability(
    node: MessagePump, spec: ResourceSpec, action: Action, item: Mapping[str, Any] | None
) -> tuple[bool, Shown]:
    """Whether ``action`` is allowed on ``item`` for the user signed in to ``node``'s app, and
    why not.

    Until the user is known (the profile is still loading) only the item's own conditions
    apply, and the API has the last word. The reason is display text (it may quote a status
    or a value of the item).
    """
    state = surface(node).state
    user = state.user_context or UserContext()
    if state.read_only and not user.read_only:
        user = replace(user, read_only=True)  # before the profile is loaded
    allowed, reason = availability(spec, action, dict(item) if item else None, user)
    return bool(allowed), shown(reason)


def binding_for(action: Action) -> Binding:
    """The key binding of a spec action (its id doubles as the keymap id)."""
    return Binding(
        action.key or "",
        f"run_action('{action.id}')",
        action.label,
        id=action.id,
        tooltip=action.description,
    )


def add_action_bindings(node: DOMNode, actions: Iterable[Action]) -> None:
    """Bind every keyed action on ``node`` (instance-level: specs differ per screen).

    The actions come before the node's own keys, so the footer shows them first: on an
    80-column terminal it has room for about seven keys, and "New", "Edit", "Delete" and the
    power actions matter more there than Copy or JSON (all are in ``?`` help and the palette).
    """
    keyed = [binding_for(action) for action in actions if action.key]
    bind_first(node, Binding.make_bindings(keyed))


def action_for_key(node: DOMNode, key: str) -> str | None:
    """The spec action id ``key`` triggers on ``node`` after the user's keymap, if any."""
    for binding in bindings_after_keymap(node).key_to_bindings.get(key, []):
        if binding.action.startswith("run_action("):
            return binding.action[len("run_action('") : -2]
    return None


async def perform_action(
    host: Screen[Any],
    spec: ResourceSpec,
    action: Action,
    item: Mapping[str, Any] | None,
    params: Mapping[str, Any],
) -> bool:
    """Run one action (form, confirmation, call); an unavailable action is explained instead.

    Returns:
        True when something changed (the caller refreshes).
    """
    enabled, reason = check_availability(host, spec, action, item)
    if not enabled:
        host.app.notify(reason, title=f"{action.label}: not available", markup=False)
        return False
    from screens.actions.run import run_action  # imported on first use: start-up stays lean

    return bool(await run_action(host, spec, action, dict(item) if item else None, dict(params)))


def start_action(
    node: DOMNode,
    host: Screen[Any],
    spec: ResourceSpec,
    action: Action,
    item: Mapping[str, Any] | None,
    params: Mapping[str, Any],
    then: Callable[[bool], Any] | None = None,
    run: Callable[[], Awaitable[bool]] | None = None,
) -> None:
    """Run an action in a worker of ``node``; ``host`` gets no keys until its dialog is up.

    Args:
        node: Whose worker runs the action (its state goes to the app's handler).
        host: The screen the action was started from (gated by the app's key gate).
        spec: The resource the action belongs to.
        action: The action.
        item: The item it acts on (None: the collection).
        params: Path parameters.
        then: Called with True when something changed (the caller refreshes), else False.
        run: Runs the action instead of the single-item flow (a bulk run on the marked rows);
            the key gate applies the same.
    """
    gate = surface(node).key_gate
    token = gate.begin(host)

    async def work() -> None:
        try:
            if run is not None:
                changed = await run()
            else:
                changed = await perform_action(host, spec, action, item, params)
        finally:
            gate.end(token)
        if then is not None:
            then(changed)

    node.run_worker(work(), group="action", exit_on_error=False)
