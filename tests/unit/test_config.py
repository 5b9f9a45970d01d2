"""Configuration: defaults, overrides, precise errors, never overwritten when broken."""

from __future__ import annotations

import pytest

from tui.__main__ import main
from tui.session.config import (
    ConfigError,
    Profile,
    Settings,
    config_path,
    load_settings,
    save_settings,
)
from tui.session.config_keys import line_of, split_unknown


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


def test_unknown_keys_are_named_with_the_nearest_valid_one_and_ignored() -> None:
    config_path().write_text(
        'colour = "red"\n'
        'theem = "nord"\n'
        "[refresh]\n"
        "fsat = 3\n"
        '[profiles.work]\nbase_url = "https://a.test/v4"\nread_onyl = true\n'
    )
    settings = load_settings()  # unknown keys do not stop the program
    assert settings.theme == "textual-dark" and settings.profiles["work"].base_url
    found = {key.dotted: key for key in settings.unknown_keys}
    assert list(found) == ["colour", "theem", "refresh.fsat", "profiles.work.read_onyl"]
    assert [key.line for key in settings.unknown_keys] == [1, 2, 4, 7]
    assert found["theem"].nearest == "theme"
    assert found["refresh.fsat"].nearest == "fast"
    assert found["profiles.work.read_onyl"].nearest == "read_only"
    assert "did you mean theme?" in found["theem"].message()
    # Nothing close: the message lists what is valid there instead.
    assert found["colour"].nearest is None
    assert "default_profile" in found["colour"].message()


def test_valid_keys_come_from_the_settings_model() -> None:
    # A field added to a model (here, a profile's) is known without a list to update.
    _kept, unknown = split_unknown(
        {"profiles": {"p": dict.fromkeys(Profile.model_fields)}}, Settings
    )
    assert unknown == []
    _kept, unknown = split_unknown({"handoff": {"ssh": {"usr": "x"}}}, Settings)
    assert [(k.dotted, k.nearest) for k in unknown] == [("handoff.ssh.usr", "user")]


def test_every_bad_value_is_reported_at_once_in_file_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = config_path()
    path.write_text(
        "page_size = 5\n"  # line 1: too small
        'theme = "nord"\n'
        "[refresh]\n"
        "fast = 0.01\n"  # line 4: too small
        "slow = 30\n"
        "[handoff.ssh]\n"
        "port = 70000\n"  # line 7: not a port
    )
    with pytest.raises(ConfigError) as info:
        load_settings()
    problems = info.value.problems
    assert [p.line for p in problems] == [1, 4, 7]
    assert [p.problem.split(":")[0] for p in problems] == [
        "page_size",
        "refresh.fast",
        "handoff.ssh.port",
    ]
    with pytest.raises(SystemExit):
        main(["profiles"])
    err = capsys.readouterr().err
    assert (
        err.index("line 1: page_size")
        < err.index("line 4: refresh.fast")
        < err.index("line 7: handoff")
    )


def test_keys_are_found_on_their_lines_whatever_the_toml_spelling() -> None:
    lines = [
        "refresh.fast = 1",  # 1: dotted key at the top
        'keymap = { "app.quit" = "f10" }',  # 2: inline table
        "[profiles.'my.work']",  # 3: quoted table name
        "base_url = 1",  # 4
        "[handoff.ssh]",  # 5
        "command = []",  # 6
        "[handoff.k9s]",  # 7
        "command = []",  # 8: the same key in another table
    ]
    assert line_of(lines, ("refresh", "fast")) == 1
    assert line_of(lines, ("keymap", "app.quit")) == 2
    assert line_of(lines, ("profiles", "my.work", "base_url")) == 4
    assert line_of(lines, ("profiles", "my.work", "missing")) == 3  # a missing key: its table
    assert line_of(lines, ("handoff", "k9s", "command", 0)) == 8
    assert line_of(lines, ("handoff",)) == 5  # known only through its sub-tables
    assert line_of(lines, ("nowhere",)) is None


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


HAND_WRITTEN = """\
# cloudtui settings, edited by hand
theme = "nord"      # easy on the eyes
colour = "red"      # not a setting: kept as it is
page_size = 100     # the default, written out on purpose

[refresh]
# lists move slowly here
fast = 3 # seconds

[profiles.work]
base_url = "https://api.example.com/v4"  # production
shade = "blue"

[keymap]
"app.quitt" = "ctrl+q"  # a typo: kept
"""


