"""``cloudtui check`` as a real process: exit statuses, the JSON against its documented schema,
silences from the command line, and a profile served over HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_cli_live import live_url  # noqa: F401  (fixture)
from tests.json_schema import errors
from tui.check.rules import BY_ID
from tui.simulator import DEMO_TOKENS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "check.md"

# Rules that make no network connection but to the API (certificates are read from the
# balancers themselves, at addresses no test may reach).
API_ONLY = ["--rule", "volume-unattached", "--rule", "dns-record-dangling"]


def schema() -> dict[str, Any]:
    """The JSON Schema in docs/check.md (its one ``json`` block)."""
    [block] = re.findall(r"```json\n(.*?)\n```", DOC.read_text(), re.S)
    return json.loads(block)


def cloudtui(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_demo_json_fits_the_documented_schema_and_holds_every_rule() -> None:
    done = cloudtui("--demo", "check", "--format", "json")
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert errors(document, schema()) == []
    assert document["exit_status"] == 1 and document["fail_on"] == "error"
    [account] = document["accounts"]
    assert account["account"] == "DEMO" and account["checked"] is True
    assert {f["rule"] for f in account["findings"]} == set(BY_ID)
    assert account["monthly_saving"] == 144.0


def test_the_schema_refuses_what_it_should() -> None:
    done = cloudtui("check", "--demo", "--format", "json", "--rule", "volume-unattached")
    document = json.loads(done.stdout)
    assert errors(document, schema()) == []
    document["accounts"][0]["findings"][0]["severity"] = "fatal"
    del document["accounts"][0]["counts"]
    found = errors(document, schema())
    assert any("severity" in e for e in found) and any("'counts' is missing" in e for e in found)


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["--rule", "k8s-upgrade-available", "--fail-on", "warning"], 0),  # info only
        (["--rule", "volume-unattached"], 0),  # warnings, failing on errors
        (["--rule", "volume-unattached", "--fail-on", "warning"], 1),
        (["--rule", "database-open-to-all"], 1),
    ],
)
def test_the_exit_status_follows_fail_on(args: list[str], status: int) -> None:
    done = cloudtui("check", "--demo", *args)
    assert done.returncode == status, done.stdout + done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--profile", "nowhere"],
        ["check", "--demo", "--rule", "no-such-rule"],
        ["check", "--demo", "--silence", "x:y:z"],
        ["check", "--demo", "--profile", "work"],
        ["check", "--demo", "--fail-on", "never"],
    ],
)
def test_usage_and_configuration_errors_are_2(args: list[str]) -> None:
    done = cloudtui(*args)
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.startswith(("cloudtui check:", "usage", "cloudtui"))


def _profile(base_url: str) -> None:
    path = Path(os.environ["CLOUDTUI_CONFIG"])
    path.write_text(f'default_profile = "live"\n\n[profiles.live]\nbase_url = "{base_url}"\n')


def test_an_account_without_a_token_could_not_be_checked(live_url: str) -> None:  # noqa: F811
    _profile(live_url)
    done = cloudtui("check", "--format", "json", *API_ONLY)
    assert done.returncode == 3, done.stderr
    [account] = json.loads(done.stdout)["accounts"]
    assert account["checked"] is False and "cloudtui login" in account["error"]


def test_a_served_account_is_checked_and_silenced_from_the_command_line(
    live_url: str,  # noqa: F811
) -> None:
    _profile(live_url)
    env = {"CLOUDTUI_TOKEN": DEMO_TOKENS["unrestricted"]}
    done = cloudtui("check", "--format", "json", "--fail-on", "warning", *API_ONLY, env=env)
    assert done.returncode == 1, done.stderr
    [account] = json.loads(done.stdout)["accounts"]
    assert account["account"] == "live" and account["counts"]["warning"] == 14
    target = account["findings"][0]["id"]

    silenced = cloudtui("check", "--silence", target, "--reason", "kept on purpose", *API_ONLY,
                        env=env)  # fmt: skip
    assert silenced.returncode == 0, silenced.stderr
    again = json.loads(cloudtui("check", "--format", "json", *API_ONLY, env=env).stdout)
    [account] = again["accounts"]
    assert [(f["id"], f["silenced"]) for f in account["silenced"]] == [(target, "kept on purpose")]
    assert account["counts"]["silenced"] == 1 and account["counts"]["warning"] == 13
    listed = cloudtui("check", "--silences", env=env)
    assert target in listed.stdout and "kept on purpose" in listed.stdout
    assert cloudtui("check", "--unsilence", target, env=env).returncode == 0
    assert cloudtui("check", "--unsilence", target, env=env).returncode == 2


def test_all_profiles_are_checked_each_on_its_own(live_url: str) -> None:  # noqa: F811
    path = Path(os.environ["CLOUDTUI_CONFIG"])
    path.write_text(
        f'[profiles.one]\nbase_url = "{live_url}"\n\n'
        '[profiles.two]\nbase_url = "http://127.0.0.1:9/v4"\n'
    )
    env = {"CLOUDTUI_TOKEN": DEMO_TOKENS["unrestricted"]}
    done = cloudtui("check", "--all-profiles", "--format", "json", *API_ONLY, env=env)
    # "two" answers nothing (port 9 on 127.0.0.1): the run could not check everything.
    assert done.returncode == 3, done.stderr
    accounts = {a["account"]: a for a in json.loads(done.stdout)["accounts"]}
    assert accounts["one"]["checked"] and accounts["one"]["counts"]["warning"] == 14
    assert accounts["two"]["checked"] is False and accounts["two"]["error"]
    assert accounts["two"]["findings"] == []
