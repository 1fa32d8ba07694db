"""The one template step: WGSL sources specialised per dtype.

A shader file is split into sections by ``//# name`` lines (``//@include f.wgsl``
pastes another file's text). A kernel's source
is: ``enable`` lines, type aliases, the Params struct, one declaration plus
``ld_X``/``st_X`` accessors per operand (generated here from the operand's
storage kind), the helper/op sections it asks for (an op section may exist
per compute class, e.g. ``exp:F``), and the skeleton with ``{{KEY}}``
placeholders filled. A missing op section for a class means the backend
cannot compute that op in that dtype (UnsupportedDType).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from .. import dtypes as dt
from ..dtypes import DType

SHADERS = Path(__file__).parent / "shaders"


class Kind:
    """How a dtype lives in a WGSL buffer (``elem``; ``packed`` bits per element
    in u32 words, or 0) and which WGSL type kernels compute in (``ct``)."""

    __slots__ = ("name", "elem", "packed", "ct", "cls", "signed", "conv", "feature")

    def __init__(self, name: str, elem: str, packed: int, ct: str, cls: str, signed: bool = False,
                 conv: str = "", feature: str | None = None):
        self.name, self.elem, self.packed, self.ct, self.cls = name, elem, packed, ct, cls
        self.signed, self.conv, self.feature = signed, conv, feature

    def __repr__(self) -> str:
        return f"Kind({self.name})"


KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("float32", "f32", 0, "f32", "f"),
    Kind("float16", "f16", 0, "f32", "f", feature="shader-f16"),
    Kind("float64", "f64", 0, "f64", "d", feature="shader-f64"),
    Kind("bfloat16", "u32", 16, "f32", "f", conv="bf16"),
    Kind("int32", "i32", 0, "i32", "i", True),
    Kind("uint32", "u32", 0, "u32", "u"),
    Kind("int64", "i64", 0, "i64", "l", True, feature="shader-int64"),
    Kind("uint64", "u64", 0, "u64", "m", feature="shader-int64"),
    Kind("bool", "u32", 8, "u32", "b"),
    Kind("int8", "u32", 8, "i32", "i", True),
    Kind("uint8", "u32", 8, "u32", "u"),
    Kind("int16", "u32", 16, "i32", "i", True),
    Kind("uint16", "u32", 16, "u32", "u"),
    # raw bit patterns, for same-dtype copies and gathers of any dtype
    Kind("bits8", "u32", 8, "u32", "u"),
    Kind("bits16", "u32", 16, "u32", "u"),
    Kind("bits32", "u32", 0, "u32", "u"),
    Kind("bits64", "vec2<u32>", 0, "vec2<u32>", "v"),
    # int64/uint64 on adapters without shader-int64: two u32 words, 32-bit compute (index
    # outputs, copies, integer casts; launch.kind allows them only for such ops)
    Kind("int64w", "u32", 0, "i32", "i", True, conv="w64"),
    Kind("uint64w", "u32", 0, "u32", "u", conv="w64"),
)}

#: compute class -> the broader section classes tried after it, in order
CLASS_CHAIN = {"f": "fF", "d": "dF", "i": "iSI", "l": "lSI", "u": "uUI", "m": "mUI", "b": "b", "v": "v"}
#: WGSL compute type of each class
CLASS_TYPE = {"f": "f32", "d": "f64", "i": "i32", "l": "i64", "u": "u32", "m": "u64", "b": "u32",
              "v": "vec2<u32>"}


def kind(d: DType | str) -> Kind | None:
    return KINDS.get(d if isinstance(d, str) else d.name)


def bits_kind(d: DType) -> Kind:
    """The raw-bits kind of a dtype's item size (copies need no arithmetic)."""
    return KINDS[f"bits{d.itemsize * 8}"]


def supported(features: frozenset[str]) -> frozenset[DType]:
    """Dtypes a device can hold (int64/uint64 always: widened to two words without shader-int64)."""
    out = set()
    for d in dt.ALL_DTYPES:
        k = KINDS.get(d.name)
        if k is not None and (k.feature is None or k.feature in features or k.feature == "shader-int64"):
            out.add(d)
    return frozenset(out)


@functools.cache
def sections(fname: str) -> dict[str, str]:
    """``{name: text}`` of a shader file's ``//# name`` sections ("" holds the part before the first)."""
    text = (SHADERS / fname).read_text()
    out: dict[str, str] = {}
    name = ""
    buf: list[str] = []
    for line in text.splitlines():
        inc = re.match(r"^//@include\s+(\S+)\s*$", line)
        if inc:  # another file's text, in place (shared helper libraries); build() keeps the first copy
            buf.append(f"//@begin {inc.group(1)}\n{sections(inc.group(1))['']}//@end {inc.group(1)}")
            continue
        m = re.match(r"^//#\s*(\S+)\s*$", line)
        if m:
            out[name] = "\n".join(buf) + "\n"
            name, buf = m.group(1), []
        else:
            buf.append(line)
    out[name] = "\n".join(buf) + "\n"
    return out


def find(fname: str, name: str, cls: str) -> str | None:
    """Section ``name`` for compute class ``cls`` (most specific first), or None."""
    secs = sections(fname)
    for c in CLASS_CHAIN[cls]:
        s = secs.get(f"{name}:{c}")
        if s is not None:
            return s
    return secs.get(name)


