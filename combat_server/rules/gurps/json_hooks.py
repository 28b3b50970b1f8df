"""The unstructure hooks of the GURPS state classes (``Condition``, ``Sheet``, ``Weapon``, ``Combat``,
``Attack``), generated once from ``attrs.fields`` (issue 16: every view, snapshot and state hash of a
changed combatant builds a condition's JSON, 51 fields).

What a hook returns is defined by ``json_by_converter``: every field through the converter, then the
fields added after fights were stored left out at their defaults (``drop_defaults``), so stored fights
refold to the same bytes. The generated hook gives the same dict, key order and value types included
(tests/gurps/test_condition_fast_paths.py), without a converter dispatch for the values that are
their own JSON: an exact ``int``, ``str``, ``bool`` or ``None``, a tuple of them (a list, as cattrs
makes it) and a dict of them (a copy). Anything else still goes through the converter."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import attrs

_PLAIN = frozenset({int, str, bool, type(None)})
Hook = Callable[[Any], dict[str, Any]]


def drop_defaults(data: dict[str, Any], new_fields: Mapping[str, Any]) -> dict[str, Any]:
    """Leave out the fields added after fights were stored while they hold their defaults (a tuple
    default also matches the list its JSON holds)."""
    for key, default in new_fields.items():
        if key in data and (data[key] == default or (isinstance(default, tuple) and data[key] == list(default))):
            del data[key]
    return data


def json_by_converter(unstructure: Callable[[Any], Any], obj: Any, new_fields: Mapping[str, Any]) -> dict[str, Any]:
    """The definition: each field through ``unstructure``, the new fields at their defaults left out."""
    return drop_defaults({f.name: unstructure(getattr(obj, f.name)) for f in attrs.fields(type(obj))}, new_fields)


def _sequence(unstructure: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def sequence(value: Any) -> Any:
        if value.__class__ is tuple:
            for item in value:
                if item.__class__ not in _PLAIN:
                    return unstructure(value)
            return list(value)
        return unstructure(value)
    return sequence


def _mapping(unstructure: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def mapping(value: Any) -> Any:
        if value.__class__ is dict:
            for key, item in value.items():
                if key.__class__ not in _PLAIN or item.__class__ not in _PLAIN:
                    return unstructure(value)
            return dict(value)
        return unstructure(value)
    return mapping


def _default_of(field: Any) -> Any:
    """The field's default value (a factory's product), only to pick which shortcut its line tries
    first; every shortcut checks the value's type and falls back to the converter."""
    default = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        return None if default.takes_self else default.factory()
    return default


def _value_expression(f: Any, sequence: str, mapping: str, other: str) -> str:
    """The expression for field ``f`` of ``obj`` in a generated hook: ``sequence(...)`` of a field whose
    default is a tuple, ``mapping(...)`` of one whose default is a dict, else the plain value itself or
    ``other`` (an expression of ``v``)."""
    kind = _default_of(f)
    if isinstance(kind, tuple):
        return f"{sequence}(obj.{f.name})"
    if isinstance(kind, dict):
        return f"{mapping}(obj.{f.name})"
    return f"v if (v := obj.{f.name}).__class__ in _P else {other}"


def _hook_value(f: Any) -> str:
    """The hook's expression for field ``f`` of ``obj`` (``_seq``, ``_map``, ``_u``, ``_P`` in its namespace)."""
    return _value_expression(f, "_seq", "_map", "_u(v)")


def _new_field_lines(namespace: dict[str, Any], i: int, f: Any, default: Any, written: str) -> list[str]:
    """The lines of a field newer than the stored fights: its hook value in ``v{i}``, and ``written`` (an
    expression of ``v{i}``) stored only when it differs from ``default`` (a tuple default also as a list)."""
    namespace[f"_d{i}"] = default
    check = f"v{i} == _d{i}"
    if isinstance(default, tuple):
        namespace[f"_l{i}"] = list(default)
        check += f" or v{i} == _l{i}"
    return [f"    v{i} = {_hook_value(f)}", f"    if not ({check}):", f"        data[{f.name!r}] = {written}"]


