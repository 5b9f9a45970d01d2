"""Save a cluster's kubeconfig to a file (mode 0600) for kubectl, from the Kubeconfig tab.

The dialog asks where (default ``~/.kube/cloudtui-<cluster>.yaml``) and whether an existing
file may be replaced, fetches the kubeconfig afresh, and writes it decoded. A path that cannot
be written reopens the dialog with the path as typed and the reason.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| ctrl+s | form.submit | Save |
| escape | form.cancel | Cancel |
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Checkbox, Input, Label, Static

from screens.request_modal import RequestModal
from tui.kubeconfig import KubeconfigError, decode_kubeconfig, default_path, write_private
from tui.untrusted import shown
from widgets.model_form import Tick

if TYPE_CHECKING:
    from screens.actions import ActionContext


class SaveKubeconfigModal(RequestModal):
    """Where to write the kubeconfig.

    Args:
        ctx: The action being run.
        cluster: The cluster's name (for the title).
        path: The path to offer.
        problem: Why the last attempt failed (shown under the input), if it did.
    """

    DEFAULT_CSS = """
    SaveKubeconfigModal > #dialog { height: auto; }
    SaveKubeconfigModal #kubeconfig-note { color: $text-muted; height: auto; margin-bottom: 1; }
    SaveKubeconfigModal #kubeconfig-path { width: 1fr; background: $boost; margin-bottom: 1; }
    """

    hint = "ctrl+s or enter save · esc cancel"
    send_label = "Save"

    def __init__(self, ctx: ActionContext, cluster: str, path: str, problem: str = "") -> None:
        super().__init__(
            f"Save the kubeconfig of {cluster}", self._fetch, request_line=f"GET {ctx.path()}"
        )
        self.ctx = ctx
        self.path = path
        self.problem = problem

    async def _fetch(self, body: dict[str, Any]) -> Any:
        return await self.ctx.call()

    def compose_body(self) -> ComposeResult:
        yield Static(
            Text(
                "The kubeconfig holds the cluster's credentials: the file is created readable "
                "by you only (mode 0600). Use it with KUBECONFIG=<file> kubectl …"
            ),
            id="kubeconfig-note",
        )
        yield Label("File")
        yield Input(self.path, id="kubeconfig-path", compact=True, select_on_focus=False)
        yield Tick("replace the file if it exists", id="kubeconfig-replace")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        if self.problem:
            self.show_general([shown(self.problem)])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def build(self) -> dict[str, Any] | None:
        text = self.query_one(Input).value.strip()
        if not text:
            self.show_general(["Type the path of the file to write."])
            return None
        target = Path(text).expanduser()
        if target.is_dir():
            self.show_general([f"{shown(target)} is a folder; name a file in it."])
            return None
        replace = self.query_one(Checkbox).value
        if target.exists() and not replace:
            self.show_general([f"{shown(target)} exists. Tick “replace” to overwrite it."])
            return None
        self.show_general([])
        return {"path": text, "replace": replace}


async def save_kubeconfig(ctx: ActionContext) -> bool:
    """Ask for a path, fetch the kubeconfig and write it; returns False (nothing changed)."""
    parent = getattr(ctx.host, "item", None) or {}
    cluster = str(parent.get("label") or ctx.params.get("clusterId") or "cluster")
    path, problem = str(default_path(cluster)), ""
    while True:
        modal = SaveKubeconfigModal(ctx, cluster, path, problem)
        outcome = await ctx.app.push_screen_wait(modal)
        if outcome is None:
            return False
        path = outcome.body["path"]
        answer = outcome.answer if isinstance(outcome.answer, dict) else {}
        try:
            written = write_private(
                Path(path),
                decode_kubeconfig(answer.get("kubeconfig")),
                overwrite=outcome.body["replace"],
            )
        except KubeconfigError as error:
            ctx.app.notify(shown(error), title="Kubeconfig not saved", severity="error")
            return False
        except OSError as error:
            problem = f"Could not write {error.filename or path}: {error.strerror or error}."
            continue
        ctx.app.notify(
            f"{shown(written)} (readable by you only).\n"
            f"KUBECONFIG={shown(written)} kubectl get nodes",
            title="Kubeconfig saved",
        )
        return False
