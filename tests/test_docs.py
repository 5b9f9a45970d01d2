"""The documentation agrees with the code: the README's commands, docs/keys.md, every link."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
README_MAX_LINES = 250
TEST_COMMAND = (
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]' && .venv/bin/pytest -q"
)
"""The README's second command: what a newcomer and CI run to test (see ``.ci/run``)."""


def _keys_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_keys", ROOT / "docs" / "keys.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _code_blocks(text: str) -> list[str]:
    """The fenced code blocks of a markdown text, in order, without their fences."""
    return [m.group(1).strip() for m in re.finditer(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)]


def _shell_lines(path: Path) -> list[str]:
    """The commands of a shell script: lines that are not blank or comments."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


# -- docs/keys.md ---------------------------------------------------------------------------


def test_keys_md_is_what_the_bindings_say() -> None:
    keys = _keys_script()
    written = keys.OUT.read_text(encoding="utf-8") if keys.OUT.exists() else ""
    assert written == keys.render(), f"docs/keys.md is out of date: run {keys.COMMAND}"


def test_keys_md_lists_every_binding_id_with_its_keys() -> None:
    from screens.binding_ids import declared_bindings

    text = (ROOT / "docs" / "keys.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`") for line in text.splitlines() if "| `" in line}
    declared = declared_bindings()
    assert declared, "no bindings were found"
    missing = sorted({d.id for d in declared} - rows)
    assert not missing, f"binding ids missing from docs/keys.md: {missing}"
    for row in ("| `app.quit` | `ctrl+q` | `ctrl+q` |", "| `compute.reboot` | `R` | `R` |"):
        assert row in text


def test_binding_collection_walks_subpackages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Screens are about to move into subpackages: a binding declared two levels down must
    # still be found, with no list of modules to update.
    import screens.binding_ids as binding_ids

    package = tmp_path / "fakeui"
    (package / "lists" / "deep").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "lists" / "__init__.py").write_text("")
    (package / "lists" / "deep" / "__init__.py").write_text("")
    (package / "lists" / "deep" / "pane.py").write_text(
        "from textual.binding import Binding\n"
        "from textual.widget import Widget\n\n\n"
        "class DeepPane(Widget):\n"
        '    BINDINGS = [Binding("x", "noop", "Deep", id="deep.noop")]\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(binding_ids, "UI_PACKAGES", ("fakeui",))
    binding_ids.declared_bindings.cache_clear()
    try:
        found = {d.id: d.owner for d in binding_ids.declared_bindings()}
    finally:
        binding_ids.declared_bindings.cache_clear()
    assert found.get("deep.noop") == "fakeui.lists.deep.pane.DeepPane"


# -- README.md --------------------------------------------------------------------------------


def test_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_readme_opens_with_the_demo_command_then_the_test_command() -> None:
    text = README.read_text(encoding="utf-8")
    before_first_section = text.split("\n## ", 1)[0]
    blocks = _code_blocks(before_first_section)
    assert len(blocks) == 2, "the README opens with exactly two commands"
    demo, test = blocks
    assert demo.startswith("python3 -m venv .venv && ") and demo.endswith("cloudtui --demo")
    assert test == TEST_COMMAND


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    test_command = _code_blocks(README.read_text(encoding="utf-8"))[1]
    assert test_command in _shell_lines(ROOT / ".ci" / "run")


def test_the_demo_command_installs_and_starts_the_demo() -> None:
    demo = _code_blocks(README.read_text(encoding="utf-8"))[0]
    steps = [shlex.split(step) for step in demo.split(" && ")]
    assert steps[0] == ["python3", "-m", "venv", ".venv"]
    assert steps[1][:3] == [".venv/bin/pip", "install", "-e"] and steps[1][-1] == "."
    assert steps[2] == [".venv/bin/cloudtui", "--demo"]
    from tui.__main__ import _parser

    assert _parser().parse_args(steps[2][1:]).demo


# -- links ------------------------------------------------------------------------------------


def _markdown_files() -> list[Path]:
    return [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("**/*.md"))]


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _without_code(text: str) -> str:
    """Markdown text without fenced blocks and inline code (neither holds links)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def _anchors(path: Path) -> set[str]:
    """The anchors of a markdown file's headings, as GitHub makes them."""
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    anchors = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchors.add(slug)
    return anchors


def test_anchors_are_made_as_github_makes_them() -> None:
    page = ROOT / "docs" / "guide.md"
    assert "hand-offs-ssh-k9s-database-clients-editor" in _anchors(page)
    assert "overview-the-landing-area" in _anchors(page)


def test_every_relative_link_in_the_docs_points_to_a_file_and_heading() -> None:
    broken = []
    for path in _markdown_files():
        for target in LINK.findall(_without_code(path.read_text(encoding="utf-8"))):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # a URL
            local, _, anchor = target.partition("#")
            linked = (path.parent / local) if local else path
            if not linked.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, broken
