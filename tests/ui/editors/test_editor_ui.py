"""$EDITOR hand-offs: a deployment script's text, and a domain's records as a zone file.

A fake editor on PATH records the file it was given (text and mode, while it runs) and makes
planned replacements in it; the app must send only what the user confirmed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from screens.dialogs.confirm import ConfirmModal
from screens.editors.zone_edit import ZonePlanModal
from tests.ui.fake_tools import leftovers, make_fake, record
from tests.ui.helpers import make_app, open_area, settle, started, wait_for_screen, wait_until
from tui.dns.zone_text import record_line, render_zone_text

DOMAIN = 128400
SCRIPT = 10452


@pytest.fixture
def editor(fake_bin: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """``fake_bin``, with ``$EDITOR`` the ``fake-editor`` there."""
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "fake-editor")
    return fake_bin


async def records(app: Any) -> dict[int, dict[str, Any]]:
    page = await app.state.session.client.call(
        "domains.records.list", {"domainId": DOMAIN}, model=dict
    )
    return {r["id"]: r for r in page["data"]}


def line_of(text: str, record_id: int) -> str:
    return next(line for line in text.splitlines() if line.endswith(f"; id {record_id}"))


async def test_zone_edit_shows_a_plan_and_applies_it_record_by_record(
    editor: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = editor
    app = make_app()
    async with started(app, (100, 30), handoffs=True) as pilot:
        before = await records(app)
        text = render_zone_text("example.com", before.values())
        sip = line_of(text, 8630005)
        edits = [
            (sip, sip.replace("203.0.113.40", "203.0.113.41")),
            (line_of(text, 8630006) + "\n", ""),
            (
                "$ORIGIN example.com.\n",
                "$ORIGIN example.com.\nnew 300 IN A 198.51.100.9\n"
                "bad IN HINFO pc linux\n"
                "www IN CNAME elsewhere.example.net.\n",
            ),
        ]
        make_fake(bin_dir, "fake-editor", log_dir, edits=edits)
        pane = await open_area(pilot, "domains")
        assert pane.table.move_cursor(str(DOMAIN))
        screen = app.screen
        await pilot.press("E")
        modal = await wait_for_screen(pilot, ZonePlanModal)

        seen = record(log_dir, "fake-editor")
        (given,) = seen["files"].values()
        assert given["mode"] == 0o600 and given["text"] == text
        assert seen["argv"][1].endswith("example.com.zone")
        assert leftovers(tmp_path) == []  # removed as soon as the editor was done

        summaries = [c.summary() for c in modal.plan.changes]
        assert summaries[0] == "- " + " ".join(record_line(before[8630006]).split())
        assert summaries[1].startswith("~ sip 3600 IN A 203.0.113.41")
        assert "(target 203.0.113.40 -> 203.0.113.41)" in summaries[1]
        assert summaries[2:] == [
            "+ new 300 IN A 198.51.100.9",
            "+ www IN CNAME elsewhere.example.net.",
        ]
        assert [e.text for e in modal.plan.errors] == ["bad IN HINFO pc linux"]
        assert await records(app) == before  # nothing sent before the confirmation

        await pilot.press("y")
        await wait_until(pilot, lambda: modal.state == "done")
        assert (modal.applied, modal.failed) == (3, 1)  # www already has A/AAAA records
        refused = str(modal.query_one("#change-3", type(modal.query_one("#zone-title"))).render())
        assert refused.startswith("✗") and "www" in refused
        after = await records(app)
        assert 8630006 not in after
        assert after[8630005]["target"] == "203.0.113.41"
        assert any(r["name"] == "new" and r["target"] == "198.51.100.9" for r in after.values())
        assert not any(r["type"] == "CNAME" and r["name"] == "www" for r in after.values())

        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen


async def test_a_refused_type_change_puts_the_old_record_back(editor: tuple[Path, Path]) -> None:
    bin_dir, log_dir = editor
    app = make_app()
    async with started(app, (100, 30), handoffs=True) as pilot:
        before = await records(app)
        text = render_zone_text("example.com", before.values())
        www = line_of(text, 8630002)  # www A; www also has an AAAA, so a CNAME is refused
        edits = [(www, "www 3600 IN CNAME example.net.  ; id 8630002")]
        make_fake(bin_dir, "fake-editor", log_dir, edits=edits)
        pane = await open_area(pilot, "domains")
        assert pane.table.move_cursor(str(DOMAIN))
        await pilot.press("E")
        modal = await wait_for_screen(pilot, ZonePlanModal)
        assert [c.op for c in modal.plan.changes] == ["-", "+"]
        await pilot.press("y")
        await wait_until(pilot, lambda: modal.state == "done")
        assert (modal.applied, modal.failed) == (1, 1)
        shown = str(modal.query_one("#change-1", type(modal.query_one("#zone-title"))).render())
        assert "the old record was put back" in shown
        after = await records(app)
        www_a = [r for r in after.values() if r["type"] == "A" and r["name"] == "www"]
        assert [(r["target"], r["ttl_sec"]) for r in www_a] == [("203.0.113.10", 3600)]
        assert not any(r["type"] == "CNAME" and r["name"] == "www" for r in after.values())


async def test_zone_edit_again_keeps_the_text_and_only_what_failed_is_left(
    editor: tuple[Path, Path],
) -> None:
    bin_dir, log_dir = editor
    app = make_app()
    async with started(app, (100, 30), handoffs=True) as pilot:
        make_fake(
            bin_dir,
            "fake-editor",
            log_dir,
            edits=[("$ORIGIN example.com.\n", "$ORIGIN example.com.\nnew 300 IN A 198.51.100.9\n")],
        )
        pane = await open_area(pilot, "domains")
        assert pane.table.move_cursor(str(DOMAIN))
        await pilot.press("E")
        modal = await wait_for_screen(pilot, ZonePlanModal)
        await pilot.press("y")
        await wait_until(pilot, lambda: modal.state == "done")
        make_fake(bin_dir, "fake-editor", log_dir, edits=[])  # saves the text as it is
        await pilot.press("e")
        await settle(pilot)
        seen = record(log_dir, "fake-editor")
        (given,) = seen["files"].values()
        assert "new 300 IN A 198.51.100.9\n" in given["text"]  # the user's text, kept
        assert not isinstance(app.screen, ZonePlanModal)  # nothing left to do: no plan
        messages = [str(n.message) for n in app._notifications]
        assert "The zone text has no changes." in messages


async def test_script_text_is_edited_validated_confirmed_and_saved(
    editor: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = editor
    make_fake(bin_dir, "fake-editor", log_dir, edits=[("systemctl restart ssh\n", "reboot\n")])
    app = make_app()
    async with started(app, (100, 30), handoffs=True) as pilot:
        pane = await open_area(pilot, "deployscripts")
        assert pane.table.move_cursor(str(SCRIPT))
        await pilot.press("E")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "1 line(s) added, 1 removed" in confirm.message
        assert "-systemctl restart ssh\n+reboot" in confirm.preview
        (given,) = record(log_dir, "fake-editor")["files"].values()
        assert given["mode"] == 0o600 and given["text"].startswith("#!/bin/bash")
        assert leftovers(tmp_path) == []
        view = {"deployscriptId": SCRIPT}
        old = await app.state.session.client.call("deployscripts.view", view, model=dict)
        assert "systemctl restart ssh" in old["script"]  # not sent before the confirmation
        await pilot.press("y")
        await settle(pilot)
        new = await app.state.session.client.call("deployscripts.view", view, model=dict)
        assert new["script"].endswith("reboot\n") and "systemctl" not in new["script"]


async def test_an_invalid_script_is_refused_before_sending_and_can_be_edited_again(
    editor: tuple[Path, Path],
) -> None:
    bin_dir, log_dir = editor
    make_fake(bin_dir, "fake-editor", log_dir, edits=[("#!/bin/bash\n", "")])
    app = make_app()
    async with started(app, (100, 30), handoffs=True) as pilot:
        pane = await open_area(pilot, "deployscripts")
        assert pane.table.move_cursor(str(SCRIPT))
        await pilot.press("E")
        again = await wait_for_screen(pilot, ConfirmModal)
        assert "interpreter line" in again.message and again.confirm_label == "Edit again"
        first = '# <UDF name="ssh_port"'
        make_fake(bin_dir, "fake-editor", log_dir, edits=[(first, "#!/bin/sh\n" + first)])
        await pilot.press("y")
        await wait_until(
            pilot, lambda: isinstance(app.screen, ConfirmModal) and app.screen is not again
        )
        confirm = app.screen
        assert "Replace the script" in confirm.message
        (given,) = record(log_dir, "fake-editor")["files"].values()
        assert not given["text"].startswith("#!")  # the second edit started from the saved text
        await pilot.press("n")
        await settle(pilot)
        view = {"deployscriptId": SCRIPT}
        kept = await app.state.session.client.call("deployscripts.view", view, model=dict)
        assert kept["script"].startswith("#!/bin/bash")  # cancelled: nothing sent


async def test_preferences_ctrl_e_uses_the_same_editor_hand_off(
    editor: tuple[Path, Path], tmp_path: Path
) -> None:
    from screens.editors.preferences import PreferencesModal

    bin_dir, log_dir = editor
    make_fake(bin_dir, "fake-editor", log_dir, edits=[("{}", '{"theme": "light"}')])
    app = make_app()
    async with started(app, (100, 30), handoffs=True) as pilot:
        app.go_to_area("profile")
        await settle(pilot)
        await pilot.press("f")
        modal = await wait_for_screen(pilot, PreferencesModal)
        modal.editor.text = "{}"
        await pilot.press("ctrl+e")
        await wait_until(pilot, lambda: "light" in modal.editor.text)
        (given,) = record(log_dir, "fake-editor")["files"].values()
        assert given["mode"] == 0o600 and given["text"] == "{}\n"
        assert record(log_dir, "fake-editor")["argv"][-1].endswith("preferences.json")
        assert leftovers(tmp_path) == []
        assert app.screen is modal  # still the dialog: saving is the user's ctrl+s


async def test_a_new_script_is_written_in_the_editor_from_the_form(
    editor: tuple[Path, Path], tmp_path: Path
) -> None:
    from textual.widgets import TextArea

    from screens.actions.form import FormModal
    from tests.ui.helpers import open_form

    udf = '# <UDF name="pkg" label="Package" manyOf="nginx,curl" default="nginx" />\n'
    bin_dir, log_dir = editor
    make_fake(bin_dir, "fake-editor", log_dir, edits=[("echo hi\n", f"echo hi\n{udf}")])
    async with started(None, (80, 24), handoffs=True) as pilot:
        app = pilot.app
        form: FormModal = await open_form(pilot, "deployscripts")
        assert "ctrl+e $EDITOR" in form.hint
        area = form.model_form.widget_for("script")
        assert isinstance(area, TextArea)
        area.text = "#!/bin/sh\necho hi"  # no newline at the end
        area.focus()
        await pilot.pause()
        await pilot.press("ctrl+e")
        await wait_until(pilot, lambda: "UDF" in area.text)
        (given,) = record(log_dir, "fake-editor")["files"].values()
        assert given["text"] == "#!/bin/sh\necho hi\n" and given["mode"] == 0o600
        assert record(log_dir, "fake-editor")["argv"][-1].endswith("script.sh")
        assert leftovers(tmp_path) == []
        assert area.text == f"#!/bin/sh\necho hi\n{udf}" and app.screen is form
        form.model_form.set_value("label", "from the editor")
        form.model_form.set_value("images", ["any/all"])
        await pilot.press("ctrl+s")
        await settle(pilot)
        store = app.state.session.simulator.store
        made = next(
            s for s in store.rows("deployscripts.scripts") if s["label"] == "from the editor"
        )
        assert made["script"].endswith(udf)

        # Deployed with its fields: the multi-choice default reads "nginx", not "['nginx']".
        new_instance: FormModal = await open_form(pilot, "instances")
        model_form = new_instance.model_form
        model_form.set_value("image", "compute/debian12")
        model_form.set_value("stackscript_id", made["id"])
        await wait_until(pilot, lambda: model_form.form.field("stackscript_data.pkg"))
        pkg = model_form.form.field("stackscript_data.pkg")
        assert pkg is not None and "default nginx" in pkg.hint and "[" not in pkg.hint
        await pilot.press("escape")
        await settle(pilot)


def test_a_many_of_default_reads_as_a_list_of_names_in_the_script_detail() -> None:
    from tui.resources.udf import preview

    script = '#!/bin/sh\n# <UDF name="pkg" label="Package" manyOf="nginx,curl" default="nginx" />'
    assert "default nginx" in preview(script) and "'nginx'" not in preview(script)
