"""A hostile label never runs: real ``sh -c`` plugins, in the background and through the
hand-off's launch, with labels that a shell would execute if they were spliced into a script.

Each label tries to create a canary file; the plugin prints the label it got (as ``$1`` and as
``$CLOUDTUI_LABEL``). The label must come out unchanged and the canary must not exist.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tui.handoff.launch import prepared
from tui.plugins.run import prepare, run_background
from tui.plugins.settings import PluginSettings

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs sh")

SCRIPT = 'printf "%s\\n" "$1"; printf "%s\\n" "$CLOUDTUI_LABEL"; printf "%s\\n" $CLOUDTUI_ID'


def _labels(canary: Path) -> list[str]:
    touch = f"touch {canary}"
    return [
        f"x; {touch}",
        f"$({touch})",
        f"`{touch}`",
        f"'; {touch}; '",
        f'"; {touch}; "',
        f"x && {touch}",
        f"x | {touch}",
        f"x\n{touch}",
        f"$(curl evil) {{shell}} ~root; {touch}",
    ]


def _plugin(mode: str) -> PluginSettings:
    return PluginSettings(
        key="P",
        areas=["instances"],
        title="Echo the label",
        command=["sh", "-c", SCRIPT, "sh", "{label}"],
        mode=mode,  # type: ignore[arg-type]
        confirm=False,
    )


async def test_a_hostile_label_is_never_run_by_a_background_plugin(tmp_path: Path) -> None:
    canary = tmp_path / "canary"
    for label in _labels(canary):
        item = {"id": f"7; touch {canary}", "label": label}
        result = await run_background(prepare(_plugin("background"), item))
        assert result.status == 0
        assert result.output.split("\n")[: 2 * (label.count("\n") + 1)] == [
            *label.split("\n"),
            *label.split("\n"),
        ]
        assert not canary.exists(), f"the label {label!r} ran"


def test_a_hostile_label_is_never_run_by_a_foreground_plugin(tmp_path: Path) -> None:
    canary = tmp_path / "canary"
    for label in _labels(canary):
        call = prepare(_plugin("foreground"), {"id": 7, "label": label})
        # What the hand-off runs once the app is suspended: the launch's argv and environment.
        with prepared(call.launch()) as ready:
            done = subprocess.run(ready.argv, env=ready.env, capture_output=True, check=False)
        assert done.returncode == 0
        assert done.stdout.decode() == f"{label}\n{label}\n7\n"
        assert not canary.exists(), f"the label {label!r} ran"


def test_the_canary_would_show_a_spliced_label(tmp_path: Path) -> None:
    """The check can fail: the same label spliced into the script text does create it."""
    canary = tmp_path / "canary"
    subprocess.run(["sh", "-c", f"printf '%s' x; touch {canary}"], check=True)
    assert canary.exists()
