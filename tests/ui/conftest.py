"""Fixtures of the UI tests (the shared helpers are in tests/ui/helpers.py)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(bin folder, log folder) for fake programs (tests/ui/fake_tools.py).

    The bin folder is the only one on PATH, so a program that is not faked is missing; temporary
    files (``tempfile`` and ``$TMPDIR``) go in the test's own ``tmp`` folder, which
    :func:`tests.ui.fake_tools.leftovers` lists.
    """
    bin_dir, log_dir, tmp = tmp_path / "bin", tmp_path / "log", tmp_path / "tmp"
    for folder in (bin_dir, log_dir, tmp):
        folder.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return bin_dir, log_dir
