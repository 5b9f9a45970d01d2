"""A program to hand the terminal to: argv and environment from templates, secrets in files.

A :class:`Launch` is plain data. :func:`prepared` checks that the program exists (naming it and
the Debian package that provides it when it does not), writes the launch's files into a private
folder (0700) with mode 0600, fills the command's placeholders and yields the argv and
environment; the folder and its files are removed when the block ends, whatever happens.
Secrets are only ever file contents: no placeholder, argument or environment variable carries
one, so ``ps`` and ``/proc/<pid>/environ`` cannot show them.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tui.session.auth import TOKEN_ENV
from tui.untrusted import Shown, shown

PRIVATE_FILE = 0o600

PACKAGES: Mapping[str, str] = {
    "ssh": "Debian package openssh-client",
    "mysql": "Debian package default-mysql-client",
    "mariadb": "Debian package mariadb-client",
    "kubectl": "Debian package kubectl",
    "k9s": "not packaged by Debian; see https://k9scli.io",
    "mongosh": "not packaged by Debian; MongoDB's apt repository has mongodb-mongosh",
    "nano": "Debian package nano",
    "vi": "Debian package vim-tiny",
    "vim": "Debian package vim",
    "emacs": "Debian package emacs",
}
"""Program -> where it comes from, for the "not installed" message."""

FileContent = str | Callable[[Mapping[str, str]], str]
"""A file's text, or a function of the paths of the launch's files (a script naming the CA
file)."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class HandoffError(Exception):
    """The hand-off cannot start; the message says why (it never quotes a secret)."""


class MissingProgram(HandoffError):
    """The program to run is not installed.

    Attributes:
        program: Its name.
        source: Where it comes from (the Debian package), if known.
    """

    def __init__(self, program: str, source: str | None = None) -> None:
        self.program = program
        self.source = source
        where = f" ({source})" if source else ""
        super().__init__(f"{program} is not installed{where}.")


@dataclass(frozen=True)
class Launch:
    """What to run.

    Attributes:
        title: What the user is told (``ssh root@192.0.2.10``), never a secret.
        config: The config table it came from (``handoff.ssh``), for error messages.
        command: Argument templates.
        values: Placeholder -> value (never a secret).
        options: What an argument ``{options}`` expands to.
        files: Placeholder -> content of a file written 0600 for the run; the placeholder
            becomes the file's path.
        env: Environment variables to set (templates; never a secret).
        fallback: Argument templates run when the command's program is missing (empty: none).
        keep_env: Run with the caller's environment (minus the API token) plus ``env``.
        hint: A line printed in the terminal before the program starts (where the fallback
            shell's KUBECONFIG points), filled like the command.
        names: Placeholder -> file name, for files whose name matters (an editor picks the
            syntax from ``script.sh``); default: the placeholder itself.
    """

    title: Shown
    config: str
    command: tuple[str, ...]
    values: Mapping[str, str] = field(default_factory=dict)
    options: tuple[str, ...] = ()
    files: Mapping[str, FileContent] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    fallback: tuple[str, ...] = ()
    keep_env: bool = True
    names: Mapping[str, str] = field(default_factory=dict)
    hint: str = ""


@dataclass(frozen=True)
class Prepared:
    """A launch ready to run.

    Attributes:
        argv: The arguments.
        env: The complete environment.
        files: Placeholder -> path of each file written.
        fallback: True when the fallback runs because the command's program is missing.
        notice: What to tell the user about that (names the missing program), else "".
        hint: The launch's hint, filled in.
    """

    argv: list[str]
    env: dict[str, str]
    files: dict[str, str]
    fallback: bool = False
    notice: Shown = ""
    hint: str = ""


def program_source(program: str) -> str | None:
    """Where ``program`` comes from (``Debian package openssh-client``), if known."""
    return PACKAGES.get(os.path.basename(program))


def find_program(program: str, path: str | None) -> str | None:
    """The executable ``program`` resolves to on ``path`` (or as given, with a slash)."""
    if os.sep in program:
        full = os.path.expanduser(program)
        return full if os.access(full, os.X_OK) and not os.path.isdir(full) else None
    return shutil.which(program, path=path)


