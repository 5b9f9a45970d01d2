"""What belongs to one account: its read-only mode and why, its API health, its overview note."""

from __future__ import annotations

import asyncio

from pydantic import SecretStr

from tui.accounts.fanout import FanoutSessions
from tui.accounts.read_only import ReadOnlyMode, ReadOnlyRules, ReadOnlySource
from tui.accounts.state import AccountState, AppState, StateChange
from tui.api.errors import ConnectFailure, Forbidden, ServerError, TimeoutFailure
from tui.home.overview import attention_note
from tui.home.overview_data import OverviewData
from tui.resources.availability import UserContext
from tui.session.config import Profile, Settings
from tui.session.runtime import Session

SETTINGS = Settings(
    profiles={
        "alpha": Profile(base_url="https://a.example/v4"),
        "prod": Profile(base_url="https://p.example/v4", read_only=True),
    }
)


def session(name: str) -> Session:
    return Session.for_profile(SETTINGS, name, f"https://{name}.example/v4", SecretStr("tok"))


def test_each_account_is_read_only_for_its_own_reasons() -> None:
    rules = ReadOnlyRules(SETTINGS)
    assert rules.mode("alpha") == ReadOnlyMode()
    assert rules.mode("prod").sources == {ReadOnlySource.PROFILE}
    assert rules.mode("DEMO") == ReadOnlyMode()  # no profile says anything about the demo

    # Toggled at run time: on that account only, and it can be left again.
    assert rules.toggle("alpha", True).can_leave and rules.mode("alpha").on
    assert not rules.mode("DEMO").on
    assert not rules.toggle("alpha", False).on
    # The profile holds: toggling it off changes nothing, and says why.
    rules.toggle("prod", True)
    mode = rules.toggle("prod", False)
    assert mode.on and not mode.can_leave
    assert mode.held_by() == "its profile says read_only = true in the config file"


def test_the_command_line_makes_every_account_of_the_run_read_only_for_good() -> None:
    rules = ReadOnlyRules(SETTINGS, command_line=True)
    for name in ("alpha", "prod", "DEMO"):
        mode = rules.toggle(name, False)
        assert mode.on and not mode.can_leave and "--read-only" in mode.held_by()


def test_a_list_across_accounts_refuses_when_the_row_or_the_app_account_is_read_only() -> None:
    rules = ReadOnlyRules(SETTINGS)
    assert not rules.seen_from("alpha", "alpha")
    assert rules.seen_from("prod", "alpha")  # the row's own profile
    assert rules.seen_from("alpha", "prod")  # the screen it is on says READ-ONLY
    rules.toggle("alpha", True)
    assert rules.seen_from("beta", "alpha") and not rules.seen_from("beta", None)


def _no_opener(*_args: object) -> Session:
    raise AssertionError("no switch in this test")


def test_the_apps_state_answers_before_sign_in_from_the_command_line_alone() -> None:
    state = AppState(SETTINGS, ReadOnlyRules(SETTINGS, command_line=True), _no_opener)
    assert state.account is None and state.session is None and state.read_only
    assert state.api_health == "connecting" and state.resource_index == {}
    assert state.activity is None and state.watchlist is None and state.undo_journal is None
    state.api_failed(ConnectFailure("GET", "/profile", "refused", sent=False))  # to nobody
    state.set_read_only(False)
    assert state.read_only


def test_the_apps_state_takes_a_new_account_whole_and_detaches_the_old_one() -> None:
    changes: list[StateChange] = []
    state = AppState(SETTINGS, ReadOnlyRules(SETTINGS), _no_opener, changes.append)
    first = state.adopt(session("alpha"))
    assert state.session is first.session and not state.read_only
    state.set_read_only(True)
    assert state.read_only and first.session.client.read_only and changes == ["user"]
    second = state.adopt(session("prod"))
    assert state.account is second and first.on_change is None
    assert state.read_only  # prod's profile says so
    first.succeeded()  # a late report of the old account's client
    assert changes == ["user"] and state.api_health == "connecting"
    second.succeeded()
    assert changes == ["user", "health"] and state.api_health == "online"


def test_the_state_applies_its_read_only_mode_to_its_client_and_user() -> None:
    changes: list[StateChange] = []
    state = AccountState.open(session("alpha"), ReadOnlyMode(), changes.append)
    assert not state.session.client.read_only and state.user_context is None
    state.set_user(UserContext(username="ann"))
    assert state.user_context == UserContext(username="ann", read_only=False)
    state.set_read_only(ReadOnlyMode(frozenset({ReadOnlySource.TOGGLED})))
    assert state.session.client.read_only
    assert state.user_context == UserContext(username="ann", read_only=True)
    assert state.user == UserContext(username="ann")  # as the API said
    assert changes == ["user", "user"]
    asyncio.run(state.session.aclose())


