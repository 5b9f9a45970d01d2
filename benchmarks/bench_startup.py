"""Benchmark 3: ``cloudtui --demo`` from process start to the first interactive frame.

Each run starts the real command (``python -m tui --demo``, what the ``cloudtui`` script runs)
in a pseudo-terminal of 120x40 with a config path that does not exist (default settings), reads
what it draws, and notes when the first frame of the instances screen arrives (its table header
is on screen, so keys work from then on) and when the first instance row is drawn. Then it
sends ctrl+q and waits for the process to end. For reference it also times a bare
``import textual.app`` in a fresh interpreter.

Target: the first interactive frame within 2.0x a bare ``import textual.app``, medians of runs
interleaved with it (absolute times follow the machine's load; the ratio much less).

Run: .venv/bin/python benchmarks/bench_startup.py [--runs 10]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, fmt_ms, median, report, user_env

FRAME_MARK = b"Label"
"""Text of the instances table's header: the first frame of the list screen has it."""
ROW_MARK = b"running"
"""A status every demo listing shows: the first row is on screen."""


START_ON_INSTANCES = Path(tempfile.gettempdir()) / "cloudtui-bench-startup.toml"
"""A config that opens the instance list (the app opens on the overview by default): this
benchmark measures the list's first frame and row, as it did before the overview existed."""
START_ON_INSTANCES.write_text('start_area = "instances"\n', encoding="utf-8")


def one_run(command: list[str], timeout: float = 20.0) -> tuple[float, float]:
    """Seconds from spawn to the first list frame and to the first row."""
    env = user_env(
        CLOUDTUI_CONFIG=str(START_ON_INSTANCES),
        CLOUDTUI_DATA=tempfile.gettempdir() + "/cloudtui-bench-data",
        TERM="xterm-256color",
        COLUMNS="120",
        LINES="40",
    )
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the program
        os.chdir(ROOT)
        os.execve(command[0], command, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    frame = row = 0.0
    seen = b""
    deadline = start + timeout
    try:
        while time.perf_counter() < deadline and not row:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            now = time.perf_counter() - start
            seen = seen[-64:] + data
            if not frame and FRAME_MARK in seen:
                frame = now
            if frame and ROW_MARK in seen:
                row = now
        os.write(fd, b"\x11")  # ctrl+q
        end = time.perf_counter() + 10
        while time.perf_counter() < end:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    if not os.read(fd, 65536):
                        break
                except OSError:
                    break
            done, _status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
        else:
            os.kill(pid, signal.SIGTERM)
    finally:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        os.close(fd)
    if not frame:
        raise RuntimeError("the instances screen never appeared")
    return frame, row


def bare_textual_import() -> float:
    """Seconds for a fresh interpreter to import textual.app (the floor of any Textual app)."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", "import textual.app"], check=True, cwd=ROOT, env=user_env()
    )
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Parse flags and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    command = [sys.executable, "-m", "tui", "--demo"]
    one_run(command)  # warm the file cache and write the bytecode, as a user's first start does
    frames, rows, floors = [], [], []
    for _ in range(args.runs):
        frame, row = one_run(command)
        frames.append(frame)
        rows.append(row)
        floors.append(bare_textual_import())
    report(
        f"Startup of `cloudtui --demo` in a 120x40 pseudo-terminal, {args.runs} runs (medians)",
        [
            ("process start -> first interactive frame", fmt_ms(median(frames))),
            ("process start -> first row drawn", fmt_ms(median(rows))),
            ("reference: python -c 'import textual.app'", fmt_ms(median(floors))),
            ("first frame / bare import", f"{median(frames) / median(floors):.2f}x"),
        ],
    )
    print("  target: first interactive frame <= 2.0x a bare Textual import", flush=True)


if __name__ == "__main__":
    main()
