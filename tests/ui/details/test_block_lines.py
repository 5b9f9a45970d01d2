"""Long lines of preformatted fields (zone files, scripts) wrap instead of being cut."""

from __future__ import annotations

from rich.console import Console

from tui.resources.spec import FieldSpec, Section
from widgets.detail_panel import section_table

KEY = "p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwq0lkmq5fV9lPzJlTNx8eTUG8sz1Lc3kPqDi"


def test_a_long_zone_line_is_shown_in_full_in_a_narrow_panel() -> None:
    line = f'dkim._domainkey 3600 IN TXT "v=DKIM1; k=rsa; {KEY}"'
    section = Section("Zone file", (FieldSpec("zone_file", "Lines", "block"),))
    console = Console(width=60, record=True, color_system=None)
    console.print(
        section_table(section, {"zone_file": ["$ORIGIN example.com.", line]}, frozenset())
    )
    shown = console.export_text()
    assert "…" not in shown
    assert KEY in shown.replace("\n", "")
    assert max(len(row) for row in shown.splitlines()) <= 60
