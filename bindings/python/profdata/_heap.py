# SPDX-License-Identifier: Apache-2.0
"""Heap analysis of a heap dump: profdata.Heap, what Profile.heap() gives.

One analysis (the dominator tree and the retained sizes, as VisualVM computes
them) is made once, without the GIL, and kept; every method reads it. The
answers are those of the tool: `profdata top DUMP` (top()), `profdata path
DUMP ID` (path()), `profdata histo --retained DUMP` (class_retained()),
`profdata suspects DUMP` (suspects()), `profdata waste DUMP` (waste()).
Objects are named by their ids (an HPROF id is the object's address); a
class object by its class's id. An id the dump does not hold raises KeyError.
"""
import collections
import html
from typing import Any, List, Optional, Sequence

from . import _profdata

HeapObject = collections.namedtuple("HeapObject", "id class_name shallow retained")
PathStep = collections.namedtuple("PathStep", "id class_name via field index root_kind")
ClassRetained = collections.namedtuple("ClassRetained", "name instances bytes retained")
Reachable = collections.namedtuple("Reachable", "objects bytes")
DuplicateString = collections.namedtuple("DuplicateString", "text length truncated count bytes wasted id owners")
DuplicateArray = collections.namedtuple("DuplicateArray", "class_name length count bytes wasted id")
CollectionWaste = collections.namedtuple("CollectionWaste",
                                         "class_name count empty sparse empty_bytes slots used wasted")
BoxedWaste = collections.namedtuple("BoxedWaste", "class_name count bytes distinct wasted top_value top_count")
Waste = collections.namedtuple("Waste", "totals strings arrays collections boxed")
Suspect = collections.namedtuple(
    "Suspect", "kind id class_name instances retained accumulation_id accumulation_class accumulation_retained "
               "depth accumulated accumulated_classes")
Accumulated = collections.namedtuple("Accumulated", "class_name count retained")
Suspects = collections.namedtuple("Suspects", "reachable_bytes threshold_bytes suspects")
_WASTE_TOTALS = ("reachable_bytes", "strings", "string_bytes", "string_groups", "duplicate_strings",
                 "string_wasted", "array_groups", "duplicate_arrays", "array_wasted", "collection_wasted",
                 "empty_collection_bytes", "boxed_count", "boxed_bytes", "boxed_wasted")

# GC root kinds as `profdata path` words them.
_ROOT_KINDS = {
    _profdata.ROOT_JNI_GLOBAL: "JNI global", _profdata.ROOT_JNI_LOCAL: "JNI local",
    _profdata.ROOT_JAVA_FRAME: "Java frame", _profdata.ROOT_NATIVE_STACK: "native stack",
    _profdata.ROOT_STICKY_CLASS: "sticky class", _profdata.ROOT_THREAD_BLOCK: "thread block",
    _profdata.ROOT_MONITOR_USED: "monitor used", _profdata.ROOT_THREAD_OBJECT: "thread object",
    _profdata.ROOT_INTERNED_STRING: "interned string", _profdata.ROOT_FINALIZING: "finalizing",
    _profdata.ROOT_DEBUGGER: "debugger", _profdata.ROOT_REFERENCE_CLEANUP: "reference cleanup",
    _profdata.ROOT_VM_INTERNAL: "VM internal", _profdata.ROOT_JNI_MONITOR: "JNI monitor",
}


def frame_or_rows(rows: List[Any], fields: Sequence[str]) -> Any:
    """A DataFrame of named tuples when pandas is there, else the list itself."""
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows, columns=list(fields))


def _shown_name(name: str, class_object: bool) -> str:
    """A class object as the tool shows it, by the class it stands for: "class java.util.HashMap"."""
    return "class " + name if class_object else name


def _via(root_kind: Optional[int], class_object: bool, field: Optional[str], index: Optional[int],
         from_class: bool) -> str:
    """How a step's object is held, as `profdata path` says it: "root Java frame", "field next", "[3]"."""
    if root_kind is not None:
        if root_kind == _profdata.ROOT_UNKNOWN and class_object:
            return "root (the class of a GC root)"  # a class that is a root as the class of a root object
        return "root " + _ROOT_KINDS.get(root_kind, "unknown")
    if index is not None:
        return "[%d]" % index
    return "%s %s" % ("static" if from_class else "field", field if field is not None else "?")


