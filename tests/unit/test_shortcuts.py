"""Aliases and hotkeys: key names, resolution for the command line, and their checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.session.config import Profile, Settings, settings_from_text
from tui.shortcuts.commands import (
    alias_problems,
    command_problem,
    expand_alias,
    hotkey_commands,
    hotkey_problems,
)
from tui.shortcuts.config_check import extension_problems
from tui.shortcuts.keys import is_one_key, normalize_key


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("?", "question_mark"),
        (":", "colon"),
        ("#", "number_sign"),
        ("/", "slash"),
        ("P", "P"),
        ("p", "p"),
        ("Ctrl+G", "ctrl+g"),
        ("ctrl+1", "ctrl+1"),
        ("F5", "f5"),
        ("ctrl++", "ctrl+plus"),
    ],
)
def test_keys_are_named_as_bindings_name_them(key: str, name: str) -> None:
    assert normalize_key(key) == name


def test_one_key_only() -> None:
    assert is_one_key("ctrl+1") and is_one_key(",") and is_one_key("f6")
    assert not is_one_key("a,b") and not is_one_key("a b") and not is_one_key("foo+x")


PROFILE = '[profiles.work]\nbase_url = "https://api.example/v4"\n\n'
"""Three lines: a profile, so that ``:fanout`` has one."""


def _settings(**fields: object) -> Settings:
    profiles = {"work": Profile(base_url="https://api.example/v4")}
    return Settings(profiles=profiles, **fields)  # type: ignore[arg-type]


def test_an_alias_stands_for_its_command_and_keeps_the_words_after_it() -> None:
    aliases = {"prod": "fanout instances", "Stuff": ":volumes", "in": "volumes"}
    assert expand_alias(":prod work", aliases) == "fanout instances work"
    assert expand_alias("stuff", aliases) == "volumes"
    assert expand_alias(":in", aliases) == "in"  # a built-in word wins over an alias
    assert expand_alias(":instances", aliases) == "instances"


def test_hotkeys_map_normalised_keys_to_commands() -> None:
    assert hotkey_commands({"Ctrl+1": ":fanout instances", "f6": "log", "a b": ":x"}) == {
        "ctrl+1": "fanout instances",
        "f6": "log",
    }


def test_a_command_is_checked_like_the_command_line_reads_it() -> None:
    settings = _settings()
    assert command_problem("instances", settings) is None
    assert command_problem(":inst", settings) is None  # a unique prefix goes there too
    assert command_problem("fanout instances work", settings) is None
    assert command_problem("instnces", settings) == (
        "instnces is not a command; did you mean instances?"
    )
    assert "no profile named nope" in str(command_problem("account nope", settings))
    assert "no fanout list of 'instanes'" in str(command_problem("fanout instanes", settings))
    assert command_problem("volumes now", settings) == "volumes takes nothing after it"


def test_alias_problems_name_the_nearest_command(tmp_path: Path) -> None:
    text = (
        PROFILE + '[aliases]\nprod = "fanout instances"\nbad = "instnces"\n'
        'in = "volumes"\ndbs = "databases"\nchain = "prod"\n'
    )
    settings = settings_from_text(text, tmp_path / "config.toml")
    problems = [str(p) for p in alias_problems(settings, text)]
    assert problems == [
        "line 6: [aliases] bad stands for 'instnces', but instnces is not a command; "
        "did you mean instances?",
        "line 7: [aliases] in is a built-in command already: the built-in one is kept",
        "line 8: [aliases] dbs is a built-in word for that already: this alias is not needed",
        "line 9: [aliases] chain stands for prod, another alias: name a command instead",
    ]


def test_hotkey_problems_name_bad_keys_taken_keys_and_bad_commands(tmp_path: Path) -> None:
    text = (
        PROFILE + '[aliases]\nprod = "fanout instances"\n\n[hotkeys]\n"ctrl+1" = ":prod"\n'
        '"?" = ":log"\n"ctrl+2" = ":fanout instanes"\n"a b" = ":log"\n'
    )
    settings = settings_from_text(text, tmp_path / "config.toml")
    builtin = {"question_mark": frozenset({"app.help"})}
    problems = [str(p) for p in hotkey_problems(settings, builtin, text)]
    assert problems[0] == 'line 9: [hotkeys] "?" is the key of app.help already'
    assert problems[1].startswith("line 10: [hotkeys] \"ctrl+2\" runs ':fanout instanes', but no")
    assert problems[2] == 'line 11: [hotkeys] "a b" is not one key (ctrl+1, f6)'
    assert len(problems) == 3  # ctrl+1 runs an alias of a good command: fine


def test_every_problem_of_the_file_comes_in_line_order(tmp_path: Path) -> None:
    path = tmp_path / "config" / "config.toml"  # where the isolated CLOUDTUI_CONFIG points
    text = (
        '[hotkeys]\n"?" = ":log"\n\n[aliases]\nbad = "instnces"\n\n[[plugins]]\nkey = "Z"\n'
        'areas = ["instances"]\ntitle = "Nothing"\ncommand = ["no-such-program-xyz"]\n'
    )
    path.write_text(text)
    settings = settings_from_text(text, path)
    found = extension_problems(
        settings, lambda _program: None, lambda: {"question_mark": {"app.help"}}
    )
    assert [p.split(":")[0] for p in found] == ["line 2", "line 5", "line 11"]
