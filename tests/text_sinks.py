"""Finds text that reaches the terminal without passing the text boundary (a static check).

A *sink* is a place where a string becomes something drawn on the terminal: a notification, a
title, a ``Static``, ``Label`` or ``Button``, a Rich ``Text``, a Textual ``Content``, a table
cell or column, a palette hit, an option, the text of a confirmation. Each argument that lands
in a sink must be *vetted*: display text that is known to hold nothing a terminal obeys.

Vetted is decided from the code, without running it:

- literals, numbers, booleans and ``repr``/``len``/``int`` of anything;
- a call of :func:`tui.untrusted.shown` (the boundary), or of any function of the project whose
  return annotation is a display type (:data:`DISPLAY_TYPES`: ``Shown``, ``Text``, ``Content``,
  numbers), when every function of that name is so annotated;
- a name or attribute annotated with a display type, or whose every assignment is vetted;
- an f-string, ``+``, ``%``, ``join``, a conditional or a comprehension of vetted parts, and the
  string methods of a vetted string.

Where a function, method or dataclass field is annotated ``Shown``, a value handed to it is a
sink too, and each ``return`` of a function annotated ``-> Shown`` must be vetted: so a helper
that takes display text states it in its signature and its callers are checked.

Building a ``Text`` or ``Content`` is itself a sink (including ``Text.append`` and
``Text.assemble``), which is why a ``Text`` may be passed on freely.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOUNDARY = ROOT / "tui" / "untrusted.py"
"""The boundary itself: what it returns is display text by definition."""
UI_PACKAGES = ("screens", "widgets")
UI_IN_TUI = (Path("tui/app.py"),)

DISPLAY_TYPES = frozenset(
    {
        "Shown",
        "Text",
        "Content",
        "Table",
        "Group",
        "int",
        "float",
        "bool",
        "Size",
        "Strip",
        "Segment",
    }
)
"""Annotations whose values may go on the terminal as they are (``Text`` and ``Content`` are
built only at checked sinks, and Rich tables and groups only from them; numbers and booleans
print as digits and words)."""

BOUNDARY_CALLS = frozenset(
    {
        "shown",
        "repr",
        "ascii",
        "len",
        "int",
        "float",
        "round",
        "abs",
        "sum",
        "id",
        "hash",
        "divmod",
        "bool",
    }
)
"""Calls whose result is display text whatever their argument."""

TEXT_BUILDERS = frozenset({"Text", "Content", "Table", "Group", "grid"})
"""Constructors of styled text: sinks for their text, display text once built."""

STR_METHODS = frozenset(
    {
        "upper",
        "lower",
        "title",
        "capitalize",
        "casefold",
        "strip",
        "lstrip",
        "rstrip",
        "ljust",
        "rjust",
        "center",
        "removeprefix",
        "removesuffix",
        "splitlines",
        "split",
        "rsplit",
        "partition",
        "rpartition",
        "replace",
        "format",
        "join",
        "expandtabs",
        "zfill",
        "copy",
        "plain",
        "pad_right",
        "truncate",
    }
)
"""Methods of a vetted string (or Text) that give vetted text when their arguments are vetted."""


@dataclass(frozen=True)
class Sink:
    """Where text reaches the terminal: positional indexes and keyword names that take it."""

    positions: tuple[int, ...] = (0,)
    keywords: tuple[str, ...] = ()
    all_positional: bool = False


CALL_SINKS: dict[str, Sink] = {
    "notify": Sink((0,), ("message", "title")),
    "Static": Sink((0,), ("content", "renderable")),
    "Label": Sink((0,), ("content", "renderable")),
    "Button": Sink((0,), ("label",)),
    "MarkedButton": Sink((0,), ("label",)),
    "Text": Sink((0,), ("text",)),
    "Table": Sink((), ("title", "caption"), all_positional=True),
    "Group": Sink((), (), all_positional=True),
    "Content": Sink((0,), ("text",)),
    "from_markup": Sink((0,)),
    "from_ansi": Sink((0,)),
    "assemble": Sink((), (), all_positional=True),
    "Hit": Sink((1,), ("match_display", "text", "help")),
    "DiscoveryHit": Sink((0,), ("display", "text", "help")),
    "Option": Sink((0,), ("prompt",)),
    "add_row": Sink((), ("label",), all_positional=True),
    "add_column": Sink((0,), ("label",)),
    "update_cell": Sink((2,), ("value",)),
    "update_cell_at": Sink((1,), ("value",)),
    "write_line": Sink((0,)),
    "Markdown": Sink((0,), ("markdown",)),
    "push_screen_wait": Sink(()),
}
"""Textual and Rich calls that draw their argument (method or constructor, by its name)."""

METHOD_ONLY_SINKS = frozenset(
    {"notify", "add_row", "add_column", "update_cell", "update_cell_at", "write_line"}
)
"""Sinks that are methods of a widget: a plain function of that name is something else."""

METHOD_SINKS_ON_TEXT: dict[str, Sink] = {
    "append": Sink((0,), ("text",)),
    "append_text": Sink((0,)),
}
"""Methods that add text to a ``Text`` (checked where the receiver is known to be one)."""

UPDATE_SINK = Sink((0,), ("content",))
"""``widget.update(x)`` of a Static or Label (a dict's ``update`` passes a dict or keywords)."""

TITLE_ATTRIBUTES = frozenset({"title", "sub_title", "border_title", "border_subtitle"})
"""Attributes that a screen or widget draws as a title."""


@dataclass
class Project:
    """What the check knows of every module: annotations by name, and module constants."""

    returns: dict[str, set[bool]] = field(default_factory=dict)
    """function name -> for each definition, whether its return annotation is a display type."""
    module_returns: dict[tuple[Path, str], ast.expr | None] = field(default_factory=dict)
    """(file, top-level function name) -> its return annotation."""
    returned_classes: dict[str, set[str]] = field(default_factory=dict)
    """function name -> for each definition, the class its return annotation names."""
    attributes: dict[str, set[bool]] = field(default_factory=dict)
    """attribute name -> for each annotation of it in a class, whether it is a display type."""
    shown_parameters: dict[str, dict[Path, Sink]] = field(default_factory=dict)
    """function or class name -> the parameters annotated ``Shown`` (sinks)."""
    constants: dict[str, set[bool]] = field(default_factory=dict)
    """module-level name -> for each module that assigns it, whether every value is vetted."""
    module_constants: dict[tuple[Path, str], bool] = field(default_factory=dict)
    """(file, module-level name) -> whether every value the module assigns it is a literal."""
    constant_annotations: dict[str, list[ast.expr]] = field(default_factory=dict)
    """module-level name -> the annotations modules give it (``SPECS: dict[str, ...]``)."""
    class_constants: dict[str, set[bool]] = field(default_factory=dict)
    """class attribute name -> for each class body that assigns it, whether with a literal."""
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    """class name -> what it declares (the first class of a name wins; names are unique
    enough in this code base, and an unknown class only makes the check stricter)."""

    def method_returns(self, class_name: str, method: str) -> tuple[bool, ast.expr | None]:
        """Whether class ``class_name`` (or a base) defines ``method``, and its return
        annotation."""
        for info in self._lineage(class_name):
            if method in info.methods:
                return True, info.methods[method]
        return False, None

    def _lineage(self, class_name: str) -> Iterator[ClassInfo]:
        seen: set[str] = set()
        pending = [class_name]
        while pending:
            name = pending.pop(0)
            info = self.classes.get(name)
            if info is None or name in seen:
                continue
            seen.add(name)
            yield info
            pending.extend(info.bases)

    def field_annotation(self, class_name: str, attribute: str) -> ast.expr | None:
        """The annotation of ``attribute`` in class ``class_name`` or its bases, if declared."""
        seen: set[str] = set()
        pending = [class_name]
        while pending:
            name = pending.pop(0)
            info = self.classes.get(name)
            if info is None or name in seen:
                continue
            seen.add(name)
            if attribute in info.fields:
                return info.fields[attribute]
            pending.extend(info.bases)
        return None


@dataclass
class ClassInfo:
    """The annotated attributes (and properties) of one class, and its bases' names."""

    bases: list[str] = field(default_factory=list)
    fields: dict[str, ast.expr] = field(default_factory=dict)
    methods: dict[str, ast.expr | None] = field(default_factory=dict)
    """method name -> its return annotation."""
    method_sinks: dict[str, Sink | None] = field(default_factory=dict)
    """method name -> its parameters annotated ``Shown`` (None: it has none)."""
    constant_fields: dict[str, bool] = field(default_factory=dict)
    """attribute -> whether every ``self.attr = ...`` (or ``+=``) in the class gives a literal
    (``self.rate_waits = 0`` ... ``self.rate_waits += 1``)."""


@dataclass(frozen=True)
class Finding:
    """One unvetted value at a sink."""

    path: Path
    line: int
    sink: str
    source: str

    def __str__(self) -> str:
        where = self.path.relative_to(ROOT)
        return f"{where}:{self.line}: {self.sink} takes `{self.source}`, not made by shown()"


def _annotation_name(node: ast.expr | None) -> str:
    """The last name of an annotation (``rich.text.Text`` -> ``Text``, ``"Shown"`` -> ``Shown``;
    ``X | None`` -> ``X``)."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _annotation_name(node.left), _annotation_name(node.right)
        if right == "None":
            return left
        if left == "None":
            return right
        return left if left == right else ""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        outer = _annotation_name(node.value)
        if outer == "Literal":
            return "Shown"  # literal strings: ours
        if outer in ("ClassVar", "Final"):
            return _annotation_name(node.slice)
        return outer  # ``dict[str, int]`` -> ``dict``
    return ""


def _element_name(node: ast.expr | None) -> str:
    """The class of an element of an annotated collection (``tuple[Action, ...]`` ->
    ``Action``), else the annotation's own name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        parts = {_element_name(node.left), _element_name(node.right)} - {"None"}
        return parts.pop() if len(parts) == 1 else ""
    if isinstance(node, ast.Subscript) and _annotation_name(node.value) in (
        "dict",
        "Mapping",
        "MutableMapping",
    ):
        inner = node.slice
        return _annotation_name(inner.elts[1]) if isinstance(inner, ast.Tuple) else ""
    if isinstance(node, ast.Subscript) and _annotation_name(node.value) in (
        "tuple",
        "list",
        "Sequence",
        "Iterable",
        "Iterator",
        "frozenset",
        "set",
    ):
        inner = node.slice
        if isinstance(inner, ast.Tuple):
            inner = inner.elts[0]
        return _annotation_name(inner)
    return _annotation_name(node)


LITERAL_ALIASES: set[str] = set()
"""Names of ``Literal[...]`` aliases found by :func:`survey`: display types too."""


COLLECTIONS = frozenset(
    {"list", "tuple", "set", "frozenset", "Sequence", "Iterable", "Iterator", "Collection"}
)


def _is_display(annotation: ast.expr | None) -> bool:
    """A display type, or a collection (or union) of display types only
    (``tuple[Shown, ...]``, ``list[tuple[Shown, int]]``, ``Shown | None``)."""
    node = annotation
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return False
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return node.value is None or node.value is Ellipsis
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _is_display(node.left) and _is_display(node.right)
    if isinstance(node, ast.Subscript):
        outer = _annotation_name(node.value)
        inner = node.slice
        parts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        if outer in COLLECTIONS:
            return all(_is_display(p) for p in parts)
        if outer in ("dict", "Mapping", "MutableMapping") and len(parts) == 2:
            return _is_display(parts[1])
    name = _annotation_name(node)
    return name in DISPLAY_TYPES or name in LITERAL_ALIASES


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _imports_of(tree: ast.Module, path: Path) -> dict[str, Path]:
    """``from package.module import name`` anywhere in ``tree`` -> the file of that module."""
    found: dict[str, Path] = {}
    package = path.relative_to(ROOT).parent.parts if path.is_relative_to(ROOT) else ()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        parts = list(package[: len(package) - node.level + 1]) if node.level else []
        parts += (node.module or "").split(".") if node.module else []
        base = ROOT.joinpath(*parts)
        module = (
            base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"
        )
        for alias in node.names:
            found[alias.asname or alias.name] = module
    return found


def _read_only(node: ast.Call) -> bool:
    return any(
        k.arg == "read_only" and not (isinstance(k.value, ast.Constant) and not k.value.value)
        for k in node.keywords
    )


def _is_method(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute)


def python_files(packages: tuple[str, ...]) -> Iterator[Path]:
    """Every ``.py`` file under the project's ``packages``."""
    for package in packages:
        yield from sorted((ROOT / package).rglob("*.py"))


def survey(paths: list[Path]) -> Project:
    """Read the annotations and module constants of every file in ``paths``."""
    project = Project()
    for path in paths:
        tree = ast.parse(path.read_text(), str(path))
        methods = {
            id(statement): node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            for statement in node.body
            if isinstance(statement, ast.FunctionDef) and statement.name == "__init__"
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                project.returns.setdefault(node.name, set()).add(_is_display(node.returns))
                project.returned_classes.setdefault(node.name, set()).add(
                    _annotation_name(node.returns)
                )
                # A class is called by its own name: its __init__'s parameters are its own.
                _note_shown_parameters(project, path, methods.get(id(node), node.name), node.args)
            elif isinstance(node, ast.ClassDef):
                _survey_class(project, node, path)
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                project.module_returns[(path, statement.name)] = statement.returns
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Subscript)
                and _annotation_name(statement.value.value) == "Literal"
            ):
                # ``Tone = Literal["ok", ...]``: a value of that type is one of those words.
                LITERAL_ALIASES.add(statement.targets[0].id)
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                project.constant_annotations.setdefault(statement.target.id, []).append(
                    statement.annotation
                )
            for name, value in _assigned(statement):
                literal = value is not None and _literal(value)
                project.constants.setdefault(name, set()).add(literal)
                key = (path, name)
                project.module_constants[key] = project.module_constants.get(key, True) and literal
    return project


