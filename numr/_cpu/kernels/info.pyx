# cython: language_level=3
"""What the CPU kernels were built for: vector ISA and OpenMP threads."""

include "threads.pxi"

cdef extern from *:
    """
    static const char *nr_simd_level(void) {
    #if defined(__AVX512F__)
        return "avx512";
    #elif defined(__AVX2__) && defined(__FMA__)
        return "avx2+fma";
    #elif defined(__AVX__)
        return "avx";
    #elif defined(__SSE4_2__)
        return "sse4.2";
    #elif defined(__ARM_NEON)
        return "neon";
    #else
        return "generic";
    #endif
    }
    """
    const char *nr_simd_level()


def simd_level() -> str:
    """The widest vector ISA the extensions were compiled for."""
    return nr_simd_level().decode()


def max_threads() -> int:
    """OpenMP threads the kernels use above their size thresholds (1 in a child forked
    from a multi-threaded parent: see threads.h)."""
    return nr_max_threads()


