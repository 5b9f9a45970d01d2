"""Which account the app is talking to, as the user sees it (headless).

Every place that could act on an account names it: the status bar on every screen, and each
confirmation ("Delete instance web-1 in prod?"). A profile may give its account a colour in the
config (``color = "red"``); the name is always there as text, so the colour only adds to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from tui.session.config import Settings

DEMO_ACCOUNT = "DEMO"
"""The name of the in-process simulator's account."""


@dataclass(frozen=True)
class AccountMark:
    """How an account is named on screen.

    Attributes:
        name: The profile name (``DEMO`` in demo mode).
        color: The colour the config gives it (a terminal colour name), or None.
    """

    name: str
    color: str | None = None


def account_mark(settings: Settings, name: str) -> AccountMark:
    """The mark of profile ``name`` as the config describes it (plain for unknown names)."""
    profile = settings.profiles.get(name)
    if profile is None:
        return AccountMark(name)
    return AccountMark(name, profile.color)


def in_account(question: str, account: str) -> str:
    """Name the account in a confirmation's question.

    ``"Delete instance web-1?"`` becomes ``"Delete instance web-1 in prod?"``; a title that
    is not a question gets the account in brackets (``"Resize: this cannot be undone
    (in prod)"``).

    Args:
        question: The dialog's title.
        account: The account's name.
    """
    if question.endswith("?"):
        return f"{question[:-1]} in {account}?"
    return f"{question} (in {account})"


ACTING_ACCOUNT: ContextVar[AccountMark | None] = ContextVar("cloudtui_acting_account", default=None)
"""The account an action being run sends to (set for the action's whole flow, so every dialog
it opens names that account, which is not always the app's: a row of a list across accounts)."""


@contextmanager
def acting_as(account: AccountMark) -> Iterator[None]:
    """Run the block as an action on ``account`` (see :data:`ACTING_ACCOUNT`)."""
    token = ACTING_ACCOUNT.set(account)
    try:
        yield
    finally:
        ACTING_ACCOUNT.reset(token)
