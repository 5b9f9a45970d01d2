"""``cloudtui doctor``: why the app cannot reach the API or the keyring, each with a remedy.

Every check is independent and says ``ok``, ``warn`` (works, but something is worth fixing)
or ``fail`` (something the app needs is broken); a failed check makes the command exit 1.
Nothing here prints a token: the token is only ever sent to the profile's own base URL. The
report's shape (:class:`Check`, text, JSON) is :mod:`tui.home.doctor_report`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from tui.home.doctor_report import Check, as_json, as_text, exit_status

CLOCK_SKEW_WARN = 60.0
"""Seconds of difference with the server's clock worth a warning (TLS, token expiry, logs)."""

SCOPE_AREAS: tuple[tuple[str, str], ...] = (
    ("computes", "compute.instances.list"),
    ("volumes", "volumes.list"),
    ("images", "images.list"),
    ("deployscripts", "deployscripts.list"),
    ("loadbalancers", "loadbalancers.list"),
    ("domains", "domains.list"),
    ("databases", "databases.instances.list"),
    ("k8s", "k8s.clusters.list"),
    ("object_storage", "object_storage.buckets.list"),
    ("account", "tags.list"),
)
"""Scope area -> one read-only listing that needs it (probed with one small page each)."""

HANDOFF_TOOLS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("ssh", ("ssh",), "install openssh-client (apt install openssh-client)"),
    (
        "Kubernetes",
        ("k9s", "kubectl"),
        "install kubectl (apt install kubernetes-client); k9s is not packaged in Debian: "
        "see k9scli.io",
    ),
    (
        "MySQL client",
        ("mysql", "mariadb"),
        "install a MySQL client (apt install default-mysql-client, or mariadb-client)",
    ),
    (
        "MongoDB shell",
        ("mongosh", "mongo"),
        "install mongosh: not packaged in Debian; use MongoDB's own apt repository",
    ),
)
"""Hand-off -> programs that serve it (first found wins) -> how to install (Debian)."""


# -- local checks ---------------------------------------------------------------------------


def check_keyring() -> Check:
    """Which keyring backend is in use, and why the others were not chosen."""
    try:
        import keyring
        import keyring.backend
        from keyring.backends import fail
    except Exception as exc:
        return Check(
            "keyring",
            "fail",
            f"the keyring package cannot be loaded ({type(exc).__name__})",
            "reinstall cloudtui; meanwhile set CLOUDTUI_TOKEN or log in with --store file",
        )
    try:
        backend = keyring.get_keyring()
    except Exception as exc:
        backend = None
        problem = f"cannot be initialised ({type(exc).__name__})"
    else:
        problem = "no backend is available" if isinstance(backend, fail.Keyring) else ""
    if problem or backend is None:
        others = _unusable_backends(keyring.backend)
        # keyring's own reasons are long; the first says enough on one line (--json has all).
        why = f" ({others[0]})" if others else ""
        return Check(
            "keyring",
            "warn",
            f"no usable keyring, tokens cannot be kept there: {problem}{why}",
            "cloudtui login --store file (a file only you can read), or set CLOUDTUI_TOKEN",
            reasons=tuple(others),
        )
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    return Check("keyring", "ok", f"{name} (priority {backend.priority})")


def _unusable_backends(module: Any) -> list[str]:
    """Known backends that were not usable, with keyring's own reason."""
    out: list[str] = []
    try:
        module.get_all_keyring()  # loads every installed backend (keyring's entry points)
        classes = set(module.KeyringBackend._classes)
    except Exception:
        return out
    for cls in sorted(classes, key=lambda c: c.__module__):
        if cls.__module__.startswith(("keyring.backends.fail", "keyring.backends.chainer")):
            continue
        if not cls.__module__.startswith("keyring.backends"):
            continue  # test doubles and third-party backends say nothing useful here
        try:
            cls.priority  # noqa: B018 - keyring raises the reason a backend is not viable
        except Exception as exc:
            reason = f"{cls.__module__.rsplit('.', 1)[-1]}: {exc}"
            if reason not in out:
                out.append(reason)
    return out


