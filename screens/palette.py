"""Command palette (ctrl+p) providers: areas, the current screen's actions, and resources by label.

"Jump to any resource by label" searches every list loaded so far (``app.resource_index``) and,
when the palette opens, fetches the first page of each area that was never opened, so the
results grow while the user types. Labels come from the API: they are matched and shown as
literal text, never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.markup import escape

from tui.home.areas import HOME_AREAS
from tui.resources.areas import AREAS, SPECS, open_target
from tui.resources.spec import ResourceSpec
from tui.resources.tag_search import tag_query, tagged
from tui.untrusted import Shown, shown
from widgets.key_names import action_key_label

MAX_RESOURCE_HITS = 50


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


class AreaCommands(Provider):
    """ "Go to <area>" for every area and every top-level tab."""

    def _commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        go = getattr(self.app, "go_to_area", None)
        out: list[tuple[str, Callable[[], Any], str]] = []
        if go is None:
            return out
        for area in (*HOME_AREAS, *AREAS):
            out.append((f"Go to {area.title}", partial(go, area.id), f":{area.id}"))
            for tab in area.tabs:
                title = f"Go to {area.title}: {SPECS[tab].title}"
                out.append((title, partial(go, area.id, tab), f"{area.title} tab"))
        return out

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


class ActionCommands(Provider):
    """The actions of the screen the palette was opened on (disabled ones say why)."""

    def _actions(self) -> list[tuple[str, Callable[[], Any], str]]:
        screen = self.screen
        lister = getattr(screen, "palette_actions", None)
        run = getattr(self.app, "run_palette_action", None)
        if lister is None or run is None:
            return []
        from screens.shell import check_availability

        out: list[tuple[str, Callable[[], Any], str]] = []
        for spec, action, item, params in lister():
            enabled, reason = check_availability(self.app, spec, action, item)
            target = spec.display_label(item) if item else spec.title
            name = f"{action.label}: {target}"
            help_text = action.description if enabled else f"not available: {reason}"
            pressed = action_key_label(self.app, action)
            key = f" (key {pressed})" if pressed else ""
            out.append((name, partial(run, screen, spec, action, item, params), help_text + key))
        return out

    async def discover(self) -> Hits:
        for name, callback, help_text in self._actions():
            label = shown(name)
            yield DiscoveryHit(Content(label), callback, text=label, help=escape(shown(help_text)))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._actions():
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


class ResourceCommands(Provider):
    """Every resource loaded so far, by label, across areas."""

    async def startup(self) -> None:
        prefetch = getattr(self.app, "prefetch_for_palette", None)
        if prefetch is not None:
            prefetch()

    async def search(self, query: str) -> Hits:
        index = getattr(self.app, "resource_index", None)
        jump = getattr(self.app, "jump_to_resource", None)
        if not index or jump is None or not query.strip():
            return
        if tag_query(query) is not None:
            # ``#production``: the items of every loaded list that carry the tag, any kind.
            lists = (
                (SPECS[spec_id], params, items.values())
                for (spec_id, _key), (params, items) in list(index.items())
                if spec_id in SPECS
            )
            for hit in tagged(lists, query, MAX_RESOURCE_HITS):
                target = partial(jump, hit.spec, hit.item, hit.params)
                yield Hit(1.0, Content(hit.text), target, text=hit.text, help=escape(hit.help))
            return
        matcher = self.matcher(query)
        hits = 0
        seen: set[tuple[str, str]] = set()
        for (spec_id, _params_key), entry in list(index.items()):
            spec = SPECS.get(spec_id)
            if spec is None:
                continue
            params, items = entry
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
                    partial(jump, spec, item, params),
                    text=label,
                    help=escape(f"{spec.singular} · {spec.title}"),
                )
                hits += 1
                if hits >= MAX_RESOURCE_HITS:
                    return


PROVIDERS = (AreaCommands, ActionCommands, ResourceCommands)
