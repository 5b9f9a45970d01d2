"""Command line: ``cloudtui [--demo] [--profile P]``, ``login``, ``logout``, ``profiles``, ``sim``.

Heavy modules (Textual, the simulator) are imported only by the commands that need them, so
``--help`` and ``login`` stay fast.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import getpass
import os
import sys
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from tui import __version__
from tui.cli_args import EXIT_USAGE, Parser, number

# pydantic scans every installed distribution's entry points for plugins when it builds its
# first model (10-30 ms of each start); the command line uses none. An explicit setting wins.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

if TYPE_CHECKING:
    from tui.session.config import Settings

EXIT_OK = 0
EXIT_FAILURE = 1


_SHARE = number(float, 0.0, 1.0)

DATA_SETS = ("standard", "hostile")
"""The simulator's demo data sets (see ``tui.simulator.hostile``)."""


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="cloudtui",
        description="A keyboard-first terminal UI for operating a cloud hosting account.",
    )
    _add_app_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, summary: str, details: str = "") -> argparse.ArgumentParser:
        # The summary is the line in ``cloudtui --help``; ``cloudtui NAME --help`` opens with
        # it as a sentence.
        sentence = summary[0].upper() + summary[1:] + "."
        return sub.add_parser(
            name, help=summary, description=f"{sentence} {details}".strip(), prog=f"cloudtui {name}"
        )

    _add_account_commands(command)
    _add_sim_options(
        command(
            "sim",
            "serve the API simulator over HTTP",
            "It listens first, then prints its address and the demo tokens; stop it with ctrl+c.",
        )
    )
    return parser


Command = Callable[..., argparse.ArgumentParser]
"""Adds one subcommand: ``(name, summary, details) -> its parser``."""


def _add_app_options(parser: argparse.ArgumentParser) -> None:
    """The options of the app itself (``cloudtui [--demo] [--profile P]``)."""
    parser.add_argument("--version", action="version", version=f"cloudtui {__version__}")
    parser.add_argument(
        "--profile", metavar="NAME", help="profile to use (default: the configured default)"
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="run against the built-in simulator with demo data (no account, no network)",
    )
    parser.add_argument(
        "--demo-user",
        choices=("unrestricted", "restricted", "readonly"),
        default="unrestricted",
        help="demo mode only: act as this simulated user (default: unrestricted)",
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="browse without being able to change anything, on every account of the run "
        "(every mutating action is greyed)",
    )
    parser.add_argument(
        "--demo-scale",
        type=number(int, 0, 100_000),
        default=0,
        metavar="N",
        help="demo mode only: seed N extra instances, to try a large account (default: 0)",
    )
    parser.add_argument(
        "--demo-latency",
        type=number(float, 0.0, 60.0, "seconds"),
        default=0.0,
        metavar="SECONDS",
        help="demo mode only: seconds added to every request (default: 0)",
    )
    parser.add_argument(
        "--demo-data",
        choices=DATA_SETS,
        default="standard",
        help="demo mode only: the data set; hostile puts escape sequences, bidi overrides, markup "
        "and 500-character words in every text others write, to see that none reaches the "
        "terminal (default: standard)",
    )


def _add_account_commands(command: Command) -> None:
    """``login``, ``logout``, ``profiles``, ``doctor`` and ``check``."""
    login = command(
        "login",
        "verify an API token and store it for a profile",
        "The token is read from the terminal (hidden) or from standard input, checked with the "
        "API, then kept in the system keyring (or where --store says); the profile's base URL "
        "is saved in the config file.",
    )
    login.add_argument(
        "--profile", dest="sub_profile", metavar="NAME", default=None, help="profile name"
    )
    login.add_argument(
        "--base-url", metavar="URL", help="API base URL ending in /v4 (https; http to 127.0.0.1)"
    )
    login.add_argument(
        "--store",
        choices=("keyring", "file", "session"),
        default=None,
        help="where to keep the token (default: keyring; asked when the keyring is unusable)",
    )

    logout = command(
        "logout",
        "forget the stored token of a profile",
        "The profile and its base URL stay in the config file.",
    )
    logout.add_argument(
        "--profile", dest="sub_profile", metavar="NAME", default=None, help="profile name"
    )

    command("profiles", "list profiles, base URLs and where their tokens are stored")

    doctor = command(
        "doctor",
        "check config, API, token, keyring, terminal and tools",
        "Each problem is shown with what to do about it; the exit status is 1 when a check "
        "failed. With --demo, the demo's own set-up is checked.",
    )
    doctor.add_argument(
        "--profile", dest="sub_profile", metavar="NAME", default=None, help="profile to check"
    )
    doctor.add_argument(
        "--demo",
        dest="sub_demo",
        action="store_true",
        help="check the demo's set-up instead of a profile (as cloudtui --demo doctor)",
    )
    doctor.add_argument("--json", action="store_true", help="machine-readable report")

    from tui.check.cli import add_check_arguments

    add_check_arguments(
        command(
            "check",
            "find risks and waste in an account, with their fixes and savings",
            "For cron and CI: exit status 0 when nothing is found at or above --fail-on, 1 when "
            "something is, 2 on a bad command line or configuration, 3 when an account (or some "
            "of its rules) could not be checked. See docs/check.md.",
        )
    )


