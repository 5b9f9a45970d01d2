"""A paste's line breaks arrive as CR (that is how a terminal sends them) and an editor may save
CRLF; what a multi-line input or an edited text sends, and shows, ends its lines in LF."""

from __future__ import annotations

import ast
import datetime
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import TextArea

from screens.actions import run_action
from screens.confirm import ConfirmModal
from screens.form import FormModal
from tests.ui.fake_tools import make_fake
from tests.ui.helpers import make_app, open_area, settle, started, wait_for_screen
from tui.resources.loadbalancers import CONFIGS
from tui.simulator import registry
from widgets.form_inputs import MultilineInput, PemSecretInput

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = 10452
"""A demo deployment script (its text starts with ``#!/bin/bash`` and restarts ssh)."""
SEND_DEADLINE = 30.0
"""Seconds the form may take to send and close (a loaded machine included)."""


def key_and_certificate() -> tuple[str, str]:
    """A fresh private key and a self-signed certificate of it, both PEM with LF line ends."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pasted.example")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    return key_pem, certificate.public_bytes(serialization.Encoding.PEM).decode()


def openssl_problem(openssl: str, key: str, path: Path) -> str:
    """What ``openssl pkey`` says of ``key`` written as it is to ``path`` ('' when it reads it)."""
    path.touch(mode=0o600)
    path.write_text(key + "\n", encoding="ascii", newline="")  # no line ends translated
    checked = subprocess.run(
        [openssl, "pkey", "-noout", "-in", str(path)], capture_output=True, text=True, check=False
    )
    return "" if checked.returncode == 0 else checked.stderr or f"status {checked.returncode}"


def as_terminal_paste(text: str) -> str:
    """``text`` as a terminal delivers a paste of it: every line break a CR."""
    return text.replace("\n", "\r")


async def test_a_cr_only_key_pasted_into_the_balancer_config_form_is_one_openssl_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed: it is the judge of the key that was sent")
    key, certificate = key_and_certificate()
    app = make_app()  # its simulator registers the handlers
    received: list[dict[str, Any]] = []
    create = registry.HANDLERS["loadbalancers.configs.create"]

    def recording(ctx: Any) -> Any:
        received.append(ctx.body)  # the body as the simulator received it
        return create(ctx)

    monkeypatch.setitem(registry.HANDLERS, "loadbalancers.configs.create", recording)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await open_area(pilot, "loadbalancers")
        balancer = app.session.simulator.store.rows("loadbalancers.balancers")[0]
        action = next(a for a in CONFIGS.actions if a.id == "loadbalancers.config_create")
        host = app.screen
        host.run_worker(
            run_action(host, CONFIGS, action, None, {"loadbalancerId": balancer["id"]}),
            exit_on_error=False,
        )
        modal: FormModal = await wait_for_screen(pilot, FormModal)
        await pilot.pause()
        form = modal.model_form
        form.set_value("port", "8443")
        form.set_value("protocol", "https")
        await pilot.pause()
        key_input = form.widget_for("ssl_key")
        certificate_input = form.widget_for("ssl_cert")
        assert isinstance(key_input, PemSecretInput)
        assert isinstance(certificate_input, MultilineInput)
        for widget, text in ((certificate_input, certificate), (key_input, key)):
            widget.focus()
            await pilot.pause()
            app.post_message(events.Paste(as_terminal_paste(text)))
            await pilot.pause()
        assert "\r" not in form.values()["ssl_key"]  # what the input holds (and shows)
        await pilot.press("ctrl+s")
        deadline = time.monotonic() + SEND_DEADLINE
        while modal.is_attached and time.monotonic() < deadline:
            await pilot.pause()
        if modal.is_attached:
            errors = {f.name: form.error_text(f.name) for f in form.form.fields}
            raise AssertionError(f"not sent: { {k: v for k, v in errors.items() if v} }")
        await settle(pilot)

    assert len(received) == 1
    sent_key, sent_certificate = received[0]["ssl_key"], received[0]["ssl_cert"]
    assert "\r" not in sent_key and "\r" not in sent_certificate
    assert openssl_problem(openssl, sent_key, tmp_path / "sent-key.pem") == ""
    assert sent_certificate == certificate.strip()


class _Editor(App[None]):
    def compose(self) -> ComposeResult:
        yield MultilineInput("first\r\nsecond\rthird", id="text")


async def test_a_multiline_input_ends_its_lines_in_lf_however_text_comes_in() -> None:
    app = _Editor()
    async with app.run_test() as pilot:
        area = app.query_one(MultilineInput)
        assert area.text == "first\nsecond\nthird"  # loaded with CRLF and CR
        area.text = "a\r\nb"  # as an editor hand-off or a prefilled value puts it back
        assert area.text == "a\nb"
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.pause()
        app.post_message(events.Paste("\rc\rd\r"))  # a terminal's paste
        await pilot.pause()
        assert area.text == "a\nb\nc\nd\n"
        assert area.document.line_count == 5  # shown on lines of their own


def _bare_text_areas(path: Path) -> list[int]:
    """Lines of ``path`` that make an editable ``TextArea`` (not a :class:`MultilineInput`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else None
        name = node.func.attr if isinstance(node.func, ast.Attribute) else name
        read_only = any(
            k.arg == "read_only" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in node.keywords
        )
        if name == "TextArea" and not read_only:
            found.append(node.lineno)
    return found


def test_every_editable_text_area_is_a_multiline_input() -> None:
    """A text area the user types or pastes into sends LF: a new one cannot be a bare one."""
    bare = {
        str(path.relative_to(ROOT)): lines
        for folder in ("screens", "widgets", "tui")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (lines := _bare_text_areas(path))
    }
    assert bare == {}, f"use widgets.form_inputs.MultilineInput instead of TextArea: {bare}"
    assert issubclass(MultilineInput, TextArea)


async def test_a_script_an_editor_saved_with_cr_line_ends_is_sent_with_lf(
    fake_bin: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir, log_dir = fake_bin
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "fake-editor")
    # An editor set to write CRLF (or old Mac CR) line ends: the edited lines end that way.
    edits = [("#!/bin/bash\n", "#!/bin/bash\r"), ("systemctl restart ssh\n", "reboot\r\n")]
    make_fake(bin_dir, "fake-editor", log_dir, edits=edits)
    app = make_app()
    async with started(app, (100, 30), handoffs=True) as pilot:
        pane = await open_area(pilot, "deployscripts")
        assert pane.table.move_cursor(str(SCRIPT))
        await pilot.press("E")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        view = {"deployscriptId": SCRIPT}
        sent = (await app.session.client.call("deployscripts.view", view, model=dict))["script"]
    assert sent.startswith("#!/bin/bash\n") and sent.endswith("reboot\n")
    assert "\r" not in sent
