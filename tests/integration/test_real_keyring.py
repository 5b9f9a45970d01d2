"""The token in a real Secret Service (gnome-keyring in its own D-Bus session).

Skipped, with the reason, when ``dbus-run-session``, ``gnome-keyring-daemon`` or
``secret-tool`` is missing or the daemon cannot be started (``.ci/run`` installs them when
apt-get is available). HOME and the XDG directories point into a temporary directory, so the
real home and keyring are never touched. See RECIPES.md, "Keyring".
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.test_bad_servers import Served
from tui.simulator import DEMO_TOKENS, Simulator

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("dbus-run-session", "gnome-keyring-daemon", "secret-tool", "dbus-send")

SESSION_SCRIPT = r"""
set -u
printf 'test-password' | gnome-keyring-daemon --foreground --unlock --components=secrets \
    >"$KEYRING_LOG" 2>&1 &
daemon=$!
for _ in $(seq 1 200); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null \
        | grep -q 'boolean true'; then
        break
    fi
    sleep 0.05
done
if ! dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null \
    | grep -q 'boolean true'; then
    echo "NO-SECRET-SERVICE"
    kill "$daemon" 2>/dev/null
    exit 0
fi
"$PYTHON" -m tests.integration.keyring_child "$BASE_URL"
status=$?
kill "$daemon" 2>/dev/null
wait "$daemon" 2>/dev/null
exit $status
"""


def _missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


@pytest.mark.skipif(
    bool(_missing_tools()),
    reason=f"no Secret Service to test against: missing {', '.join(_missing_tools())} "
    "(apt-get install gnome-keyring dbus libsecret-tools)",
)
def test_the_token_lives_in_the_secret_service_and_nowhere_else(tmp_path: Path) -> None:
    home = tmp_path / "home"
    runtime = tmp_path / "run"
    for d in (home, runtime):
        d.mkdir(mode=0o700)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_RUNTIME_DIR": str(runtime),
        "CLOUDTUI_CONFIG": str(home / ".config/cloudtui/config.toml"),
        "PYTHON": sys.executable,
        "PYTHONPATH": str(ROOT),
        "KEYRING_LOG": str(tmp_path / "keyring.log"),
        "TOKEN": DEMO_TOKENS["unrestricted"],
        "LANG": "C.UTF-8",
    }
    served = Served(Simulator())
    served.start()
    try:
        env["BASE_URL"] = served.url
        done = subprocess.run(
            ["dbus-run-session", "--", "bash", "-c", SESSION_SCRIPT],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        served.stop()
    if "NO-SECRET-SERVICE" in done.stdout:
        pytest.skip("gnome-keyring-daemon did not take the org.freedesktop.secrets bus name")
    lines = [line for line in done.stdout.splitlines() if line.startswith("REPORT ")]
    assert lines, f"no report; stdout={done.stdout[-2000:]!r} stderr={done.stderr[-2000:]!r}"
    report = json.loads(lines[-1][len("REPORT ") :])
    assert report["backend"] == "keyring.backends.SecretService", report
    assert report["login"] == 0 and report["in_secret_service"], report
    assert report["files_with_token"] == [], report
    assert report["app"] == {
        "source": report["app"]["source"],
        "prompted": False,
        "username": "demo",
    }, report
    assert "keyring" in report["app"]["source"].lower(), report
    assert report["logout"] == 0 and report["gone_after_logout"], report
    assert DEMO_TOKENS["unrestricted"] not in done.stdout + done.stderr
