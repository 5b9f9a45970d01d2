"""Arguments that a program runs as code, where an item's value must never be spliced.

A plugin's arguments reach its program one by one, never through a shell. But some programs
run one of their arguments as code themselves: ``sh -c SCRIPT``, ``python -c``, ``perl -e``,
an awk or sed program, the remote command of ``ssh`` (run by the remote shell), ``watch``
without ``-x`` (run by ``sh -c``), ``su -c``. A label like ``x; rm -rf ~`` in such an argument
would run. :func:`code_arguments` finds them: the table :data:`RULES` says where each program
takes its code, and a program is recognised wherever it appears (``env``, ``nice`` or
``xargs`` in front change nothing; what follows the first such program is its own).
:func:`spliced_values` names each placeholder found there, so the config check refuses the
plugin. Values go after the script as arguments (``"$1"``) or are read from the environment
(``$CLOUDTUI_LABEL``) instead.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence

from tui.plugins.templates import env_name, placeholders

Finder = Callable[[Sequence[str]], list[tuple[int, str]]]
"""Given a program's arguments, the positions holding code (or the program to run) and what
each is (``the script``)."""


def _operands(args: Sequence[str], with_value: frozenset[str]) -> list[int]:
    """Positions of the operands (non-options) of ``args``, options taking a value skipped."""
    out: list[int] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            out.extend(range(index + 1, len(args)))
            break
        if arg.startswith("-") and arg != "-":
            if arg in with_value:
                index += 1
        else:
            out.append(index)
        index += 1
    return out


def _shell(args: Sequence[str]) -> list[tuple[int, str]]:
    """``sh -c SCRIPT`` (``-lc``, ``-ec`` too; ``--command`` for fish): the first operand is the
    script to run, or the script file without ``-c``."""
    inline = False
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            index += 1
            break
        if arg in ("-o", "+o", "-O", "+O"):
            index += 2
            continue
        if arg.startswith("--command=") or arg == "--command":
            if arg == "--command":
                return [(index + 1, "the script")] if index + 1 < len(args) else []
            return [(index, "the script")]
        if arg.startswith(("-", "+")) and not arg.startswith("--") and len(arg) > 1:
            inline = inline or "c" in arg[1:]
            index += 1
            continue
        if arg.startswith("--"):
            index += 1
            continue
        break
    if index < len(args):
        return [(index, "the script" if inline else "the script file")]
    return []


def _code_options(
    code: frozenset[str],
    with_value: frozenset[str],
    word: str,
    from_file: frozenset[str] = frozenset(),
) -> Finder:
    """An interpreter whose options ``code`` take code (``-c``, ``-e``); without one (nor one
    of ``from_file``, which reads the program from a file), the first operand is the program
    (a script file, or ``word`` for awk and sed)."""

    def find(args: Sequence[str]) -> list[tuple[int, str]]:
        found: list[tuple[int, str]] = []
        for index, arg in enumerate(args):
            if arg == "--":
                break
            if arg in code and index + 1 < len(args):
                found.append((index + 1, "code"))
            elif any(arg.startswith(o) and len(arg) > len(o) for o in code if len(o) == 2):
                found.append((index, "code"))  # attached: -c'print(1)'
            elif any(arg.startswith(o + "=") for o in code if o.startswith("--")):
                found.append((index, "code"))
        if found or any(a in from_file for a in args):
            return found
        operands = _operands(args, with_value | from_file)
        return [(operands[0], word)] if operands else []

    return find


_SSH_VALUE = frozenset("-" + c for c in "BbcDEeFIiJLlmOoPpQRSWw")
_SSH_COMMAND_OPTIONS = ("proxycommand", "localcommand", "remotecommand", "knownhostscommand")


def _ssh(args: Sequence[str]) -> list[tuple[int, str]]:
    """ssh: everything after the destination is a command for the remote shell; ``-o
    ProxyCommand=...`` and its kind are run by a local shell."""
    found: list[tuple[int, str]] = []
    for index, arg in enumerate(args[:-1]):
        option = args[index + 1].lower().replace(" ", "")
        if arg == "-o" and option.startswith(_SSH_COMMAND_OPTIONS):
            found.append((index + 1, "a command ssh runs"))
    for index, arg in enumerate(args):
        if arg.startswith("-o") and arg[2:].lower().startswith(_SSH_COMMAND_OPTIONS):
            found.append((index, "a command ssh runs"))
    operands = _operands(args, _SSH_VALUE)
    found.extend((i, "the remote command (run by the remote shell)") for i in operands[1:])
    return found


def _watch(args: Sequence[str]) -> list[tuple[int, str]]:
    """watch joins its command and runs it with ``sh -c`` unless ``-x`` is given."""
    if any(a in ("-x", "--exec") for a in args):
        return []
    operands = _operands(args, frozenset({"-n", "--interval", "-q", "--equexit"}))
    return [(i, "the command (run by sh -c)") for i in operands]


def _su(args: Sequence[str]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for index, arg in enumerate(args):
        if arg in ("-c", "--command") and index + 1 < len(args):
            found.append((index + 1, "the command (run by a shell)"))
        elif arg.startswith("--command="):
            found.append((index, "the command (run by a shell)"))
    return found


_NONE: frozenset[str] = frozenset()
_PYTHON = _code_options(frozenset({"-c", "-m"}), frozenset({"-W", "-X"}), "the script file")

RULES: Mapping[str, Finder] = {
    **dict.fromkeys(
        ("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "fish", "csh", "tcsh"),
        _shell,
    ),
    "python": _PYTHON,
    "pypy": _PYTHON,
    "perl": _code_options(frozenset({"-e", "-E"}), _NONE, "the script file"),
    "ruby": _code_options(frozenset({"-e"}), _NONE, "the script file"),
    "node": _code_options(frozenset({"-e", "-p", "--eval", "--print"}), _NONE, "the script file"),
    "nodejs": _code_options(frozenset({"-e", "-p", "--eval", "--print"}), _NONE, "the script"),
    "php": _code_options(frozenset({"-r"}), _NONE, "the script file"),
    "lua": _code_options(frozenset({"-e"}), _NONE, "the script file"),
    "osascript": _code_options(frozenset({"-e"}), _NONE, "the script file"),
    **dict.fromkeys(
        ("awk", "gawk", "mawk", "nawk", "busybox-awk"),
        _code_options(_NONE, frozenset({"-F", "-v"}), "the awk program", frozenset({"-f"})),
    ),
    "sed": _code_options(
        frozenset({"-e", "--expression"}), _NONE, "the sed script", frozenset({"-f"})
    ),
    "ssh": _ssh,
    "watch": _watch,
    "su": _su,
}
"""Program -> where its arguments hold code. Interpreters are matched without their version
(``python3.11`` is ``python``)."""


def _program(arg: str) -> str:
    """The program an argument names: its file name without a version (``python3``)."""
    name = os.path.basename(arg)
    return re.sub(r"[0-9.]+$", "", name) or name


def code_arguments(command: Sequence[str]) -> list[tuple[int, str, str]]:
    """Every argument of ``command`` that a program in it runs as code.

    Returns:
        ``(position in command, program, what the argument is)`` for each.
    """
    found: list[tuple[int, str, str]] = []
    for index, arg in enumerate(command):
        if placeholders(arg):
            continue  # a program is never chosen by an item's value (refused elsewhere)
        finder = RULES.get(_program(arg))
        if finder is None:
            continue
        for offset, what in finder(command[index + 1 :]):
            found.append((index + 1 + offset, os.path.basename(arg), what))
        # The rest belongs to that program (a shell's $0 and $1 ..., a script's arguments):
        # data, not programs; ``sh -c 'echo "$1"' sh {label}`` names sh twice.
        break
    return found


def spliced_values(command: Sequence[str]) -> list[str]:
    """Why ``command`` is refused: each placeholder that would be spliced into code."""
    problems: list[str] = []
    seen: set[int] = set()
    for position, program, what in code_arguments(command):
        names = placeholders(command[position])
        if not names or position in seen:
            continue
        seen.add(position)
        shown = ", ".join("{" + n + "}" for n in names)
        problems.append(
            f"command[{position}] is {what} that {program} runs, and {shown} would be spliced "
            "into it (a label like `x; rm -rf ~` would run): pass the value as its own "
            f'argument after it ("$1") or read it from the environment (${env_name(names[0])})'
        )
    return problems