def check_terminal(env: Mapping[str, str], size: tuple[int, int] | None) -> list[Check]:
    """Terminal size, TERM and colours."""
    checks: list[Check] = []
    if size is None:
        checks.append(Check("terminal size", "skip", "not a terminal (output redirected)"))
    elif size[0] < 80 or size[1] < 24:
        checks.append(
            Check(
                "terminal size",
                "warn",
                f"{size[0]}x{size[1]}",
                "make the window at least 80x24; below that columns and keys are cut",
            )
        )
    else:
        checks.append(Check("terminal size", "ok", f"{size[0]}x{size[1]}"))
    term = env.get("TERM", "")
    if not term or term == "dumb":
        checks.append(
            Check(
                "TERM",
                "fail",
                f"TERM is {term or 'unset'}: the app cannot draw",
                "set TERM (e.g. export TERM=xterm-256color), or ssh -t to get a terminal",
            )
        )
    else:
        checks.append(Check("TERM", "ok", term))
    if "NO_COLOR" in env:
        colours = "none (NO_COLOR is set: focus and cursors are shown in reverse)"
    elif env.get("COLORTERM") in ("truecolor", "24bit"):
        colours = "true colour"
    elif "256color" in term:
        colours = "256 colours"
    else:
        colours = "16 colours"
    checks.append(Check("colours", "ok", colours))
    return checks


def check_tools(
    env: Mapping[str, str],
    which: Callable[[str], str | None],
    configured: Sequence[str] = (),
) -> list[Check]:
    """The programs hand-offs start (ssh, k9s/kubectl, mysql, mongosh, the editor).

    Args:
        env: Environment variables (VISUAL, EDITOR).
        which: Finds a program on PATH.
        configured: The config file's ``[handoff.editor] command`` (empty: not set).
    """
    checks: list[Check] = []
    for what, programs, package in HANDOFF_TOOLS:
        found = next(((p, path) for p in programs if (path := which(p))), None)
        if found:
            checks.append(Check(f"tool: {what}", "ok", f"{found[0]} ({found[1]})"))
        else:
            names = " or ".join(programs)
            checks.append(
                Check(
                    f"tool: {what}",
                    "warn",
                    f"{names} not found: that hand-off will not start",
                    package,
                )
            )
    checks.append(check_editor(env, which, configured))
    return checks


def check_editor(
    env: Mapping[str, str], which: Callable[[str], str | None], configured: Sequence[str] = ()
) -> Check:
    """Which editor scripts and zone files open in, chosen as the hand-off chooses it."""
    from tui.handoff.launch import HandoffError
    from tui.handoff.targets import choose_editor  # the hand-off's own choice

    try:
        choice = choose_editor(configured, env, which)
    except HandoffError as error:
        return Check(
            "tool: editor",
            "warn",
            f"{error}: editing will not start",
            "set it to a command line a shell can read (export EDITOR=nano)",
        )
    if choice is None:
        return Check(
            "tool: editor",
            "warn",
            "$VISUAL and $EDITOR are not set and no editor was found: editing will not start",
            "install nano (apt install nano) or export EDITOR=<your editor>",
        )
    program = choice.command[0]
    if choice.source == "config":
        if which(program):
            return Check("tool: editor", "ok", f"[handoff.editor] command: {' '.join(configured)}")
        return Check(
            "tool: editor",
            "warn",
            f"{program}, the [handoff.editor] command, is not found: editing will not start",
            f"install {program}, or change [handoff.editor] command in the config file",
        )
    if choice.source != "fallback":
        variable, value = choice.source, env[choice.source].strip()
        if which(program):
            return Check("tool: editor", "ok", f"${variable}={value}")
        return Check(
            "tool: editor",
            "warn",
            f"${variable}={value}, but {program} is not found: editing will not start",
            f"install {program}, or set ${variable} to an installed one (export {variable}=nano)",
        )
    path = which(program) or program
    real = os.path.realpath(path)
    shown = f"{path} -> {real}" if real != path else path
    return Check(
        "tool: editor",
        "ok",
        f"$VISUAL and $EDITOR are not set: scripts and zone files open in {program} ({shown})",
    )