def _shown_sink(args: ast.arguments) -> Sink | None:
    """The parameters annotated ``Shown`` of a function (``self`` not counted), if any."""
    positional = [*args.posonlyargs, *args.args]
    offset = 1 if positional and positional[0].arg in ("self", "cls") else 0
    positions = tuple(i - offset for i, arg in enumerate(positional) if _takes_shown(arg))
    keywords = tuple(arg.arg for arg in [*positional, *args.kwonlyargs] if _takes_shown(arg))
    return Sink(positions, keywords) if positions or keywords else None


def _note_shown_parameters(project: Project, path: Path, name: str, args: ast.arguments) -> None:
    positional = [*args.posonlyargs, *args.args]
    offset = 1 if positional and positional[0].arg in ("self", "cls") else 0
    positions = tuple(i - offset for i, arg in enumerate(positional) if _takes_shown(arg))
    keywords = tuple(arg.arg for arg in [*positional, *args.kwonlyargs] if _takes_shown(arg))
    if positions or keywords:
        project.shown_parameters.setdefault(name, {})[path] = Sink(positions, keywords)


def _promises_shown(annotation: ast.expr | None) -> bool:
    """A return annotation of display types that names ``Shown`` somewhere in it."""
    return _is_display(annotation) and any(
        isinstance(node, ast.Name) and node.id == "Shown"
        for node in ast.walk(annotation or ast.Constant(None))
    )


