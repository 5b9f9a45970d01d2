"""``cloudtui doctor``: the demo's checks, a rejected token, unknown config keys, the editor
and the keyring, each said in one line with one line of fix."""

from __future__ import annotations

import json
from typing import Any

import keyring
import pytest
from keyring.backends import fail

from tests.conftest import MemoryKeyring
from tests.integration.test_cli_live import live_url  # noqa: F401 - fixture
from tui.__main__ import main
from tui.home.doctor import as_text, check_editor, check_keyring
from tui.session.auth import KEYRING_SERVICE
from tui.session.config import Profile, Settings, config_path, save_settings


def doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code = main([*args, "doctor", "--json"])
    return code, json.loads(capsys.readouterr().out)["checks"]


def named(checks: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [c for c in checks if c["name"] == name]


@pytest.fixture(autouse=True)
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")


@pytest.mark.parametrize("user", ["unrestricted", "restricted", "readonly"])
def test_the_demo_checks_its_own_set_up(user: str, capsys: pytest.CaptureFixture[str]) -> None:
    # No profile anywhere: the demo needs none.
    code, checks = doctor(capsys, "--demo", "--demo-user", user)
    assert code == 0, checks
    assert not named(checks, "profile") and not named(checks, "keyring")
    assert "no profile, token, keyring or network needed" in named(checks, "demo")[0]["detail"]
    token = named(checks, "demo token")[0]
    assert token["status"] == "ok" and token["detail"].startswith("valid: ")
    assert named(checks, "demo token scopes")
    # Either way round: ``cloudtui doctor --demo`` too.
    assert main(["--demo-user", user, "doctor", "--demo", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["checks"] == checks


def test_a_rejected_token_is_a_failure_with_its_fix_and_no_bare_401(
    live_url: str,  # noqa: F811
    isolated_home: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
) -> None:
    save_settings(Settings(default_profile="lab", profiles={"lab": Profile(base_url=live_url)}))
    isolated_home.entries[(KEYRING_SERVICE, "lab")] = "not-a-real-token"
    code, checks = doctor(capsys)
    assert code == 1
    reach = named(checks, "API reachable")[0]
    assert reach["status"] == "ok" and "401" not in reach["detail"]
    token = named(checks, "token")[0]
    assert token["status"] == "fail" and "401" in token["detail"]
    assert "cloudtui login --profile lab" in token["remedy"]


def test_unknown_settings_and_keymap_ids_are_warnings_with_the_nearest_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    config_path().write_text(
        'theem = "nord"\n[keymap]\n"app.quitt" = "ctrl+q"\n"app.help" = "f1"\n'
    )
    code, checks = doctor(capsys, "--demo")
    assert code == 0  # unknown keys are ignored: worth a warning, not a failure
    warnings = [c["detail"] for c in named(checks, "config key")]
    assert warnings == [
        "line 1: unknown setting theem (it is ignored); did you mean theme?",
        'line 3: [keymap] "app.quitt" is not a binding id (it is ignored); did you mean app.quit?',
    ]
    assert all(c["status"] == "warn" for c in named(checks, "config key"))


def test_plugins_aliases_and_hotkeys_are_checked_each_problem_one_warning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    config_path().write_text(
        '[aliases]\nbad = "instnces"\n\n[hotkeys]\n"?" = ":log"\n\n'
        '[[plugins]]\nkey = "e"\nareas = ["instnces", "instances"]\ntitle = "Mine"\n'
        'titel = "typo"\ncommand = ["no-such-program-xyz", "{label}"]\n'
    )
    code, checks = doctor(capsys, "--demo")
    assert code == 0  # worth a warning each, not a failure
    found = [c["detail"] for c in named(checks, "plugins and shortcuts")]
    assert found == [
        "line 2: [aliases] bad stands for 'instnces', but instnces is not a command; "
        "did you mean instances?",
        'line 5: [hotkeys] "?" is the key of app.help already',
        "line 8: [[plugins]] 'Mine': the key \"e\" is taken by compute.edit (instances), "
        "compute.config_edit (instances)",
        "line 9: [[plugins]] 'Mine': 'instnces' is not an area; did you mean instances?",
        "line 12: [[plugins]] 'Mine': no-such-program-xyz is not installed",
    ]
    unknown = [c["detail"] for c in named(checks, "config key")]
    assert unknown == [
        "line 11: unknown setting plugins[0].titel (it is ignored); did you mean title?"
    ]


def test_every_bad_value_of_the_config_is_in_the_report(
    capsys: pytest.CaptureFixture[str],
) -> None:
    config_path().write_text(
        'page_size = 1\ntheme = "nrod"\n[refresh]\nslow = 1\nfsat = 3\n'
        '[profiles.work]\nbase_url = "http://api.example.com/v4"\n'
    )
    code, checks = doctor(capsys)
    assert code == 1
    detail = named(checks, "config file")[0]["detail"]
    assert (
        detail.index("line 1: page_size")
        < detail.index("line 2: theme")
        < detail.index("line 4: refresh.slow")
        < detail.index("line 7: profiles.work.base_url")
    )
    # The key that would be ignored is named in the same run, not after the file is fixed.
    assert [c["detail"].split(":")[0] for c in named(checks, "config key")] == ["line 5"]


def test_the_report_shows_the_file_s_own_text_made_visible(
    capsys: pytest.CaptureFixture[str],
) -> None:
    config_path().write_text(
        '[profiles."\\u001b]52;c;aGk=\\u0007x"]\nbase_url = "http://remote.example/v4"\n'
    )
    assert main(["doctor", "--demo"]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "␛]52;c;aGk=␇x" in out


def which_of(*installed: str) -> Any:
    paths = {name: f"/usr/bin/{name}" for name in installed}
    return paths.get


def test_an_unset_editor_says_which_editor_is_used_instead() -> None:
    check = check_editor({}, which_of("nano", "vi"))
    assert check.status == "ok"
    assert check.detail.startswith(
        "$VISUAL and $EDITOR are not set: scripts and zone files open in nano"
    )
    missing = check_editor({}, which_of())
    assert missing.status == "warn" and "apt install nano" in missing.remedy
    assert check_editor({"EDITOR": "vim -p"}, which_of("vim")).detail == "$EDITOR=vim -p"
    absent = check_editor({"EDITOR": "emacs"}, which_of("nano"))
    assert absent.status == "warn" and "emacs is not found" in absent.detail
    configured = check_editor({"EDITOR": "vim"}, which_of("micro"), ["micro", "{file}"])
    assert configured.status == "ok" and "[handoff.editor]" in configured.detail
    # The hand-off could not start an editor it cannot split: doctor says so too.
    unreadable = check_editor({"EDITOR": "vim 'unclosed"}, which_of("vim"))
    assert unreadable.status == "warn" and "$EDITOR cannot be parsed" in unreadable.detail


def test_no_keyring_is_one_line_of_problem_and_one_of_fix() -> None:
    keyring.set_keyring(fail.Keyring())
    check = check_keyring()
    assert check.status == "warn"
    text = as_text([check]).splitlines()
    assert len(text) == 3  # problem, fix, and the summary line
    assert text[0].startswith("[WARN] keyring: no usable keyring")
    assert "--store file" in text[1] and "CLOUDTUI_TOKEN" in text[1]
    assert len(text[0]) <= 200 and len(text[1]) <= 120


def test_a_rejected_token_from_the_environment_is_fixed_there(
    live_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    save_settings(Settings(default_profile="lab", profiles={"lab": Profile(base_url=live_url)}))
    monkeypatch.setenv("CLOUDTUI_TOKEN", "not-a-real-token")
    code, checks = doctor(capsys)
    token = named(checks, "token")[0]
    assert code == 1 and token["status"] == "fail"
    assert "CLOUDTUI_TOKEN" in token["remedy"] and "login" not in token["remedy"]
