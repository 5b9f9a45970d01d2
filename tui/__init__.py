"""cloudtui: a keyboard-first terminal UI for operating a cloud hosting account."""

import sys

__version__ = "0.1.0"

if "httpx" not in sys.modules:
    # httpx's package imports its own command line (click, pygments) whenever click is
    # installed (uvicorn brings it): 15-40 ms of every start for a tool cloudtui never runs.
    # A None entry makes that optional import fail at once, as if click were absent; httpx
    # then defines its usual "install httpx[cli]" stub. Only this process is affected.
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