def _takes_shown(arg: ast.arg) -> bool:
    """A parameter annotated ``Shown`` (or a collection of ``Shown``)."""
    return "Shown" in (_annotation_name(arg.annotation), _element_name(arg.annotation))


def _survey_class(project: Project, node: ast.ClassDef, path: Path) -> None:
    fields: list[str] = []
    order: list[str] = []
    info = project.classes.setdefault(
        node.name, ClassInfo(bases=[_annotation_name(b) for b in node.bases])
    )
    for statement in node.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    # ``hint = "..."``: a class's own words; every class that sets the name
                    # must set a literal for ``self.hint`` to count as one.
                    project.class_constants.setdefault(target.id, set()).add(
                        _literal(statement.value)
                    )
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            name = statement.target.id
            project.attributes.setdefault(name, set()).add(_is_display(statement.annotation))
            info.fields.setdefault(name, statement.annotation)
            if _annotation_name(statement.annotation) != "ClassVar":
                order.append(name)
            if "Shown" in (
                _annotation_name(statement.annotation),
                _element_name(statement.annotation),
            ):
                fields.append(name)
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            info.methods.setdefault(statement.name, statement.returns)
            info.method_sinks.setdefault(statement.name, _shown_sink(statement.args))
            if statement.returns is not None and any(
                _annotation_name(d) in ("property", "cached_property")
                for d in statement.decorator_list
            ):
                info.fields.setdefault(statement.name, statement.returns)
            parameters = {
                a.arg: a.annotation
                for a in [*statement.args.args, *statement.args.kwonlyargs]
                if a.annotation is not None
            }
            for inner in ast.walk(statement):
                _note_constant_field(info, inner)
                if (
                    isinstance(inner, ast.Assign)
                    and len(inner.targets) == 1
                    and isinstance(inner.targets[0], ast.Attribute)
                    and isinstance(inner.targets[0].value, ast.Name)
                    and inner.targets[0].value.id == "self"
                    and isinstance(inner.value, ast.Name)
                    and inner.value.id in parameters
                ):
                    # ``self.spec = spec``: the attribute is of the parameter's type.
                    info.fields.setdefault(inner.targets[0].attr, parameters[inner.value.id])
                if (
                    isinstance(inner, ast.AnnAssign)
                    and isinstance(inner.target, ast.Attribute)
                    and isinstance(inner.target.value, ast.Name)
                    and inner.target.value.id == "self"
                ):
                    project.attributes.setdefault(inner.target.attr, set()).add(
                        _is_display(inner.annotation)
                    )
                    info.fields.setdefault(inner.target.attr, inner.annotation)
    decorated = any(
        _annotation_name(d.func if isinstance(d, ast.Call) else d) == "dataclass"
        for d in node.decorator_list
    )
    if decorated and fields:
        # A dataclass takes its fields by position too, in the order they are declared.
        positions = tuple(order.index(name) for name in fields)
        project.shown_parameters.setdefault(node.name, {})[path] = Sink(positions, tuple(fields))


