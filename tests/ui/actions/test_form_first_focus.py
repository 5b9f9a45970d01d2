"""A form's first input has the focus from the start, never the scrolling form around it: each
focus change of that container restyles every widget in it (hundreds in a large form)."""

from __future__ import annotations

from typing import Any

import pytest

from screens.actions.form import FormModal
from tests.ui.helpers import make_app, open_form, settle, started, wait_until
from widgets.model_form import ModelForm


async def test_opening_a_form_never_focuses_the_form_container(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    focused: list[bool] = []
    watch = ModelForm.watch_has_focus

    def noting(self: Any, value: bool) -> None:
        focused.append(value)
        watch(self, value)

    monkeypatch.setattr(ModelForm, "watch_has_focus", noting)
    app = make_app()
    async with started(app, (80, 24)) as pilot:
        form: FormModal = await open_form(pilot, "instances")
        await wait_until(pilot, lambda: form.focused is not None)
        assert form.focused is not None and form.focused is not form.model_form
        assert form.model_form in form.focused.ancestors
        assert focused == []
        await pilot.press("escape")
        await settle(pilot)
