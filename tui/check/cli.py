"""``cloudtui check``: the rules without the UI, for cron and CI.

Exit status (also in ``docs/check.md``): 0 nothing found at or above ``--fail-on``; 1 something
found at or above it; 2 a bad command line or configuration (nothing checked); 3 an account,
or some rules of one, could not be checked (a listing failed, no token, unreachable), which
wins over 1. ``--silence``/``--unsilence`` answer 0 when done and 2 when the finding is unknown.

The module imports nothing heavy at load: ``cloudtui --help`` builds its parser.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.check.model import Rule
    from tui.check.run import AccountCheck
    from tui.check.silences import Silences
    from tui.session.config import Settings
    from tui.session.runtime import Session

DEMO_ACCOUNT = "DEMO"


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``cloudtui check`` (``parser`` is its sub-command parser)."""
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--profile", dest="sub_profile", metavar="NAME", help="profile to check (default: the "
        "configured default)",
    )  # fmt: skip
    who.add_argument("--all-profiles", action="store_true", help="check every profile")
    who.add_argument(
        "--demo",
        dest="sub_demo",
        action="store_true",
        help="check the demo account (as cloudtui --demo check)",
    )
    parser.add_argument(
        "--format", choices=("text", "json", "markdown"), default="text", help="default: text"
    )
    parser.add_argument(
        "--fail-on",
        choices=("warning", "error"),
        default="error",
        help="exit 1 when something is found at this severity or above (default: error)",
    )
    parser.add_argument(
        "--rule", action="append", metavar="ID", help="run only this rule (repeatable)"
    )
    parser.add_argument(
        "--silences", action="store_true", help="list the silenced findings and exit"
    )
    parser.add_argument(
        "--silence", metavar="FINDING", help="silence one finding (its id) with --reason"
    )
    parser.add_argument("--reason", metavar="TEXT", help="why the finding is silenced")
    parser.add_argument("--unsilence", metavar="FINDING", help="hear about a finding again")


def _fail(message: str) -> int:
    from tui.check.report import EXIT_USAGE

    print(f"cloudtui check: {message}", file=sys.stderr)
    return EXIT_USAGE


def _chosen_rules(ids: list[str] | None) -> tuple[Rule, ...] | str:
    from tui.check.rules import BY_ID, RULES

    if not ids:
        return RULES
    unknown = [i for i in ids if i not in BY_ID]
    if unknown:
        return f"no rule {', '.join(unknown)} (rules: {', '.join(BY_ID)})"
    return tuple(rule for rule in RULES if rule.id in ids)


def _profiles(args: argparse.Namespace, settings: Settings) -> list[str] | str:
    if args.all_profiles:
        names = sorted(settings.profiles)
        return names or "no profiles in the config file yet (run: cloudtui login)"
    name = args.sub_profile or args.profile or settings.default_profile or "default"
    if name not in settings.profiles:
        known = ", ".join(sorted(settings.profiles)) or "none"
        return f"no profile named {name!r} (profiles: {known})"
    return [name]


def _silences(name: str, demo_user: str | None) -> Silences:
    from tui.check.silences import Silences
    from tui.session.datadir import demo_dir

    # The demo is seeded anew each run: its silences live in that run's own folder.
    return Silences(name, folder=demo_dir(demo_user) if demo_user else None)


async def _check_one(
    name: str,
    settings: Settings,
    rules: tuple[Rule, ...],
    demo: Session | None,
) -> AccountCheck:
    from tui.accounts.switch import AccountUnavailable, open_account
    from tui.api.errors import CloudError
    from tui.check.run import AccountCheck
    from tui.check.session import check_session
    from tui.refresh import describe_error

    try:
        session = demo or open_account(settings, name)
    except AccountUnavailable as exc:
        return AccountCheck(name, error=str(exc))
    try:
        result = await check_session(
            session, settings, silences=_silences(name, session.demo_user), rules=rules
        )
        result.account = name
        return result
    except CloudError as exc:
        return AccountCheck(name, error=describe_error(exc))
    finally:
        await session.aclose()


async def _check_all(
    names: list[str], settings: Settings, rules: tuple[Rule, ...], demo: Session | None
) -> list[AccountCheck]:
    return list(await asyncio.gather(*(_check_one(n, settings, rules, demo) for n in names)))


def _list_silences(names: list[str], demo_user: str | None) -> int:
    from tui.untrusted import shown

    for name in names:
        silences = _silences(name, demo_user)
        entries = silences.entries()
        print(f"Account {shown(name)}: {len(entries)} silenced")
        if silences.problem:
            print(f"  {shown(silences.problem)}")
        for entry in entries:
            print(f"  {shown(entry.finding)}  {shown(entry.label)}")
            print(f"    {entry.created}: {shown(entry.reason)}")
    return 0


def _change_silence(args: argparse.Namespace, check: AccountCheck, demo_user: str | None) -> int:
    from tui.untrusted import shown

    silences = _silences(check.account, demo_user)
    if args.unsilence:
        if not silences.remove(args.unsilence):
            return _fail(f"{shown(args.unsilence)} is not silenced")
        print(f"{shown(args.unsilence)} is reported again.")
        return 0
    found = [f for f in (*check.findings, *check.silenced) if f.id == args.silence]
    if not found:
        return _fail(f"no finding {shown(args.silence)} in {shown(check.account)} now")
    silences.add(found[0], args.reason or "")
    print(f"Silenced {shown(args.silence)}.")
    return 0


def run_check_command(args: argparse.Namespace, settings: Settings) -> int:
    """Run ``cloudtui check`` with parsed ``args`` and loaded ``settings``.

    Returns:
        The exit status (see the module's docstring).
    """
    from tui.check.model import Severity
    from tui.check.report import as_json, as_markdown, as_text, exit_status

    rules = _chosen_rules(args.rule)
    if isinstance(rules, str):
        return _fail(rules)
    if args.silence and not (args.reason or "").strip():
        return _fail("--silence needs --reason TEXT (why it is silenced)")
    demo = args.demo or args.sub_demo
    if demo and args.profile:
        return _fail("--demo checks the demo account: leave out --profile")
    names = [DEMO_ACCOUNT] if demo else _profiles(args, settings)
    if isinstance(names, str):
        return _fail(names)
    demo_user = args.demo_user if demo else None
    if (args.silence or args.unsilence) and len(names) != 1:
        return _fail("--silence and --unsilence change one profile's silences: name it")
    if args.silences:
        return _list_silences(names, demo_user)
    session = None
    if demo:
        from tui.session.runtime import Session

        session = Session.for_demo(settings, demo_user or "unrestricted", scale=args.demo_scale)
    checks = asyncio.run(_check_all(names, settings, rules, session))
    if args.silence or args.unsilence:
        return _change_silence(args, checks[0], demo_user)
    fail_on = Severity.parse(args.fail_on)
    if args.format == "json":
        sys.stdout.write(as_json(checks, rules, fail_on))
    elif args.format == "markdown":
        sys.stdout.write(as_markdown(checks))
    else:
        sys.stdout.write(as_text(checks))
    return exit_status(checks, fail_on)
