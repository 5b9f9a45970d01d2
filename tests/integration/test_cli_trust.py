"""The command line as a user meets it: sim binds before it announces, flags are checked with
their ranges, help texts say what each command does, login edits the config file in place."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest

from tests.integration.test_cli_live import free_port, live_url  # noqa: F401 - fixture
from tui.__main__ import _parser, main
from tui.session.config import config_path, load_settings
from tui.simulator import DEMO_TOKENS


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port another program listens on (127.0.0.1)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        yield int(holder.getsockname()[1])


def sim_process(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tui", "sim", "--host", "127.0.0.1", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_busy_port_is_one_line_and_no_banner(busy_port: int) -> None:
    proc = sim_process("--port", str(busy_port))
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()  # only if it wrongly kept running
            proc.wait(timeout=10)
    assert proc.returncode == 1
    assert out == ""  # neither the address nor the tokens were announced
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"cannot listen on 127.0.0.1:{busy_port}" in err
    assert "address already in use" in err and "--port" in err


def test_port_0_announces_the_port_it_listens_on() -> None:
    proc = sim_process("--port", "0")
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().strip()
        prefix = "cloudtui simulator at http://127.0.0.1:"
        assert first.startswith(prefix) and first.endswith("/v4"), first
        port = int(first[len(prefix) : -len("/v4")])
        assert port != 0
        # Announced after binding: the address answers at once, without waiting.
        headers = {"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"}
        answer = httpx.get(f"http://127.0.0.1:{port}/v4/profile", headers=headers, timeout=10)
        assert answer.status_code == 200 and answer.json()["username"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--port", "99999"], "argument --port: 99999 is out of range: from 0 to 65535"),
        (["--port", "-1"], "argument --port: -1 is out of range"),
        (["--error-rate", "5"], "argument --error-rate: 5 is out of range: from 0 to 1"),
        (["--drop-rate", "-0.1"], "argument --drop-rate: -0.1 is out of range"),
        (["--lost-response-rate", "2"], "out of range: from 0 to 1"),
        (["--stall-rate", "1.5"], "out of range: from 0 to 1"),
        (["--speed", "0"], "argument --speed: 0 is out of range"),
        (["--latency", "-3"], "argument --latency: -3 is out of range: from 0 to 60 seconds"),
        (["--rate-limit", "0"], "argument --rate-limit: 0 is out of range: at least 1"),
        (["--scale", "many"], "argument --scale: 'many' is not a whole number"),
        (["--error-rate", "nan"], "argument --error-rate: 'nan' is not a number"),
    ],
)
def test_out_of_range_flags_are_refused_with_one_line(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["sim", *flags])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and said in captured.err
    assert captured.err.startswith("cloudtui sim: ")


def subcommand_parsers() -> dict[str, object]:
    actions = [a for a in _parser()._actions if a.dest == "command"]
    return dict(actions[0].choices)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["login", "logout", "profiles", "doctor", "sim"])
def test_each_command_help_starts_with_what_it_does(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([name, "--help"])
    text = capsys.readouterr().out
    description = text.split("\n\n")[1]  # after the usage
    assert description[0].isupper() and ". " in description + " ", description
    assert "SUB_" not in text and "_PROFILE" not in text  # no internal names


def test_every_sim_flag_says_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    sim = subcommand_parsers()["sim"]
    for action in sim._actions:  # type: ignore[attr-defined]
        if action.dest != "help":
            assert "(default" in (action.help or ""), action.dest
    for unit in ("seconds", "SHARE", "from 0 to 1", "FACTOR"):
        assert unit in sim.format_help()  # type: ignore[attr-defined]


def test_demo_scale_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "--demo-scale N" in text and "extra instances" in text


def test_logout_of_an_unknown_profile_fails_with_a_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["logout", "--profile", "ghost"]) == 1
    err = capsys.readouterr().err
    assert "no profile named 'ghost'" in err and "cloudtui profiles" in err


HAND_WRITTEN = """\
# my settings
theme = "nord"  # dark, but not too dark
colour = "red"  # not a setting

[refresh]
fast = 3  # seconds

[keymap]
"app.quitt" = "f10"
"""


def test_login_keeps_a_hand_written_config_file(
    live_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = config_path()
    path.write_text(HAND_WRITTEN)
    monkeypatch.setattr(sys, "stdin", io.StringIO(DEMO_TOKENS["unrestricted"] + "\n"))
    assert main(["login", "--profile", "lab", "--base-url", live_url]) == 0, capsys.readouterr()
    text = path.read_text()
    assert text.startswith(
        HAND_WRITTEN.replace("\n\n[refresh]", '\ndefault_profile = "lab"\n\n[refresh]')
    )
    assert text.endswith(f'[profiles.lab]\nbase_url = "{live_url}"\n')
    assert "slow" not in text and "handoff" not in text  # no defaults written out
    assert load_settings().profiles["lab"].base_url == live_url
