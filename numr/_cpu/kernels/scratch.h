/* Per-thread scratch buffers that outlive one kernel call.
 *
 * A GEMM packs A and B into buffers of a few hundred KiB to a few MiB per thread. Taken from
 * malloc on every call, such a buffer is an mmap glibc returns at free (or heap it trims), so
 * every call page-faults it in again: about 200 faults, 300 us, for a 120x120 complex128 product
 * whose arithmetic takes 150 us. Here each thread keeps one buffer per slot and grows it; a
 * buffer above NR_SCRATCH_KEEP is freed by nr_scratch_done so a rare huge product does not pin
 * its memory. Buffers are 64-byte aligned, freed when their thread exits. A slot is in use by
 * one function at a time on a thread: nested users take different slots.
 */
#ifndef NUMR_SCRATCH_H
#define NUMR_SCRATCH_H

#include <pthread.h>
#include <stdlib.h>

enum { NR_SCR_APACK, NR_SCR_BPACK, NR_SCR_AEDGE, NR_SCR_BEDGE, NR_SCR_CPLX0, NR_SCR_CPLX1, NR_SCR_OUT,
       NR_SCR_BT, NR_SCR_SLOTS };

#ifndef NR_SCRATCH_KEEP
#define NR_SCRATCH_KEEP ((size_t)4 << 20)
#endif

typedef struct { void *p[NR_SCR_SLOTS]; size_t cap[NR_SCR_SLOTS]; } nr_scratch_set;

static __thread nr_scratch_set nr_scr_tls;
static pthread_key_t nr_scr_key;
static pthread_once_t nr_scr_once = PTHREAD_ONCE_INIT;

static void nr_scr_free_all(void *set) {
    nr_scratch_set *s = (nr_scratch_set *)set;
    for (int i = 0; i < NR_SCR_SLOTS; ++i) { free(s->p[i]); s->p[i] = NULL; s->cap[i] = 0; }
}
static void nr_scr_make_key(void) { pthread_key_create(&nr_scr_key, nr_scr_free_all); }

/* A buffer of at least `bytes` for this thread's `slot`; NULL when memory ran out. */
static void *nr_scratch(int slot, size_t bytes) {
    nr_scratch_set *s = &nr_scr_tls;
    if (bytes == 0) bytes = 64;
    if (s->cap[slot] >= bytes) return s->p[slot];
    pthread_once(&nr_scr_once, nr_scr_make_key);
    pthread_setspecific(nr_scr_key, s);  /* frees the set when the thread exits */
    free(s->p[slot]);
    s->p[slot] = NULL;
    s->cap[slot] = 0;
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes) != 0) return NULL;
    s->p[slot] = p;
    s->cap[slot] = bytes;
    return p;
}

/* The caller is done with `slot`: a buffer above NR_SCRATCH_KEEP goes back to the system. */
static void nr_scratch_done(int slot) {
    nr_scratch_set *s = &nr_scr_tls;
    if (s->cap[slot] > NR_SCRATCH_KEEP) { free(s->p[slot]); s->p[slot] = NULL; s->cap[slot] = 0; }
}

#endif
