"""Keys never reach a screen the user cannot see, nor one that opened after they were typed.

An action key starts a worker that opens a form or a confirmation a moment later. Keys typed
in that moment (``n`` then ``dy`` as the start of a label) used to reach the list behind: ``d``
opened a Delete confirmation under the form, and ``y`` would have confirmed it. Three rules:

* While an action runs, the screen it started from is *gated*: whenever that screen is on top,
  keys are held instead of delivered.
* A screen just pushed holds keys until it has its focus (keys would reach no field).
* A key remembers the screen that was on top when it was typed. Textual hands a key to the
  focused widget first and runs bindings when it comes back up to the app, so a key typed on
  the list can come back after a dialog opened: it is held, never run as the dialog's key.

When the new screen is ready, printable characters held meanwhile are typed into its focused
text field if it takes typeahead (a form, the command line: ``accepts_typeahead``); every other
held key is dropped, so a key pressed before a confirmation was visible can never confirm it or
fill its typed label. Characters meant for a screen that takes typeahead but whose focus ends
on no text field are not dropped without a word: a notification names them. When the action
ends, whatever is still held is dropped.

No decision here depends on how fast the machine is. A slow machine (a loaded CI runner, two
busy neighbours on two cores) takes seconds where an idle one takes milliseconds; a key waits
for the one before it however long that takes, and is given up on only when the widget that
holds it has gone. The wall-clock limits below are backstops against a bug (a screen that
never takes its focus, a key the app never finishes with), generous enough never to fire on a
loaded machine: before, a key that took half a second to come back let the next one overtake
it, so ``dy`` typed while a form opened arrived as ``yd`` or lost its ``y``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from textual import events
from textual.widgets import Input

from screens.keys.not_typed import say_not_typed
from widgets.text_entry import can_type_into, text_field, type_into, typing_rule
from widgets.textual_private import propagation_stopped

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen
    from textual.widget import Widget

PASS_THROUGH = frozenset({"ctrl+c", "ctrl+q"})
"""Keys never held: quitting must always work."""

OPENING_LIMIT = 30.0
"""Backstop: seconds a newly pushed screen may take to get its focus before keys flow to it
anyway. The New configuration form takes 1-3 s to build on an idle 2-core machine and several
times that under load; keys typed meanwhile wait for it, however long it takes, up to this."""

RETRY_DELAY = 0.02
"""Seconds between looks at a screen that is not ready for held keys yet."""

TYPED_ON = "_cloudtui_typed_on"
"""Attribute of a key event: the screen on top when it was typed."""

CHECK_EVERY = 0.25
"""Seconds between looks at a key on its way while others wait behind it (has the widget
holding it gone?). How often to look, not how long to wait."""

STUCK_LIMIT = 30.0
"""Backstop: seconds a key may stay on its way, its widget still there, before the next one
goes anyway. Only a bug holds a key that long; the keyboard must not stay dead."""


@dataclass
class _Running:
    """One running action and the screen it was started from."""

    base: Screen[Any]


@dataclass
class KeyGate:
    """Holds keys typed for a screen that is not (or not yet) the one they would reach.

    Args:
        app: The app whose keys are gated (its key handling asks :meth:`take` first).
    """

    app: App[Any]
    held: list[events.Key] = field(default_factory=list)
    _running: list[_Running] = field(default_factory=list)
    _opening: Screen[Any] | None = None
    """A screen just pushed that does not have its focus yet."""
    _opened_at = 0.0
    _depth = 0
    _in_flight: events.Key | None = None
    """The key handed to a widget and not yet back at the app (its bindings not yet run)."""
    _flight_started = 0.0
    _at: Any = None
    """The node whose queue holds the next step of the key in flight (None: the app's)."""
    _target: Any = None
    """Where the last key was handed (its way up is where its follow-up messages go)."""
    _waiting: list[events.Key] = field(default_factory=list)
    """Keys typed while another was in flight, in order."""
    _draining = False
    """The key in flight is still climbing to the app (not yet handed to a widget)."""

    def watch_screens(self) -> None:
        """Follow the app's screen changes (call once the app runs)."""
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed)

    def begin(self, base: Screen[Any]) -> object:
        """An action started from ``base``: gate it until :meth:`end` with the token returned."""
        running = _Running(base)
        self._running.append(running)
        return running

    def end(self, token: object) -> None:
        """The action of ``token`` finished (sent, cancelled or failed)."""
        if token in self._running:
            self._running.remove(token)
        if not self.gated:
            self.held.clear()

    def _top(self) -> Screen[Any] | None:
        try:
            return self.app.screen
        except Exception:  # no screen yet (starting) or any more (closing)
            return None

    @property
    def idle(self) -> bool:
        """True when no key is held, waiting or on its way (every typed key was dealt with)."""
        return not self.held and not self._waiting and self._in_flight is None

    @property
    def gated(self) -> bool:
        """True while the screen on top has an action opening or running from it."""
        screen = self._top()
        return any(r.base is screen for r in self._running)

    def take(self, event: events.Key) -> bool:
        """Hold ``event`` if it must not reach the top screen now; False: deliver it.

        Keys go one at a time: a key reaches the focused widget only once the previous one
        came back up to the app and its binding ran (``:lb`` typed in one go: ``l`` and ``b``
        wait for ``:`` to open the command line, instead of reaching the list first).
        """
        top = self._top()
        if event.key in PASS_THROUGH or top is None:
            return False
        if not event.is_forwarded:
            if getattr(event, TYPED_ON, None) is None:
                setattr(event, TYPED_ON, top)  # the screen the user was looking at
            if event is not self._in_flight and self._busy():
                if not self._waiting:
                    self.app.set_timer(CHECK_EVERY, self._unstick)
                self._waiting.append(event)
                event.stop()
                event.prevent_default()
                return True
            if not self._deliverable(event, top):
                self._landed(event)
                return True
            self._in_flight = event
            self._flight_started = time.monotonic()
            self._at = None
            return False
        return not self._deliverable(event, top)

    def _deliverable(self, event: events.Key, top: Screen[Any]) -> bool:
        """False after holding ``event``: it must not reach ``top`` now."""
        if self.gated or not self._ready(top):
            return not self._hold(event)
        if getattr(event, TYPED_ON, top) is not top:
            # Typed while another screen was on top: at most typeahead for this one.
            self._hold(event)
            self._hand_over(top)
            return False
        if self.held:
            self._hand_over(top)  # what was held comes before this key
        return True

    # -- one key at a time ------------------------------------------------------------------

    def _busy(self) -> bool:
        if self._in_flight is None and not self._waiting:
            return False
        if self._in_flight is not None and self._lost():
            self._give_up(self._in_flight)
        return self._in_flight is not None or bool(self._waiting)

    def _lost(self) -> bool:
        """True when the key in flight can no longer come back: the node holding its next
        step has gone (a dialog closed under it), or, as a backstop, it has been on its way
        for :data:`STUCK_LIMIT` seconds."""
        node = self._at
        gone = node is not None and not (node.is_attached or node.is_running)
        return gone or time.monotonic() - self._flight_started > STUCK_LIMIT

    def _give_up(self, event: events.Key) -> None:
        """Stop waiting for ``event``: sent on to the app if it never got there, else done."""
        if self._draining:
            self._at = None
            self._draining = False
            self.app.post_message(event)  # still in flight: nothing overtakes it
        else:
            self._landed(event)

    def sent(self, event: events.Key, target: Any) -> None:
        """The app has handed ``event`` (typed, not come back) to ``target``, or ran one of its
        own priority bindings for it (then it is done with)."""
        if event is not self._in_flight:
            return
        if not event.is_forwarded:
            self._landed(event)
            return
        self._target = target
        self._follow(event, target)

    def _unstick(self) -> None:
        """While keys wait, look now and then whether the one on its way can still come back."""
        if self._waiting or self._in_flight is not None:
            self._busy()  # gives up on a key whose widget went away, sending the next
        if self._waiting:
            self.app.set_timer(CHECK_EVERY, self._unstick)

    def _follow(self, event: events.Key, node: Any) -> None:
        """Look again once ``node`` has handled ``event`` (its queue is in order)."""
        if node.call_later(self._handled, event, node):
            self._at = node
        else:
            self._landed(event)

    def _handled(self, event: events.Key, node: Any) -> None:
        if event is not self._in_flight or node is not self._at:
            return  # given up on meanwhile
        parent = node.parent
        if node is self.app or parent is None:
            self._landed(event)  # the app has run its bindings (or it never got there)
        elif parent is self.app or not propagation_stopped(event):
            # On up: a screen hands a key to the app even when flagged stopped (Textual
            # stops a key at the screen below its sender), so the app is always asked.
            self._follow(event, parent)
        else:
            self._landed(event)  # a widget consumed it (an input took the character)

    def back_at_app(self, event: events.Key) -> None:
        """The app has run ``event``'s bindings (the key's last stop): the next one may go."""
        if event is self._in_flight:
            self._landed(event)

    def _landed(self, event: events.Key | None) -> None:
        """``event`` is done with: send the next waiting key through the app again."""
        if event is not self._in_flight:
            return
        self._in_flight = None
        self._at = None
        self._draining = False
        if not self._waiting:
            return
        first = self._waiting.pop(0)
        again = events.Key(first.key, first.character)
        setattr(again, TYPED_ON, getattr(first, TYPED_ON, None))
        # In flight from now: nothing overtakes it. It is sent once what its predecessor set
        # off along its way has run: enter in the filter posts a message that climbs to the
        # list and moves the focus to the table, and the next key must find the table focused.
        self._in_flight = again
        self._flight_started = time.monotonic()
        self._draining = True
        self._drain(again, self._target or self.app)

    def _drain(self, event: events.Key, node: Any) -> None:
        """Climb from ``node`` to the app behind any message posted on the way; then send."""
        if event is not self._in_flight:
            return
        climbing = node is not None and node is not self.app and node.is_running
        if climbing and node.call_later(self._drained, event, node):
            self._at = node
            return
        self._at = None
        self._draining = False
        self.app.post_message(event)

    def _drained(self, event: events.Key, node: Any) -> None:
        """``node`` has handled what was queued before ``event``: on to its parent."""
        if event is self._in_flight and node is self._at and self._draining:
            self._drain(event, node.parent)

    def _hold(self, event: events.Key) -> bool:
        self.held.append(event)
        event.stop()
        event.prevent_default()
        return True

    def _ready(self, screen: Screen[Any]) -> bool:
        """False while ``screen`` was just pushed and has no focus yet (for a moment at most)."""
        if screen is not self._opening:
            return True
        late = time.monotonic() - self._opened_at >= OPENING_LIMIT
        # Composed with nothing to focus counts as ready too; not yet mounted does not.
        nothing_to_focus = screen.is_mounted and not screen.focus_chain
        if late or screen.focused is not None or nothing_to_focus:
            self._opening = None
            return True
        return False

    def _screen_changed(self, screen: Screen[Any]) -> None:
        depth = len(self.app.screen_stack)
        pushed, self._depth = depth > self._depth, depth
        if pushed:
            self._opening = screen
            self._opened_at = time.monotonic()
        # Held keys are handed over once the screen is ready, even if no other key comes.
        self.app.call_after_refresh(self._settle, screen)

    def _settle_soon(self, screen: Screen[Any]) -> None:
        # A timer, not call_after_refresh: a callback that keeps re-queuing itself after each
        # refresh stalled the screen's own repaints.
        self.app.set_timer(RETRY_DELAY, partial(self._settle, screen))

    def _settle(self, screen: Screen[Any]) -> None:
        if screen is not self._top():
            return
        if not self._ready(screen):
            self._settle_soon(screen)
            return
        if self.held and not self.gated:
            self._hand_over(screen)

    def _hand_over(self, screen: Screen[Any]) -> None:
        """Type held characters into the screen's text field if it takes typeahead; drop
        every other held key."""
        held, self.held = self.held, []
        if self.gated or screen is not self._top():
            return
        if not getattr(screen, "accepts_typeahead", False):
            # A confirmation's typed label must be typed while it is shown, never before.
            return
        text = "".join(k.character or "" for k in held if k.is_printable)
        focused = screen.focused
        field = text_field(focused)
        if field is None and text and self._focus_may_move(focused):
            # A form moves the focus into its first field once mounted.
            self.held = held + self.held
            self._settle_soon(screen)
            return
        if field is None or not can_type_into(field):
            why = "typed while this dialog opened, and its focus is not on a text field."
            if text:  # keys without a character (enter, arrows) are simply dropped
                say_not_typed(self.app, text, why)
            return
        refused = type_into(field, text)
        if refused:
            rule = typing_rule(field) if isinstance(field, Input) else ""
            say_not_typed(self.app, refused, f"the field {rule or 'did not take it'}.")
        submit = getattr(screen, "submits_typeahead", False) and held[-1].key == "enter"
        if submit and isinstance(field, Input) and field.value:
            screen.call_later(field.action_submit)  # ``:dns`` and enter, typed in one go

    def _focus_may_move(self, focused: Widget | None) -> bool:
        """True while the focus may still move into a text field on its own: nothing or a
        container has it (for :data:`OPENING_LIMIT` at most)."""
        if time.monotonic() - self._opened_at >= OPENING_LIMIT:
            return False
        if focused is None:
            return True
        # A container with focusable widgets inside (the focus chain holds only those shown:
        # a choice list's hidden drop-down does not make it one).
        return any(focused in w.ancestors for w in focused.screen.focus_chain)