def _note_constant_field(info: ClassInfo, node: ast.AST) -> None:
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AugAssign | ast.AnnAssign) and node.value is not None:
        targets, value = [node.target], node.value
    else:
        return
    for target in targets:
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
        ):
            constant = isinstance(value, ast.Constant)
            info.constant_fields[target.attr] = info.constant_fields.get(target.attr, True) and (
                constant
            )


def _assigned(statement: ast.stmt) -> Iterator[tuple[str, ast.expr | None]]:
    """Names a module-level statement binds, with the value (None when not a plain value)."""
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            if isinstance(target, ast.Name):
                yield target.id, statement.value
    elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        if _is_display(statement.annotation):
            yield statement.target.id, ast.Constant("")
        else:
            yield statement.target.id, statement.value


def _literal(node: ast.expr) -> bool:
    """A value written in the code: a literal, or a collection or f-string of literals."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(v is not None and _literal(v) for v in node.values)
    if isinstance(node, ast.JoinedStr):
        return all(
            isinstance(v, ast.Constant) or _literal(getattr(v, "value", v)) for v in node.values
        )
    if isinstance(node, ast.BinOp):
        return _literal(node.left) and _literal(node.right)
    return False


class _Scope:
    """The names one function (or the module, or a comprehension) binds, and how."""

    def __init__(self, parent: _Scope | None, owner: ast.ClassDef | None) -> None:
        self.parent = parent
        self.owner = owner
        self.params: dict[str, ast.expr | None] = {}
        self.values: dict[str, list[ast.expr | None]] = {}
        """name -> every value assigned to it (None: bound some other way, never vetted)."""
        self.elements: dict[str, list[ast.expr]] = {}
        """name -> iterables it is a loop variable of (an element of vetted text is vetted)."""
        self.annotations: dict[str, ast.expr] = {}
        """name -> its annotation, where a statement gives one (``spec: ResourceSpec = ...``)."""

    def bind_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            self.params[arg.arg] = arg.annotation
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                self.params[extra.arg] = None
        body = node.body if isinstance(node.body, list) else [ast.Expr(node.body)]
        for statement in body:
            self._bind_statement(statement)

    def bind_module(self, tree: ast.Module) -> None:
        for statement in tree.body:
            self._bind_statement(statement)

    def _bind_statement(self, statement: ast.stmt) -> None:
        for node in _own_nodes(statement):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind_target(target, node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                value = ast.Constant("") if _is_display(node.annotation) else node.value
                self.annotations[node.target.id] = node.annotation
                if value is not None:
                    self.values.setdefault(node.target.id, []).append(value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                self.values.setdefault(node.target.id, []).append(node.value)
            elif isinstance(node, ast.NamedExpr):
                self._bind_target(node.target, node.value)
            elif isinstance(node, ast.For | ast.AsyncFor):
                self._bind_element(node.target, node.iter)
            elif isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    if item.optional_vars is not None:
                        self._bind_target(item.optional_vars, None)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                self.values.setdefault(node.name, []).append(None)
            # Imported names are left unbound here: they are looked up among the project's
            # module constants (an imported constant is as vetted as where it is defined).

    def _bind_target(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self.values.setdefault(target.id, []).append(value)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                # ``a, b = vetted_pair``: each part of vetted text is vetted.
                self._bind_target(element, value)
        elif isinstance(target, ast.Starred):
            self._bind_target(target.value, value)

    def _bind_element(self, target: ast.expr, iterable: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.elements.setdefault(target.id, []).append(iterable)
        elif isinstance(target, ast.Tuple | ast.List):
            parts = _parallel(iterable, len(target.elts))
            for element, part in zip(target.elts, parts, strict=True):
                if part is None:  # the counter of ``enumerate``: a number
                    self._bind_target(element, ast.Constant(0))
                else:
                    self._bind_element(element, part)


def _parallel(iterable: ast.expr, count: int) -> list[ast.expr | None]:
    """What each of ``count`` loop variables unpacked from ``iterable`` walks over:
    ``enumerate(xs)`` gives a counter and ``xs``, ``zip(a, b)`` gives ``a`` and ``b``; any
    other iterable gives itself to each (a part of vetted text is vetted)."""
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
        args = [a for a in iterable.args if not isinstance(a, ast.Starred)]
        if iterable.func.id == "enumerate" and count == 2 and args:
            return [None, args[0]]
        if iterable.func.id == "zip" and len(args) == count:
            return list(args)
    return [iterable] * count


def _own_nodes(statement: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of ``statement`` that belong to its scope (not to nested functions, classes,
    lambdas or comprehensions)."""
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(
                child,
                ast.FunctionDef
                | ast.AsyncFunctionDef
                | ast.ClassDef
                | ast.Lambda
                | ast.ListComp
                | ast.SetComp
                | ast.DictComp
                | ast.GeneratorExp,
            ):
                continue
            stack.append(child)


