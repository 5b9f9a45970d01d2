"""``:fanout``: the command, its completion, and the sessions of the accounts it lists."""

from __future__ import annotations

from pydantic import SecretStr

from tui.accounts.fanout import (
    ACCOUNT_FIELD,
    FanoutRequest,
    FanoutSessions,
    complete_fanout,
    fanout_spec,
    own_item,
    parse_fanout_command,
)
from tui.resources.areas import SPECS
from tui.resources.filter_query import compile_query, parse
from tui.session.config import Profile, Settings
from tui.session.runtime import Session

SETTINGS = Settings(
    profiles={
        "alpha": Profile(base_url="https://a.example/v4"),
        "beta": Profile(base_url="https://b.example/v4", read_only=True),
    }
)


def test_the_command_names_an_area_and_optionally_profiles() -> None:
    request = parse_fanout_command("fanout instances", SETTINGS)
    assert request == FanoutRequest(SPECS["compute.instances"], ("alpha", "beta"))
    request = parse_fanout_command(":fanout k8s beta", SETTINGS)
    assert request == FanoutRequest(SPECS["k8s.clusters"], ("beta",))
    assert parse_fanout_command("instances", SETTINGS) is None


def test_a_wrong_area_or_profile_is_explained() -> None:
    assert "Usage" in str(parse_fanout_command("fanout", SETTINGS))
    assert "No fanout list of 'images'" in str(parse_fanout_command("fanout images", SETTINGS))
    assert "No profile named gamma" in str(parse_fanout_command("fanout volumes gamma", SETTINGS))


def test_completion_offers_areas_then_profiles_not_yet_named() -> None:
    assert complete_fanout("fanout vo", ["alpha"]) == ["fanout volumes"]
    assert complete_fanout("fanout volumes ", ["alpha", "beta"]) == [
        "fanout volumes alpha",
        "fanout volumes beta",
    ]
    assert complete_fanout("fanout volumes alpha ", ["alpha", "beta"]) == [
        "fanout volumes alpha beta"
    ]
    assert complete_fanout("account ", ["alpha"]) == []


def test_the_account_column_comes_first_and_the_filter_finds_it() -> None:
    spec = fanout_spec(SPECS["volumes"])
    assert spec.columns[0].title == "Account"
    item = {"id": 1, "label": "pg-data", ACCOUNT_FIELD: "beta"}
    matcher = compile_query(parse("account:beta"), spec)
    assert matcher(item, (), "") and not matcher({**item, ACCOUNT_FIELD: "alpha"}, (), "")
    assert own_item(item) == {"id": 1, "label": "pg-data"}


def test_sessions_open_once_read_only_as_the_profile_says_and_close_their_own() -> None:
    import asyncio

    opened: list[str] = []
    closed: list[str] = []

    def opener(settings: Settings, name: str) -> Session:
        opened.append(name)
        session = Session.for_profile(settings, name, f"https://{name}.example/v4", SecretStr("t"))

        async def aclose() -> None:
            closed.append(name)

        session.aclose = aclose  # type: ignore[method-assign]
        return session

    current = Session.for_profile(SETTINGS, "alpha", "https://a.example/v4", SecretStr("t"))
    seen: list[str] = []
    sessions = FanoutSessions(
        SETTINGS, lambda: current, opener, on_open=lambda s: seen.append(s.profile_name)
    )
    assert sessions.session("alpha") is current
    beta = sessions.session("beta")
    assert sessions.session("beta") is beta
    assert (opened, seen, beta.client.read_only) == (["beta"], ["beta"], True)
    asyncio.run(sessions.aclose())
    assert closed == ["beta"]
    asyncio.run(current.aclose())
