"""Keys are shown as pressed and as remapped: footer, ``?`` help, palette, Actions table."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from screens.details.resource_detail import ActionsPanel
from screens.shell.help import binding_rows
from screens.shell.palette import ActionCommands
from tests.ui.actions.test_compute_ui import instances, select
from tests.ui.helpers import demo_session, make_app, settle
from widgets.action_footer import ActionFooter
from widgets.key_names import key_label


def test_keys_read_as_pressed() -> None:
    assert key_label("number_sign") == "#"
    assert key_label("question_mark") == "?"
    assert key_label("ctrl+r") == "ctrl+r"
    assert key_label("ctrl+r", compact=True) == "^r"
    assert key_label("up,k") == "↑, k"
    assert key_label("R") == "R"
    assert key_label("") == ""


async def test_a_remapped_action_and_the_tag_key_read_as_pressed_everywhere() -> None:
    app = make_app(demo_session(keymap={"compute.reboot": "ctrl+r"}))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        labels = {item["status"]: item["label"] for item in pane.items.values()}
        await select(pilot, pane, labels["running"])
        await settle(pilot)

        footer = {
            k.description: k.key_display
            for k in app.screen.query_one(ActionFooter).query(FooterKey)
        }
        assert footer["Reboot"] == "^r"
        assert footer["Tag"] == "#"

        help_rows = {row[1]: row[0] for row in binding_rows(app.screen)}
        assert help_rows["Reboot"] == "ctrl+r"
        assert help_rows["Tag"] == "#"

        palette = {name: text for name, _run, text in ActionCommands(app.screen)._commands()}
        reboot = next(text for name, text in palette.items() if name.startswith("Reboot"))
        tag = next(text for name, text in palette.items() if name.startswith("Tag"))
        assert reboot.endswith("(key ctrl+r)")
        assert tag.endswith("(key #)")
        assert not any("number_sign" in text or "(key R)" in text for text in palette.values())

        await pilot.press("enter")  # the detail screen and its Actions table
        await settle(pilot)
        lines = app.screen.query_one(ActionsPanel).text().splitlines()
        assert any(line.startswith("ctrl+r  Reboot") for line in lines)
        assert any(line.startswith("#  ") for line in lines)
        assert not any(line.startswith(("R  Reboot", "number_sign")) for line in lines)
