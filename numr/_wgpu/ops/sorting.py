"""wgpu sort and searchsorted (sort.wgsl): a stable bitonic network on (order-preserving key,
index) pairs. Rows up to LCAP pairs are sorted whole in workgroup memory (several short rows per
workgroup); longer rows through global compare-exchange dispatches and workgroup-memory merges.
Everything is bound in windows that fit one storage binding."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedDType, UnsupportedOperation
from ...ops import prepare
from ...ops.prepare_sorting import searchsorted_operands, sort_dim
from ...tensor import Tensor
from .. import template as tpl
from ..device import WG, Binding, ParamSpec, dispatch_shape, window

FILE = "sort.wgsl"
FIELDS = [("nrows", "i32"), ("len", "i32"), ("plen", "i32"), ("chunk", "i32"), ("k0", "i32"), ("k1", "i32"),
          ("j", "i32"), ("desc", "i32"), ("xoff", "i32"), ("voff", "i32"), ("ooff", "i32"), ("t0", "i32"), ("s", "i32")]
#: global strides one step dispatch runs at once (2**STEPS pairs per thread, in registers)
STEPS = 3
#: the key section of each dtype (keys come from raw bits, so no f16/f64 arithmetic is needed)
KEY = {"float32": "key_f32", "float16": "key_f16", "bfloat16": "key_bf16", "float64": "key_f64",
       "int8": "key_s8", "int16": "key_s16", "int32": "key_s32", "int64": "key_s64", "uint64": "key_u64",
       "uint8": "key_u", "uint16": "key_u", "uint32": "key_u", "bool": "key_u"}
LOAD_X = "load_x(f0, p);"
LOAD_K = "sk[p] = ld_k(i32(f0 + p)); si[p] = ld_i(i32(f0 + p));"
STORE_K = "st_k(i32(f0 + p), sk[p]); st_i(i32(f0 + p), si[p]);"
STORE_OUT = ("let f = f0 + p; let row = f / u32(P.plen); let i = f & (u32(P.plen) - 1u); "
             "if (row < u32(P.nrows) && i < u32(P.len)) { let r = i32(row) * P.len + i32(i); "
             "st_y(P.voff + r, ld_a(P.xoff + i32(row) * P.len + i32(si[p]))); st_o(P.ooff + r, TI(si[p])); }")
#: slots one workgroup sorts when rows are short (several rows each)
SHORT_CHUNK = 2048


def _kinds(client: Any, op: str, d: dt.DType) -> tuple[tpl.Kind, tpl.Kind, int]:
    """(raw-bits kind of d, int64 index kind, key bytes); UnsupportedDType where d has no key."""
    if d.name not in KEY:
        raise UnsupportedDType("wgpu", op, d, "no order-preserving key for this dtype")
    k = tpl.kind(d)
    if k.feature not in (None, "shader-int64") and k.feature not in client.gpu.features:
        raise UnsupportedDType("wgpu", op, d, f"the adapter lacks {k.feature}")
    ik = tpl.KINDS["int64" if "shader-int64" in client.gpu.features else "int64w"]
    return tpl.bits_kind(d), ik, 8 if d.itemsize == 8 else 4


def _lcap(gpu: Any, kbytes: int) -> int:
    """Pairs one workgroup sorts in workgroup memory (a power of two, 256..4096)."""
    cap = 256
    while cap < 4096 and 2 * cap * (kbytes + 4) <= gpu.wg_storage:
        cap *= 2
    return cap


def _pipe(client: Any, variant: str, d: dt.DType, lcap: int, load: str = "", store: str = ""):
    """(pipeline, spec) of a sort.wgsl kernel for dtype d: "main" with its LOAD/STORE slots (from x
    or the global pairs; to the outputs or the pairs), "step" or "search"."""
    xk, ik, kb = _kinds(client, "sort", d)
    kk = tpl.KINDS["bits64" if kb == 8 else "bits32"]
    u32 = tpl.KINDS["uint32"]
    operands = {"main": [("y", xk, True), ("o", ik, True), ("a", xk, False), ("k", kk, True), ("i", u32, True)],
                "step": [("k", kk, True), ("i", u32, True)],
                "search": [("o", ik, True), ("a", xk, False), ("b", xk, False)]}[variant]
    if variant == "main":  # only the operands the slots use are declared
        used = load + store
        operands = [o for o in operands if f"_{o[0]}(" in used or (o[0] == "a" and "load_x" in used)]

    def build():
        spec = ParamSpec(FIELDS)
        secs = tpl.sections(FILE)
        parts = [secs["k64" if kb == 8 else "k32"], secs[KEY[d.name]], secs["common"]]
        if variant == "main":
            parts += [f"const LCAP: u32 = {lcap}u;", secs["shared"]]
            if "load_x" not in load:  # shared's load_x reads x
                parts[-1] = parts[-1].split("// slot p's pair")[0]
        src = tpl.build((FILE, variant), parts, operands, {"RAW": xk.ct, "TI": ik.ct}, spec.wgsl,
                        {"LOAD": load, "STORE": store})
        return src, spec

    return client.gpu.pipeline(("sort", variant, d.name, lcap, load, store, ik.name), build)


def _bind(t: Tensor, lo: int, hi: int, gpu: Any) -> tuple[Binding, int]:
    b, base = window(t._storage, lo, hi, t.dtype.itemsize, gpu.offset_align)
    return b, t._layout.offset - base


def _last_passes(gpu: Any, pipe: tuple, p: dict, v: Tensor, o: Tensor, binds: list, r0: int,
                 r: int, n: int, cpr: int, limit: int) -> list:
    """The final merge of rows r0..r0+r, which writes the outputs: one dispatch, or (a row whose int64
    indices exceed one binding) one per range of chunks, each binding its window of the outputs."""
    lcap = p["chunk"]
    per = cpr * r if r * n * 8 <= limit else max(1, limit // (lcap * 8))
    out = []
    for g0 in range(0, cpr * r, per):
        g1 = min(g0 + per, cpr * r)
        lo = r0 * n + (g0 // cpr) * n + min((g0 % cpr) * lcap, n)
        hi = r0 * n + ((g1 - 1) // cpr) * n + min(((g1 - 1) % cpr + 1) * lcap, n)
        if hi <= lo:
            continue
        vb, voff = _bind(v, lo, hi, gpu)
        ob, ooff = _bind(o, lo, hi, gpu)
        q = p | {"t0": g0, "voff": voff + r0 * n, "ooff": ooff + r0 * n}
        out.append((*pipe, q, [vb, ob, *binds], dispatch_shape(g1 - g0)))
    return out


def _sort_rows(client: Any, x: Tensor, v: Tensor, o: Tensor, rows: int, n: int, desc: bool) -> None:
    """Sort each of x's rows (contiguous (rows, n)) into v (values) and o (int64 indices)."""
    gpu = client.gpu
    _, ik, kb = _kinds(client, "sort", x.dtype)
    lcap = _lcap(gpu, kb)
    plen = 1 << max(n - 1, 0).bit_length()
    limit = gpu.max_binding - gpu.offset_align - 8
    core = max(n * x.dtype.itemsize, plen * kb if plen > lcap else 0)  # what one row binds whole
    if core > limit or (plen <= lcap and n * 8 > limit):
        raise UnsupportedOperation("wgpu", "sort", x.dtype, f"a row of {n} elements exceeds one storage binding")
    per_row = max(core, n * 8)  # the int64 indices of a longer row are written in windows (below)
    step = max(1, min(rows, limit // per_row))
    scratch = None
    if plen > lcap:
        scratch = (gpu.alloc(step * plen * kb), gpu.alloc(step * plen * 4))
    for r0 in range(0, rows, step):
        r = min(step, rows - r0)
        xb, xoff = _bind(x, x._layout.offset + r0 * n, x._layout.offset + (r0 + r) * n, gpu)
        vb, voff = _bind(v, r0 * n, (r0 + r) * n, gpu)
        ob, ooff = _bind(o, r0 * n, (r0 + r) * n, gpu)
        p = {"nrows": r, "len": n, "plen": plen, "desc": int(desc), "xoff": xoff + r0 * n,
             "voff": voff + r0 * n, "ooff": ooff + r0 * n}
        if plen <= lcap:
            c = max(plen, min(lcap, SHORT_CHUNK))
            pipe, spec = _pipe(client, "main", x.dtype, lcap, LOAD_X, STORE_OUT)
            gpu.run([(pipe, spec, p | {"chunk": c, "k0": 2, "k1": plen}, [vb, ob, xb],
                      dispatch_shape(-(-r * plen // c)))])
            continue
        kbind, ibind = Binding(scratch[0].buffer, 0, r * plen * kb), Binding(scratch[1].buffer, 0, r * plen * 4)
        groups = dispatch_shape(r * plen // lcap)
        passes = []
        pipe, spec = _pipe(client, "main", x.dtype, lcap, LOAD_X, STORE_K)
        passes.append((pipe, spec, p | {"chunk": lcap, "k0": 2, "k1": lcap}, [xb, kbind, ibind], groups))
        spipe, sspec = _pipe(client, "step", x.dtype, lcap)
        mpipe, mspec = _pipe(client, "main", x.dtype, lcap, LOAD_K, STORE_K)
        lpipe, lspec = _pipe(client, "main", x.dtype, lcap, LOAD_K, STORE_OUT)
        k = 2 * lcap
        while k <= plen:
            j = k // 2
            while j >= lcap:
                ns = min(STEPS, (j // lcap).bit_length())  # strides j .. j >> (ns - 1), all >= lcap
                passes.append((spipe, sspec, p | {"j": j >> (ns - 1), "s": ns, "k1": k}, [kbind, ibind],
                               dispatch_shape(-(-(r * plen >> ns) // WG))))
                j >>= ns
            if k == plen:
                passes += _last_passes(gpu, (lpipe, lspec), p | {"chunk": lcap, "k0": k, "k1": k}, v, o,
                                       [xb, kbind, ibind], r0, r, n, plen // lcap, limit)
            else:
                passes.append((mpipe, mspec, p | {"chunk": lcap, "k0": k, "k1": k}, [kbind, ibind], groups))
            k *= 2
        gpu.run(passes)


class SortingWgpu:
    """Mixin of WgpuClient: the sorting primitives (argsort, topk and unique build on sort)."""

    def sort(self, x: Tensor, dim: int = -1, descending: bool = False,
             stable: bool = False) -> tuple[Tensor, Tensor]:
        x = prepare.as_tensor("sort", self, x)
        d = sort_dim("sort", self, x, dim)
        _kinds(self, "sort", x.dtype)
        if x.ndim == 0:
            return x.clone(), self.full((), 0, dt.int64)
        perm = [i for i in range(x.ndim) if i != d] + [d]
        back = [perm.index(i) for i in range(x.ndim)]
        xm = x.permute(*perm)
        v, o = self.empty(xm.shape, x.dtype), self.empty(xm.shape, dt.int64)
        n = x.shape[d]
        if x.size:
            xm = xm if xm.is_contiguous() else xm.contiguous()
            _sort_rows(self, xm, v, o, x.size // n, n, bool(descending))
        if d == x.ndim - 1:
            return v, o
        return v.permute(*back).contiguous(), o.permute(*back).contiguous()  # x's layout, as on the CPU

    def searchsorted(self, sorted_sequence: Tensor, values: Any, right: bool = False) -> Tensor:
        op = "searchsorted"
        ss, vals = searchsorted_operands(op, self, sorted_sequence, values)
        d = ss.dtype
        _kinds(self, op, d)  # UnsupportedDType where d has no key
        out = self.empty(vals.shape, dt.int64)
        if out.size == 0:
            return out
        if ss.shape[-1] == 0:  # nothing to search (and no buffer to bind): every value goes first
            return self.fill_(out, 0)
        gpu = self.gpu
        m = ss.shape[-1]
        limit = gpu.max_binding - gpu.offset_align - 8
        if ss.size * d.itemsize > limit:
            raise UnsupportedOperation("wgpu", op, d, "a sorted_sequence past one storage binding")
        pipe, spec = _pipe(self, "search", d, 0)
        sb, soff = _bind(ss, ss._layout.offset, ss._layout.offset + ss.size, gpu)
        step = max(1, limit // 8)
        passes = []
        for t0 in range(0, out.size, step):
            c = min(step, out.size - t0)
            ob, ooff = _bind(out, t0, t0 + c, gpu)
            vb, voff = _bind(vals, vals._layout.offset + t0, vals._layout.offset + t0 + c, gpu)
            p = {"nrows": c, "len": m, "k0": max(vals.shape[-1] if vals.ndim else 1, 1), "k1": int(ss.ndim > 1),
                 "desc": int(bool(right)), "xoff": soff, "voff": voff, "ooff": ooff + t0, "t0": t0}
            passes.append((pipe, spec, p, [ob, sb, vb], dispatch_shape(-(-c // WG))))
        gpu.run(passes)
        return out
