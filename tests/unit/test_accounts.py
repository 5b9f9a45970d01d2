"""How accounts are named: the config's colour and read-only flag, and confirmations' titles."""

from __future__ import annotations

import re

import pytest
from pydantic import SecretStr

from tui.accounts.naming import AccountMark, account_mark, in_account
from tui.accounts.switch import (
    AccountUnavailable,
    complete_account,
    open_account,
    parse_account_command,
)
from tui.session.auth import ResolvedToken, TokenSource
from tui.session.config import ConfigError, Profile, Settings, load_settings


def test_a_question_names_the_account_before_its_question_mark() -> None:
    assert in_account('Delete instance "web-1"?', "prod") == 'Delete instance "web-1" in prod?'
    assert in_account("Resize: this cannot be undone", "prod") == (
        "Resize: this cannot be undone (in prod)"
    )


def test_the_mark_comes_from_the_profile_and_unknown_names_are_plain() -> None:
    settings = Settings(
        profiles={"prod": Profile(base_url="https://a.example/v4", color="red", read_only=True)}
    )
    assert account_mark(settings, "prod") == AccountMark("prod", "red")
    assert account_mark(settings, "DEMO") == AccountMark("DEMO")


def test_the_config_file_sets_colour_and_read_only(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[profiles.prod]\nbase_url = "https://a.example/v4"\ncolor = "red"\nread_only = true\n'
    )
    profile = load_settings(path).profiles["prod"]
    assert (profile.color, profile.read_only) == ("red", True)


def test_an_unknown_colour_is_a_config_error_naming_its_line(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[profiles.prod]\nbase_url = "https://a.example/v4"\ncolor = "#ff0000"\n')
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert "color" in caught.value.problem and caught.value.line == 3


def test_the_account_command_names_a_profile_or_asks_for_the_picker() -> None:
    assert parse_account_command("account Beta") == "Beta"
    assert parse_account_command(":account") == ""
    assert parse_account_command("accounts") is None
    assert parse_account_command("account a b") is None


def test_account_names_complete_after_the_command() -> None:
    names = ["alpha", "beta", "bravo"]
    assert complete_account("account b", names) == ["account beta", "account bravo"]
    assert complete_account("account ", names) == [f"account {n}" for n in names]
    assert complete_account("acc", names) == []


def test_opening_an_account_reads_only_its_token() -> None:
    settings = Settings(
        profiles={
            "alpha": Profile(base_url="https://a.example/v4"),
            "beta": Profile(base_url="https://b.example/v4"),
        }
    )
    asked: list[str] = []

    def resolve(name: str) -> ResolvedToken:
        asked.append(name)
        return ResolvedToken(SecretStr("t"), TokenSource.KEYRING)

    session = open_account(settings, "beta", resolve=resolve)
    assert (session.profile_name, session.client.host, asked) == ("beta", "b.example", ["beta"])


@pytest.mark.parametrize(
    ("profiles", "says"),
    [
        ({}, "No profile named 'beta'"),
        ({"beta": Profile(base_url="http://remote.example/v4")}, "Profile 'beta'"),
        ({"beta": Profile(base_url="https://b.example/v4")}, "cloudtui login --profile beta"),
    ],
)
def test_an_account_that_cannot_open_says_why(profiles: dict[str, Profile], says: str) -> None:
    def no_token(_name: str) -> ResolvedToken:
        return ResolvedToken(None, TokenSource.NONE)

    with pytest.raises(AccountUnavailable, match=re.escape(says)):
        open_account(Settings(profiles=profiles), "beta", resolve=no_token)
