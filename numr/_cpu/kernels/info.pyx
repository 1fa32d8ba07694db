# cython: language_level=3
"""What the CPU kernels were built for: vector ISA and OpenMP threads."""

cimport openmp

cdef extern from "threads.h":
    int nr_max_threads()

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


def set_num_threads(int n) -> None:
    """Limit the threads of every CPU kernel (like torch.set_num_threads)."""
    if n < 1:
        raise ValueError(f"set_num_threads: need at least 1 thread, got {n}")
    openmp.omp_set_num_threads(n)