# -- checks against the API -----------------------------------------------------------------


def _skew(response: httpx.Response, now: float) -> Check:
    date = response.headers.get("date")
    if not date:
        return Check("clock", "skip", "the server sent no Date header")
    try:
        server = parsedate_to_datetime(date).timestamp()
    except (TypeError, ValueError):
        return Check("clock", "skip", f"unreadable Date header {date!r}")
    skew = now - server
    detail = f"{abs(skew):.0f} s {'ahead of' if skew > 0 else 'behind'} the server"
    if abs(skew) > CLOCK_SKEW_WARN:
        return Check(
            "clock",
            "warn",
            detail,
            "synchronise the clock (Debian: apt install systemd-timesyncd; "
            "timedatectl set-ntp true)",
        )
    return Check("clock", "ok", detail)


async def check_api(
    base_url: str,
    token: Any,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    clock: Callable[[], float] = time.time,
    profile_name: str | None = None,
) -> list[Check]:
    """The base URL answers, the clock agrees with it, the token is valid, its scopes.

    Args:
        base_url: The profile's validated base URL.
        token: The token (a ``SecretStr``), or None when none is stored.
        transport: Test transport (the simulator's); real HTTP otherwise.
        clock: Local time, for the skew check.
        profile_name: The profile's name, for the remedies (``cloudtui login --profile NAME``).
    """
    from tui.api.client import ApiClient
    from tui.api.errors import ApiError, CloudError, Forbidden, Unauthorized

    checks: list[Check] = []
    try:
        async with httpx.AsyncClient(transport=transport, timeout=10.0) as http:
            response = await http.get(f"{base_url}/profile", headers={"Accept": "application/json"})
    except httpx.HTTPError as exc:
        checks.append(
            Check(
                "API reachable",
                "fail",
                f"{base_url} does not answer ({type(exc).__name__}: {exc})",
                "check the base URL (cloudtui profiles), the network, proxies and firewalls",
            )
        )
        return checks
    if response.status_code == 404:
        checks.append(
            Check(
                "API reachable",
                "fail",
                f"{base_url} answers but has no /profile (404): not the API's base URL",
                "the base URL must end in /v4 (cloudtui login --base-url URL)",
            )
        )
        return checks
    if response.status_code >= 500:
        checks.append(
            Check(
                "API reachable",
                "fail",
                f"{base_url} answers with a server error ({response.status_code})",
                "the API has a problem on its side: try again later",
            )
        )
        return checks
    # Asked without a token, the API answers 401: that is the answer expected here, so the
    # status is not shown (the token is judged on its own line below).
    checks.append(Check("API reachable", "ok", f"{base_url} answers"))
    checks.append(_skew(response, clock()))
    login = f"cloudtui login --profile {profile_name}" if profile_name else "cloudtui login"
    if token is None:
        checks.append(
            Check("token", "fail", "no token is stored for this profile", f"run: {login}")
        )
        return checks
    async with ApiClient(base_url, token, transport=transport, allow_insecure=True) as client:
        try:
            profile = await client.call("profile.view", model=dict)
        except Unauthorized as exc:
            checks.append(
                Check(
                    "token",
                    "fail",
                    f"the API rejected the token ({exc.status}: {exc.reasons})",
                    f"create a new token in the provider's console, then run: {login}",
                )
            )
            return checks
        except CloudError as exc:
            checks.append(Check("token", "fail", f"cannot verify the token: {exc}"))
            return checks
        user = profile.get("username") or "?"
        kind = "restricted user" if profile.get("restricted") else "unrestricted user"
        checks.append(Check("token", "ok", f"valid: {user} ({kind})"))
        readable: list[str] = []
        refused: list[str] = []
        for area, name in SCOPE_AREAS:
            try:
                await client.call(name, query={"page_size": 25}, model=dict)
                readable.append(area)
            except Forbidden:
                refused.append(area)
            except ApiError as exc:
                refused.append(f"{area} ({exc.status})")
        detail = f"can read: {', '.join(readable) or 'nothing'}"
        if refused:
            detail += f"; refused: {', '.join(refused)}"
            checks.append(
                Check(
                    "token scopes",
                    "warn",
                    detail,
                    "areas refused are missing from the token's scopes or the user's grants; "
                    "write access cannot be probed without changing something",
                )
            )
        else:
            checks.append(Check("token scopes", "ok", detail + " (write access is not probed)"))
    return checks