def fill(template: str, values: Mapping[str, str], config: str) -> str:
    """``template`` with its ``{name}`` placeholders replaced.

    Raises:
        HandoffError: A placeholder has no value (the message names it and the config table).
    """

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            known = ", ".join("{" + k + "}" for k in sorted(values))
            raise HandoffError(f"[{config}] uses {{{name}}}, which is not known here ({known}).")
        return values[name]

    return _PLACEHOLDER.sub(one, template)


def expand(
    templates: tuple[str, ...], values: Mapping[str, str], options: tuple[str, ...], config: str
) -> list[str]:
    """Arguments from templates; an argument that is exactly ``{options}`` becomes ``options``.

    A template starting with ``~`` has it expanded to the home folder before its placeholders
    are filled, so a value (a label ``~root``) is never expanded.
    """
    argv: list[str] = []
    for template in templates:
        if template == "{options}":
            argv.extend(os.path.expanduser(o) if o.startswith("~") else o for o in options)
            continue
        # The template's own ~ is the user's home; a value that starts with ~ stays as it is.
        if template.startswith("~"):
            template = os.path.expanduser(template)
        argv.append(fill(template, values, config))
    return argv


def child_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a program inherits: ours without the API token."""
    env = dict(os.environ if base is None else base)
    env.pop(TOKEN_ENV, None)
    return env


def write_secret(path: Path, text: str) -> None:
    """Create ``path`` with mode 0600 from the start and write ``text`` (fails if it exists)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)


def _choose(
    launch: Launch, values: Mapping[str, str], path: str | None
) -> tuple[list[str], str, str]:
    """The templates to run, the executable they start and the notice, or MissingProgram."""
    first = expand(launch.command[:1], values, (), launch.config)
    program = first[0] if first else ""
    found = find_program(program, path) if program else None
    if found:
        return list(launch.command), found, ""
    if launch.fallback:
        alt = expand(launch.fallback[:1], values, (), launch.config)[0]
        found = find_program(alt, path)
        if found:
            source = program_source(program)
            where = f" ({source})" if source else ""
            return (
                list(launch.fallback),
                found,
                f"{program} is not installed{where}; running {alt}.",
            )
        raise MissingProgram(program, program_source(program))
    raise MissingProgram(program or "(empty command)", program_source(program))


@contextmanager
def prepared(
    launch: Launch,
    base_env: Mapping[str, str] | None = None,
    tmp_root: str | Path | None = None,
) -> Iterator[Prepared]:
    """Argv and environment of ``launch``, its files present for the duration of the block.

    Args:
        launch: What to run.
        base_env: The environment to start from (default: this process's).
        tmp_root: Where the private folder is made (default: the system's temp folder).

    Yields:
        The prepared launch.

    Raises:
        MissingProgram: Neither the program nor its fallback is installed (nothing written).
        HandoffError: A template names an unknown placeholder.
    """
    env = child_environment(base_env) if launch.keep_env else {}
    values = {"shell": env.get("SHELL") or "/bin/sh", **launch.values}
    templates, executable, notice = _choose(launch, values, env.get("PATH"))
    folder = Path(tempfile.mkdtemp(prefix="cloudtui-", dir=tmp_root))  # mode 0700
    try:
        paths = {name: str(folder / launch.names.get(name, name)) for name in launch.files}
        for name, content in launch.files.items():
            text = content(paths) if callable(content) else content
            write_secret(Path(paths[name]), text)
        values = {**values, **paths}
        argv = expand(tuple(templates), values, launch.options, launch.config)
        # Run exactly what was found: exec would otherwise try further PATH entries when the
        # first one cannot start (a broken interpreter line) and run another program.
        argv[0] = executable
        for key, template in launch.env.items():
            env[key] = fill(template, values, launch.config)
        hint = fill(launch.hint, values, launch.config) if launch.hint else ""
        yield Prepared(argv, env, paths, fallback=bool(notice), notice=shown(notice), hint=hint)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
