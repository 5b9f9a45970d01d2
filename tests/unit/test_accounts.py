"""How accounts are named: the config's colour and read-only flag, and confirmations' titles."""

from __future__ import annotations

import pytest

from tui.accounts import AccountMark, account_mark, in_account
from tui.config import ConfigError, Profile, Settings, load_settings


def test_a_question_names_the_account_before_its_question_mark() -> None:
    assert in_account('Delete instance "web-1"?', "prod") == 'Delete instance "web-1" in prod?'
    assert in_account("Resize: this cannot be undone", "prod") == (
        "Resize: this cannot be undone (in prod)"
    )


def test_the_mark_comes_from_the_profile_and_unknown_names_are_plain() -> None:
    settings = Settings(
        profiles={"prod": Profile(base_url="https://a.example/v4", color="red", read_only=True)}
    )
    assert account_mark(settings, "prod") == AccountMark("prod", "red", True)
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