def _load(name: str, k: Kind, atomic: bool) -> str:
    if k.conv == "w64":
        word = f"{name}[2 * at_]" if k.signed is False else f"bitcast<i32>({name}[2 * at_])"
        return (f"fn ld_{name}(at_: i32) -> {k.ct} {{ return {word}; }}\n"
                f"fn fits_{name}(at_: i32) -> bool {{ return {name}[2 * at_ + 1] == "
                + (f"select(0u, 0xffffffffu, bitcast<i32>({name}[2 * at_]) < 0); }}\n" if k.signed else "0u; }\n"))
    if not k.packed:
        conv = "f32" if k.name == "float16" else ""
        return f"fn ld_{name}(at_: i32) -> {k.ct} {{ return {conv}({name}[at_]); }}\n"
    per = 32 // k.packed
    mask = (1 << k.packed) - 1
    word = f"atomicLoad(&{name}[at_ / {per}])" if atomic else f"{name}[at_ / {per}]"
    sh = f"u32(at_ % {per}) * {k.packed}u"
    if k.conv == "bf16":
        return (f"fn ld_{name}(at_: i32) -> f32 {{ let w = {word}; "
                f"return bitcast<f32>(((w >> ({sh})) & {mask}u) << 16u); }}\n")
    if k.signed:
        return (f"fn ld_{name}(at_: i32) -> i32 {{ let w = {word}; "
                f"return bitcast<i32>(w << (32u - {k.packed}u - {sh})) >> {32 - k.packed}u; }}\n")
    return f"fn ld_{name}(at_: i32) -> u32 {{ let w = {word}; return (w >> ({sh})) & {mask}u; }}\n"


def _store(name: str, k: Kind) -> str:
    if k.conv == "w64":
        hi = "select(0u, 0xffffffffu, v < 0)" if k.signed else "0u"
        return (f"fn st_{name}(at_: i32, v: {k.ct}) {{ {name}[2 * at_] = bitcast<u32>(v); "
                f"{name}[2 * at_ + 1] = {hi}; }}\n")
    if not k.packed:
        conv = "f16" if k.name == "float16" else ""
        return f"fn st_{name}(at_: i32, v: {k.ct}) {{ {name}[at_] = {conv}(v); }}\n"
    per = 32 // k.packed
    mask = (1 << k.packed) - 1
    if k.conv == "bf16":
        bits = ("let b = bitcast<u32>(v); "
                "let r = select((b + 0x7fffu + ((b >> 16u) & 1u)) >> 16u, (b >> 16u) | 0x40u, !(v == v));")
    else:
        bits = f"let r = bitcast<u32>(v) & {mask}u;"
    return (f"fn st_{name}(at_: i32, v: {k.ct}) {{ {bits} let sh = u32(at_ % {per}) * {k.packed}u; "
            f"atomicAnd(&{name}[at_ / {per}], ~({mask}u << sh)); atomicOr(&{name}[at_ / {per}], r << sh); }}\n")


def operand(name: str, binding: int, k: Kind, write: bool = False, read: bool = True) -> str:
    """Declaration and accessors of one storage operand."""
    if write:
        elem = "atomic<u32>" if k.packed else k.elem
        s = f"@group(0) @binding({binding}) var<storage, read_write> {name}: array<{elem}>;\n"
        s += _store(name, k)
        if read:
            s += _load(name, k, atomic=bool(k.packed))
        return s
    s = f"@group(0) @binding({binding}) var<storage, read> {name}: array<{k.elem}>;\n"
    return s + _load(name, k, atomic=False)


def enables(kinds: list[Kind]) -> str:
    out = ""
    if any(k.name == "float16" for k in kinds):
        out += "enable f16;\n"
    return out


def fill(text: str, subs: dict[str, str]) -> str:
    return re.sub(r"\{\{(\w+)\}\}", lambda m: subs[m.group(1)], text)


def build(skeleton: tuple[str, str], parts: list[str], operands: list[tuple[str, Kind, bool]],
          aliases: dict[str, str], spec_wgsl: str, subs: dict[str, str] | None = None) -> str:
    """Assemble a kernel: enables, aliases, Params, operands (bindings 1..n in order), parts, skeleton."""
    kinds = [k for _, k, _ in operands]
    src = enables(kinds)
    if "f64" in "".join(aliases.values()) or any(k.ct == "f64" for k in kinds):
        pass  # shader-f64 needs no enable directive in wgpu-native
    src += "".join(f"alias {a} = {t};\n" for a, t in aliases.items())
    src += spec_wgsl
    for i, (name, k, write) in enumerate(operands, 1):
        src += operand(name, i, k, write=write)
    src += "\n".join(parts) + "\n"
    src += fill(sections(skeleton[0])[skeleton[1]], subs or {})
    return include_once(src)


def include_once(src: str) -> str:
    """``src`` without the second and later copies of each included file (WGSL module-scope
    declarations may come in any order, so the first copy serves every user)."""
    seen: set[str] = set()
    out: list[str] = []
    skipping: str | None = None
    for line in src.split("\n"):
        if skipping is not None:
            if line == f"//@end {skipping}":
                skipping = None
            continue
        if line.startswith("//@begin "):
            name = line[9:]
            if name in seen:
                skipping = name
                continue
            seen.add(name)
        out.append(line)
    return "\n".join(out)
