"""Views on the wire as patches (protocol 2, issue 16): what changed in a seat's view since the
previous seq, and the checksum a client compares its patched copy against.

The patch is a subset of RFC 6902 JSON Patch: ``add`` and ``remove`` of object
members and ``replace`` of any value; paths are RFC 6901 JSON Pointers. Arrays
are replaced whole (they are short in a view: prompts, undone seqs, a
condition's lists), so no op ever names an array index. ``add`` appends the
member at the end of its object, as a new key lands at the end of the
server's own mapping, so a patched copy keeps the server's key order. Pushes
carry the ops in a shorter form (protocol 4, :func:`to_wire` and
:func:`apply_wire`): ``[path, value]`` sets, ``[path]`` removes.

The checksum (protocol 5, :func:`view_hash`) is CRC-32 (as zlib and PNG compute
it) of the digests of the view's members, each the CRC-32 of the member's
canonical JSON (keys sorted, no whitespace, UTF-8, integral numbers written
without a fraction), per combatant entry for ``combatants`` and ``derived``.
Why CRC-32 and not SHA-256: it only tells a client that its copy
drifted (a bug, never an attacker: the server sends both copy and patch), and a
web page served over plain http on a LAN has no WebCrypto to compute SHA-256
(docs/protocol.md, "Views and patches").

Pure: used by the server, :class:`combat_server.client.CombatClient` and the
terminal client alike (the web page has its own copy in ``web/app.js``).
"""

from __future__ import annotations

import zlib
from itertools import compress
from operator import is_not
from typing import Any, Callable, Mapping

import orjson

__all__ = ["diff", "apply_patch", "to_wire", "apply_wire", "view_hash", "normalize", "PatchError", "ViewHasher",
           "ViewPatcher"]