@dataclass
class _ClassFacts:
    """What a class says of its own attributes."""

    display: set[str] = field(default_factory=set)
    """Attributes annotated with a display type."""
    values: dict[str, list[tuple[ast.expr, _Scope]]] = field(default_factory=dict)
    """Attribute -> every ``self.attr = value`` with the scope of the method that does it."""


class Checker:
    """Checks every sink of one module (see the module's docstring for the rules)."""

    def __init__(
        self, project: Project, path: Path, *, draws: bool = True, source: str | None = None
    ) -> None:
        self.project = project
        self.path = path
        self.draws = draws
        """Whether the module draws (UI): Textual's and Rich's sinks count only there."""
        text = path.read_text() if source is None else source
        self.tree = ast.parse(text, str(path))
        self.findings: list[Finding] = []
        self.classes: dict[int, _ClassFacts] = {}
        self.defined = {
            node.name
            for node in self.tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        }
        """Functions and classes the module defines at its top level."""
        self.function_returns = {
            node.name: node.returns
            for node in self.tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        """Return annotations of the module's own functions."""
        self.imported = _imports_of(self.tree, path)
        """Names the module imports from the project -> the file that defines them."""
        self._busy: set[tuple[int, str]] = set()

    def run(self) -> list[Finding]:
        """Every unvetted value at a sink of the module."""
        module = _Scope(None, None)
        module.bind_module(self.tree)
        self._collect_classes(self.tree, module)
        self._visit_body(self.tree.body, module, None)
        return self.findings

    # -- scopes ---------------------------------------------------------------------------

    def _collect_classes(self, tree: ast.AST, module: _Scope) -> None:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            facts = _ClassFacts()
            for statement in node.body:
                if (
                    isinstance(statement, ast.AnnAssign)
                    and isinstance(statement.target, ast.Name)
                    and _is_display(statement.annotation)
                ):
                    facts.display.add(statement.target.id)
                if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                    scope = _Scope(module, node)
                    scope.bind_function(statement)
                    for inner in ast.walk(statement):
                        self._note_self_assignment(inner, scope, facts)
            self.classes[id(node)] = facts

    @staticmethod
    def _note_self_assignment(node: ast.AST, scope: _Scope, facts: _ClassFacts) -> None:
        targets: list[tuple[ast.expr, ast.expr | None, ast.expr | None]] = []
        if isinstance(node, ast.Assign):
            targets = [(t, node.value, None) for t in node.targets]
        elif isinstance(node, ast.AnnAssign):
            targets = [(node.target, node.value, node.annotation)]
        for target, value, annotation in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                if annotation is not None and _is_display(annotation):
                    facts.display.add(target.attr)
                elif value is not None:
                    facts.values.setdefault(target.attr, []).append((value, scope))

    def _visit_body(self, body: list[ast.stmt], scope: _Scope, function: ast.AST | None) -> None:
        for statement in body:
            self._visit(statement, scope, function)

    def _visit(self, node: ast.AST, scope: _Scope, function: ast.AST | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner = _Scope(scope, scope.owner)
            inner.bind_function(node)
            body = node.body if isinstance(node.body, list) else [ast.Expr(node.body)]
            if not isinstance(node, ast.Lambda):
                for decorator in node.decorator_list:
                    self._visit(decorator, scope, function)
            self._visit_body(body, inner, node)
            return
        if isinstance(node, ast.ClassDef):
            inner = _Scope(scope, node)
            self._visit_body(node.body, inner, function)
            return
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            inner = self._comprehension_scope(node, scope)
            for child in ast.iter_child_nodes(node):
                self._visit(child, inner, function)
            return
        if isinstance(node, ast.Call):
            self._check_call(node, scope)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            self._check_title_assignment(node, scope)
            if (
                isinstance(node, ast.AnnAssign)
                and node.value is not None
                and "Shown" in (_annotation_name(node.annotation), _element_name(node.annotation))
            ):
                # ``x: Shown = value`` claims display text: the value must be one.
                self._require(node.value, scope, "a name annotated Shown")
        elif isinstance(node, ast.Return) and node.value is not None:
            returns = getattr(function, "returns", None)
            if _promises_shown(returns) and self.path != BOUNDARY:
                self._require(node.value, scope, "a function returning Shown")
        for child in ast.iter_child_nodes(node):
            self._visit(child, scope, function)

    def _comprehension_scope(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, scope: _Scope
    ) -> _Scope:
        inner = _Scope(scope, scope.owner)
        for generator in node.generators:
            inner._bind_element(generator.target, generator.iter)
        return inner

    # -- sinks ----------------------------------------------------------------------------

    def _check_call(self, node: ast.Call, scope: _Scope) -> None:
        name = _callee(node)
        sinks: list[tuple[str, Sink]] = []
        if name in CALL_SINKS and self.draws and self._textual_sink(node, name, scope):
            sinks.append((name, CALL_SINKS[name]))
        if name == "TextArea" and self.draws and _read_only(node):
            # A viewer draws its text; an editor holds the raw value it edits (what it draws
            # passes the render filter, see widgets/visible_controls.py).
            sinks.append(("a read-only TextArea", Sink((0,), ("text",))))
        sink = self._shown_parameters(node, name, scope)
        if sink is not None:
            sinks.append((name, sink))
        if (
            name in METHOD_SINKS_ON_TEXT
            and isinstance(node.func, ast.Attribute)
            and self._is_text(node.func.value, scope)
        ):
            sinks.append((f"Text.{name}", METHOD_SINKS_ON_TEXT[name]))
        if (
            name in ("append", "extend", "insert", "add")
            and isinstance(node.func, ast.Attribute)
            and self._holds_shown(node.func.value, scope)
        ):
            # Filling a ``list[Shown]``: what goes in must be display text.
            sinks.append((f"a list of Shown .{name}", Sink((), (), all_positional=True)))
        if (
            name == "update"
            and self.draws
            and self._draws(node)
            and isinstance(node.func, ast.Attribute)
            and not self._is_collection(node.func.value, scope)
        ):
            sinks.append(("update", UPDATE_SINK))
        for sink_name, sink in sinks:
            for index, arg in enumerate(node.args):
                if sink.all_positional or index in sink.positions:
                    self._require(arg, scope, sink_name)
            for keyword in node.keywords:
                if keyword.arg in sink.keywords:
                    self._require(keyword.value, scope, f"{sink_name}({keyword.arg}=)")

    def _textual_sink(self, node: ast.Call, name: str, scope: _Scope) -> bool:
        """Whether ``node`` calls Textual's or Rich's drawing ``name``, not a function or
        method of the project that happens to share the name (``add_row`` of a form)."""
        if name in METHOD_ONLY_SINKS and not _is_method(node):
            return False
        if isinstance(node.func, ast.Attribute):
            owner = self._class_of(node.func.value, scope)
            if owner and any(name in i.methods for i in self.project._lineage(owner)):
                return False
        return True

    def _holds_shown(self, node: ast.expr, scope: _Scope) -> bool:
        """Whether ``node`` is a collection annotated to hold ``Shown``."""
        annotation: ast.expr | None = None
        if isinstance(node, ast.Name):
            holder: _Scope | None = scope
            while holder is not None and annotation is None:
                annotation = holder.annotations.get(node.id) or holder.params.get(node.id)
                if node.id in holder.values or node.id in holder.params:
                    break
                holder = holder.parent
        elif isinstance(node, ast.Attribute):
            owner = self._class_of(node.value, scope)
            annotation = self.project.field_annotation(owner, node.attr) if owner else None
        return annotation is not None and _element_name(annotation) == "Shown"

    def _shown_parameters(self, node: ast.Call, name: str, scope: _Scope) -> Sink | None:
        """The parameters annotated ``Shown`` of what ``node`` calls: a function or class of
        this module when it defines one of that name, else any of the project's."""
        found = self.project.shown_parameters.get(name)
        if isinstance(node.func, ast.Name) and name in self.defined:
            return (found or {}).get(self.path)
        if isinstance(node.func, ast.Name) and name in self.imported:
            return (found or {}).get(self.imported[name])  # the one imported, if the project's
        if isinstance(node.func, ast.Attribute):
            owner = self._class_of(node.func.value, scope)
            for info in self.project._lineage(owner) if owner else ():
                if name in info.method_sinks:
                    return info.method_sinks[name]
        if not found:
            return None
        positions = tuple(sorted({p for sink in found.values() for p in sink.positions}))
        keywords = tuple(sorted({k for sink in found.values() for k in sink.keywords}))
        return Sink(positions, keywords)

    @staticmethod
    def _draws(node: ast.Call) -> bool:
        """Whether ``x.update(...)`` is a widget's update (one positional value that is not a
        mapping) rather than a dict's or a set's."""
        if len(node.args) != 1 or any(k.arg not in ("layout",) for k in node.keywords):
            return False
        arg = node.args[0]
        return not isinstance(
            arg, ast.Dict | ast.DictComp | ast.Set | ast.SetComp | ast.GeneratorExp
        )

    def _is_collection(self, node: ast.expr, scope: _Scope) -> bool:
        """Whether ``node`` is known to be a dict or a set (whose ``update`` draws nothing)."""
        collections = ("dict", "set", "Counter", "defaultdict", "Mapping", "MutableMapping")
        if isinstance(node, ast.Dict | ast.Set | ast.DictComp | ast.SetComp):
            return True
        if isinstance(node, ast.Call):
            return _callee(node) in collections
        if isinstance(node, ast.Name):
            found = self._lookup(node.id, scope)
            if found is None:
                return False
            holder, values = found
            if node.id in holder.params:
                return _annotation_name(holder.params[node.id]) in collections
            if node.id in holder.annotations:
                return _annotation_name(holder.annotations[node.id]) in collections
            return bool(values) and all(
                v is not None and self._is_collection(v, holder) for v in values
            )
        if isinstance(node, ast.Attribute):
            owner = self._class_of(node.value, scope)
            annotation = self.project.field_annotation(owner, node.attr) if owner else None
            return _annotation_name(annotation) in collections
        return False

    def _check_title_assignment(
        self, node: ast.Assign | ast.AnnAssign | ast.AugAssign, scope: _Scope
    ) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if (
                self.draws
                and isinstance(target, ast.Attribute)
                and target.attr in TITLE_ATTRIBUTES
                and node.value is not None
            ):
                self._require(node.value, scope, f".{target.attr} =")

    def _require(self, node: ast.expr, scope: _Scope, sink: str) -> None:
        if not self.vetted(node, scope):
            self.findings.append(Finding(self.path, node.lineno, sink, ast.unparse(node)[:80]))

    # -- vetted ---------------------------------------------------------------------------

    def _is_text(self, node: ast.expr, scope: _Scope) -> bool:
        """Whether ``node`` is known to be a Rich ``Text`` or Textual ``Content``."""
        if isinstance(node, ast.Call):
            return _callee(node) in TEXT_BUILDERS or _callee(node) == "assemble"
        if isinstance(node, ast.Name):
            found = self._lookup(node.id, scope)
            if found is None:
                return False
            holder, values = found
            if _annotation_name(holder.params.get(node.id)) in TEXT_BUILDERS:
                return True
            return bool(values) and all(v is not None and self._is_text(v, holder) for v in values)
        return False

    def _lookup(
        self, name: str, scope: _Scope | None
    ) -> tuple[_Scope, list[ast.expr | None]] | None:
        while scope is not None:
            if name in scope.params:
                return scope, []
            if name in scope.values or name in scope.elements:
                return scope, scope.values.get(name, [])
            scope = scope.parent
        return None

    def vetted(self, node: ast.expr, scope: _Scope) -> bool:
        """Whether ``node`` is display text by the rules of this module."""
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.JoinedStr):
            return all(self.vetted(v, scope) for v in node.values)
        if isinstance(node, ast.FormattedValue):
            if node.conversion in (ord("r"), ord("a")):
                return True  # repr escapes every control character
            if node.format_spec is not None and self._numeric_spec(node.format_spec):
                return True
            known = self._class_of(node.value, scope)
            if known:
                defined, returns = self.project.method_returns(known, "__str__")
                if defined:
                    return _is_display(returns)
            return self.vetted(node.value, scope)
        if isinstance(node, ast.Name):
            return self._vetted_name(node.id, scope)
        if isinstance(node, ast.Attribute):
            return self._vetted_attribute(node, scope)
        if isinstance(node, ast.Call):
            return self._vetted_call(node, scope)
        if isinstance(node, ast.Subscript):
            return self.vetted(node.value, scope)
        if isinstance(node, ast.IfExp):
            return self.vetted(node.body, scope) and self.vetted(node.orelse, scope)
        if isinstance(node, ast.BoolOp):
            return all(self.vetted(v, scope) for v in node.values)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Div | ast.FloorDiv | ast.Sub | ast.Pow):
                return True  # always a number (no string has these operators)
            return self.vetted(node.left, scope) and self.vetted(node.right, scope)
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.Not) or self.vetted(node.operand, scope)
        if isinstance(node, ast.Compare):
            return True  # a boolean
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return all(self.vetted(e, scope) for e in node.elts)
        if isinstance(node, ast.Dict):
            return all(v is not None and self.vetted(v, scope) for v in node.values) and all(
                k is None or self.vetted(k, scope) for k in node.keys
            )
        if isinstance(node, ast.Starred | ast.Await):
            return self.vetted(node.value, scope)
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
            inner = self._comprehension_scope(node, scope)
            return self.vetted(node.elt, inner)
        if isinstance(node, ast.DictComp):
            inner = self._comprehension_scope(node, scope)
            return self.vetted(node.key, inner) and self.vetted(node.value, inner)
        return False

    @staticmethod
    def _numeric_spec(spec: ast.JoinedStr) -> bool:
        """A format spec that only numbers accept (``,``, ``.1f``, ``d``, ``%``)."""
        text = "".join(v.value for v in spec.values if isinstance(v, ast.Constant))
        return bool(text) and text[-1:] in "dfeEgGn%xXob," and not text.endswith("s")

    def _vetted_name(self, name: str, scope: _Scope) -> bool:
        holder: _Scope | None = scope
        while holder is not None:
            if name in holder.params:
                return _is_display(holder.params[name])
            if name in holder.values or name in holder.elements:
                return self._vetted_binding(name, holder)
            holder = holder.parent
        key = (self.imported.get(name, self.path), name)
        if key in self.project.module_constants:  # a constant imported from the project
            return self.project.module_constants[key]
        verdicts = self.project.constants.get(name)
        return bool(verdicts) and all(verdicts)

    def _vetted_binding(self, name: str, holder: _Scope) -> bool:
        key = (id(holder), name)
        if key in self._busy:
            return True  # a name built from itself: vetted if the rest of it is
        self._busy.add(key)
        try:
            values = holder.values.get(name, [])
            iterables = holder.elements.get(name, [])
            return all(v is not None and self.vetted(v, holder) for v in values) and all(
                self.vetted(i, holder) for i in iterables
            )
        finally:
            self._busy.discard(key)

    def _class_of(self, node: ast.expr, scope: _Scope, *, element: bool = False) -> str:
        """The class of ``node``'s value where the code says it (an annotation, a constructor,
        a loop over an annotated collection), else ``""``. With ``element``, the class of an
        element of that value."""
        annotation: ast.expr | None = None
        if isinstance(node, ast.Name):
            if node.id == "self" and scope.owner is not None and not element:
                return scope.owner.name
            holder: _Scope | None = scope
            while holder is not None:
                if node.id in holder.params:
                    annotation = holder.params[node.id]
                    break
                if node.id in holder.annotations:
                    annotation = holder.annotations[node.id]
                    break
                if node.id in holder.values or node.id in holder.elements:
                    return self._bound_class(node.id, holder, element=element)
                holder = holder.parent
            else:
                found = self.project.constant_annotations.get(node.id, [])
                annotation = found[0] if len(found) == 1 else None
        elif isinstance(node, ast.Attribute):
            owner = self._class_of(node.value, scope)
            if owner:
                annotation = self.project.field_annotation(owner, node.attr)
        elif isinstance(node, ast.Await):
            return self._class_of(node.value, scope, element=element)
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self._class_of(node.value, scope, element=element)  # a slice: same kind
        elif isinstance(node, ast.Subscript) and not element:
            return self._class_of(node.value, scope, element=True)
        elif isinstance(node, ast.IfExp | ast.BoolOp):
            branches = (node.body, node.orelse) if isinstance(node, ast.IfExp) else node.values
            found = {
                self._class_of(branch, scope, element=element)
                for branch in branches
                if not (isinstance(branch, ast.Constant) and branch.value is None)
            }
            return found.pop() if len(found) == 1 else ""
        elif isinstance(node, ast.Call):
            name = _callee(node)
            if name in self.project.classes and not element:
                return name
            if isinstance(node.func, ast.Attribute) and name == "get":
                # ``mapping.get(key)``: an element of the mapping.
                return self._class_of(node.func.value, scope, element=True) if not element else ""
            if isinstance(node.func, ast.Attribute):
                owner = self._class_of(node.func.value, scope)
                if owner:
                    annotation = self.project.method_returns(owner, name)[1]
            elif isinstance(node.func, ast.Name) and name in self.function_returns:
                annotation = self.function_returns[name]
            elif (
                isinstance(node.func, ast.Name)
                and (self.imported.get(name), name) in self.project.module_returns
            ):
                annotation = self.project.module_returns[(self.imported[name], name)]
            elif isinstance(node.func, ast.Name) and not element:
                classes = self.project.returned_classes.get(name, set())
                return next(iter(classes)) if len(classes) == 1 else ""
        if annotation is None:
            return ""
        return _element_name(annotation) if element else _annotation_name(annotation)

    def _bound_class(self, name: str, holder: _Scope, *, element: bool) -> str:
        key = (id(holder), "class:" + name)
        if key in self._busy:
            return ""
        self._busy.add(key)
        try:
            found = {
                self._class_of(v, holder, element=element)
                for v in holder.values.get(name, [])
                if v is not None
            }
            found |= (
                {
                    self._class_of(i, holder, element=not element)
                    for i in holder.elements.get(name, [])
                }
                if not element
                else set()
            )
            found.discard("")
            return found.pop() if len(found) == 1 else ""
        finally:
            self._busy.discard(key)

    def _vetted_attribute(self, node: ast.Attribute, scope: _Scope) -> bool:
        if node.attr in ("__name__", "__qualname__"):
            return True  # an identifier of the code
        if node.attr == "plain":
            return self.vetted(node.value, scope)
        known = self._class_of(node.value, scope)
        if known and known in self.project.classes:
            annotation = self.project.field_annotation(known, node.attr)
            if annotation is not None:
                return _is_display(annotation)
            if any(info.constant_fields.get(node.attr) for info in self.project._lineage(known)):
                return True
            verdicts = self.project.class_constants.get(node.attr)
            if verdicts and all(verdicts):
                return True
        owner = scope.owner
        if isinstance(node.value, ast.Name) and node.value.id == "self" and owner is not None:
            facts = self.classes.get(id(owner))
            if facts is not None:
                if node.attr in facts.display:
                    return True
                values = facts.values.get(node.attr)
                if values:
                    key = (id(owner), node.attr)
                    if key in self._busy:
                        return True
                    self._busy.add(key)
                    try:
                        return all(self.vetted(v, s) for v, s in values)
                    finally:
                        self._busy.discard(key)
        verdicts = self.project.attributes.get(node.attr)
        return bool(verdicts) and all(verdicts)

    def _vetted_call(self, node: ast.Call, scope: _Scope) -> bool:
        name = _callee(node)
        if name in BOUNDARY_CALLS or name in TEXT_BUILDERS or name == "assemble":
            return True
        if name == "field":  # a dataclass field: its default must be display text
            return all(self.vetted(k.value, scope) for k in node.keywords if k.arg == "default")
        if name in (
            "str",
            "sorted",
            "list",
            "tuple",
            "set",
            "frozenset",
            "reversed",
            "next",
            "escape",  # markup escaping keeps display text display text
            "min",
            "max",
            "enumerate",
            "zip",
        ):
            return all(self.vetted(a, scope) for a in node.args)
        if (
            isinstance(node.func, ast.Attribute)
            and name == "get"
            and isinstance(node.func.value, ast.Dict)
        ):
            # ``{...}.get(key, default)``: one of the values written there, or the default.
            parts = [v for v in node.func.value.values if v is not None] + node.args[1:]
            return all(self.vetted(p, scope) for p in parts)
        if isinstance(node.func, ast.Attribute):
            known = self._class_of(node.func.value, scope)
            if known:
                defined, returns = self.project.method_returns(known, name)
                if defined:
                    return _is_display(returns)
        if isinstance(node.func, ast.Attribute) and name in STR_METHODS:
            return self.vetted(node.func.value, scope) and all(
                self.vetted(a, scope) for a in node.args
            )
        if isinstance(node.func, ast.Name) and name in self.function_returns:
            return _is_display(self.function_returns[name])  # the module's own function
        if isinstance(node.func, ast.Name) and name in self.imported:
            key = (self.imported[name], name)
            if key in self.project.module_returns:  # a function imported from the project
                return _is_display(self.project.module_returns[key])
        verdicts = self.project.returns.get(name)
        return bool(verdicts) and all(verdicts)


def draws(path: Path) -> bool:
    """Whether the module at ``path`` is UI (its Textual and Rich calls draw)."""
    relative = path.relative_to(ROOT)
    return relative.parts[0] in UI_PACKAGES or relative in UI_IN_TUI


def check(packages: tuple[str, ...] = ("tui", "screens", "widgets")) -> list[Finding]:
    """Every unvetted value at a sink in the project's ``packages``."""
    paths = list(python_files(packages))
    project = survey(paths)
    findings: list[Finding] = []
    for path in paths:
        findings.extend(Checker(project, path, draws=draws(path)).run())
    return findings