def test_saving_changes_only_the_changed_keys() -> None:
    path = config_path()
    path.write_text(HAND_WRITTEN)
    settings = load_settings()
    settings.profiles["lab"] = Profile(base_url="http://127.0.0.1:8080/v4")
    settings.default_profile = "lab"
    save_settings(settings)
    text = path.read_text()
    # Everything that was there is still there, in the same order, comments included.
    before = [line for line in HAND_WRITTEN.splitlines() if line]
    assert [line for line in text.splitlines() if line in before] == before
    added = [line for line in text.splitlines() if line not in HAND_WRITTEN.splitlines()]
    assert [line for line in added if line] == [
        'default_profile = "lab"',
        "[profiles.lab]",
        'base_url = "http://127.0.0.1:8080/v4"',
    ]  # no defaults spelled out (refresh.slow, handoff, read_only ...)
    again = load_settings()
    assert again.profiles["lab"].base_url == "http://127.0.0.1:8080/v4"
    assert again.default_profile == "lab" and again.refresh.fast == 3

    # A change of a value keeps its inline comment; a removed profile goes, nothing else.
    again.refresh.fast = 4.5
    del again.profiles["lab"]
    again.default_profile = "work"
    save_settings(again)
    text = path.read_text()
    assert "fast = 4.5 # seconds" in text and "[profiles.lab]" not in text
    assert 'shade = "blue"' in text and '"app.quitt" = "ctrl+q"  # a typo: kept' in text
    assert (
        text.replace("fast = 4.5", "fast = 3").replace('default_profile = "work"\n', "")
        == HAND_WRITTEN
    )


def test_saving_a_new_file_writes_only_what_differs_from_the_defaults() -> None:
    settings = Settings(profiles={"p": Profile(base_url="https://a.test/v4")}, default_profile="p")
    save_settings(settings)
    assert config_path().read_text() == (
        'default_profile = "p"\n\n[profiles.p]\nbase_url = "https://a.test/v4"\n'
    )


def test_a_save_keeps_what_was_changed_in_the_file_meanwhile() -> None:
    path = config_path()
    path.write_text('[profiles.work]\nbase_url = "https://a.test/v4"\n')
    running = load_settings()  # the app holds these while the user edits the file
    path.write_text(path.read_text() + '\n[profiles.home]\nbase_url = "https://b.test/v4"\n')
    running.profiles["lab"] = Profile(base_url="https://c.test/v4")
    save_settings(running)
    assert set(load_settings().profiles) == {"work", "home", "lab"}
    # A second save compares with what the first wrote.
    del running.profiles["lab"]
    save_settings(running)
    assert set(load_settings().profiles) == {"work", "home"}


def test_one_run_names_every_problem_a_bad_base_url_and_an_unknown_theme_included(
    capsys: pytest.CaptureFixture[str],
) -> None:
    config_path().write_text(
        'theme = "nrod"\n'  # line 1: no such theme
        "page_size = 5\n"  # line 2: too small
        "[profiles.work]\n"
        'base_url = "http://api.example.com/v4"\n'  # line 4: plain http to a remote host
        "[profiles.lab]\n"
        'base_url = "https://lab.example.com"\n'  # line 6: no /v4
        "[profiles.local]\n"
        'base_url = "http://127.0.0.1:8080/v4"\n'  # fine: plain http to this machine
        "[refresh]\n"
        "fsat = 3\n"  # line 10: unknown, ignored, and said in the same run
    )
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert [(p.line, p.problem.split(":")[0]) for p in info.value.problems] == [
        (1, "theme"),
        (2, "page_size"),
        (4, "profiles.work.base_url"),
        (6, "profiles.lab.base_url"),
    ]
    assert "did you mean nord?" in info.value.problems[0].problem
    assert "plain http" in info.value.problems[2].problem
    assert "must end in /v4" in info.value.problems[3].problem
    with pytest.raises(SystemExit) as stopped:
        main(["profiles"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    shown = [line.strip() for line in err.splitlines()]
    assert [line.split(":")[0] for line in shown[1:-1]] == [
        "line 1",
        "line 2",
        "line 4",
        "line 6",
        "line 10",
    ]
    assert "unknown setting refresh.fsat" in shown[-2]


def test_a_theme_with_nothing_close_lists_the_themes() -> None:
    config_path().write_text('theme = "zzzzzz"\n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "the themes are" in info.value.problem and "textual-dark" in info.value.problem


def test_every_theme_and_a_base_url_to_this_machine_are_accepted() -> None:
    from tui.session.config_checks import THEMES

    for theme in sorted(THEMES):
        config_path().write_text(
            f'theme = "{theme}"\n[profiles.local]\nbase_url = "http://localhost:8080/v4"\n'
        )
        assert load_settings().theme == theme


def test_the_file_s_own_text_reaches_the_terminal_only_as_shown_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A profile named with escape sequences, and a base URL refused: the name is in the line.
    config_path().write_text(
        '[profiles."\\u001b]52;c;aGk=\\u0007x"]\nbase_url = "http://remote.example/v4"\n'
    )
    with pytest.raises(SystemExit):
        main(["profiles"])
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "␛]52;c;aGk=␇x" in err  # named as it is, made visible