# -- everything -----------------------------------------------------------------------------


async def run_doctor(
    profile: str | None,
    *,
    env: Mapping[str, str],
    size: tuple[int, int] | None,
    which: Callable[[str], str | None],
    transport: httpx.AsyncBaseTransport | None = None,
    clock: Callable[[], float] = time.time,
    demo_user: str | None = None,
    binding_ids: Callable[[], Collection[str]] | None = None,
    binding_keys: Callable[[], Mapping[str, Collection[str]]] | None = None,
) -> list[Check]:
    """Every check, in the order a user would fix them.

    Args:
        profile: ``--profile`` (None: the configured default).
        env: Environment variables (TERM, NO_COLOR, EDITOR ...).
        size: Terminal columns and rows, or None when not a terminal.
        which: Finds a program on PATH (``shutil.which``).
        transport: Test transport for the API checks.
        clock: Local time, for the skew check.
        demo_user: Check the demo's set-up as this demo user instead of a profile.
        binding_ids: Every binding id of the app, to check ``[keymap]`` (asked only when the
            file has a keymap: collecting them imports the whole UI).
        binding_keys: Key -> ids of the built-in bindings where items are selected, to check
            the keys of plugins and hotkeys (asked only when the file has some).
    """
    checks, settings = _check_config(binding_ids)
    if settings is not None and (settings.plugins or settings.aliases or settings.hotkeys):
        from tui.shortcuts.config_check import extension_problems

        found = extension_problems(settings, which, binding_keys)
        checks += [
            Check("plugins and shortcuts", "warn", p, "fix it in the config file") for p in found
        ]
    if demo_user is not None:
        checks += await check_demo(demo_user)
    else:
        checks.append(check_keyring())
        checks.append(_check_data_dir())
        if settings is not None:
            checks += await _check_profile(settings, profile, transport, clock)
    checks += check_terminal(env, size)
    editor = settings.handoff.editor.command if settings is not None else []
    checks += check_tools(env, which, editor)
    return checks


def _check_config(
    binding_ids: Callable[[], Collection[str]] | None,
) -> tuple[list[Check], Any]:
    """The config file: every bad value (a failure), every unknown key (a warning each)."""
    from tui.session.config import ConfigError, config_path, load_settings
    from tui.session.config_keys import unknown_binding_ids

    path = config_path()
    settings = None
    try:
        loaded = load_settings(path)
    except ConfigError as exc:
        detail = f"{path}: {'; '.join(exc.lines())}"
        checks = [Check("config file", "fail", detail, "fix the file (it is never overwritten)")]
        unknown = list(exc.unknown_keys)  # said in the same run, not once the file is fixed
    else:
        settings = loaded
        found = "parses" if path.exists() else "does not exist yet (defaults)"
        checks = [Check("config file", "ok", f"{path} {found}")]
        unknown = list(loaded.unknown_keys)
        if loaded.keymap and binding_ids is not None:
            text = path.read_text(encoding="utf-8")
            unknown += unknown_binding_ids(loaded.keymap, binding_ids(), text)
    for key in unknown:
        checks.append(Check("config key", "warn", key.message(), f"rename or remove it in {path}"))
    return checks, settings


