"""Edit objects as text: ``E`` opens their updatable fields as one TOML document in
``$VISUAL``/``$EDITOR`` and sends only what changed.

The document, its review and the conflicts are headless (:mod:`tui.textedit`); this flow
drives them, kubectl-edit style:

1. the editor runs through the one hand-off (``screens.editors.handoff.edit_text``: a 0600
   file, removed afterwards);
2. an empty file, or one without changes, sends nothing (the user is told);
3. a document with problems comes back in the editor with each problem written above its line;
4. the diff and the exact requests are shown in the usual confirmation;
5. before sending, each item is fetched again: one the server changed meanwhile is not sent
   until the user chooses (:class:`ConflictModal`: send mine, keep the server's, edit again on
   the server's state, or cancel);
6. one request per changed item, only its changed fields, as one undo group.

Bindings of the conflict dialog: those of :class:`~screens.dialogs.pick_one.PickOneModal`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.notifications import SeverityLevel
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from screens.app_surface import surface
from screens.dialogs.pick_one import PickOneModal
from screens.editors.handoff import edit_text
from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.textedit.conflicts import Conflict, View, fetch_current, find_conflicts, rebase
from tui.textedit.document import (
    EditDocument,
    EditTarget,
    NotEditable,
    build_document,
    edit_target,
)
from tui.textedit.review import EditPlan, review_text
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from screens.actions.context import ActionContext

TITLE = "Edit as text"

CHOICES: tuple[tuple[str, str], ...] = (
    ("Send mine anyway (only the fields I changed)", "mine"),
    ("Keep the server's (do not send these items)", "theirs"),
    ("Edit again, on the server's state with my changes", "edit"),
    ("Cancel: send nothing", "cancel"),
)
"""The answers to a conflict, in order (``escape`` is cancel)."""


class ConflictModal(PickOneModal):
    """Items changed on the server while they were edited: both sides, and what to do.

    Dismissed with one of the ids of :data:`CHOICES` (None: cancel).
    """

    DEFAULT_CSS = """
    ConflictModal > #dialog { width: 100; }
    ConflictModal #conflict-lines { height: auto; max-height: 12; border-left: blank; }
    ConflictModal #conflict-lines:focus { background: $boost; border-left: outer $accent; }
    """

    def __init__(self, conflicts: Sequence[Conflict]) -> None:
        count = len(conflicts)
        title = (
            "Changed on the server while you edited it"
            if count == 1
            else f"{count} items changed on the server while you edited them"
        )
        super().__init__(title, list(CHOICES), "enter choose · esc cancel (nothing is sent)")
        self.conflicts = tuple(conflicts)

    def lines(self) -> Shown:
        """Both sides of every conflict, as display text."""
        return shown("\n".join(line for c in self.conflicts for line in c.lines()), lines=True)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), classes="pick-title")
            with VerticalScroll(id="conflict-lines"):
                yield Static(Text(self.lines()))
            yield OptionList(*(Option(Text(shown(text)), id=key) for text, key in self.options))
            yield Static(Text(self.hint), classes="pick-hint")


def _say(ctx: ActionContext, message: Shown, severity: SeverityLevel = "information") -> None:
    ctx.app.notify(message, title=TITLE, severity=severity, markup=False)


async def _confirm(ctx: ActionContext, document: EditDocument, plan: EditPlan) -> bool:
    """The usual confirmation: the diff and the exact requests."""
    from screens.dialogs.confirm import ConfirmModal

    count = len(plan.requests)
    spec = document.target.spec
    what = (
        f"{spec.singular} {shown(plan.requests[0].label)}"
        if count == 1
        else f"{count} {spec.title.lower()}"
    )
    modal = ConfirmModal(
        f"Change {what}?",
        f"One request per {spec.singular}, with only the fields you changed.",
        shown("\n".join(plan.preview()), lines=True),
        confirm_label="Send",
        account=ctx.session.mark,
    )
    answer: bool = await ctx.app.push_screen_wait(modal)
    return bool(answer)


async def _send(
    ctx: ActionContext, document: EditDocument, plan: EditPlan
) -> tuple[int, list[str]]:
    """Send the plan, one request per item (one undo group); the count sent and the
    failures ("web-2: the label is taken")."""
    from screens.actions.context import ActionContext as Context

    journal = surface(ctx.host).state.undo_journal
    group = journal.new_group() if journal is not None else None
    sent = 0
    failures: list[str] = []
    for request in plan.requests:
        entry = document.entry(request.key)
        item = dict(entry.item) if entry is not None else None
        one = Context(ctx.host, ctx.spec, ctx.action, item, dict(request.params), ctx.account)
        try:
            await one.call(request.body, params=request.params, group=group)
        except CloudError as error:
            failures.append(f"{request.label}: {describe_error(error)}")
            continue
        sent += 1
    return sent, failures


def _viewer(ctx: ActionContext) -> View:
    """Fetches one item through the action's account."""

    async def view(endpoint: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        answer: Mapping[str, Any] = await ctx.session.client.call(
            endpoint, dict(params), model=dict
        )
        return answer

    return view


async def _fresh_document(
    ctx: ActionContext, target: EditTarget, items: Sequence[Mapping[str, Any]], parent: Any
) -> EditDocument:
    """The document of the items as the server has them now: a list's rows may leave fields
    out, and a field the document lacks would later look changed on the server. Items gone
    meanwhile are left out.

    Raises:
        NotEditable: Every item is gone.
        CloudError: An item could not be fetched.
    """
    listed = build_document(target, items, parent)
    current = await fetch_current(listed, [e.key for e in listed.entries], _viewer(ctx))
    if not current:
        return listed  # no view operation: the rows are all there is
    fresh = [current.get(e.key) for e in listed.entries]
    return build_document(target, [item for item in fresh if item is not None], parent)


def _plural(ctx: ActionContext, count: int) -> str:
    return f"{count} {ctx.spec.singular if count == 1 else ctx.spec.title.lower()}"


async def _edited_plan(ctx: ActionContext, document: EditDocument, text: str) -> EditPlan | None:
    """Edit until the document is right (each time with its problems written in), and
    confirmed; None when the user cancelled (and was told), or the editor failed."""
    while True:
        edited = edit_text(ctx.app, text, document.file_name)
        if edited is None:
            return None
        review = review_text(document, edited)
        if review.status == "cancelled":
            _say(ctx, shown(review.message))
            return None
        if review.plan is None:
            said = shown(f"{review.message} They are written above their lines.")
            _say(ctx, said, "warning")
            text = review.text
            continue
        if await _confirm(ctx, document, review.plan):
            return review.plan
        _say(ctx, "Cancelled: nothing was sent.")
        return None


async def _settle_conflicts(
    ctx: ActionContext, document: EditDocument, plan: EditPlan
) -> EditPlan | EditDocument | None:
    """The plan to send once the items are checked against the server, a new document to
    edit (the user chose to edit again), or None (nothing to send; the user was told)."""

    try:
        current = await fetch_current(document, plan.keys, _viewer(ctx))
    except CloudError as error:
        ctx.failed(error)
        return None
    conflicts = find_conflicts(document, plan, current)
    if not conflicts:
        return plan
    choice = await ctx.app.push_screen_wait(ConflictModal(conflicts))
    if choice == "edit":
        try:
            return rebase(document, plan, current, conflicts)
        except NotEditable:
            _say(ctx, "Every item was deleted on the server: nothing to edit.", "warning")
            return None
    if choice == "theirs":
        plan = plan.without(c.key for c in conflicts)
        if not plan.requests:
            _say(ctx, "The server's state was kept: nothing was sent.")
            return None
        return plan
    if choice == "mine":
        return plan
    _say(ctx, "Cancelled: nothing was sent.")
    return None


async def edit_as_text(
    ctx: ActionContext, items: Sequence[Mapping[str, Any]], parent: Mapping[str, Any]
) -> bool:
    """The flow of ``E`` (see the module).

    Args:
        ctx: The update action, run on the first item (its host, account and spec).
        items: The items, in the list's order: one entry each.
        parent: The path parameters of their parent (child resources).

    Returns:
        True when something was sent (the lists refresh).
    """
    target = edit_target(ctx.spec)
    if target is None:
        return False
    try:
        document = await _fresh_document(ctx, target, items, parent)
    except NotEditable:
        _say(ctx, "They no longer exist: nothing to edit.", "warning")
        return False
    except CloudError as error:
        ctx.failed(error)
        return False
    text = document.text
    while True:
        plan = await _edited_plan(ctx, document, text)
        if plan is None:
            return False
        settled = await _settle_conflicts(ctx, document, plan)
        if settled is None:
            return False
        if isinstance(settled, EditDocument):
            document, text = settled, settled.text
            continue
        sent, failures = await _send(ctx, document, settled)
        if sent:
            ctx.changed()
        if failures:
            said = f"{sent} sent, {len(failures)} refused: " + "; ".join(failures)
            _say(ctx, shown(said), "error")
        else:
            _say(ctx, shown(f"{_plural(ctx, sent)} changed."))
        return sent > 0