def _add_sim_options(sim: argparse.ArgumentParser) -> None:
    """The options of ``cloudtui sim``: where it listens, its data, its clock and its faults."""
    sim.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    sim.add_argument(
        "--port",
        type=number(int, 0, 65535),
        default=8080,
        help="TCP port; 0 picks a free one, printed once listening (default: 8080)",
    )
    sim.add_argument(
        "--speed",
        type=number(float, 0.01, 10_000.0),
        default=1.0,
        metavar="FACTOR",
        help="how fast the simulated clock runs: 4 makes a 4 s boot take 1 s (default: 1; "
        "docs/simulator.md lists each step's time)",
    )
    sim.add_argument(
        "--instant",
        action="store_true",
        help="every transition (provisioning, boot, resize ...) ends by the next request, so a "
        "client sees the end state on its first poll; time limits keep their time "
        "(default: transitions take their time on the clock)",
    )
    sim.add_argument(
        "--data",
        choices=DATA_SETS,
        default="standard",
        help="the demo data set to seed: hostile puts escape sequences, bidi overrides and markup "
        "in every text field, to test a client against them (default: standard)",
    )
    sim.add_argument(
        "--scale",
        type=number(int, 0, 100_000),
        default=0,
        metavar="N",
        help="seed N extra instances (default: 0)",
    )
    sim.add_argument(
        "--state",
        type=Path,
        default=None,
        metavar="FILE",
        help="load the state from FILE when it exists and save it there after every change "
        "(default: state is kept in memory only)",
    )
    sim.add_argument(
        "--latency",
        type=number(float, 0.0, 60.0, "seconds"),
        default=0.0,
        metavar="SECONDS",
        help="seconds added to every request (default: 0)",
    )
    sim.add_argument(
        "--jitter",
        type=number(float, 0.0, 60.0, "seconds"),
        default=0.0,
        metavar="SECONDS",
        help="up to this many more seconds per request, at random (default: 0)",
    )
    sim.add_argument(
        "--error-rate",
        type=_SHARE,
        default=0.0,
        metavar="SHARE",
        help="share of requests answered with a 5xx error, from 0 to 1 (default: 0)",
    )
    sim.add_argument(
        "--drop-rate",
        type=_SHARE,
        default=0.0,
        metavar="SHARE",
        help="share of connections closed without an answer, from 0 to 1 (default: 0)",
    )
    sim.add_argument(
        "--rate-limit",
        type=number(int, 1, None),
        default=None,
        metavar="N",
        help="requests allowed per minute before 429 answers (default: no limit)",
    )
    sim.add_argument(
        "--lost-response-rate",
        type=_SHARE,
        default=0.0,
        metavar="SHARE",
        help="share of requests carried out whose answer is then lost, from 0 to 1 (default: 0)",
    )
    sim.add_argument(
        "--stall-rate",
        type=_SHARE,
        default=0.0,
        metavar="SHARE",
        help="share of requests answered only after --stall-seconds, from 0 to 1 (default: 0)",
    )
    sim.add_argument(
        "--stall-seconds",
        type=number(float, 0.0, 3600.0, "seconds"),
        default=35.0,
        metavar="SECONDS",
        help="how late a stalled answer comes (default: 35, beyond the client's 30 s timeout)",
    )


def _load_settings_or_exit() -> Settings:
    from tui.session.config import ConfigError, load_settings
    from tui.untrusted import shown

    try:
        return load_settings()
    except ConfigError as exc:
        # The file's own keys are in these lines: shown, never sent to the terminal as they are.
        ignored = [key.message() for key in exc.unknown_keys]  # said now, not after the fix
        if len(exc.problems) == 1 and not ignored:
            print(shown(f"cloudtui: configuration error: {exc}"), file=sys.stderr)
        else:
            print(shown(f"cloudtui: configuration errors in {exc.path}:"), file=sys.stderr)
            for line in [*exc.lines(), *ignored]:
                print(f"  {shown(line)}", file=sys.stderr)
        print("The file was left as it is; fix it and run cloudtui again.", file=sys.stderr)
        raise SystemExit(EXIT_USAGE) from None


def _profile_name(settings: Settings, explicit: str | None) -> str:
    return explicit or settings.default_profile or "default"


def _read_token() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("API token (input hidden): ").strip()
    return sys.stdin.readline().strip()


