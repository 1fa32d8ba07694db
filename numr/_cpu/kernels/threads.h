/* How many OpenMP threads a kernel may use, and fork safety.
 *
 * GNU OpenMP's thread pool does not survive fork(): a child process whose
 * parent had started the pool hangs in its first parallel region (PyTorch,
 * NumPy's OpenBLAS and numr all meet this under multiprocessing's "fork").
 * Every extension module registers fork handlers here: when the parent had
 * more than one thread at the fork, the child's kernels run on one thread.
 * A child forked from a single-threaded parent (asv's and multiprocessing's
 * forkserver) keeps every thread.
 *
 * Kernels call nr_max_threads() instead of nr_max_threads().
 */
#ifndef NUMR_THREADS_H
#define NUMR_THREADS_H

#include <omp.h>
#include <pthread.h>
#include <stdio.h>

static int nr_fork_parent_threads = 0; /* threads in the parent at the last fork */
static int nr_single_threaded = 0;     /* 1 in a child forked from a multi-threaded parent */
static int nr_thread_limit = 0;        /* numr.set_num_threads(); 0: OpenMP's default */

/* Threads of this process (from /proc; a large count where that is unreadable). */
static int nr_process_threads(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 1 << 30;
    char line[256];
    int n = 1 << 30;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "Threads: %d", &n) == 1) break;
    }
    fclose(f);
    return n;
}

static void nr_fork_prepare(void) { nr_fork_parent_threads = nr_process_threads(); }
static void nr_fork_child(void) {
    if (nr_fork_parent_threads > 1) nr_single_threaded = 1;
}

__attribute__((constructor)) static void nr_threads_register_fork_handlers(void) {
    pthread_atfork(nr_fork_prepare, NULL, nr_fork_child);
}

static inline int nr_max_threads(void) {
    if (nr_single_threaded) return 1;
    return nr_thread_limit > 0 ? nr_thread_limit : omp_get_max_threads();
}

static inline void nr_set_thread_limit(int n) { nr_thread_limit = n; }
/* for a module first loaded in a forked child: numr/threads.py passes the state on */
static inline void nr_set_single_threaded(void) { nr_single_threaded = 1; }
static inline int nr_is_single_threaded(void) { return nr_single_threaded; }

#endif
