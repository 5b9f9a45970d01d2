"""Which accounts of a run are read-only, and why (headless).

Three things make an account read-only, and they differ in how long they hold:

- ``--read-only`` on the command line holds for the whole run: every account the app moves to
  (``:account``) or lists (``:fanout``) is read-only, and ``:read-only`` cannot leave it. Whoever
  started the program that way asked for a run that changes nothing, whichever account it
  ends up on.
- ``read_only = true`` in a profile holds for that account whenever it is open, in this run
  and every other; ``:read-only`` cannot leave it either (the config file is where it is
  changed).
- ``:read-only`` typed at run time holds for the account it was typed on, until it is typed
  again (off only after a confirmation). A switch to another account leaves it behind, and a
  switch back finds it again.

:class:`ReadOnlyRules` is the run's record of the three; :class:`ReadOnlyMode` is what they say
about one account.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tui.session.config import Settings


class ReadOnlySource(Enum):
    """What made an account read-only (the value says it to the user)."""

    COMMAND_LINE = "the program was started with --read-only, for every account"
    PROFILE = "its profile says read_only = true in the config file"
    TOGGLED = "it was turned on with :read-only"


@dataclass(frozen=True)
class ReadOnlyMode:
    """Whether one account is read-only, and what made it so.

    Attributes:
        sources: Everything that makes it read-only (empty: changes are allowed).
    """

    sources: frozenset[ReadOnlySource] = frozenset()

    @property
    def on(self) -> bool:
        """True when nothing may be changed on the account."""
        return bool(self.sources)

    @property
    def can_leave(self) -> bool:
        """True when ``:read-only`` alone made it read-only (only that can be undone at run
        time; the command line and the config file hold)."""
        return self.on and not self.sources & HOLDING

    def held_by(self) -> str:
        """Why it stays read-only whatever ``:read-only`` says ('' when it would not).

        Returns:
            The reasons other than the run-time toggle, as one sentence fragment.
        """
        return "; ".join(s.value for s in ReadOnlySource if s in self.sources & HOLDING)


HOLDING = frozenset({ReadOnlySource.COMMAND_LINE, ReadOnlySource.PROFILE})
"""The sources a run-time ``:read-only`` cannot take back."""


@dataclass
class ReadOnlyRules:
    """The run's read-only record: the command line, the profiles, and the run-time toggles.

    Args:
        settings: The loaded settings (each profile's ``read_only``).
        command_line: ``--read-only`` was given: every account of the run is read-only.
    """

    settings: Settings
    command_line: bool = False
    toggled_on: set[str] = field(default_factory=set)
    """Accounts on which ``:read-only`` was turned on (and not yet off) in this run."""

    def mode(self, account: str) -> ReadOnlyMode:
        """What makes ``account`` read-only now (a name the config does not know, such as
        ``DEMO``, has no profile to say so)."""
        sources: set[ReadOnlySource] = set()
        if self.command_line:
            sources.add(ReadOnlySource.COMMAND_LINE)
        profile = self.settings.profiles.get(account)
        if profile is not None and profile.read_only:
            sources.add(ReadOnlySource.PROFILE)
        if account in self.toggled_on:
            sources.add(ReadOnlySource.TOGGLED)
        return ReadOnlyMode(frozenset(sources))

    def toggle(self, account: str, on: bool) -> ReadOnlyMode:
        """Turn the run-time read-only of ``account`` on or off.

        Turning it off leaves whatever the command line and the profile say.

        Returns:
            The account's mode afterwards.
        """
        if on:
            self.toggled_on.add(account)
        else:
            self.toggled_on.discard(account)
        return self.mode(account)

    def seen_from(self, account: str, current: str | None) -> bool:
        """Whether a change to ``account`` is refused on a screen of the app's ``current``
        account (a list across accounts).

        Either one being read-only is enough: the status bar of that screen says READ-ONLY
        when the current account is, and nothing on a screen that says so may change anything.
        """
        return self.mode(account).on or (current is not None and self.mode(current).on)
