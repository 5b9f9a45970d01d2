"""``cloudtui doctor`` against a served simulator, a wrong URL, a bad token and no keyring."""

from __future__ import annotations

import json
from typing import Any

import keyring
import pytest
from keyring.backends import fail

from tests.conftest import MemoryKeyring
from tests.integration.test_cli_live import free_port, live_url  # noqa: F401 - fixture
from tui.__main__ import main
from tui.session.auth import KEYRING_SERVICE, TokenSource, store_token
from tui.session.config import Profile, Settings, save_settings
from tui.simulator import DEMO_TOKENS


def configure(base_url: str, name: str = "lab") -> None:
    save_settings(Settings(default_profile=name, profiles={name: Profile(base_url=base_url)}))


def doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["doctor", "--json", *args])
    report = json.loads(capsys.readouterr().out)
    return code, {c["name"]: c for c in report["checks"]} | {"ok": report["ok"]}


@pytest.fixture(autouse=True)
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")  # the suite may run without a terminal


def test_doctor_passes_against_a_served_simulator(
    live_url: str,  # noqa: F811
    isolated_home: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(live_url)
    isolated_home.entries[(KEYRING_SERVICE, "lab")] = DEMO_TOKENS["unrestricted"]
    code, checks = doctor(capsys)
    assert code == 0 and checks["ok"]
    assert checks["API reachable"]["status"] == "ok"
    assert checks["token"]["status"] == "ok" and "demo" in checks["token"]["detail"]
    assert checks["token source"]["detail"] == str(TokenSource.KEYRING)
    assert checks["token scopes"]["status"] == "ok"
    assert checks["clock"]["status"] == "ok"
    assert checks["keyring"]["status"] == "ok"
    assert checks["tool: ssh"]["status"] in ("ok", "warn")
    if checks["tool: ssh"]["status"] == "warn":
        assert "openssh-client" in checks["tool: ssh"]["remedy"]
    assert DEMO_TOKENS["unrestricted"] not in json.dumps(checks)


def test_a_read_only_token_shows_the_areas_it_cannot_read(
    live_url: str,  # noqa: F811
    isolated_home: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(live_url)
    isolated_home.entries[(KEYRING_SERVICE, "lab")] = DEMO_TOKENS["readonly"]
    code, checks = doctor(capsys, "--profile", "lab")
    scopes = checks["token scopes"]
    assert scopes["status"] in ("ok", "warn") and "can read:" in scopes["detail"]
    assert code == 0  # a token that reads less is worth a warning, not a failure


def test_a_wrong_url_fails_with_a_remedy(
    isolated_home: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(f"http://127.0.0.1:{free_port()}/v4")  # nothing listens there
    isolated_home.entries[(KEYRING_SERVICE, "lab")] = DEMO_TOKENS["unrestricted"]
    code, checks = doctor(capsys)
    assert code == 1 and not checks["ok"]
    reach = checks["API reachable"]
    assert reach["status"] == "fail" and "does not answer" in reach["detail"]
    assert "base URL" in reach["remedy"]
    assert "token" not in checks  # not tried without an API


def test_a_bad_token_fails_with_a_remedy(
    live_url: str,  # noqa: F811
    isolated_home: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(live_url)
    isolated_home.entries[(KEYRING_SERVICE, "lab")] = "not-a-real-token"
    code, checks = doctor(capsys)
    assert code == 1
    assert checks["API reachable"]["status"] == "ok"
    assert checks["token"]["status"] == "fail" and "rejected" in checks["token"]["detail"]
    assert "cloudtui login" in checks["token"]["remedy"]


def test_no_keyring_is_explained_and_a_file_token_still_works(
    live_url: str,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(live_url)
    keyring.set_keyring(fail.Keyring())
    code, checks = doctor(capsys)
    assert checks["keyring"]["status"] == "warn"
    assert "no usable keyring" in checks["keyring"]["detail"]
    assert "--store file" in checks["keyring"]["remedy"]
    assert checks["token"]["status"] == "fail" and code == 1  # nowhere to find the token

    from pydantic import SecretStr

    store_token("lab", SecretStr(DEMO_TOKENS["unrestricted"]), TokenSource.FILE)
    code, checks = doctor(capsys)
    assert checks["keyring"]["status"] == "warn"
    assert checks["token"]["status"] == "ok" and code == 0


def test_a_broken_config_file_fails_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.session.config import config_path

    path = config_path()
    path.write_text("[profiles.lab\nbase_url = 1\n")
    code, checks = doctor(capsys)
    assert code == 1
    assert checks["config file"]["status"] == "fail" and "line 1" in checks["config file"]["detail"]
