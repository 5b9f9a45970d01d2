"""Snapshot tests: syrupy 7 with a single-file SVG extension around ``app.export_screenshot()``.

Update the stored pictures with ``pytest tests/snapshots --snapshot-update`` after a deliberate
layout change, and look at the SVG files before committing them.
"""

from __future__ import annotations

import re

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

# Textual prefixes every CSS class of an export with a hash of the whole picture, so one changed
# cell would change every line; stripping it keeps diffs readable and pictures comparable.
_CLASS_PREFIX = re.compile(r"terminal-\d+-")
_CLIP_ID = re.compile(r"terminal-\d+")


def normalise_svg(svg: str) -> str:
    """Remove the per-export hash from class names and clip-path ids."""
    return _CLIP_ID.sub("terminal", _CLASS_PREFIX.sub("terminal-", svg))


class SVGSnapshotExtension(SingleFileSnapshotExtension):
    """One ``.svg`` file per snapshot, compared as text."""

    file_extension = "svg"
    _write_mode = WriteMode.TEXT

    def serialize(self, data, **kwargs):  # type: ignore[no-untyped-def]
        return normalise_svg(str(data))


@pytest.fixture
def svg_snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """The snapshot fixture, storing SVG files."""
    return snapshot.use_extension(SVGSnapshotExtension)
