"""Plugins: templates filled one argument each, commands refused where a value could run as
code, the launch of a foreground plugin, a background run, and doctor's problems."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tui.handoff.launch import MissingProgram, prepared
from tui.plugins.checks import binding_id, plugin_areas, plugin_problems, plugins_for
from tui.plugins.run import prepare, run_background
from tui.plugins.settings import PluginSettings, command_problems
from tui.plugins.shell_guard import spliced_values
from tui.plugins.templates import PluginError, fill_command, item_environment, parse_template
from tui.session.config import ConfigError, Settings, settings_from_text

INSTANCE: dict[str, Any] = {
    "id": 42,
    "label": "web-1",
    "region": "eu-west",
    "ipv4": ["10.0.0.5", "192.0.2.10"],
    "ipv6": "2001:db8::1/128",
    "specs": {"vcpus": 2},
    "tags": ["a", "b"],
    "root_pass": "hunter2-secret",
}


def _plugin(command: list[str], **fields: Any) -> PluginSettings:
    values: dict[str, Any] = {"key": "P", "areas": ["instances"], "title": "T", **fields}
    return PluginSettings(command=command, **values)


# -- templates ----------------------------------------------------------------------------


def test_placeholders_fill_one_argument_each_with_dotted_paths() -> None:
    argv = fill_command(
        ["ping", "-c", "1", "{ipv4}", "--name={label}", "{specs.vcpus}", "{tags}", "{{id}}"],
        INSTANCE,
    )
    assert argv == ["ping", "-c", "1", "192.0.2.10", "--name=web-1", "2", "a,b", "{id}"]
    assert fill_command(["x", "{ipv6}", "{ipv4.0}"], INSTANCE) == ["x", "2001:db8::1", "10.0.0.5"]


def test_a_value_is_filled_once_and_stays_one_argument() -> None:
    item = {"label": "a b; {shell} $(x) `y` ~root"}
    assert fill_command(["echo", "{label}"], item) == ["echo", "a b; {shell} $(x) `y` ~root"]


def test_braces_that_start_no_placeholder_are_text() -> None:
    assert [p.text for p in parse_template("awk '{print $1}'")] == ["awk '{print $1}'"]


def test_a_value_that_would_be_an_option_is_refused_before_a_double_dash() -> None:
    item = {"label": "-oProxyCommand=evil"}
    with pytest.raises(PluginError, match="would be read as an option"):
        fill_command(["ssh", "{label}"], item)
    assert fill_command(["ssh", "--", "{label}"], item) == ["ssh", "--", "-oProxyCommand=evil"]
    assert fill_command(["tool", "--name={label}"], item) == ["tool", "--name=-oProxyCommand=evil"]


def test_missing_values_objects_nul_and_secrets_are_refused() -> None:
    with pytest.raises(PluginError, match="has no nothing"):
        fill_command(["x", "{nothing}"], INSTANCE, "instance")
    with pytest.raises(PluginError, match="not one value"):
        fill_command(["x", "{specs}"], INSTANCE)
    with pytest.raises(PluginError, match="NUL"):
        fill_command(["x", "{label}"], {"label": "a\0b"})
    with pytest.raises(PluginError, match="secret"):
        fill_command(["x", "{root_pass}"], INSTANCE)


def test_the_item_reaches_the_program_as_variables_without_secrets() -> None:
    env = item_environment(INSTANCE, ["x", "{specs.vcpus}"])
    assert env["CLOUDTUI_LABEL"] == "web-1"
    assert env["CLOUDTUI_IPV4"] == "192.0.2.10"
    assert env["CLOUDTUI_REGION"] == "eu-west"
    assert env["CLOUDTUI_SPECS_VCPUS"] == "2"
    assert "CLOUDTUI_ROOT_PASS" not in env
    assert all("hunter2" not in value for value in env.values())


# -- commands refused when the file is read --------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["sh", "-c", "echo {label}"],
        ["bash", "-lc", "ping -c1 {ipv4}"],
        ["env", "X=1", "bash", "-c", "echo {id}"],
        ["/usr/bin/zsh", "-c", "echo {label}"],
        ["python3", "-c", "print('{label}')"],
        ["perl", "-e", "print '{label}'"],
        ["awk", '{print "{label}"}', "file"],
        ["ssh", "root@{ipv4}", "echo", "{label}"],
        ["ssh", "-o", "ProxyCommand=nc {ipv4} 22", "host"],
        ["watch", "ping", "{ipv4}"],
        ["xargs", "sh", "-c", "{label}"],
    ],
)
def test_a_value_spliced_into_code_is_refused(command: list[str]) -> None:
    assert spliced_values(command)
    with pytest.raises(ValidationError, match="would be spliced"):
        _plugin(command)


@pytest.mark.parametrize(
    "command",
    [
        ["ping", "-c", "1", "{ipv4}"],
        ["sh", "-c", 'echo "$1"', "sh", "{label}"],
        ["bash", "-c", 'ping -c1 "$CLOUDTUI_IPV4"'],
        ["ssh", "root@{ipv4}", "uptime"],
        ["watch", "-x", "ping", "{ipv4}"],
        ["awk", "-f", "prog.awk", "{label}"],
    ],
)
def test_values_as_their_own_arguments_are_accepted(command: list[str]) -> None:
    assert command_problems(command) == []
    assert _plugin(command).command == command


def test_a_program_chosen_by_a_value_or_a_secret_is_refused() -> None:
    assert "may not hold a placeholder" in command_problems(["{label}", "x"])[0]
    assert "names a secret" in command_problems(["tool", "{root_pass}"])[0]
    assert "names a secret" in command_problems(["tool", "{creds.password}"])[0]


def test_a_refused_plugin_stops_the_config_file_with_its_line(tmp_path: Path) -> None:
    text = (
        'theme = "nord"\n\n[[plugins]]\nkey = "P"\nareas = ["instances"]\ntitle = "ok"\n'
        'command = ["ping", "{ipv4}"]\n\n[[plugins]]\nkey = "Q"\nareas = ["instances"]\n'
        'title = "bad"\ncommand = ["sh", "-c", "echo {label}"]\n'
    )
    with pytest.raises(ConfigError) as caught:
        settings_from_text(text, tmp_path / "config.toml")
    assert caught.value.line == 13
    assert "plugins[1].command" in caught.value.problem
    assert "$CLOUDTUI_LABEL" in caught.value.problem


def test_an_unknown_plugin_field_is_named_with_its_line(tmp_path: Path) -> None:
    text = '[[plugins]]\nkey = "P"\nareas = ["*"]\ntitel = "x"\ntitle = "x"\ncommand = ["ls"]\n'
    settings = settings_from_text(text, tmp_path / "config.toml")
    (unknown,) = settings.unknown_keys
    assert unknown.message() == (
        "line 4: unknown setting plugins[0].titel (it is ignored); did you mean title?"
    )


# -- running ------------------------------------------------------------------------------


def test_the_launch_runs_exactly_the_filled_argv_without_expanding_values(tmp_path: Path) -> None:
    item = {"label": "~root", "id": 7}
    plugin = _plugin(["printf", "%s|%s", "{label}", "~/x"])
    call = prepare(plugin, item, "web-1")
    assert call.argv == ("printf", "%s|%s", "~root", os.path.expanduser("~/x"))
    with prepared(call.launch(), {"PATH": os.environ["PATH"], "CLOUDTUI_TOKEN": "t"}) as ready:
        assert ready.argv[1:] == list(call.argv[1:])
        assert ready.argv[0] == shutil.which("printf")
        assert ready.env["CLOUDTUI_LABEL"] == "~root"
        assert "CLOUDTUI_TOKEN" not in ready.env
    assert call.command_line() == f"printf '%s|%s' '~root' {os.path.expanduser('~/x')}"


async def test_a_background_plugin_hands_out_its_output() -> None:
    plugin = _plugin(["sh", "-c", 'printf "%s\\n" "$1" "$CLOUDTUI_REGION"', "sh", "{label}"])
    seen: list[str] = []
    result = await run_background(prepare(plugin, INSTANCE), on_output=seen.append)
    assert result.status == 0
    assert result.output == "web-1\neu-west\n"
    assert "".join(seen) == result.output


async def test_a_background_plugin_keeps_the_end_of_a_long_output() -> None:
    code = "import sys; sys.stdout.write('x' * 5000 + 'END')"
    plugin = _plugin([sys.executable, "-c", code])
    result = await run_background(prepare(plugin, INSTANCE), limit=100)
    assert result.output.endswith("END") and len(result.output) == 100
    assert result.dropped == 4903


async def test_cancelling_a_background_plugin_ends_it() -> None:
    plugin = _plugin(
        [sys.executable, "-c", "import time; print('started', flush=True); time.sleep(60)"]
    )
    started = asyncio.Event()
    task = asyncio.create_task(
        run_background(prepare(plugin, INSTANCE), on_output=lambda _text: started.set())
    )
    await asyncio.wait_for(started.wait(), timeout=30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout=30)


async def test_a_missing_program_is_named() -> None:
    with pytest.raises(MissingProgram, match="no-such-program-xyz"):
        await run_background(prepare(_plugin(["no-such-program-xyz"]), INSTANCE))


# -- areas and doctor -----------------------------------------------------------------------


def test_areas_are_read_from_area_words_and_star() -> None:
    plugin = _plugin(["ls"], areas=["in", "volumes"])
    assert plugin_areas(plugin) == {"instances", "volumes"}
    assert plugins_for([plugin], "instances") == [plugin]
    assert plugins_for([plugin], "domains") == []
    assert "domains" in plugin_areas(_plugin(["ls"], areas=["*"]))
    assert binding_id(_plugin(["ls"], title="Ping it!")) == "plugin.ping_it"


def test_doctor_names_unknown_areas_missing_programs_and_key_clashes() -> None:
    settings = Settings(
        plugins=[
            _plugin(["ls"], key="P", areas=["instnces"]),
            _plugin(["no-such-program-xyz"], key="e", areas=["instances"], title="Edit"),
            _plugin(["ls"], key="?", areas=["volumes"], title="Help"),
            _plugin(["ls"], key="ctrl+g", areas=["volumes"], title="First"),
            _plugin(["ls"], key="ctrl+g", areas=["vol"], title="Second"),
        ],
        hotkeys={"f6": ":log"},
    )
    settings.plugins.append(_plugin(["ls"], key="F6", areas=["*"], title="Six"))
    builtin = {"question_mark": frozenset({"app.help"})}
    problems = [str(p) for p in plugin_problems(settings, which=shutil.which, builtin_keys=builtin)]
    assert "[[plugins]] 'T': 'instnces' is not an area; did you mean instances?" in problems
    assert "[[plugins]] 'Edit': no-such-program-xyz is not installed" in problems
    assert any(
        p.startswith("[[plugins]] 'Edit': the key \"e\" is taken by compute.edit") for p in problems
    )
    assert "[[plugins]] 'Help': the key \"?\" is taken by app.help" in problems
    assert "[[plugins]] 'Second': the key \"ctrl+g\" is taken by the plugin 'First'" in problems
    assert "[[plugins]] 'Six': the key \"F6\" is taken by the hotkey f6" in problems
    assert not any(p.startswith("[[plugins]] 'First'") for p in problems)


def test_the_built_in_keys_where_items_are_selected_are_collected() -> None:
    from screens.binding_ids import item_screen_keys

    keys = item_screen_keys()
    assert "app.help" in keys["question_mark"]
    assert "list.filter" in keys["slash"]
    assert "table.mark" in keys["space"]
