# cython: language_level=3
"""Philox4x32-10 random streams (philox.h, random_gen.h) for nr.rand/randn/randint."""

cimport numpy as cnp
from libc.stdint cimport int64_t, uint32_t, uint64_t

cnp.import_array()

cdef extern from "random_gen.h" nogil:
    void nr_philox4x32_10(const uint32_t *ctr, const uint32_t *key, uint32_t *out)
    void nr_rand_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream)
    void nr_randn_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream)
    void nr_randint_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream,
                         uint64_t low, uint64_t span)


cdef inline char *_data(object storage) except NULL:
    return <char *>cnp.PyArray_DATA(<cnp.ndarray>storage)


def philox4x32_10(ctr, key) -> tuple:
    """The raw generator: 4 counter words and 2 key words -> 4 output words (for tests)."""
    cdef uint32_t c[4]
    cdef uint32_t k[2]
    cdef uint32_t o[4]
    cdef int i
    for i in range(4):
        c[i] = ctr[i]
    for i in range(2):
        k[i] = key[i]
    nr_philox4x32_10(c, k, o)
    return (o[0], o[1], o[2], o[3])


def rand(dst, int code, int64_t n, uint64_t seed, uint64_t stream):
    cdef char *p = _data(dst)
    with nogil:
        nr_rand_fill(code, p, n, seed, stream)


def randn(dst, int code, int64_t n, uint64_t seed, uint64_t stream):
    cdef char *p = _data(dst)
    with nogil:
        nr_randn_fill(code, p, n, seed, stream)


def randint(dst, int code, int64_t n, uint64_t seed, uint64_t stream, uint64_t low, uint64_t span):
    """low is the low 64 bits of the lower bound; span = high - low (0 means 2**64)."""
    cdef char *p = _data(dst)
    with nogil:
        nr_randint_fill(code, p, n, seed, stream, low, span)


include "threads.pxi"
