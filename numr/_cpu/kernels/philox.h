/* Philox4x32-10, the counter-based generator behind nr.rand/randn/randint on every backend
 * (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3", SC'11; the
 * constants and round function are Random123's philox4x32 with R = 10). Known-answer tests
 * (Random123 kat_vectors) are checked in tests/ops/test_random.py.
 *
 * numr's stream definition (docs/architecture.md "Random numbers"):
 *   key     = (seed & 0xffffffff, seed >> 32)
 *   counter = (block & 0xffffffff, block >> 32, stream & 0xffffffff, stream >> 32)
 * The 4 output words w0..w3 of block b feed the elements as described in random_gen.h.
 * Plain C99 with only uint32/uint64 arithmetic, so CUDA and WGSL ports are line by line.
 */
#ifndef NUMR_PHILOX_H
#define NUMR_PHILOX_H

#include <stdint.h>

#define NR_PHILOX_M0 0xD2511F53u
#define NR_PHILOX_M1 0xCD9E8D57u
#define NR_PHILOX_W0 0x9E3779B9u  /* golden ratio */
#define NR_PHILOX_W1 0xBB67AE85u  /* sqrt(3) - 1 */

static inline void nr_philox_round(uint32_t c[4], const uint32_t k[2]) {
    uint64_t p0 = (uint64_t)NR_PHILOX_M0 * c[0];
    uint64_t p1 = (uint64_t)NR_PHILOX_M1 * c[2];
    uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
    uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
    uint32_t n0 = hi1 ^ c[1] ^ k[0], n2 = hi0 ^ c[3] ^ k[1];
    c[0] = n0;
    c[1] = lo1;
    c[2] = n2;
    c[3] = lo0;
}

/* out = Philox4x32-10(counter, key): round, then (bump key, round) nine more times. */
static inline void nr_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
    uint32_t k[2] = {key[0], key[1]};
    nr_philox_round(c, k);
    for (int r = 1; r < 10; ++r) {
        k[0] += NR_PHILOX_W0;
        k[1] += NR_PHILOX_W1;
        nr_philox_round(c, k);
    }
    out[0] = c[0]; out[1] = c[1]; out[2] = c[2]; out[3] = c[3];
}

/* The four words of block `block` of stream `stream` under `seed`. */
static inline void nr_philox_block(uint64_t seed, uint64_t stream, uint64_t block, uint32_t out[4]) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    uint32_t ctr[4] = {(uint32_t)block, (uint32_t)(block >> 32), (uint32_t)stream, (uint32_t)(stream >> 32)};
    nr_philox4x32_10(ctr, key, out);
}

#endif
