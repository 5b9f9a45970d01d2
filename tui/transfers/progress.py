"""Progress accounting of a batch of transfers: bytes, rate, ETA and the state of each file.

Headless: workers add bytes as they move them; the transfer dialog reads :class:`Batch` on a
timer and draws it. Every figure is also given as text (``12 MB / 256 MB  48.2 MB/s  ETA
0:05``) so progress reads without colour; sizes read as everywhere else (:func:`human_size`).
A batch that moves no bytes (deletions) counts files only.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from tui.resources.format import human_size
from tui.untrusted import Shown, shown

RATE_WINDOW = 3.0
"""Seconds of samples the rate is measured over (recent speed, not the average since start)."""


class State(StrEnum):
    """Where one file of a batch is."""

    WAITING = "waiting"
    RUNNING = "running"
    RETRYING = "retrying"
    DONE = "done"
    SKIPPED = "skipped"
    FAILED = "failed"
    CANCELLED = "cancelled"


FINAL_STATES = frozenset({State.DONE, State.SKIPPED, State.FAILED, State.CANCELLED})


def human_duration(seconds: float | None) -> Shown:
    """``75`` -> ``1:15``, ``3725`` -> ``1:02:05``; unknown -> ``--:--``."""
    if seconds is None or seconds != seconds or seconds < 0 or seconds > 360_000:
        return "--:--"
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass
class FileProgress:
    """One file of a batch.

    Attributes:
        name: What the user knows it by (object name or local path).
        size: Bytes expected, when known.
        done: Bytes moved so far (drops back when a transfer restarts).
        state: Where the file is.
        reason: Why it failed or was skipped; what a retry is waiting for.
        attempts: Tries made (fresh URLs included).
    """

    name: str
    size: int | None = None
    done: int = 0
    state: State = State.WAITING
    reason: str = ""
    attempts: int = 0
    batch: Batch | None = field(default=None, repr=False, compare=False)

    started: float | None = field(default=None, repr=False, compare=False)

    def add(self, count: int) -> None:
        """``count`` more bytes arrived or left."""
        self.done += count
        if self.batch is not None:
            if self.started is None:
                self.started = self.batch.clock()
            self.batch.moved(count)

    def rate(self) -> float:
        """This file's average bytes per second since its bytes started moving."""
        if self.batch is None or self.started is None:
            return 0.0
        span = self.batch.clock() - self.started
        return self.done / span if span > 0 else 0.0

    def restart(self) -> None:
        """The bytes moved so far are lost (a transfer starts over)."""
        if self.batch is not None and self.done:
            self.batch.moved(-self.done)
        self.done = 0
        self.started = None

    def finish(self, state: State, reason: str = "") -> None:
        """Set the final state (a done file counts as complete even if its size was unknown)."""
        self.state = state
        self.reason = reason

    @property
    def fraction(self) -> float | None:
        """Share done, 0..1, when the size is known."""
        if not self.size:
            return 1.0 if self.state is State.DONE else None
        return min(1.0, self.done / self.size)

    def text(self) -> str:
        """``3 MB / 12 MB  25%`` (or the state and reason once final, or while no byte of a
        file of unknown size has moved: a deletion is ``running``, never ``0 B / ?``)."""
        quiet = self.size is None and not self.done
        if self.state in FINAL_STATES or self.state is State.WAITING or quiet:
            detail = f": {self.reason}" if self.reason else ""
            size = f" ({human_size(self.size)})" if self.size is not None else ""
            return f"{self.state.value}{size}{detail}"
        total = human_size(self.size) if self.size is not None else "?"
        share = self.fraction
        percent = f"  {share * 100:3.0f}%" if share is not None else ""
        retry = f"  ({self.reason})" if self.state is State.RETRYING and self.reason else ""
        speed = ""
        rate = self.rate()
        if rate > 0:
            left = (self.size - self.done) / rate if self.size is not None else None
            speed = f"  {human_size(rate)}/s  ETA {human_duration(left)}"
        return f"{human_size(self.done)} / {total}{percent}{speed}{retry}"


