"""The form's key hint is read whole at 80 columns (it wraps, never cut off)."""

from __future__ import annotations

from typing import Any

from tests.ui.helpers import make_app, open_form, settle, started, wait_until


def _screen_text(app: Any) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def test_the_form_hint_is_whole_at_80_columns() -> None:
    app = make_app()
    async with started(app, (80, 24)) as pilot:
        form = await open_form(pilot, "loadbalancers")
        assert "ctrl+e $EDITOR" in form.hint and len(form.hint) > 76  # longer than one line
        parts = form.hint.split(" · ")
        await wait_until(pilot, lambda: all(part in _screen_text(app) for part in parts))
        await pilot.press("escape")
        await settle(pilot)
