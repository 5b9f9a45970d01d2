"""Runs inside ``dbus-run-session`` with a real gnome-keyring (see test_real_keyring.py).

Usage: ``TOKEN=... python -m tests.integration.keyring_child BASE_URL``. Logs in through the real CLI,
starts the app headless on the stored profile, logs out; prints one JSON line of findings.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

PROFILE = "lab"


def _secret_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["secret-tool", *args], capture_output=True, text=True, timeout=30, check=False
    )


def _files_holding(token: str, *roots: Path) -> list[str]:
    found = []
    for root in roots:
        for path in root.rglob("*"):
            if path.is_file() and not path.is_symlink():
                try:
                    if token.encode() in path.read_bytes():
                        found.append(str(path))
                except OSError:
                    continue
    return found


async def _start_app() -> dict[str, Any]:
    from screens.shell.login import LoginScreen
    from tests.waits import Deadline
    from tui.app import CloudApp
    from tui.session.auth import resolve_token
    from tui.session.config import load_settings
    from tui.session.runtime import Session

    settings = load_settings()
    resolved = resolve_token(PROFILE)
    assert resolved.token is not None, "no token found for the profile"
    base = settings.profiles[PROFILE].base_url
    session = Session.for_profile(settings, PROFILE, base, resolved.token)
    app = CloudApp(settings, session, profile_name=PROFILE, base_url=base)
    prompted = False
    username = ""
    async with app.run_test(size=(100, 30)) as pilot:
        deadline = Deadline()
        while not deadline.passed:
            prompted = prompted or isinstance(app.screen, LoginScreen)
            user = app.state.user_context
            if user is not None and user.username:
                username = user.username
                break
            await pilot.pause(0.02)
    await session.aclose()
    return {"source": str(resolved.source), "prompted": prompted, "username": username}


def main() -> int:
    import keyring

    from tui.__main__ import main as cli

    # The token comes in the environment of this throwaway session, never in argv.
    base_url, token = sys.argv[1], os.environ["TOKEN"]

    report: dict[str, Any] = {"backend": type(keyring.get_keyring()).__module__}
    sys.stdin = io.StringIO(token + "\n")
    report["login"] = cli(["login", "--profile", PROFILE, "--base-url", base_url])
    search = _secret_tool("lookup", "service", "cloudtui", "username", PROFILE)
    report["in_secret_service"] = search.stdout.strip() == token
    home = Path(os.environ["HOME"])
    report["files_with_token"] = _files_holding(token, home)
    report["app"] = asyncio.run(_start_app())
    report["logout"] = cli(["logout", "--profile", PROFILE])
    after = _secret_tool("lookup", "service", "cloudtui", "username", PROFILE)
    report["gone_after_logout"] = after.returncode != 0 and not after.stdout.strip()
    print("REPORT " + json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