@dataclass
class Batch:
    """Files moved together, with totals, the current rate and the time left.

    Args:
        clock: Monotonic time source (tests pass a fake one).
    """

    files: list[FileProgress] = field(default_factory=list)
    clock: Callable[[], float] = time.monotonic
    moved_bytes: int = 0
    started: float | None = None
    ended: float | None = None
    _start_bytes: int = 0
    _samples: deque[tuple[float, int]] = field(default_factory=deque, repr=False)

    def add(self, name: str, size: int | None) -> FileProgress:
        """Add a file to the batch; its progress object."""
        item = FileProgress(name, size, batch=self)
        self.files.append(item)
        return item

    def begin(self) -> None:
        """The work starts (again): the rate is measured from now."""
        now = self.clock()
        self.started = now
        self.ended = None
        self._start_bytes = self.moved_bytes
        self._samples.clear()
        self._samples.append((now, self.moved_bytes))

    def end(self) -> None:
        """The work stopped: the rate shown becomes the average of the run."""
        self.ended = self.clock()

    def moved(self, count: int) -> None:
        """Account ``count`` bytes (negative when a restart discards some)."""
        now = self.clock()
        if self.started is None:
            self.started = now
        self.moved_bytes += count
        self._samples.append((now, self.moved_bytes))
        while len(self._samples) > 2 and now - self._samples[1][0] > RATE_WINDOW:
            self._samples.popleft()

    @property
    def total_bytes(self) -> int:
        """Bytes of every file whose size is known and that is not skipped."""
        return sum(f.size or 0 for f in self.files if f.state is not State.SKIPPED)

    def rate(self) -> float:
        """Bytes per second over the last few seconds (0 before there is a measure); once
        the work ended, the average of the run."""
        if self.ended is not None and self.started is not None:
            span = self.ended - self.started
            moved = self.moved_bytes - self._start_bytes
            return max(0.0, moved / span) if span > 0 else 0.0
        if len(self._samples) < 2:
            return 0.0
        (t0, b0), (t1, b1) = self._samples[0], self._samples[-1]
        now = self.clock()
        span = max(now, t1) - t0
        return max(0.0, (b1 - b0) / span) if span > 0 else 0.0

    def eta(self) -> float | None:
        """Seconds left at the current rate, when it can be told."""
        if self.ended is not None:
            return 0.0 if self.finished else None
        rate = self.rate()
        if rate <= 0:
            return None
        return max(0, self.total_bytes - self.moved_bytes) / rate

    def count(self, *states: State) -> int:
        """How many files are in any of ``states``."""
        return sum(1 for f in self.files if f.state in states)

    @property
    def finished(self) -> bool:
        """True when every file reached a final state."""
        return all(f.state in FINAL_STATES for f in self.files)

    def total_text(self) -> Shown:
        """``3/10 files  12 MB / 256 MB  48%  48.2 MB/s  ETA 0:05``; ``3/10 files`` alone
        when the batch moves no bytes (deletions: never ``0 B / 0 B``)."""
        total = self.total_bytes
        done_files = self.count(*FINAL_STATES)
        if not total and not self.moved_bytes:
            return f"{done_files}/{len(self.files)} files"
        percent = f"  {min(100.0, self.moved_bytes * 100 / total):3.0f}%" if total else ""
        return (
            f"{done_files}/{len(self.files)} files  "
            f"{human_size(self.moved_bytes)} / {human_size(total)}{percent}  "
            f"{human_size(self.rate())}/s  ETA {human_duration(self.eta())}"
        )

    def summary(self) -> Shown:
        """``7 done, 1 skipped, 2 failed`` (only the non-zero parts)."""
        parts = [
            f"{self.count(state)} {shown(state.value)}"
            for state in (State.DONE, State.SKIPPED, State.FAILED, State.CANCELLED)
            if self.count(state)
        ]
        return ", ".join(parts) or "nothing to do"
