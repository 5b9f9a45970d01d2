"""``[aliases]`` and ``[hotkeys]``: resolved for the command line, and checked like the keymap.

```toml
[aliases]
db = "databases"            # :db goes where :databases goes
prod = "fanout instances"   # words after the alias are kept: :prod work

[hotkeys]
"ctrl+1" = ":fanout instances"
"f6" = ":log"
```

An alias is one word standing for a ``:`` command; a built-in word always wins over an alias
of the same name (the alias is reported), and an alias stands for a command, never another
alias. A hotkey runs a ``:`` command (aliases allowed) as if typed. Every target is checked
against what the command line knows: an unknown word is named with the nearest valid one, a
``:fanout`` or ``:account`` with its own message (an unknown area or profile).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import cache

from tui.accounts.fanout import parse_fanout_command
from tui.accounts.switch import ACCOUNT_COMMAND, parse_account_command, profile_names
from tui.home.areas import HOME_WORDS, READ_ONLY_WORDS
from tui.resources.areas import BUILTIN_COMMANDS, COMMANDS, resolve_command
from tui.session.config import ConfigProblem, Settings
from tui.session.config_keys import line_of, nearest
from tui.shortcuts.keys import is_one_key, normalize_key

_ALIAS_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_TAKES_ARGUMENTS = frozenset({"fanout", ACCOUNT_COMMAND, "export"})


@cache
def command_words() -> frozenset[str]:
    """Every word the ``:`` line knows by itself (areas, tabs, their aliases, built-ins)."""
    return frozenset({*COMMANDS, *BUILTIN_COMMANDS, *HOME_WORDS, *READ_ONLY_WORDS})


def _split(text: str) -> tuple[str, str]:
    """The first word (lower case) and the rest of a ``:`` command."""
    head, _, rest = text.strip().lstrip(":").strip().partition(" ")
    return head.lower(), rest.strip()


def _alias(aliases: Mapping[str, str], word: str) -> str | None:
    """The target of the alias ``word`` (any case); None for a built-in word or no alias."""
    if word in command_words():
        return None
    return next((t for name, t in aliases.items() if name.lower() == word), None)


def expand_alias(text: str, aliases: Mapping[str, str]) -> str:
    """``text`` with its first word replaced by what it is an alias of (words after it kept).

    Args:
        text: What was typed after ``:`` (or a hotkey's command).
        aliases: The config file's ``[aliases]``.

    Returns:
        The command to run, without a leading ``:``; ``text`` as it is (stripped) when its
        first word is no alias, or is a built-in word.
    """
    head, rest = _split(text)
    target = _alias(aliases, head)
    if target is None:
        return text.strip().lstrip(":").strip()
    expanded = target.strip().lstrip(":").strip()
    return f"{expanded} {rest}" if rest else expanded


def hotkey_commands(hotkeys: Mapping[str, str]) -> dict[str, str]:
    """Normalised key -> the command it runs (without ``:``), for the app to bind."""
    return {
        normalize_key(key): command.strip().lstrip(":").strip()
        for key, command in hotkeys.items()
        if is_one_key(key)
    }


def command_problem(text: str, settings: Settings) -> str | None:
    """What is wrong with a ``:`` command (None: the command line would run it).

    Args:
        text: The command (``fanout instances``, ``:databases``), aliases already expanded.
        settings: The settings (profiles, for ``:fanout`` and ``:account``).
    """
    head, rest = _split(text)
    if not head:
        return "the command is empty"
    if head == "fanout":
        answer = parse_fanout_command(text.strip().lstrip(":"), settings)
        if isinstance(answer, str):
            return answer[:1].lower() + answer[1:].rstrip(".")  # read after "but"
        return None
    if head == ACCOUNT_COMMAND:
        name = parse_account_command(text.strip().lstrip(":"))
        known = profile_names(settings)
        if name is None:
            return "takes one profile name: account NAME"
        if name and name not in known:
            return f"no profile named {name} (profiles: {', '.join(known) or 'none'})"
        return None
    if head in _TAKES_ARGUMENTS:
        return None
    if head not in command_words() and resolve_command(head) is None:
        hint = nearest(head, command_words())
        return f"{head} is not a command" + (f"; did you mean {hint}?" if hint else "")
    if rest:
        return f"{head} takes nothing after it"
    return None


def alias_problems(settings: Settings, text: str | None = None) -> list[ConfigProblem]:
    """What is wrong in ``[aliases]``, one problem each (with its line when ``text`` is given).

    Args:
        settings: The settings, aliases included.
        text: The config file's text.
    """
    lines = text.splitlines() if text is not None else []
    problems: list[ConfigProblem] = []
    for name, target in settings.aliases.items():
        line = line_of(lines, ("aliases", name)) if lines else None
        word = name.lower()
        if not _ALIAS_NAME.fullmatch(name):
            said = "is not one word (letters, digits, . _ -)"
        elif word in command_words():
            same = resolve_command(word) is not None and resolve_command(word) == resolve_command(
                _split(target)[0]
            )
            said = (
                "is a built-in word for that already: this alias is not needed"
                if same
                else "is a built-in command already: the built-in one is kept"
            )
        elif _alias(settings.aliases, _split(target)[0]) is not None:
            said = f"stands for {_split(target)[0]}, another alias: name a command instead"
        else:
            problem = command_problem(target, settings)
            said = f"stands for {target.strip()!r}, but {problem}" if problem else ""
        if said:
            problems.append(ConfigProblem(line, f"[aliases] {name} {said}"))
    return problems


def hotkey_problems(
    settings: Settings,
    builtin_keys: Mapping[str, Collection[str]] | None = None,
    text: str | None = None,
) -> list[ConfigProblem]:
    """What is wrong in ``[hotkeys]``: keys that are not one key or that a built-in binding
    has, and commands the command line would refuse.

    Args:
        settings: The settings, hotkeys and aliases included.
        builtin_keys: Normalised key -> ids of the built-in bindings on it (None: not checked).
        text: The config file's text (for lines).
    """
    lines = text.splitlines() if text is not None else []
    problems: list[ConfigProblem] = []
    for key, command in settings.hotkeys.items():
        line = line_of(lines, ("hotkeys", key)) if lines else None
        if not is_one_key(key):
            problems.append(ConfigProblem(line, f'[hotkeys] "{key}" is not one key (ctrl+1, f6)'))
            continue
        taken = (builtin_keys or {}).get(normalize_key(key))
        if taken:
            ids = ", ".join(sorted(taken))
            problems.append(ConfigProblem(line, f'[hotkeys] "{key}" is the key of {ids} already'))
        problem = command_problem(expand_alias(command, settings.aliases), settings)
        if problem:
            problems.append(
                ConfigProblem(line, f'[hotkeys] "{key}" runs {command.strip()!r}, but {problem}')
            )
    return problems
