"""The kernels each CUDA program must export, per family and dtype (what numr/_cuda/ops launches)."""

from __future__ import annotations

import numr as nr

FLOAT_UNARY = ("neg abs sign sqrt rsqrt square cbrt reciprocal exp exp2 expm1 log log2 log10 log1p sin cos tan asin "
               "acos atan sinh cosh tanh asinh acosh atanh floor ceil round trunc").split()
COMPLEX_UNARY = "neg abs sign square sqrt exp log reciprocal sin cos tan sinh cosh tanh".split()
INT_UNARY = "abs sign square floor ceil round trunc bitwise_not".split()
PREDICATES = ["isnan", "isinf", "isfinite"]
FAMILIES = ("unary", "binary", "compare", "logical", "conditional", "cast", "utility", "creation", "random", "reduce",
            "cumulative", "matmul", "indexing", "activation", "sort", "sparse", "matmul_extra",
            "sparse24", "optim")


def names(family: str, d: nr.DType) -> list[str]:
    k = d.kind
    if family == "unary":
        if k == "f":
            ops = FLOAT_UNARY
        elif k == "c":
            ops = COMPLEX_UNARY
        else:
            ops = INT_UNARY + (["neg"] if k in "iu" else [])
        ops = ops + PREDICATES + ([] if k == "c" else ["signbit"])
    elif family == "binary":
        ops = ["add", "mul", "fma"]
        if k == "f":
            ops += "sub div floor_divide remainder pow maximum minimum atan2 hypot".split()
            ops += "fmod copysign ldexp nan_to_num frexp".split() + (["nextafter"] if d.itemsize >= 4 else [])
        elif k == "c":
            ops += "sub div pow".split()
        elif k in "iu":
            ops += "sub floor_divide remainder pow maximum minimum bitwise_and bitwise_or bitwise_xor".split()
            ops += "fmod gcd lcm".split()
        else:
            ops += "maximum minimum bitwise_and bitwise_or bitwise_xor".split()
    elif family == "compare":
        ops = ["eq", "ne"] + ([] if k == "c" else ["lt", "le", "gt", "ge"])
    elif family == "logical":
        ops = ["logical_not"] + (["logical_and", "logical_or", "logical_xor"] if k == "b" else [])
    elif family == "conditional":
        ops = ["where"]
    elif family == "cast":
        ops = [f"to_{o.name}" for o in nr.ALL_DTYPES] + ["copy_bytes"]
    elif family == "utility":
        ops = ["fill"] + ([] if k == "c" else ["clamp"])
    elif family == "creation":
        ops = ["arange", "linspace", "eye"]
    elif family == "random":
        ops = (["rand", "randn", "dropout"] if k == "f" else []) + (["randint"] if k in "iu" else [])
    elif family == "reduce":
        base = ["sum", "prod", "any", "all"] + ([] if k == "c" else ["max", "min", "argmax", "argmin"])
        ops = [f"{o}_{p}" for o in base for p in ("rows", "cols", "comb")]
    elif family == "cumulative":
        ops = [] if k == "b" else ["cumsum", "cumprod"]
    elif family == "matmul":
        ops = ["mm"] + (["mm_big"] if d in (nr.float32, nr.float64) else []) + \
              (["mm_tc"] if d in (nr.float16, nr.bfloat16) else [])
    elif family == "indexing":
        ops = ["index_select", "index_put", "nz_count", "nz_write"] + ([] if k == "b" else ["index_add"])
        if d is nr.int64:
            return [f"{o}_{d.name}" for o in ops] + ["check_index_int64", "index_winner_int64"]
    elif family == "activation":
        if k != "f":
            return []
        ops = ("relu leaky_relu elu sigmoid silu gelu gelu_tanh softplus softmax log_softmax softmax_bwd".split()
               + [f"{a}_mul{b}" for a in ("silu", "gelu", "gelu_tanh", "relu", "sigmoid") for b in ("", "_bwd")])
    elif family == "sort":
        ops = [] if k == "c" else ["sort_chunk", "sort_step", "searchsorted"]
    elif family == "matmul_extra":
        if k == "b":
            ops = ["sr_or_and"]
        elif d in (nr.float32, nr.float64, nr.int32, nr.int64, nr.uint32, nr.uint64):
            ops = [f"sr_{s}" for s in ("min_plus", "max_plus", "max_min", "min_max", "plus_max")]
        else:
            ops = ["scaled_mm"] if d in (nr.float8_e4m3fn, nr.float8_e5m2) else []
    elif family == "sparse":
        ops = ["csr_matmul"] if k in "fc" else []
    elif family == "sparse24":
        ops = ["sparse24_matmul"] if k == "f" else []
    elif family == "optim":
        ops = ["adam_step", "sgd_step"] if d in (nr.float64, nr.float32, nr.float16, nr.bfloat16) else []
    else:
        raise KeyError(family)
    return [f"{o}_{d.name}" for o in ops]