async def _check_profile(
    settings: Any,
    profile: str | None,
    transport: httpx.AsyncBaseTransport | None,
    clock: Callable[[], float],
) -> list[Check]:
    """The profile, its base URL, where its token comes from, and the API with that token."""
    from tui.api.client import InsecureBaseUrl, validate_base_url
    from tui.session.auth import TOKEN_ENV, TokenSource, resolve_token
    from tui.session.config import config_path

    name = profile or settings.default_profile or "default"
    entry = settings.profiles.get(name)
    if entry is None:
        return [
            Check(
                "profile",
                "fail",
                f"no profile named {name!r} in {config_path()}",
                f"run: cloudtui login --profile {name} --base-url https://API-HOST/v4 "
                "(or try the demo: cloudtui --demo)",
            )
        ]
    read_only = " (read-only sessions)" if entry.read_only else ""
    checks = [Check("profile", "ok", f"{name}: {entry.base_url}{read_only}")]
    try:
        base_url = validate_base_url(entry.base_url)
    except InsecureBaseUrl as exc:
        checks.append(Check("base URL", "fail", str(exc), "use https (http only to 127.0.0.1)"))
        return checks
    resolved = resolve_token(name)
    if resolved.token is not None:
        checks.append(Check("token source", "ok", str(resolved.source)))
    found = await check_api(
        base_url, resolved.token, transport=transport, clock=clock, profile_name=name
    )
    if resolved.source == TokenSource.ENV:
        # The environment wins over what login stored: logging in again would change nothing.
        fix = f"set {TOKEN_ENV} to a valid token, or unset it to use the stored one"
        found = [replace(c, remedy=fix) if c.name == "token" and c.remedy else c for c in found]
    return checks + found


async def check_demo(user: str) -> list[Check]:
    """The demo's set-up: its simulator starts and answers as the demo user.

    The demo needs no profile, token, keyring, data folder or network: it runs the built-in
    simulator in the program, and keeps its bookmarks and log in a folder of its own.
    """
    from pydantic import SecretStr

    from tui.simulator.app import Simulator
    from tui.simulator.auth import DEMO_TOKENS
    from tui.simulator.lazy import IN_PROCESS_BASE

    checks = [
        Check(
            "demo",
            "ok",
            f"demo user {user}: no profile, token, keyring or network needed "
            "(the simulator runs inside cloudtui)",
        )
    ]
    try:
        simulator = Simulator()
    except Exception as exc:  # a broken install: say so rather than end in a traceback
        checks.append(
            Check(
                "demo simulator",
                "fail",
                f"the simulator cannot start ({type(exc).__name__}: {exc})",
                "reinstall cloudtui (pip install --force-reinstall cloudtui)",
            )
        )
        return checks
    api = await check_api(
        IN_PROCESS_BASE, SecretStr(DEMO_TOKENS[user]), transport=simulator.transport()
    )
    # The simulator's clock is the simulator's own: a skew against it means nothing.
    checks += [
        replace(c, name=f"demo {c.name}") for c in api if c.name not in ("clock", "API reachable")
    ]
    return checks


def _check_data_dir() -> Check:
    from tui.session.datadir import data_dir

    folder = data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        probe = folder / ".doctor-probe"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        return Check(
            "data folder",
            "warn",
            f"{folder} cannot be written ({exc.strerror or exc}): no bookmarks, no activity log",
            "make it writable, or set CLOUDTUI_DATA to a writable folder",
        )
    return Check("data folder", "ok", f"{folder} (bookmarks, activity log)")


__all__ = ["Check", "as_json", "as_text", "exit_status", "run_doctor"]
