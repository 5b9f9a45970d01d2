"""Command palette (ctrl+p) providers: areas, accounts, the current screen's actions, and
resources by label.

"Jump to any resource by label" searches every list loaded so far (the account's
``resource_index``) and, when the palette opens, fetches the first page of each area that was
never opened, so the results grow while the user types. Labels come from the API: they are
matched and shown as literal text, never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any, Protocol, runtime_checkable

from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.markup import escape
from textual.screen import Screen

from screens.actions.start import check_availability, start_action
from screens.app_surface import surface
from screens.lists.pane import PaletteAction
from screens.lists.pane_host import PaneHostScreen
from screens.navigation import GoToArea, OpenItem
from tui.accounts.state import AccountState, IndexKey
from tui.accounts.switch import profile_names
from tui.api.errors import CloudError
from tui.home.areas import HOME_AREAS
from tui.resources.areas import AREAS, SPECS, open_target
from tui.resources.loader import iter_chunks
from tui.resources.spec import Action, ResourceSpec
from tui.resources.tag_search import tag_query, tagged
from tui.untrusted import Shown, shown
from widgets.key_names import action_key_label

MAX_RESOURCE_HITS = 50

ResourceIndex = Mapping[IndexKey, tuple[dict[str, Any], dict[Any, Any]]]
"""The account's lists loaded so far: (spec id, params) -> (params, items by key)."""


def literal_highlight(matcher: Matcher, text: Shown) -> Content:
    """Like ``Matcher.highlight`` but treating ``text`` as plain text (API labels)."""
    content = Content(text)
    score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    if not score:
        return content
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def resource_identity(spec: ResourceSpec, item: Mapping[str, Any]) -> tuple[str, str]:
    """What makes two listed items the same record: the spec that opens it and its key."""
    target = open_target(spec, item)
    return target.id, target.item_key(item)


class ListedCommands(Provider):
    """A provider of a fixed list of commands: ``_commands`` gives (name, callback, help)."""

    def _commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        raise NotImplementedError

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(shown(name), callback, help=escape(shown(help_text)))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            label = shown(name)
            score = matcher.match(label)
            if score > 0:
                yield Hit(
                    score,
                    literal_highlight(matcher, label),
                    callback,
                    text=label,
                    help=escape(shown(help_text)),
                )


class AreaCommands(ListedCommands):
    """ "Go to <area>" for every area and every top-level tab."""

    def _commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        out: list[tuple[str, Callable[[], Any], str]] = []

        def go(area_id: str, spec_id: str | None = None) -> None:
            self.app.post_message(GoToArea(area_id, spec_id))

        for area in (*HOME_AREAS, *AREAS):
            out.append((f"Go to {area.title}", partial(go, area.id), f":{area.id}"))
            for tab in area.tabs:
                title = f"Go to {area.title}: {SPECS[tab].title}"
                out.append((title, partial(go, area.id, tab), f"{area.title} tab"))
        return out


class AccountCommands(ListedCommands):
    """ "Switch to account <profile>" for every profile of the config file but the one in use
    (as ``:account NAME`` does)."""

    def _commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        from screens.accounts.switch import switch_account

        state = surface(self.app).state
        current = state.session.profile_name if state.session is not None else None
        return [
            (
                f"Switch to account {name}",
                partial(switch_account, self.app, name),
                f":account {name}",
            )
            for name in profile_names(state.settings)
            if name != current
        ]


@runtime_checkable
class OffersActions(Protocol):
    """A screen whose actions the palette offers (a list or a detail screen)."""

    def palette_actions(self) -> list[PaletteAction]:
        """Its actions, each with the item and parameters it applies to."""
        ...


def run_palette_action(
    screen: Screen[Any],
    spec: ResourceSpec,
    action: Action,
    item: dict[str, Any] | None,
    params: dict[str, Any],
) -> None:
    """Run an action chosen in the palette, then refresh the screen it was chosen on."""

    def after(changed: bool) -> None:
        if changed and isinstance(screen, PaneHostScreen):
            screen.refresh_all()

    start_action(screen, screen, spec, action, item, params, after)


