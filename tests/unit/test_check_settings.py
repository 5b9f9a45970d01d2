"""``[check] important_tags``: read from the config file, known to the unknown-key check."""

from __future__ import annotations

from pathlib import Path

from tui.session.config import Settings, settings_from_text


def test_important_tags_default_and_are_read(tmp_path: Path) -> None:
    assert Settings().check.important_tags == ["production"]
    path = tmp_path / "config.toml"
    settings = settings_from_text('[check]\nimportant_tags = ["prod", "billing"]\n', path)
    assert settings.check.important_tags == ["prod", "billing"]
    assert settings.unknown_keys == []


def test_a_misspelt_check_key_is_named_with_the_valid_one(tmp_path: Path) -> None:
    settings = settings_from_text('[check]\nimportant_tag = ["prod"]\n', tmp_path / "c.toml")
    [unknown] = settings.unknown_keys
    assert unknown.dotted == "check.important_tag" and unknown.nearest == "important_tags"
    assert unknown.line == 2