def _ask_store_choice() -> str:
    from tui.session.auth import KEYRING_HELP

    print(KEYRING_HELP, file=sys.stderr)
    if not sys.stdin.isatty():
        print(
            "Not stored: run again with --store file (0600 file) or --store session.",
            file=sys.stderr,
        )
        return "none"
    answer = input("Store the token in a file readable only by you? [f]ile / [s]ession only: ")
    return "file" if answer.strip().lower().startswith("f") else "session"


def cmd_login(args: argparse.Namespace) -> int:
    """Verify a token with GET /profile and store it for the profile."""
    from pydantic import SecretStr

    from tui.api.client import InsecureBaseUrl, validate_base_url
    from tui.api.errors import ApiError, TransportFailure, Unauthorized
    from tui.session.auth import KeyringUnavailable, TokenSource, keyring_problem, store_token
    from tui.session.config import ConfigError, remember_profile, save_settings
    from tui.session.login import verify_token

    settings = _load_settings_or_exit()
    name = _profile_name(settings, args.sub_profile or args.profile)
    existing = settings.profiles.get(name)
    base_url = args.base_url or (existing.base_url if existing else None)
    if not base_url:
        print(f"cloudtui login: profile {name!r} has no base URL; pass --base-url", file=sys.stderr)
        return EXIT_USAGE
    try:
        base_url = validate_base_url(base_url)
    except InsecureBaseUrl as exc:
        print(f"cloudtui login: {exc}", file=sys.stderr)
        return EXIT_USAGE
    raw = _read_token()
    if not raw:
        print("cloudtui login: no token given", file=sys.stderr)
        return EXIT_USAGE
    token = SecretStr(raw)
    try:
        profile = asyncio.run(verify_token(base_url, token))
    except Unauthorized as exc:
        print(
            f"cloudtui login: the token was rejected ({exc.reasons}); nothing stored",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    except ApiError as exc:
        print(f"cloudtui login: could not verify the token: {exc}; nothing stored", file=sys.stderr)
        return EXIT_FAILURE
    except TransportFailure as exc:
        print(f"cloudtui login: cannot reach the API: {exc}; nothing stored", file=sys.stderr)
        return EXIT_FAILURE
    choice = args.store or ("keyring" if keyring_problem() is None else _ask_store_choice())
    if choice == "none":
        return EXIT_FAILURE
    where = {"keyring": TokenSource.KEYRING, "file": TokenSource.FILE}.get(
        choice, TokenSource.SESSION
    )
    try:
        stored = store_token(name, token, where)
    except KeyringUnavailable as exc:
        print(f"cloudtui login: {exc}", file=sys.stderr)
        print("Run again with --store file or --store session.", file=sys.stderr)
        return EXIT_FAILURE
    remember_profile(settings, name, base_url)
    try:
        path = save_settings(settings)
    except (OSError, ConfigError) as exc:
        print(
            f"cloudtui login: the token is stored, the config file is not: {exc}", file=sys.stderr
        )
        return EXIT_FAILURE
    user = profile.username or "?"
    print(f"Logged in as {user} on profile {name!r} ({base_url}).")
    if stored == TokenSource.FILE:
        print("Warning: the token is stored in a file (mode 0600); protect your account.")
    elif stored == TokenSource.SESSION:
        print("The token was not stored; set CLOUDTUI_TOKEN to use it.")
    else:
        print(f"Token stored in the {stored}. Settings: {path}")
    return EXIT_OK


def cmd_logout(args: argparse.Namespace) -> int:
    """Remove the stored token of a profile (the profile itself stays)."""
    from tui.session.auth import delete_token

    settings = _load_settings_or_exit()
    name = _profile_name(settings, args.sub_profile or args.profile)
    removed = delete_token(name)
    if removed:
        print(f"Token of profile {name!r} removed from: {', '.join(str(r) for r in removed)}.")
    elif name not in settings.profiles:
        print(
            f"cloudtui logout: no profile named {name!r} (see: cloudtui profiles)", file=sys.stderr
        )
        return EXIT_FAILURE
    else:
        print(f"No stored token for profile {name!r}: nothing to forget.")
    return EXIT_OK


def cmd_profiles(_args: argparse.Namespace) -> int:
    """List profiles with base URL and where each token is stored (never the token)."""
    from tui.session.auth import token_location
    from tui.session.config import config_path

    settings = _load_settings_or_exit()
    if not settings.profiles:
        print(f"No profiles yet ({config_path()}). Run: cloudtui login --base-url URL")
        return EXIT_OK
    width = max(len(n) for n in settings.profiles)
    for name, profile in sorted(settings.profiles.items()):
        mark = "*" if name == settings.default_profile else " "
        print(f"{mark} {name:<{width}}  {profile.base_url}  token: {token_location(name)}")
    return EXIT_OK


def cmd_doctor(args: argparse.Namespace) -> int:
    """Check everything the app needs, with a remedy for each problem; 1 when one failed."""
    import json
    import os
    import shutil

    from tui.home.doctor import as_json, as_text, exit_status, run_doctor

    try:
        columns, rows = os.get_terminal_size(sys.stdout.fileno())
        size: tuple[int, int] | None = (columns, rows)
    except (OSError, ValueError):
        size = None

    def binding_ids() -> frozenset[str]:
        from screens.shell.binding_ids import binding_ids

        return binding_ids()

    def binding_keys() -> Mapping[str, Collection[str]]:
        from screens.shell.binding_ids import item_screen_keys

        return item_screen_keys()

    checks = asyncio.run(
        run_doctor(
            args.sub_profile or args.profile,
            env=os.environ,
            size=size,
            which=shutil.which,
            demo_user=args.demo_user if args.demo or args.sub_demo else None,
            binding_ids=binding_ids,
            binding_keys=binding_keys,
        )
    )
    if args.json:
        print(json.dumps(as_json(checks), indent=2))
    else:
        print(as_text(checks))
    return exit_status(checks)


def cmd_check(args: argparse.Namespace) -> int:
    """Run the account check's rules without the UI (see tui.check.cli)."""
    from tui.check.cli import run_check_command

    return run_check_command(args, _load_settings_or_exit())


def cmd_sim(args: argparse.Namespace) -> int:
    """Serve the simulator."""
    from tui.simulator.faults import Faults
    from tui.simulator.server import serve

    faults = Faults(
        latency=args.latency,
        jitter=args.jitter,
        error_rate=args.error_rate,
        drop_rate=args.drop_rate,
        rate_limit=args.rate_limit,
        lost_response_rate=args.lost_response_rate,
        stall_rate=args.stall_rate,
        stall_seconds=args.stall_seconds,
    )
    return serve(
        args.host,
        args.port,
        speed=args.speed,
        scale=args.scale,
        state=args.state,
        faults=faults,
        hostile=args.data == "hostile",
        instant=args.instant,
    )


def cmd_app(args: argparse.Namespace) -> int:
    """Start the TUI (demo mode, or a profile with its stored token or the login screen)."""
    from tui.session.terminal import output_problem, terminal_problem

    problem = terminal_problem(os.environ) or output_problem(sys.stdout, sys.stderr)
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_USAGE
    # No cyclic collection until the first frame: importing Textual, pydantic and the screens
    # builds a heap that lives as long as the program, and the collector's full passes over it
    # while it grows cost 10-15% of the start. The app freezes that heap and resumes the
    # collector after its first frame (tui.app.run_app).
    gc.disable()
    settings = _load_settings_or_exit()
    from tui.session.runtime import Session

    if args.demo:
        from tui.app import run_app

        # Lazy: the simulator is built in a worker thread at the first request, so the first
        # frame does not wait for it (building it earlier only splits the GIL with the UI).
        demo = Session.for_demo(
            settings,
            args.demo_user,
            scale=args.demo_scale,
            latency=args.demo_latency,
            lazy=True,
            hostile=args.demo_data == "hostile",
        )
        return run_app(settings, demo, read_only=args.read_only)
    from tui.api.client import InsecureBaseUrl, validate_base_url
    from tui.session.auth import resolve_token

    name = _profile_name(settings, args.profile)
    profile = settings.profiles.get(name)
    base_url = None
    session: Session | None = None
    if profile is not None:
        try:
            base_url = validate_base_url(profile.base_url)
        except InsecureBaseUrl as exc:
            print(f"cloudtui: profile {name!r}: {exc}", file=sys.stderr)
            return EXIT_USAGE
        resolved = resolve_token(name)
        if resolved.token is not None:
            session = Session.for_profile(settings, name, base_url, resolved.token)
    elif args.profile:
        print(f"cloudtui: no profile named {name!r} (see: cloudtui profiles)", file=sys.stderr)
        return EXIT_USAGE
    from tui.app import run_app

    # Only the flag: a profile's own read_only is the app's to apply, account by account.
    return run_app(
        settings, session, profile_name=name, base_url=base_url, read_only=args.read_only
    )


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``cloudtui`` command.

    Args:
        argv: Arguments (defaults to ``sys.argv[1:]``).

    Returns:
        Exit status (also raised as SystemExit by the console script wrapper).
    """
    args = _parser().parse_args(argv)
    commands = {
        "login": cmd_login,
        "logout": cmd_logout,
        "profiles": cmd_profiles,
        "sim": cmd_sim,
        "doctor": cmd_doctor,
        "check": cmd_check,
    }
    handler = commands.get(args.command or "", cmd_app)
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``cloudtui doctor | head``): nothing left to say to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