class PatchError(ValueError):
    """A patch that does not fit the document (a client whose copy drifted asks for the full view)."""


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1") if ("~" in key or "/" in key) else key


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def diff(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """The ops that turn ``old`` into ``new`` (JSON values). Identical objects are skipped without a
    look inside: the server's views share every unchanged part with the previous view."""
    out: list[dict[str, Any]] = []
    _diff(old, new, path, out)
    return out


#: What ``dict.get`` gives :func:`_diff` for a member the old object lacks (never a JSON value).
_MISSING: Any = object()


def _diff(old: Any, new: Any, path: str, out: list[dict[str, Any]]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        keys = tuple(new)
        if keys == tuple(old):
            _diff_aligned(old, new, keys, path, out)
            return
        # One lookup per member (``get``), and the removed members looked for only when the old keys are not
        # all in the new object, which C tells at once: a push's diff walks the view's 15 members, the changed
        # combatant's 6 and its condition's 36, each Python-level step counted (issue 16, server CPU; the same
        # ops in the same order, tests/test_patch.py).
        for key, value in new.items():
            was = old.get(key, _MISSING)
            if was is value or (type(was) is type(value) and type(value) is not dict and was == value):
                continue  # the common case, without a call
            if was is _MISSING:
                out.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
            else:
                _diff(was, value, f"{path}/{_escape(key)}", out)
        if not old.keys() <= new.keys():
            for key in old:
                if key not in new:
                    out.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        return
    if type(old) is type(new) and old == new:  # True == 1 in Python, not in JSON
        return
    out.append({"op": "replace", "path": path, "value": new})


def _diff_aligned(old: dict[Any, Any], new: dict[Any, Any], keys: tuple[Any, ...], path: str,
                  out: list[dict[str, Any]]) -> None:
    """:func:`_diff` of two objects with the same ``keys`` in the same order (every push's: the server's
    views keep their key order, and the builder gives a changed combatant's condition the member objects of
    the one before for the fields that stayed, ``server.views.json_value_since``). The members that are new
    objects are found in C (``map(is_not, ...)``, as ``_Pieces.of`` does) and only those are walked in
    Python: a one-HP change walks one of the condition's 36 members instead of all (issue 16, server CPU).
    Nothing is added or removed; the ops are :func:`_diff`'s, in the same order (tests/test_patch.py).
    A member that is again a pair of dicts with the same keys in the same order is walked here directly, and
    two unequal leaves are replaced here, each without a call of :func:`_diff` (issue 16, session 12)."""
    for key in compress(keys, map(is_not, new.values(), old.values())):
        was, value = old[key], new[key]
        kind = type(value)
        if type(was) is kind and kind is not dict and was == value:
            continue  # equal, as _diff's own walk skips it
        # _escape's test in place (a view's keys, member names and combatant ids, seldom hold "~" or "/").
        where = f"{path}/{key}" if "~" not in key and "/" not in key else f"{path}/{_escape(key)}"
        if type(was) is kind:
            if kind is dict:
                inner = tuple(value)
                if inner == tuple(was):  # _diff's own first step, without the call: the usual push's path
                    _diff_aligned(was, value, inner, where, out)
                    continue
            elif kind in _LEAVES:  # unequal, and no object to walk into: _diff's replace, without the call
                out.append({"op": "replace", "path": where, "value": value})
                continue
        _diff(was, value, where, out)


#: Exact types that are never a dict (nor a subclass of one): two unequal values of one of them are replaced.
_LEAVES = frozenset({int, str, float, bool, list, type(None)})


def apply_patch(doc: Any, ops: list[Mapping[str, Any]]) -> Any:
    """``doc`` with ``ops`` applied, copying only the objects on the changed paths: the old document
    is left as it was (a client keeps each pushed event's view). Raises :class:`PatchError` when an
    op does not fit (a member to replace or remove that is missing, a path through a non-object)."""
    for op in ops:
        if op.get("op") == "set":
            raise PatchError("unknown op 'set'")  # apply_wire's own op, not RFC 6902's
        doc = _apply_one(doc, op)
    return doc


def _apply_one(doc: Any, op: Mapping[str, Any]) -> Any:
    kind, path = op.get("op"), op.get("path")
    if not isinstance(path, str) or (path and not path.startswith("/")):
        raise PatchError(f"bad path {path!r}")
    if path == "":
        if kind != "replace":
            raise PatchError(f"{kind} of the whole document")
        return op["value"]
    tokens = [_unescape(t) for t in path[1:].split("/")]
    root: dict[str, Any] = _copy_object(doc, path)
    parent = root
    for token in tokens[:-1]:
        child = _copy_object(parent.get(token), path)
        parent[token] = child
        parent = child
    last = tokens[-1]
    if kind == "add":
        parent.pop(last, None)  # an add of an existing member replaces it, at the end (RFC 6902 4.1)
        parent[last] = op["value"]
    elif kind == "replace":
        if last not in parent:
            raise PatchError(f"replace of missing {path}")
        parent[last] = op["value"]
    elif kind == "set":  # a pushed op (apply_wire): replace in place, or add at the end
        parent[last] = op["value"]
    elif kind == "remove":
        if last not in parent:
            raise PatchError(f"remove of missing {path}")
        del parent[last]
    else:
        raise PatchError(f"unknown op {kind!r}")
    return root


def to_wire(ops: list[dict[str, Any]]) -> list[list[Any]]:
    """``ops`` as pushes carry them (protocol 4, docs/protocol.md "Views and patches"): ``[path, value]``
    sets (an ``add`` or a ``replace``), ``[path]`` removes.

    Why not RFC 6902's objects: their ``"op"``, ``"path"`` and ``"value"`` keys were half of a one-HP
    patch (62 of 75 bytes), and a push is sent to every seat for every event (issue 16: <= 300 bytes
    per push). Nothing is lost: :func:`diff` adds only missing members and replaces only present ones,
    so applying a set to the view it was made from does what the op said.
    """
    return [[op["path"]] if op["op"] == "remove" else [op["path"], op["value"]] for op in ops]


def apply_wire(doc: Any, ops: list[Any]) -> Any:
    """``doc`` with the pushed ops (:func:`to_wire`) applied, copying only the changed paths (as
    :func:`apply_patch`). A set replaces a present member in place and appends a missing one at the
    end of its object; a set of ``""`` replaces the whole document. Raises :class:`PatchError` when an
    op does not fit (a removal of a missing member, a path through a non-object, a malformed op).

    Every client applies every push (issue 16), so this walks the path itself rather than going
    through :func:`apply_patch`'s RFC 6902 ops: the same result and errors, without an op object
    built and read again per op."""
    for op in ops:
        if not isinstance(op, list) or len(op) not in (1, 2):
            raise PatchError(f"bad op {op!r}")
        path = op[0]
        if path == "":
            if len(op) == 1:
                raise PatchError("remove of the whole document")
            doc = op[1]
            continue
        if not isinstance(path, str) or not path.startswith("/"):
            raise PatchError(f"bad path {path!r}")
        tokens = path[1:].split("/")
        if "~" in path:
            tokens = [_unescape(t) for t in tokens]
        root = parent = doc.copy() if type(doc) is dict else _copy_object(doc, path)
        for token in tokens[:-1]:
            child = parent.get(token)  # a view's objects are dicts: copied here, without a call (issue 16)
            child = parent[token] = child.copy() if type(child) is dict else _copy_object(child, path)
            parent = child
        last = tokens[-1]
        if len(op) == 2:
            parent[last] = op[1]
        elif last in parent:
            del parent[last]
        else:
            raise PatchError(f"remove of missing {path}")
        doc = root
    return doc


def _copy_object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PatchError(f"{path} goes through something that is not an object")
    return dict(value)


def normalize(value: Any) -> Any:
    """``value`` as plain JSON types (tuples -> lists) with integral floats as integers: the form
    views are sent in, so that a JavaScript client's canonical text (``JSON.stringify`` writes
    ``0.0`` as ``0``) hashes the same."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:  # the most common first, by exact type
        return value
    if kind is dict:
        return {k if type(k) is str else str(k): normalize(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [normalize(v) for v in value]
    if kind is float:
        return int(value) if value.is_integer() else value
    if isinstance(value, Mapping):
        return {str(k): normalize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    return value


#: Top-level members of a view whose values are objects of per-combatant entries: each entry is hashed on its own.
SPLIT = ("combatants", "derived")


def _digest(text: bytes) -> bytes:
    """CRC-32 (zlib's) of ``text``, as 8 lowercase hex digits (ASCII)."""
    return b"%08x" % zlib.crc32(text)


def _canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


#: A string key's JSON text and a colon (``"name":``), the start of the canonical text of every member,
#: entry and entry member named so (:class:`ViewHasher`); kept, as the keys of a fight's views are few and
#: come back in every push (issue 16, server CPU: one lookup instead of an encoding and a concatenation).
_LABELS: dict[str, bytes] = {}
#: Most labels kept (combatant ids of all the fights a process holds, member names): cleared past it.
_MAX_LABELS = 4096


def _label(key: Any) -> bytes:
    """``orjson.dumps(key) + b":"``, kept in :data:`_LABELS` for a string key. Callers ask
    ``_LABELS.get(key) or _label(key)``: only a string key is ever kept, and no other key equals one."""
    label: bytes = orjson.dumps(key) + b":"
    if type(key) is str:
        if len(_LABELS) >= _MAX_LABELS:
            _LABELS.clear()
        _LABELS[key] = label
    return label


def view_hash(view: Mapping[str, Any]) -> str:
    """The view's checksum (protocol 5, docs/protocol.md "The check"): the digest of ``{`` + the digests of
    its members, in key order, joined by commas + ``}``; a member's digest is that of its canonical text
    ``"name":value``, but for ``combatants`` and ``derived``, whose text is ``"name":{`` + the digests of
    their entries' texts ``"key":value``, in key order, joined by commas + ``}``. A digest is CRC-32 of
    the UTF-8 text as 8 lowercase hex digits; canonical JSON sorts keys by code point, without
    whitespace, integral numbers without a fraction (``normalize``).

    Why digests of digests (protocol 5; protocol 4 hashed the whole canonical text): a push changes
    one or two entries, and a hasher that keeps each member's and entry's digest re-hashes only those,
    so a push's check costs the same whatever the fight's size (issue 16: CRC-32 of a 500-combatant
    view was about 1 ms per view, at the server for each view and at each client for each push).

    Computed by a fresh :class:`ViewHasher`: one definition, which the hand-checked digests of
    tests/test_patch.py pin down."""
    return ViewHasher()(view)


class _Pieces:
    """The pieces (bytes) an object's members make, in key order, kept with the member values they were made
    of: :class:`ViewHasher`'s cache at each of its three levels (a view's members, a split member's entries,
    an entry's members).

    Why (issue 16, the clients' and the server's CPU per push): successive views share every unchanged part,
    and were looked at member by member in Python, 15 members, 4 entries and 6 entry members per push, each a
    lookup, a sort and an identity check. When an object has the same keys in the same order as the one
    before, the members that are not the same objects are found in C (``map(is_not, ...)``), and only their
    pieces are made again, in their slot of the key order; any other object goes the member-by-member way,
    reusing the pieces of the members that are the same objects. The same pieces either way
    (tests/test_patch.py)."""

    __slots__ = ("keys", "values", "slots", "pieces")

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """Keep nothing: the next object's pieces are all made."""
        #: The keys of the object last taken, in its order, and its values in the same order.
        self.keys: tuple[Any, ...] = ()
        self.values: tuple[Any, ...] = ()
        #: key -> its position in the key order; the pieces in the key order.
        self.slots: dict[Any, int] = {}
        self.pieces: list[bytes] = []

    def of(self, obj: Mapping[Any, Any], make: Callable[[Any, Any, Any], bytes], context: Any) -> list[bytes]:
        """The pieces of ``obj``'s members in key order (``make(context, key, value)`` for those not kept).
        The list is this cache's own: join it before the next call."""
        keys = tuple(obj)
        values = tuple(obj.values())
        pieces = self.pieces
        if keys == self.keys:
            slots = self.slots
            try:
                for key in compress(keys, map(is_not, values, self.values)):
                    pieces[slots[key]] = make(context, key, obj[key])
            except BaseException:
                self.forget()  # the pieces made so far are not of the values kept
                raise
        else:
            order = sorted(keys)
            kept = {key: (value, pieces[self.slots[key]]) for key, value in zip(self.keys, self.values)}
            fresh: list[bytes] = []
            for key in order:
                value = obj[key]
                hit = kept.get(key)
                fresh.append(hit[1] if hit is not None and hit[0] is value else make(context, key, value))
            self.keys, self.slots, self.pieces = keys, {key: i for i, key in enumerate(order)}, fresh
            pieces = fresh
        self.values = values
        return pieces


class ViewHasher:
    """:func:`view_hash` of successive views, keeping each top-level member's digest and, inside
    ``combatants`` and ``derived``, each entry's, by identity. Successive views share every unchanged
    part with the view before: the server's (``server.views.ViewBuilder``: an unchanged member or entry
    is the same object) and a client's patched copies (:func:`apply_wire` copies only the objects on
    the changed paths). So a push encodes and hashes only what changed (issue 16, docs/benchmarks.md).
    The members and entries must not be changed in place once hashed (the server's are not: a changed
    one is a new object; a client's views are read-only mappings); a cached digest holds its value, so
    an identity is never reused while it is cached.
    """

    def __init__(self) -> None:
        #: The view's members' digests.
        self._members = _Pieces()
        #: member -> its entries' digests (``combatants`` and ``derived``)
        self._entries: dict[str, _Pieces] = {name: _Pieces() for name in SPLIT}
        #: member -> entry key -> the texts ``"name":canonical`` of the entry's members
        self._parts: dict[str, dict[Any, _Pieces]] = {name: {} for name in SPLIT}

    @staticmethod
    def _part(_: None, name: Any, value: Any) -> bytes:
        return (_LABELS.get(name) or _label(name)) + orjson.dumps(value, option=orjson.OPT_SORT_KEYS)

    @staticmethod
    def _entry(parts: dict[Any, _Pieces], key: Any, entry: Any) -> bytes:
        """The digest of an entry's text ``"key":canonical``, from the kept texts of its members that are the
        same objects as before: a combatant whose condition changed keeps its sheet, whose text is not made
        again (issue 16). Canonical JSON of an object is ``{`` + its members' ``"name":value`` texts in key
        order, joined by commas + ``}`` (orjson's sorted keys and Python's ``sorted`` both order by code point).
        Digests are made in place (:func:`_digest`'s expression) and labels looked up (:data:`_LABELS`): a
        push hashes a view's changed member, entry and entry member, each a call less (issue 16)."""
        label = _LABELS.get(key) or _label(key)
        if type(entry) is not dict:
            return b"%08x" % zlib.crc32(label + orjson.dumps(entry, option=orjson.OPT_SORT_KEYS))
        kept = parts.get(key)
        if kept is None:
            kept = parts[key] = _Pieces()
        if tuple(entry) != kept.keys and any(type(name) is not str for name in entry):
            return b"%08x" % zlib.crc32(label + _canonical(entry))
        # The CRC run on over the label, the joined pieces and the closing brace: a combatant's text (its
        # sheet's, some kB) is not copied into a new bytes object twice more to be checked once (issue 16).
        return b"%08x" % zlib.crc32(b"}", zlib.crc32(b",".join(kept.of(entry, ViewHasher._part, None)),
                                                     zlib.crc32(label + b"{")))

    def _member(self, name: str, value: Any) -> bytes:
        label = _LABELS.get(name) or _label(name)
        if name not in SPLIT or not isinstance(value, dict):  # a view's keys are strings (JSON objects)
            return b"%08x" % zlib.crc32(label + orjson.dumps(value, option=orjson.OPT_SORT_KEYS))
        parts = self._parts[name]
        digests = self._entries[name].of(value, self._entry, parts)
        if len(parts) > len(value):
            for gone in set(parts).difference(value):
                del parts[gone]
        return b"%08x" % zlib.crc32(label + b"{" + b",".join(digests) + b"}")

    def __call__(self, view: Mapping[str, Any]) -> str:
        return _digest(b"{" + b",".join(self._members.of(view, ViewHasher._member, self)) + b"}").decode("ascii")



class _Node:
    """The pieces of one object of the last view :class:`ViewPatcher` returned, in key order (``slots``: key ->
    position): digests (``digests``: the view's members, ``combatants``' and ``derived``'s entries) or texts
    ``"name":canonical`` (any other object's members), with the nodes of the member objects a push went into
    (``children``) and where this one is (``parent``, ``key``; ``parent`` is ``None`` for the view's and for a
    node whose object a push replaced or removed). ``copied``: the push that copied this node's object."""

    __slots__ = ("slots", "pieces", "children", "parent", "key", "label", "digests", "copied")

    def __init__(self, keys: list[str], pieces: list[bytes], parent: _Node | None, key: str | None,
                 digests: bool) -> None:
        self.slots = {k: i for i, k in enumerate(keys)}
        self.pieces = pieces
        self.children: dict[str, _Node] = {}
        self.parent = parent
        self.key = key
        #: ``"key":`` (the start of this object's text in its parent's)
        self.label = b"" if key is None else _LABELS.get(key) or _label(key)
        self.digests = digests
        self.copied = 0


def _str_keys(obj: Mapping[Any, Any]) -> bool:
    return all(type(key) is str for key in obj)


def _child_node(parent: _Node, key: str, obj: Any) -> _Node | None:
    """The node of member ``key`` (an object) of ``parent``'s object, made whole; ``None`` for an object with a
    key that is not a string (never one a client is sent: JSON), which is then hashed by :func:`view_hash`.
    ``combatants``' and ``derived``'s (a view's split members) hold their entries' digests (:meth:`ViewHasher._entry`'s:
    CRC-32 of ``"key":`` and the entry's canonical text); any other object's its members' texts."""
    if type(obj) is not dict or not _str_keys(obj):
        return None
    keys = sorted(obj)
    if parent.parent is None and parent.key is None and key in SPLIT:  # the view's split member
        pieces = [b"%08x" % zlib.crc32((_LABELS.get(k) or _label(k)) + _canonical(obj[k])) for k in keys]
        node = _Node(keys, pieces, parent, key, True)
    else:
        node = _Node(keys, [(_LABELS.get(k) or _label(k)) + _canonical(obj[k]) for k in keys], parent, key, False)
    parent.children[key] = node
    return node


def _reshaped(node: _Node, obj: dict[str, Any], key: str, piece: bytes) -> None:
    """``node``'s pieces after ``key`` was added to its object ``obj`` (with ``piece``) or removed from it."""
    slots, pieces = node.slots, node.pieces
    keys = sorted(obj)
    node.pieces = [piece if k == key else pieces[slots[k]] for k in keys]
    node.slots = {k: i for i, k in enumerate(keys)}


_SEQ_LABEL = b'"seq":'
#: Most pushed paths :class:`ViewPatcher` keeps split into their tokens: cleared past it.
_MAX_PATHS = 1024


class ViewPatcher:
    """A client's patched copies of its seat's view and their :func:`view_hash`, made along the paths the
    push's ops name (issue 16, the clients' CPU per push).

    :meth:`patch` is, byte for byte, ``apply_wire(base, ops)`` with ``"seq"`` set to the push's seq, and the
    ``view_hash`` of that (tests/test_patch.py). When ``base`` is the view it returned last, it copies each
    object on the ops' paths once and re-makes the pieces of the hash only along those paths: the digests of
    the view's members and of the ``combatants``/``derived`` entries (as :class:`ViewHasher` keeps them) and,
    below, the texts ``"name":canonical`` of the members of each object a push went into (kept per object
    once a push went into it: a one-HP change encodes the ``hp`` and joins the condition's other kept texts,
    instead of encoding the whole condition with its keys sorted), each a few steps of Python per object on
    the path rather than a look at every member of each. What it keeps is the last view's pieces: that view
    must not be changed in place (a client's views are read-only mappings). Any other ``base`` (a full view,
    a copy put in its place) and any push it does not take as it is (a replaced document, an op that does not
    fit, a member that cannot be encoded) go the definition's way, hashed whole.
    """

    def __init__(self) -> None:
        #: The last view returned and the node of its pieces (``None``: nothing kept).
        self._view: dict[str, Any] | None = None
        self._root: _Node | None = None
        #: How many pushes were taken along their paths (:attr:`_Node.copied`).
        self._pushes = 0
        #: path -> (the tokens before the last, the last)
        self._paths: dict[str, tuple[tuple[str, ...], str]] = {}
        #: The values of the last view returned, at its top and in each of its ``SPLIT`` members (:meth:`_unchanged`).
        self._members: tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]] = ((), (), ())

    def patch(self, base: Any, ops: list[Any], seq: int) -> tuple[Any, str | None]:
        """``base`` with the pushed ``ops`` applied and ``"seq"`` set to ``seq`` if the result is an object,
        and that object's :func:`view_hash` (``None`` if the result is not an object). Raises what
        :func:`apply_wire` and :func:`view_hash` raise."""
        root, kept = self._root, self._view
        if root is not None and kept is not None and base is kept and self._unchanged(base):
            try:
                view = self._along(root, kept, ops, seq)
            except Exception:
                view = None  # the definition's way says what it is (or raises what it raises)
            if view is not None:
                self._keep(view, root)
                return view, (b"%08x" % zlib.crc32(b"{" + b",".join(root.pieces) + b"}")).decode("ascii")
        self._view = self._root = None
        doc = apply_wire(base, ops)
        if not isinstance(doc, dict):
            return doc, None
        new = {**doc, "seq": seq}
        if not _str_keys(new):
            return new, view_hash(new)
        keys = sorted(new)
        node = _Node(keys, [], None, None, True)
        pieces = []
        for key in keys:
            value, label = new[key], _LABELS.get(key) or _label(key)
            if key in SPLIT and isinstance(value, dict):
                child = _child_node(node, key, value)
                if child is None:
                    return new, view_hash(new)
                pieces.append(b"%08x" % zlib.crc32(label + b"{" + b",".join(child.pieces) + b"}"))
            else:
                pieces.append(b"%08x" % zlib.crc32(label + _canonical(value)))
        node.pieces = pieces
        self._keep(new, node)
        return new, (b"%08x" % zlib.crc32(b"{" + b",".join(pieces) + b"}")).decode("ascii")

    def _keep(self, view: dict[str, Any], root: _Node) -> None:
        """Keep ``view`` (returned) and its pieces, with what :meth:`_unchanged` checks it against."""
        self._view, self._root = view, root
        fighters, derived = view.get("combatants"), view.get("derived")
        self._members = (tuple(view.values()), tuple(fighters.values()) if type(fighters) is dict else (),
                         tuple(derived.values()) if type(derived) is dict else ())

    def _unchanged(self, base: dict[str, Any]) -> bool:
        """Whether the view last returned still holds the same values at its top and in its ``combatants`` and
        ``derived`` entries: one changed in place there (a caller's ``client.state["title"] = ...``) sends
        the push the definition's way, whose hash then tells the client its view is wrong, as :class:`ViewHasher`
        did (a review). Deeper changes in place were never seen: a client's views are read-only. (Tuples compare
        their items by identity first, in C: an unchanged view costs three tuples.)"""
        top, fighters, derived = self._members
        if tuple(base.values()) != top:
            return False
        now = base.get("combatants")
        if (tuple(now.values()) if type(now) is dict else ()) != fighters:
            return False
        now = base.get("derived")
        return (tuple(now.values()) if type(now) is dict else ()) == derived

    def _along(self, root: _Node, base: dict[str, Any], ops: list[Any], seq: int) -> dict[str, Any] | None:
        """:meth:`patch` of the view last returned (``base``, whose pieces ``root`` holds), along the ops' paths:
        ``None`` (or an exception) for a push to take the definition's way; ``root`` is then not to be used."""
        self._pushes = push = self._pushes + 1
        crc32, dumps, SORTED = zlib.crc32, orjson.dumps, orjson.OPT_SORT_KEYS
        view = base.copy()
        paths = self._paths
        copied = []  # the nodes whose objects this push copied, each once, parents before children
        for op in ops:
            if type(op) is not list:
                return None
            path = op[0] if op else None
            split = paths.get(path)  # type: ignore[arg-type]
            if split is None:
                if type(path) is not str or not path.startswith("/"):
                    return None  # "" (the whole document) too
                tokens = path[1:].split("/")
                if "~" in path:
                    tokens = [_unescape(t) for t in tokens]
                if len(paths) >= _MAX_PATHS:
                    paths.clear()
                split = paths[path] = (tuple(tokens[:-1]), tokens[-1])
            inner, last = split
            parent, node = view, root
            for token in inner:
                value: Any = parent.get(token)
                child = node.children.get(token)
                if child is None:
                    child = _child_node(node, token, value)
                    if child is None:
                        return None
                if child.copied != push:
                    value = parent[token] = value.copy()
                    child.copied = push
                    copied.append(child)
                parent, node = value, child
            gone = node.children.pop(last, None)
            if gone is not None:
                gone.parent = None  # of the value before: not to be joined into its parent's
            n = len(op)
            if n == 2:
                value = op[1]
                label = _LABELS.get(last) or _label(last)
                if node is root and last in SPLIT and isinstance(value, dict):
                    child = _child_node(node, last, value)
                    if child is None:
                        return None
                    piece = b"%08x" % crc32(label + b"{" + b",".join(child.pieces) + b"}")
                elif node.digests:
                    piece = b"%08x" % crc32(label + dumps(value, option=SORTED))
                else:
                    piece = label + dumps(value, option=SORTED)
                if last in parent:
                    parent[last] = value
                    node.pieces[node.slots[last]] = piece
                else:
                    parent[last] = value
                    _reshaped(node, parent, last, piece)
            elif n == 1 and last in parent:
                del parent[last]
                _reshaped(node, parent, last, b"")
            else:
                return None
        gone = root.children.pop("seq", None)
        if gone is not None:
            gone.parent = None
        piece = b"%08x" % crc32(_SEQ_LABEL + dumps(seq, option=SORTED))
        if "seq" in view:
            view["seq"] = seq
            root.pieces[root.slots["seq"]] = piece
        else:
            view["seq"] = seq
            _reshaped(root, view, "seq", piece)
        for node in reversed(copied):  # children before their parents
            parent_node = node.parent
            if parent_node is None:
                continue
            if parent_node.digests:
                piece = b"%08x" % crc32(b"}", crc32(b",".join(node.pieces), crc32(node.label + b"{")))
            else:
                piece = node.label + b"{" + b",".join(node.pieces) + b"}"
            parent_node.pieces[parent_node.slots[node.key]] = piece  # type: ignore[index]
        return view
