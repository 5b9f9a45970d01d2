"""The confirmation's request preview scrolls from the keyboard at 80x24."""

from __future__ import annotations

from screens.dialogs.confirm import ConfirmModal, PreviewScroll, request_preview
from tests.ui.helpers import make_app, settle, wait_for_screen, wait_until


def _long_preview() -> str:
    return request_preview("POST", "/bulk", {"targets": [f"web-{i}" for i in range(60)]})


async def test_page_keys_scroll_the_preview_from_any_focus_and_vim_keys_once_tabbed() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(ConfirmModal("Delete 60", "Sent to each.", _long_preview()))
        modal = await wait_for_screen(pilot, ConfirmModal)
        await pilot.pause()
        box = modal.query_one("#confirm-preview-box", PreviewScroll)
        assert box.max_scroll_y > 0
        assert "pgdn/pgup" in str(modal.query_one("#confirm-hint").content)

        await pilot.press("pagedown")  # the focus is on Cancel
        assert box.scroll_y > 0
        await pilot.press("pageup")
        assert box.scroll_y == 0

        seen = []
        for _ in range(3):
            await pilot.press("tab")
            seen.append(app.focused)
        assert box in seen
        box.focus()
        await pilot.press("j", "j")
        assert box.scroll_y == 2
        await pilot.press("k")
        assert box.scroll_y == 1
        await pilot.press("end")
        assert box.scroll_y == box.max_scroll_y
        await pilot.press("home")
        assert box.scroll_y == 0
        assert isinstance(app.screen, ConfirmModal)


async def test_page_keys_scroll_the_preview_while_the_label_is_typed() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(ConfirmModal("Delete", "Gone.", _long_preview(), typed="web-1"))
        modal = await wait_for_screen(pilot, ConfirmModal)
        await pilot.pause()
        box = modal.query_one("#confirm-preview-box", PreviewScroll)
        await pilot.press("pagedown")
        assert box.scroll_y > 0
        assert modal.query_one("#confirm-typed").value == ""


async def test_a_hostile_label_can_neither_forge_nor_block_the_typed_confirmation() -> None:
    app = make_app()
    label = "web\x1b]52;c;aGk=\x07\x1b[2J\u202e-1"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(ConfirmModal("Delete instance", "Gone for good.", "DELETE /x", typed=label))
        modal = await wait_for_screen(pilot, ConfirmModal)
        await pilot.pause()
        # The prompt shows what to type, and nothing in it moves the terminal.
        prompt = str(modal.query("Static")[3].content)
        assert "web]52;c;aGk=[2J-1" in prompt and "\x1b" not in prompt
        # Typing the label less what no keyboard types (escape, bidi) confirms it.
        await pilot.press(*"web]52;c;aGk=[2J-1")
        assert modal.matches
        await pilot.press("enter")
        await pilot.pause()
        assert modal not in app.screen_stack


async def test_a_label_of_control_characters_alone_asks_for_a_word() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(ConfirmModal("Delete", "Gone.", "DELETE /x", typed="\x1b\x07\u202e"))
        modal = await wait_for_screen(pilot, ConfirmModal)
        await pilot.pause()
        assert not modal.matches  # an empty field never confirms
        await pilot.press(*"confirm")
        assert modal.matches


def test_a_certificate_in_a_preview_reads_line_by_line_and_its_key_stays_masked() -> None:
    from screens.dialogs.confirm import request_preview

    lines = ["-----BEGIN CERTIFICATE-----", "M" * 64, "N" * 20, "-----END CERTIFICATE-----"]
    pem = "\n".join(lines) + "\n"
    key = "-----BEGIN PRIVATE KEY-----\nSECRETKEY\n-----END PRIVATE KEY-----\n"
    body = {"protocol": "https", "ssl_cert": pem, "ssl_key": key}
    preview = request_preview("POST", "/loadbalancers/1/configs", body)
    shown_lines = preview.splitlines()
    # Each line of the certificate on a line of its own, nothing inserted: copied from the
    # screen it is the PEM that is sent.
    start = shown_lines.index(lines[0])
    assert shown_lines[start : start + 4] == lines
    assert '"ssl_cert": "(PEM, 4 lines: shown below)"' in preview
    assert "SECRETKEY" not in preview


def test_ssh_keys_in_a_preview_start_each_line_whole() -> None:
    from screens.dialogs.confirm import request_preview

    keys = ["ssh-ed25519 " + "A" * 68 + " alice@laptop", "ssh-rsa " + "B" * 372 + " alice@work"]
    preview = request_preview("POST", "/compute/instances", {"label": "x", "authorized_keys": keys})
    assert '"authorized_keys": "(2 keys: shown below)"' in preview
    assert preview.splitlines()[-2:] == keys  # unindented, one per line


async def test_a_long_label_and_a_long_request_leave_the_prompt_and_buttons_on_screen() -> None:
    app = make_app()
    label = "db-" + "W" * 500
    breaks = "\n".join(f"  - load balancer {label}" for _ in range(3))
    async with app.run_test(size=(80, 20)) as pilot:
        await settle(pilot)
        preview = f"{_long_preview()}\n\nWhat this breaks:\n{breaks}"
        app.push_screen(
            ConfirmModal(f"Delete {label}", "It breaks 3 things.", preview, typed=label)
        )
        modal = await wait_for_screen(pilot, ConfirmModal)
        inside = modal.query_one("#dialog").content_region

        def on_screen(selector: str) -> bool:
            region = modal.query_one(selector).region
            return region.height > 0 and inside.contains_region(region)

        kept = ("#confirm-typed", "#confirm-yes", "#confirm-hint")
        await wait_until(pilot, lambda: all(map(on_screen, kept)), seconds=10)
        # The user types the start of the label, not 500 characters.
        assert modal.typed == "db-" + "W" * 37
        await pilot.press(*modal.typed)
        await pilot.press("enter")
        await wait_until(pilot, lambda: modal not in app.screen_stack)
