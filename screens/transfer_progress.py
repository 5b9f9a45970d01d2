"""The progress dialog of a batch of transfers: totals, each file, cancel, and the summary.

Everything is text (bytes, percentages, rate, ETA, an ASCII bar), so it reads with NO_COLOR and
at 80x24. ``escape`` cancels while the batch runs (downloads leave no partial file) and closes
once it is over; ``r`` runs the failed files again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from tui.transfers.progress import Batch, FileProgress, State
from tui.untrusted import Shown, shown

TICK = 0.25
"""Seconds between redraws while the batch runs."""
BAR_WIDTH = 30
MAX_LINES = 200
"""File lines shown at most (running and failed first)."""

ORDER = {
    State.RUNNING: 0,
    State.RETRYING: 0,
    State.FAILED: 1,
    State.CANCELLED: 2,
    State.WAITING: 3,
    State.SKIPPED: 4,
    State.DONE: 5,
}
MARKS = {
    State.RUNNING: ">",
    State.RETRYING: "~",
    State.FAILED: "x",
    State.CANCELLED: "-",
    State.WAITING: ".",
    State.SKIPPED: "=",
    State.DONE: "+",
}


def text_bar(fraction: float, width: int = BAR_WIDTH) -> Shown:
    """``[#########.....................]`` for a share 0..1 (readable without colour)."""
    filled = max(0, min(width, round(fraction * width)))
    return "[" + "#" * filled + "." * (width - filled) + "]"


def file_lines(batch: Batch, limit: int = MAX_LINES) -> list[Shown]:
    """One line per file, the ones that need attention first."""
    ranked = sorted(enumerate(batch.files), key=lambda pair: (ORDER[pair[1].state], pair[0]))
    lines = [shown(f"{MARKS[f.state]} {f.name}  {f.text()}") for _, f in ranked[:limit]]
    if len(ranked) > limit:
        lines.append(f"... and {len(ranked) - limit} more")
    return lines


class TransferModal(ModalScreen[Batch]):
    """Runs a batch and shows its progress.

    Args:
        title: What is being done ("Download 3 objects to /home/me").
        batch: The batch the work fills in.
        run: Does the work (cancelled by ``escape``).
        retry: Runs the failed files again, or None when that is not offered.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "stop_or_close", "Cancel / close", id="transfer.cancel"),
        Binding("enter", "close", "Close", show=False, id="transfer.close"),
        Binding("r", "retry", "Retry failed", id="transfer.retry"),
    ]
    DEFAULT_CSS = """
    TransferModal { align: center middle; }
    TransferModal > #dialog {
        width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    TransferModal #transfer-title { text-style: bold; height: auto; }
    TransferModal #transfer-total { height: auto; }
    TransferModal #transfer-files-box { height: auto; max-height: 14; }
    TransferModal #transfer-hint { color: $text-muted; height: auto; }
    """

    def __init__(
        self,
        title: Shown,
        batch: Batch,
        run: Callable[[], Awaitable[None]],
        retry: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.transfers = batch
        self.run = run
        self.retry = retry
        self.worker: Worker[None] | None = None
        self.cancelled = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="transfer-title")
            yield Static("", id="transfer-total")
            with VerticalScroll(id="transfer-files-box"):
                yield Static("", id="transfer-files")
            yield Static("", id="transfer-hint")

    def on_mount(self) -> None:
        self.set_interval(TICK, self.redraw)
        self._start(self.run)

    @property
    def running(self) -> bool:
        """True while the work runs."""
        return self.worker is not None and self.worker.state in (
            WorkerState.PENDING,
            WorkerState.RUNNING,
        )

    def _start(self, work: Callable[[], Awaitable[None]]) -> None:
        self.cancelled = False
        self.transfers.begin()
        self.worker = self.run_worker(work, group="transfer", exclusive=True, exit_on_error=False)  # type: ignore[arg-type]
        self.redraw()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self.worker:
            if event.worker.is_finished:
                self.transfers.end()
            self.redraw()
            if event.state is WorkerState.ERROR and event.worker.error is not None:
                self.notify(shown(event.worker.error), title="Transfer", severity="error")

    def redraw(self) -> None:
        """Draw the totals and the files from the batch."""
        batch = self.transfers
        total = batch.total_bytes
        fraction = batch.moved_bytes / total if total else (1.0 if batch.finished else 0.0)
        head = Text(f"{text_bar(fraction)} {batch.total_text()}")
        if not self.running:
            verdict = "Cancelled" if self.cancelled else "Finished"
            head = Text(f"{verdict}: {batch.summary()}\n{batch.total_text()}")
        self.query_one("#transfer-total", Static).update(head)
        self.query_one("#transfer-files", Static).update(Text("\n".join(file_lines(batch))))
        if self.running:
            hint = "esc cancel"
        else:
            failed = batch.count(State.FAILED, State.CANCELLED)
            hint = "enter/esc close"
            if failed and self.retry is not None:
                hint = f"r retry the {failed} failed · " + hint
        self.query_one("#transfer-hint", Static).update(Text(hint))

    def action_stop_or_close(self) -> None:
        """Cancel the running batch, or close the finished one."""
        if self.running and self.worker is not None:
            self.cancelled = True
            self.worker.cancel()
            self.redraw()
            return
        self.dismiss(self.transfers)

    def action_close(self) -> None:
        """Close once finished (enter does nothing while the batch runs)."""
        if not self.running:
            self.dismiss(self.transfers)

    def action_retry(self) -> None:
        """Run the failed (and cancelled) files again."""
        if self.running or self.retry is None:
            return
        again = [f for f in self.transfers.files if f.state in (State.FAILED, State.CANCELLED)]
        if not again:
            return
        for progress in again:
            _reset(progress)
        self._start(self.retry)


def _reset(progress: FileProgress) -> None:
    progress.restart()
    progress.finish(State.WAITING)
    progress.attempts = 0