def make_hook(cls: type, unstructure: Callable[[Any], Any], new_fields: Mapping[str, Any]) -> Hook:
    """The generated hook for ``cls``: one line per field, in field order, reading the attribute
    directly; a new field is written only when its JSON differs from its default."""
    namespace: dict[str, Any] = {"_u": unstructure, "_P": _PLAIN, "_seq": _sequence(unstructure),
                                 "_map": _mapping(unstructure)}
    lines = ["def hook(obj):", "    data = {}"]
    for i, f in enumerate(attrs.fields(cls)):
        if not f.name.isidentifier():
            raise ValueError(f"field {f.name!r} of {cls.__name__} is not an identifier")
        if f.name in new_fields:
            lines += _new_field_lines(namespace, i, f, new_fields[f.name], f"v{i}")
        else:
            lines.append(f"    data[{f.name!r}] = {_hook_value(f)}")
    lines.append("    return data")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built only from the class's own field names
    hook: Hook = namespace["hook"]
    hook.normalized_by = lambda normalize: _make_normalized(cls, unstructure, new_fields, normalize)  # type: ignore[attr-defined]
    return hook


def _make_normalized(cls: type, unstructure: Callable[[Any], Any], new_fields: Mapping[str, Any],
                     normalize: Callable[[Any], Any]) -> Hook:
    """``obj`` -> ``{name: v if type(v) in _PLAIN else normalize(v) for name, v in hook(obj).items()}``
    (``server.views.normalized`` of the hook's JSON) in one pass, for the server's views: a GM's HP
    adjustment builds the changed condition's view value, and the hook's dict copied again by
    ``normalized``, with its lists copied a second time, was most of it (issue 16). Each line gives
    what ``normalize`` makes of the hook's value: a plain value as it is; a tuple of plain values the
    list the hook makes of it (``normalize`` copies it item for item); a dict with string keys and
    plain values the hook's copy; anything else ``normalize`` of the hook's value. A new field is
    tested against its default on the hook's own value, then normalized
    (tests/gurps/test_condition_fast_paths.py compares the two).

    Its ``since`` attribute, ``since(obj, was, old)``, gives the same value given ``old``, the value of an
    earlier ``was`` of the same class: ``old``'s copy, with the members of the fields that are not the
    same objects in ``obj`` as in ``was`` made again in their places (``normalized(obj)`` when one of them is a
    new field, whose member comes and goes with its default). A GM's HP adjustment changes one of a condition's 36
    fields; the other members stay the objects the previous view holds, which the patch's diff and the view
    hasher skip by identity (issue 16, ``server.views.json_value_since``)."""
    namespace: dict[str, Any] = {"_u": unstructure, "_n": normalize, "_P": _PLAIN, "_map": _mapping(unstructure)}

    def sequence(value: Any) -> Any:
        if value.__class__ is tuple:
            for item in value:
                if item.__class__ not in _PLAIN:
                    return normalize(unstructure(value))
            return list(value)
        return normalize(unstructure(value))

    def mapping(value: Any) -> Any:
        if value.__class__ is dict:
            for key, item in value.items():
                if key.__class__ is not str or item.__class__ not in _PLAIN:
                    return normalize(namespace["_map"](value))
            return dict(value)
        return normalize(unstructure(value))

    namespace["_nseq"], namespace["_nmap"], namespace["_seq"] = sequence, mapping, _sequence(unstructure)
    fields = attrs.fields(cls)
    lines = ["def normalized(obj):", "    data = {}"]
    for i, f in enumerate(fields):
        if f.name in new_fields:  # the hook's own line, then its value normalized
            lines += _new_field_lines(namespace, i, f, new_fields[f.name], f"v{i} if v{i}.__class__ in _P else _n(v{i})")
        else:
            lines.append(f"    data[{f.name!r}] = {_normalized_value(f)}")
    lines += ["    return data", "", "def since(obj, was, old):"]
    # A new field comes and goes with its default: when one changed, the member order may too.
    lines += [f"    if obj.{f.name} is not was.{f.name}:\n        return normalized(obj)" for f in fields if f.name in new_fields]
    lines.append("    data = old.copy()")
    lines += [f"    if obj.{f.name} is not was.{f.name}:\n        data[{f.name!r}] = {_normalized_value(f)}"
              for f in fields if f.name not in new_fields]
    lines.append("    return data")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built only from the class's own field names
    normalized: Hook = namespace["normalized"]
    normalized.since = namespace["since"]  # type: ignore[attr-defined]
    return normalized


def _normalized_value(f: Any) -> str:
    """The normalized variant's expression for field ``f`` of ``obj`` (one that is not new): what ``normalize``
    makes of the hook's value."""
    return _value_expression(f, "_nseq", "_nmap", "_n(_u(v))")
