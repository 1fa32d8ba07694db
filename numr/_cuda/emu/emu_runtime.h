// Host emulator runtime: block scheduler over cooperative threads and the kernel-call trampoline.
// Included once at the end of every emulated program (see numr/_cuda/emulate.py).
#pragma once
#include <utility>
#include <type_traits>
#include <sys/mman.h>

thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
thread_local unsigned char emu_slots[1024][16];
thread_local int emu_ints[1024];

namespace emu {
// A thread starts on its own stack through ucontext (one setcontext), then every switch between
// it and the scheduler is a GCC __builtin_setjmp/__builtin_longjmp pair: no signal-mask syscall,
// which swapcontext makes on every switch.
struct Th { ucontext_t ctx; void* jb[5]; bool done; bool started; dim3 tid; };
static void* sched_jb[5];
static ucontext_t tmpl;
static bool have_tmpl;
static std::vector<Th> th;
static char* stacks;  // 1024 stacks, mapped once and faulted in only as deep as they are used
static const size_t STACK = 256 * 1024;
static int cur, nthreads, ndone;
static unsigned b_arrived, b_gen;
static unsigned w_arrived[32], w_gen[32];
static void (*body)(void**);
static void** params;
// the program's __shared__ variables (registered by emulate.py from the symbol table): filled
// with 0xFF bytes before each block, as a GPU block starts with garbage in shared memory
static std::vector<std::pair<void*, size_t>> shared_vars;
// NUMR_CUDA_EMULATE_ORDER=reverse: threads and blocks run in reverse order (see numr/_cuda/emulate.py)
static const bool reverse = [] {
  const char* e = getenv("NUMR_CUDA_EMULATE_ORDER");
  return e && !strcmp(e, "reverse");
}();

static void __attribute__((noinline, noreturn)) jump(void** jb) { __builtin_longjmp(jb, 1); }

static void entry() {
  body(params);
  th[cur].done = true;
  ++ndone;
  jump(sched_jb);
}

static void __attribute__((noinline)) resume(int t) {
  if (__builtin_setjmp(sched_jb) == 0) {
    if (!th[t].started) {
      th[t].started = true;
      setcontext(&th[t].ctx);
    }
    jump(th[t].jb);
  }
}

static int alive_in_warp(int w) {
  int n = 0;
  for (int t = w * 32; t < (w + 1) * 32 && t < nthreads; ++t) n += !th[t].done;
  return n;
}

static void release() {
  int alive = nthreads - ndone;
  if (b_arrived && (int)b_arrived == alive) { b_arrived = 0; ++b_gen; }
  for (int w = 0; w < (nthreads + 31) / 32; ++w)
    if (w_arrived[w] && (int)w_arrived[w] == alive_in_warp(w)) { w_arrived[w] = 0; ++w_gen[w]; }
}

static void run_block() {
  nthreads = blockDim.x * blockDim.y * blockDim.z;
  if (nthreads > 1024) { fprintf(stderr, "emu: block of %d threads\n", nthreads); abort(); }
  th.assign(nthreads, Th());
  if (!stacks) {
    void* p = mmap(nullptr, 1024 * STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) { fprintf(stderr, "emu: cannot map thread stacks\n"); abort(); }
    stacks = (char*)p;
  }
  if (!have_tmpl) { getcontext(&tmpl); have_tmpl = true; }
  for (auto& v : shared_vars) memset(v.first, 0xFF, v.second);
  ndone = 0; b_arrived = 0;
  for (int w = 0; w < 32; ++w) w_arrived[w] = 0;
  for (int t = 0; t < nthreads; ++t) {
    th[t].tid.x = t % blockDim.x;
    th[t].tid.y = (t / blockDim.x) % blockDim.y;
    th[t].tid.z = t / (blockDim.x * blockDim.y);
    th[t].ctx = tmpl;
    th[t].ctx.uc_stack.ss_sp = &stacks[(size_t)t * STACK];
    th[t].ctx.uc_stack.ss_size = STACK;
    th[t].ctx.uc_link = nullptr;
    makecontext(&th[t].ctx, entry, 0);
  }
  while (ndone < nthreads) {
    for (int i = 0; i < nthreads; ++i) {
      int t = reverse ? nthreads - 1 - i : i;
      if (th[t].done) continue;
      cur = t;
      threadIdx = th[t].tid;
      resume(t);
      release();
    }
  }
}
}  // namespace emu

void __attribute__((noinline)) emu_yield() {
  if (__builtin_setjmp(emu::th[emu::cur].jb) == 0) emu::jump(emu::sched_jb);
}
void emu_syncthreads() {
  unsigned g = emu::b_gen;
  ++emu::b_arrived;
  while (emu::b_gen == g) emu_yield();
}
void emu_warp_sync() {
  int w = emu::cur / 32;
  unsigned g = emu::w_gen[w];
  ++emu::w_arrived[w];
  while (emu::w_gen[w] == g) emu_yield();
}

template <class F, class... A, size_t... I>
static void emu_call_impl(void (*f)(A...), void** p, std::index_sequence<I...>) {
  f(*(typename std::remove_reference<A>::type*)p[I]...);
}
template <class... A> static void emu_call(void (*f)(A...), void** p) {
  emu_call_impl<void>(f, p, std::index_sequence_for<A...>{});
}

extern "C" void emu_add_shared(void* p, size_t n) { emu::shared_vars.emplace_back(p, n); }

extern "C" void emu_launch(void (*fn)(void**), void** p, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz) {
  gridDim.x = gx; gridDim.y = gy; gridDim.z = gz;
  blockDim.x = bx; blockDim.y = by; blockDim.z = bz;
  emu::body = fn;
  emu::params = p;
  unsigned long n = (unsigned long)gx * gy * gz;
  for (unsigned long i = 0; i < n; ++i) {
    unsigned long b = emu::reverse ? n - 1 - i : i;
    blockIdx.x = b % gx; blockIdx.y = (b / gx) % gy; blockIdx.z = b / ((unsigned long)gx * gy);
    emu::run_block();
  }
}

#define EMU_K(name) extern "C" void emu_k_##name(void** p) { emu_call(name, p); }