class Heap:
    """The heap analysis of one dump of a Profile (Profile.heap(dump)). It keeps the Profile's
    model alive: closing the Profile does not stop the Heap's answers."""

    def __init__(self, model: Any, dump: int = 0, node_bits: int = 0) -> None:
        self._h = _profdata.heap(model, dump, node_bits)
        self.dump = dump

    @property
    def node_bits(self) -> int:
        """The width of the analysis' node numbers: 32, or 64 for a dump of 2^31 - 2 or more
        objects and classes (or when Profile.heap(node_bits=64) asked): 12 or 24 bytes an object."""
        return int(self._h.node_bits())

    def __repr__(self) -> str:
        r = self.reachable
        return "<profdata.Heap dump %d: %d reachable objects, %d bytes>" % (self.dump, r.objects, r.bytes)

    @property
    def reachable(self) -> Reachable:
        """Objects and class objects a GC root reaches, and their shallow bytes."""
        objects, size, _, _ = self._h.counts()
        return Reachable(objects, size)

    @property
    def unreachable(self) -> Reachable:
        """Objects of the dump no GC root reaches (they retain nothing), and their shallow bytes."""
        _, _, objects, size = self._h.counts()
        return Reachable(objects, size)

    def top(self, n: int = 20) -> Any:
        """The n objects of largest retained size, biggest first, as `profdata top DUMP` lists
        them (a class object is named "class NAME"): a DataFrame (id, class_name, shallow,
        retained) when pandas is there, else [HeapObject]."""
        rows = [HeapObject(oid, _shown_name(name, cls), shallow, retained)
                for oid, name, shallow, retained, cls in self._h.top(n)]
        return frame_or_rows(rows, HeapObject._fields)

    def shallow(self, obj_id: int) -> int:
        """The object's own size in bytes (a class object's: java.lang.Class's instance size)."""
        return int(self._h.node(obj_id)[0])

    def retained(self, obj_id: int) -> int:
        """The bytes freed if the object went: its shallow size and all it alone holds; 0 when unreachable."""
        return int(self._h.node(obj_id)[1])

    def is_reachable(self, obj_id: int) -> bool:
        return bool(self._h.node(obj_id)[2])

    def dominator(self, obj_id: int) -> Optional[int]:
        """The id of the object's immediate dominator; None when the GC roots alone dominate it.
        ValueError for an unreachable object."""
        return self._h.dominator(obj_id)

    def path(self, obj_id: int) -> List[PathStep]:
        """The shortest path from a GC root to the object, the root first, as `profdata path`
        prints it: [PathStep(id, class_name, via, field, index, root_kind)], where via is the
        tool's text ("root Java frame", "field next", "static cache", "[3]"), root_kind the
        first step's (else None). [] when no root reaches the object."""
        steps = []
        for oid, name, cls, kind, field, index, from_class in self._h.path(obj_id):
            steps.append(PathStep(oid, _shown_name(name, cls), _via(kind, cls, field, index, from_class),
                                  field, index, None if kind is None else _ROOT_KINDS.get(kind, "unknown")))
        return steps

    def class_retained(self) -> Any:
        """Per class: instances, shallow bytes and the bytes its instances retain together (what
        would go if every instance went), the largest retained first, as `profdata histo
        --retained` computes them: a DataFrame (name, instances, bytes, retained) when pandas
        is there, else [ClassRetained]. The first call computes every class's sums."""
        rows = [ClassRetained(*r) for r in self._h.class_retained()]
        rows.sort(key=lambda r: -int(r.retained))  # stable: ties keep the histogram's order (shallow bytes)
        return frame_or_rows(rows, ClassRetained._fields)

    def suspects(self, threshold: float = 0.10, classes: int = 10) -> Suspects:
        """Leak suspects, as `profdata suspects` finds them: Suspects(reachable_bytes,
        threshold_bytes, suspects), suspects a list of Suspect, the largest retained first.
        kind "object": one object the GC roots alone dominate retaining at least `threshold`
        of the reachable bytes, with its accumulation point (where its memory gathers down
        the dominator tree: accumulation_id, _class, _retained, depth); kind "class": the
        top-level instances of one class (id: the biggest) retaining that much together
        (the accumulation fields None). accumulated: what the point (the instances)
        dominates directly, by class, the `classes` largest ([Accumulated]); path(id) gives
        the way from a GC root."""
        total, limit, rows = self._h.suspects(threshold, classes)
        out = []
        for (kind, oid, name, cls, instances, retained, acc_id, acc_name, acc_cls, acc_retained, depth,
             accumulated, nclasses) in rows:
            out.append(Suspect(kind, oid, _shown_name(name, cls), instances, retained, acc_id,
                               None if acc_name is None else _shown_name(acc_name, bool(acc_cls)), acc_retained, depth,
                               [Accumulated(*a) for a in accumulated], nclasses))
        return Suspects(total, limit, out)

    def waste(self, limit: int = 20, owners: int = 5) -> Waste:
        """The memory the dump wastes among reachable objects, as `profdata waste` finds it:
        Waste(totals, strings, arrays, collections, boxed). totals is a dict (reachable_bytes,
        string_wasted, array_wasted, collection_wasted, boxed_wasted, ...); strings the `limit`
        groups of duplicate strings that waste most (DuplicateString: text cut at 100
        characters, copies, bytes, wasted, one copy's id, up to `owners` ids of objects
        referring to a copy); arrays the duplicate primitive arrays (DuplicateArray);
        collections the empty and sparse ones per class (CollectionWaste); boxed the boxed
        primitives per class (BoxedWaste). Each a DataFrame when pandas is there, else a list."""
        totals, strings, arrays, colls, boxed = self._h.waste(limit, owners)
        return Waste(dict(zip(_WASTE_TOTALS, totals)),
                     frame_or_rows([DuplicateString(*r) for r in strings], DuplicateString._fields),
                     frame_or_rows([DuplicateArray(*r) for r in arrays], DuplicateArray._fields),
                     frame_or_rows([CollectionWaste(*r) for r in colls], CollectionWaste._fields),
                     frame_or_rows([BoxedWaste(*r) for r in boxed], BoxedWaste._fields))

    def _repr_html_(self) -> str:
        """A notebook's view: the reachable objects and bytes, and the top 10 retainers."""
        r, u = self.reachable, self.unreachable
        out = ["<div><b>profdata.Heap</b> (dump %d): %d reachable objects, %d bytes; %d unreachable "
               "(%d bytes)" % (self.dump, r.objects, r.bytes, u.objects, u.bytes),
               "<table><thead><tr><th>id</th><th>class</th><th>shallow</th><th>retained</th></tr></thead><tbody>"]
        for oid, name, shallow, retained, cls in self._h.top(10):
            out.append("<tr><td>0x%x</td><td>%s</td><td>%d</td><td>%d</td></tr>"
                       % (oid, html.escape(_shown_name(name, cls)), shallow, retained))
        out.append("</tbody></table></div>")
        return "\n".join(out)
