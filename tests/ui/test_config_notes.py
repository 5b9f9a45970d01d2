"""At start the app names the config file's unknown keys, each with the nearest valid one."""

from __future__ import annotations

import re
from pathlib import Path

from screens.binding_ids import binding_ids
from tests.ui.helpers import demo_session, settle
from tui.app import CloudApp
from tui.session.config import config_path, load_settings
from tui.session.config_checks import THEMES


async def test_unknown_settings_and_keymap_ids_are_notified_at_start() -> None:
    config_path().write_text(
        'start_area = "instances"\n'
        'theem = "nord"\n'
        "[refresh]\nslow = 3600\nfast = 60\nmax_backof = 60\n"
        '[keymap]\n"app.quitt" = "ctrl+q"\n"list.refresh" = "f5"\n'
    )
    settings = load_settings()
    session = demo_session()
    app = CloudApp(settings, session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        notes = [message for title, message in app.notification_log if title == "Config file"]
    assert notes == [
        "line 2: unknown setting theem (it is ignored); did you mean theme?",
        "line 6: unknown setting refresh.max_backof (it is ignored); did you mean max_backoff?",
        '[keymap] "app.quitt" is not a binding id (it is ignored); did you mean app.quit?',
    ]


async def test_plugins_aliases_and_hotkeys_are_checked_at_start() -> None:
    config_path().write_text(
        '[aliases]\nbad = "instnces"\n[hotkeys]\n"?" = ":log"\n'
        '[[plugins]]\nkey = "Z"\nareas = ["instances"]\ntitle = "Mine"\n'
        'command = ["no-such-program-xyz", "{label}"]\n'
    )
    app = CloudApp(load_settings(), demo_session())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        notes = [message for title, message in app.notification_log if title == "Config file"]
    assert notes == [
        "line 2: [aliases] bad stands for 'instnces', but instnces is not a command; "
        "did you mean instances?",
        'line 4: [hotkeys] "?" is the key of app.help already',
        "line 9: [[plugins]] 'Mine': no-such-program-xyz is not installed",
    ]


async def test_a_valid_config_says_nothing() -> None:
    session = demo_session(keymap={"app.help": "f1", "compute.reboot": "ctrl+r"})
    app = CloudApp(session.settings, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not [t for t, _m in app.notification_log if t == "Config file"]


def test_every_binding_id_in_the_code_is_known() -> None:
    # Bindings made anywhere (class BINDINGS, module constants, spec actions) must be found,
    # or a correct [keymap] entry would be reported as a typo.
    root = Path(__file__).resolve().parents[2]
    written: set[str] = set()
    for folder in ("screens", "widgets", "tui"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for call in re.finditer(r"Binding\((?:[^()]|\([^()]*\))*\)", text):
                written.update(re.findall(r'\bid="([^"]+)"', call.group(0)))
    assert written, "the scan found no bindings"
    assert written <= binding_ids(), sorted(written - binding_ids())
    assert "compute.reboot" in binding_ids()  # a spec action


def test_the_config_knows_the_same_themes_as_the_app() -> None:
    # The config file is checked without Textual: its list of themes must be the app's.
    app = CloudApp(demo_session().settings, None)
    assert set(app.available_themes) == THEMES
