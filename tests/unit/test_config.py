"""Configuration: defaults, overrides, precise errors, never overwritten when broken."""

from __future__ import annotations

import pytest

from tui.__main__ import main
from tui.config import ConfigError, Profile, Settings, config_path, load_settings, save_settings


def test_missing_file_gives_defaults() -> None:
    settings = load_settings()
    assert settings.page_size == 100
    assert settings.max_concurrency == 24
    assert settings.refresh.fast == 2.5 and settings.refresh.slow == 30
    assert settings.profiles == {}


def test_env_override_is_used(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "elsewhere.toml"
    monkeypatch.setenv("CLOUDTUI_CONFIG", str(target))
    assert config_path() == target


def test_round_trip() -> None:
    settings = Settings(
        default_profile="work",
        profiles={"work": Profile(base_url="https://api.example.com/v4")},
        theme="nord",
        keymap={"app.quit": "ctrl+q,f10"},
    )
    save_settings(settings)
    loaded = load_settings()
    assert loaded == settings


def test_toml_syntax_error_names_file_and_line() -> None:
    path = config_path()
    path.write_text('theme = "nord"\npage_size = = 3\n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert info.value.path == path
    assert info.value.line == 2
    assert str(path) in str(info.value) and "line 2" in str(info.value)


def test_invalid_value_names_the_field_and_line() -> None:
    path = config_path()
    path.write_text('theme = "nord"\n\n[refresh]\nfast = 0.01\n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert info.value.line == 4
    assert "refresh.fast" in info.value.problem


def test_unknown_key_is_reported() -> None:
    config_path().write_text('colour = "red"\n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "colour" in info.value.problem
    assert info.value.line == 1


def test_broken_config_exits_2_and_is_not_overwritten(capsys: pytest.CaptureFixture[str]) -> None:
    path = config_path()
    original = "page_size = [oops\n"
    path.write_text(original)
    with pytest.raises(SystemExit) as info:
        main(["profiles"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert str(path) in err and "line 1" in err
    assert path.read_text() == original


def test_bad_profile_name_is_refused() -> None:
    config_path().write_text('[profiles."bad name!"]\nbase_url = "https://a.test/v4"\n')
    with pytest.raises(ConfigError):
        load_settings()
