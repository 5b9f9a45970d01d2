"""Write ``docs/keys.md``: every binding id with its keys and what it does, from the code.

Run: ``.venv/bin/python docs/keys.py`` (``--check`` only says whether the file is current).
The bindings are collected by :func:`screens.binding_ids.declared_bindings`, which walks the
app module and every module of the ``screens`` and ``widgets`` packages, so a binding added
or moved anywhere in them is listed without changing this script. ``tests/test_docs.py``
fails when the file differs from what this script writes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from screens.binding_ids import DeclaredBinding, declared_bindings, ui_modules  # noqa: E402
from widgets.key_names import key_label  # noqa: E402

OUT = ROOT / "docs" / "keys.md"
COMMAND = ".venv/bin/python docs/keys.py"
"""How to regenerate the file (named in its header and by the test that checks it)."""

HEADER = f"""# Keys

<!-- Generated from the code by `{COMMAND}`: do not edit by hand. -->

Every key binding of cloudtui has an id. In the app, `?` lists the bindings of the screen you
are on with their ids; `ctrl+p` finds any action by its name. The `[keymap]` table of the
config file gives a binding other keys: the id, then the keys by the names in the column
"In `[keymap]`", several separated by commas without spaces:

```toml
[keymap]
"app.quit" = "ctrl+q,f10"
"compute.reboot" = "ctrl+r"
```

A remap replaces the binding's keys everywhere it is used (footer, `?`, palette). An id that
no binding has is ignored, and named at start and by `cloudtui doctor`.
"""


def _code(text: str) -> str:
    """``text`` as inline code in a table cell (pipes escaped, backticks fenced)."""
    text = text.replace("|", "\\|")
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def _what(declared: DeclaredBinding) -> str:
    """The binding's description, with its tooltip when that says more."""
    binding = declared.binding
    description, tooltip = binding.description.strip(), binding.tooltip.strip()
    if tooltip and tooltip.casefold() != description.casefold():
        return f"{description}: {tooltip}" if description else tooltip
    return description


def _where(declared: DeclaredBinding) -> str:
    """Where the binding applies: a class (``HelpScreen``), a constant or a resource list."""
    if declared.kind == "action":
        return f"{declared.owner_title} ({_code(declared.owner)})"
    if declared.kind == "constant":
        module, _, name = declared.owner.rpartition(".")
        return _code(f"{module.rpartition('.')[2]}.{name}")
    return _code(declared.owner.rpartition(".")[2])


def _rows(bindings: Iterable[DeclaredBinding]) -> list[str]:
    """One row per id, keys and meaning; the places that declare the same one are merged."""
    merged: dict[tuple[str, str, str], list[str]] = {}
    for declared in bindings:
        row = (declared.id, declared.binding.key, _what(declared))
        places = merged.setdefault(row, [])
        if (where := _where(declared)) not in places:
            places.append(where)
    return [
        f"| {_code(binding_id)} | {_code(key_label(keys))} | {_code(keys)} | {_cell(what)} "
        f"| {', '.join(places)} |"
        for (binding_id, keys, what), places in sorted(merged.items())
    ]


def _table(title: str, intro: str, bindings: list[DeclaredBinding]) -> list[str]:
    head = ["| Id | Keys | In `[keymap]` | What it does | Where |", "|---|---|---|---|---|"]
    return ["", f"## {title}", "", intro, "", *head, *_rows(bindings)]


def _unnamed_rows() -> list[str]:
    """cloudtui's own bindings without an id (they cannot be remapped)."""
    from textual.binding import Binding

    rows: set[tuple[str, str, str]] = set()
    ours = {module.__name__ for module in ui_modules()}
    for module in ui_modules():
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ not in ours:
                continue
            for binding in vars(value).get("BINDINGS", ()):
                if isinstance(binding, Binding) and not binding.id:
                    rows.add((binding.key, binding.description, value.__qualname__))
    merged: dict[tuple[str, str], list[str]] = {}
    for keys, what, owner in sorted(rows):
        merged.setdefault((keys, what), []).append(_code(owner))
    return [
        f"| {_code(key_label(keys))} | {_cell(what)} | {', '.join(places)} |"
        for (keys, what), places in sorted(merged.items())
    ]


def render() -> str:
    """The text of ``docs/keys.md`` for the code as it is."""
    declared = list(declared_bindings())
    ui = [d for d in declared if d.kind != "action"]
    actions = [d for d in declared if d.kind == "action"]
    lines = [HEADER.rstrip("\n")]
    lines += _table(
        "The app, its screens and dialogs",
        "Where: the screen, dialog or widget that has the binding.",
        ui,
    )
    lines += _table(
        "Actions on resources",
        "Where: the list the action belongs to (an area, or a tab of a detail screen); the "
        "item's own detail screen has the same keys.",
        actions,
    )
    lines += [
        "",
        "## Keys without an id",
        "",
        "These keep their keys (a `[keymap]` entry cannot name them).",
        "",
        "| Keys | What it does | Where |",
        "|---|---|---|",
        *_unnamed_rows(),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write ``docs/keys.md``, or with ``--check`` say whether it is current (exit 1 if not)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check; write nothing")
    args = parser.parse_args(argv)
    text = render()
    current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
    if args.check:
        if text != current:
            print(f"{OUT.relative_to(ROOT)} is out of date: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    if text != current:
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