def test_health_is_connecting_until_an_answer_and_unreachable_from_the_first_failed_try() -> None:
    state = AccountState.open(session("alpha"), ReadOnlyMode())
    assert state.health == "connecting" and state.last_refresh is None
    # The client reports each retry through the hooks the state set on it.
    assert state.session.client.on_retry is not None
    state.session.client.on_retry(ConnectFailure("GET", "/profile", "refused", sent=False), 0.5)
    assert state.health == "unreachable"
    assert state.retry_text == "cannot connect: retrying GET /profile in 0.5 s"
    state.failed(ConnectFailure("GET", "/profile", "refused", sent=False))
    assert (state.health, state.retry_text) == ("unreachable", "")
    state.answered()
    assert state.health == "online" and state.last_refresh is None
    state.succeeded()
    assert state.last_refresh is not None
    asyncio.run(state.session.aclose())


def test_a_timeout_is_unreachable_only_before_the_account_ever_answered() -> None:
    timeout = TimeoutFailure("GET", "/volumes", "read timeout", sent=True)
    fresh = AccountState.open(session("alpha"), ReadOnlyMode())
    fresh.retrying(timeout, 1.0)
    assert fresh.health == "unreachable"
    known = AccountState.open(session("beta"), ReadOnlyMode())
    known.succeeded()
    known.retrying(timeout, 1.0)
    assert known.health == "retrying"  # it answered before: this one is being retried
    known.failed(Forbidden(403, "GET", "/volumes"))
    assert known.health == "retrying"  # a refusal says nothing about the API's health
    known.failed(ServerError(503, "GET", "/volumes"))
    assert known.health == "error"
    for state in (fresh, known):
        asyncio.run(state.session.aclose())


def test_a_detached_state_tells_nobody() -> None:
    changes: list[StateChange] = []
    state = AccountState.open(session("alpha"), ReadOnlyMode(), changes.append)
    state.succeeded()
    state.detach()
    state.retrying(ConnectFailure("GET", "/x", "refused", sent=False), 1.0)  # a late report
    assert changes == ["health"]
    asyncio.run(state.session.aclose())


def test_the_overview_says_nothing_needs_attention_only_when_everything_loaded() -> None:
    everything = OverviewData(parts={"instances": [], "volumes": []})
    assert attention_note(everything, found=0, done=True) == ["Nothing needs attention."]
    assert attention_note(everything, found=0, done=False) == ["Looking…"]
    assert attention_note(everything, found=2, done=True) == [
        "enter opens the list filtered to those items"
    ]

    unreachable = "The API is unreachable: refused."
    part = OverviewData(
        parts={"instances": []},
        errors={"volumes": unreachable, "pools": "Not allowed: \x1b[2Jno."},
    )
    assert attention_note(part, found=0, done=True) == [
        "Nothing needs attention in the lists that loaded.",
        f"✖ Not loaded: Volumes. {unreachable}",
        "✖ Not loaded: Kubernetes pools. Not allowed: ␛[2Jno.",  # the server's words, inert
        "r loads everything again.",
    ]
    nothing = OverviewData(errors={"instances": unreachable, "types": unreachable})
    assert attention_note(nothing, found=0, done=True) == [
        f"✖ Not loaded: Instances, Instance types. {unreachable}",
        "r loads everything again.",
    ]
    assert attention_note(nothing, found=0, done=False) == [
        "Looking…",
        f"✖ Not loaded: Instances, Instance types. {unreachable}",
    ]


def test_fanout_sessions_follow_read_only_and_the_app_account_as_they_change() -> None:
    read_only = {"beta": False}
    first = session("alpha")
    current = [first]

    def opener(_settings: Settings, name: str) -> Session:
        return session(name)

    sessions = FanoutSessions(
        SETTINGS, lambda: current[0], opener, read_only=lambda n: read_only.get(n, False)
    )
    beta = sessions.session("beta")
    assert not beta.client.read_only
    read_only["beta"] = True
    sessions.follow_read_only()
    assert beta.client.read_only
    read_only["beta"] = False
    assert sessions.session("beta") is beta and not beta.client.read_only
    assert sessions.session("alpha") is current[0]
    current[0] = session("gamma")  # the app moved: alpha is no longer its own
    alpha = sessions.session("alpha")
    assert alpha is not current[0] and alpha.profile_name == "alpha"
    asyncio.run(sessions.aclose())
    for own in (first, current[0]):
        asyncio.run(own.aclose())