class ActionCommands(ListedCommands):
    """The actions of the screen the palette was opened on (disabled ones say why)."""

    def _commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        screen = self.screen
        if not isinstance(screen, OffersActions):
            return []
        run = run_palette_action
        out: list[tuple[str, Callable[[], Any], str]] = []
        for spec, action, item, params in screen.palette_actions():
            enabled, reason = check_availability(screen, spec, action, item)
            target = spec.display_label(item) if item else spec.title
            name = f"{action.label}: {target}"
            help_text = action.description if enabled else f"not available: {reason}"
            pressed = action_key_label(self.app, action)
            key = f" (key {pressed})" if pressed else ""
            out.append((name, partial(run, screen, spec, action, item, params), help_text + key))
        return out

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            label = shown(name)
            yield DiscoveryHit(Content(label), callback, text=label, help=escape(shown(help_text)))


class ResourceCommands(Provider):
    """Every resource loaded so far, by label, across areas."""

    async def startup(self) -> None:
        prefetch_for_palette(self.app)

    async def search(self, query: str) -> Hits:
        index = surface(self.app).state.resource_index
        if not index or not query.strip():
            return
        # ``#production``: the items of every loaded list that carry the tag, any kind.
        hits = (
            self._tagged(index, query)
            if tag_query(query) is not None
            else self._by_label(index, query)
        )
        for hit in hits:
            yield hit

    def _jump(self, spec: ResourceSpec, item: Mapping[str, Any], params: Mapping[str, Any]) -> None:
        self.app.post_message(OpenItem(spec, item, params, in_its_area=True))

    def _tagged(self, index: ResourceIndex, query: str) -> Iterator[Hit]:
        """The items of every loaded list that carry the tag of ``query``."""
        lists = (
            (SPECS[spec_id], params, items.values())
            for (spec_id, _key), (params, items) in list(index.items())
            if spec_id in SPECS
        )
        for hit in tagged(lists, query, MAX_RESOURCE_HITS):
            target = partial(self._jump, hit.spec, hit.item, hit.params)
            yield Hit(1.0, Content(hit.text), target, text=hit.text, help=escape(hit.help))

    def _by_label(self, index: ResourceIndex, query: str) -> Iterator[Hit]:
        """Items whose label matches ``query``, each record once."""
        matcher = self.matcher(query)
        hits = 0
        seen: set[tuple[str, str]] = set()
        for (spec_id, _params_key), (params, items) in list(index.items()):
            spec = SPECS.get(spec_id)
            if spec is None:
                continue
            for item in list(items.values()):
                label = spec.display_label(item)  # matched and drawn as display text
                # One resource listed in two places (the volumes list and an instance's Volumes
                # tab) is one hit: it is the same record, opened by the same detail screen.
                identity = resource_identity(spec, item)
                if not label or identity in seen:
                    continue
                seen.add(identity)
                score = matcher.match(label)
                if score <= 0:
                    continue
                yield Hit(
                    score,
                    literal_highlight(matcher, label),
                    partial(self._jump, spec, item, params),
                    text=label,
                    help=escape(f"{spec.singular} · {spec.title}"),
                )
                hits += 1
                if hits >= MAX_RESOURCE_HITS:
                    return


PROVIDERS = (AreaCommands, AccountCommands, ActionCommands, ResourceCommands)


def prefetch_for_palette(app: App[Any]) -> None:
    """Fetch the first page of every area never opened, so the palette can find it."""
    account = surface(app).state.account
    if account is None:
        return
    for area in AREAS:
        spec = SPECS[area.root]
        if not spec.singleton and (spec.id, ()) not in account.resource_index:
            # The app's own worker: a switch of account cancels it with the others.
            app.run_worker(
                _prefetch(account, spec),
                group=f"prefetch-{spec.id}",
                exclusive=True,
                exit_on_error=False,
            )


async def _prefetch(account: AccountState, spec: ResourceSpec) -> None:
    """The first page of ``spec``'s list, remembered for the palette in ``account`` (what
    arrives belongs to that account, even after a switch)."""
    try:
        async for chunk in iter_chunks(account.session.client, spec, {}):
            items = {spec.item_key(i): i for i in chunk.items}
            if (spec.id, ()) not in account.resource_index:
                account.remember(spec.id, {}, items)
            return
    except CloudError:
        return  # an area this user cannot list is simply not searchable
