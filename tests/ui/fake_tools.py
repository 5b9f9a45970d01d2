"""Fake programs for hand-off tests: executables on PATH that record what they were given.

Each fake writes ``<log>/<name>.json`` with its argv, its environment, and every file it was
pointed at (an argument, ``--opt=path``, ``KUBECONFIG``, and the other files in those files'
folders) with the file's text and mode, read while the fake runs. It then exits with the status
given when it was made.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

FAKE = r"""#!{python}
import json, os, stat, sys
seen = {{}}
def look(path):
    if not path or not os.path.isfile(path):
        return
    folder = os.path.dirname(os.path.abspath(path))
    for name in sorted(os.listdir(folder)):
        full = os.path.join(folder, name)
        if os.path.isfile(full) and full not in seen:
            seen[full] = {{
                "text": open(full, encoding="utf-8", errors="replace").read(),
                "mode": stat.S_IMODE(os.stat(full).st_mode),
                "folder_mode": stat.S_IMODE(os.stat(folder).st_mode),
            }}
for arg in sys.argv[1:]:
    look(arg.split("=", 1)[-1])
look(os.environ.get("KUBECONFIG", ""))
record = {{"argv": sys.argv, "env": dict(os.environ), "files": seen}}
with open({log!r}, "w", encoding="utf-8") as fh:
    json.dump(record, fh)
{edit}
sys.exit({status})
"""

EDIT = r"""
with open(sys.argv[-1], encoding="utf-8") as fh:
    text = fh.read()
for old, new in {edits!r}:
    if old not in text:
        sys.exit("fake editor: " + repr(old) + " not in the file")
    text = text.replace(old, new, 1)
with open(sys.argv[-1], "w", encoding="utf-8") as fh:
    fh.write(text)
"""


def make_fake(
    bin_dir: Path,
    name: str,
    log_dir: Path,
    *,
    status: int = 0,
    edits: list[tuple[str, str]] | None = None,
) -> Path:
    """Write an executable ``bin_dir/name`` that records to ``log_dir/name.json``.

    Args:
        bin_dir: Folder put on PATH.
        name: Program name (``ssh``, ``k9s`` ...).
        log_dir: Where the record goes.
        status: Exit status.
        edits: For a fake editor: ``(old, new)`` replacements made in its last argument (the
            file); a missing ``old`` makes it fail.
    """
    bin_dir.mkdir(parents=True, exist_ok=True)
    log_dir.mkdir(parents=True, exist_ok=True)
    log = str(log_dir / f"{name}.json")
    edit = EDIT.format(edits=edits) if edits is not None else ""
    path = bin_dir / name
    path.write_text(FAKE.format(python=sys.executable, log=log, edit=edit, status=status))
    path.chmod(0o755)
    return path


def record(log_dir: Path, name: str) -> dict[str, Any]:
    """What the fake ``name`` recorded."""
    data: dict[str, Any] = json.loads((log_dir / f"{name}.json").read_text(encoding="utf-8"))
    return data


def leftovers(tmp_path: Path) -> list[str]:
    """Files still in the test's temporary folder (see the ``fake_bin`` fixture): a hand-off's
    private files must be gone once its program is done.

    The demo's own state folder (``cloudtui-demo-*``, bookmarks and activity log of this run,
    removed when the program exits) is not a hand-off's and is left out."""
    root = tmp_path / "tmp"
    return sorted(
        str(p)
        for p in root.rglob("*")
        if not p.relative_to(root).parts[0].startswith("cloudtui-demo-")
    )


STEP_EDITOR = r"""#!{python}
import json, os, sys
steps = {steps!r}
count_file = {count!r}
count = int(open(count_file).read()) if os.path.exists(count_file) else 0
open(count_file, "w").write(str(count + 1))
path = sys.argv[-1]
text = open(path, encoding="utf-8").read()
open(os.path.join({log!r}, "given-%d.toml" % count), "w", encoding="utf-8").write(text)
step = steps[count] if count < len(steps) else []
if step is None:
    text = ""
else:
    for old, new in step:
        if old not in text:
            sys.exit("fake editor: " + repr(old) + " not in the file")
        text = text.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(text)
"""


def make_step_editor(
    bin_dir: Path, name: str, log_dir: Path, steps: list[list[tuple[str, str]] | None]
) -> Path:
    """A fake editor that makes ``steps[n]`` on its n-th run (0-based): ``(old, new)``
    replacements in its last argument, or ``None`` to empty the file; runs past the steps
    save the file as it is. The text it was given on run n is kept as
    ``log_dir/given-n.toml`` (:func:`given_texts`)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    log_dir.mkdir(parents=True, exist_ok=True)
    path = bin_dir / name
    count = str(log_dir / f"{name}.count")
    path.write_text(
        STEP_EDITOR.format(python=sys.executable, steps=steps, count=count, log=str(log_dir))
    )
    path.chmod(0o755)
    return path


def given_texts(log_dir: Path) -> list[str]:
    """What a step editor was given, run by run."""
    found = sorted(log_dir.glob("given-*.toml"), key=lambda p: int(p.stem.split("-")[1]))
    return [p.read_text(encoding="utf-8") for p in found]
