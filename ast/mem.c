/* mem: the one allocator, over Boehm GC; GC stress mode collects on every allocation.
 * SPEC_NOTES: none (implementation). */
/* madvise and MADV_HUGEPAGE are BSD / Linux extensions beyond POSIX. */
#define _DEFAULT_SOURCE
#include "ast/mem.h"

/* Threads: the evaluator runs on a thread of its own with a large stack; the collector
 * must know that thread to scan its stack. */
#include <pthread.h>
#define GC_THREADS
#include <gc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A build with AddressSanitizer can check bounds (RELAX_MEMCHECK, below). */
#if defined(__SANITIZE_ADDRESS__)
#define MEMCHECK_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMCHECK_BUILD 1
#endif
#endif
#ifdef MEMCHECK_BUILD
static bool memcheck; /* RELAX_MEMCHECK=1: every block a malloc of its own */
static size_t memcheck_total;
#endif

/* The collector's own warnings ("repeated allocation of very large block", ...) are not
 * the user's business: running out of memory is reported once, below. */
static void quiet(char *msg, GC_word arg)
{
    (void)msg;
    (void)arg;
}

/* The heap may grow to MEM_DEFAULT_MAX_HEAP, or to RELAX_MAX_HEAP bytes when that is set
 * (SPEC_NOTES "Resource limits"): a runaway program ends in a clean error, not in a machine
 * that swaps. */
static size_t max_heap;

static size_t heap_limit(void)
{
    const char *env = getenv("RELAX_MAX_HEAP");
    if (env != NULL) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == '\0' && v >= MEM_MIN_MAX_HEAP)
            return (size_t)v;
    }
    return MEM_DEFAULT_MAX_HEAP;
}

void mem_init(void)
{
    /* One marking thread, and a heap that grows rather than collects while it is small:
     * the heaps of most programs stay a few megabytes, where a parallel marker's hand-offs
     * and a collection every few hundred kilobytes cost more than they save (fib(22) on
     * rank-0 tensors: a quarter of its time). */
    GC_set_markers_count(1);
    GC_set_free_space_divisor(1);
    GC_INIT();
    GC_set_warn_proc(quiet);
    max_heap = heap_limit();
    GC_set_max_heap_size(max_heap);
#ifdef MEMCHECK_BUILD
    const char *env = getenv("RELAX_MEMCHECK");
    memcheck = env != NULL && strcmp(env, "1") == 0;
#endif
}

void mem_set_max_heap(size_t bytes)
{
    max_heap = bytes < MEM_MIN_MAX_HEAP ? MEM_MIN_MAX_HEAP : bytes;
    GC_set_max_heap_size(max_heap);
}

static MemFailHandler fail_handler;

MemFailHandler mem_set_fail_handler(MemFailHandler handler)
{
    MemFailHandler old = fail_handler;
    fail_handler = handler;
    return old;
}

/* Out of memory is one line and the runtime exit code (SPEC_NOTES "Resource limits"). */
noreturn void mem_fail(const char *message)
{
    MemFailHandler h = fail_handler;
    fail_handler = (MemFailHandler){NULL, NULL};
    if (h.fn != NULL)
        h.fn(h.ctx, message);
    fprintf(stderr, "relax: runtime error [OutOfMemory]: %s\n", message);
    exit(7);
}

/* The message lives in static storage: the heap has no room left to format it in. */
static void *checked(void *p, size_t size)
{
    static char message[200];
    if (p == NULL && size != 0) {
        snprintf(message, sizeof message,
                 "out of memory: %zu bytes requested with %zu in use (limit %zu; --max-heap "
                 "changes it)",
                 size, mem_heap_size(), max_heap);
        mem_fail(message);
    }
    return p;
}

static void stress(void)
{
#ifdef RELAX_GC_STRESS
    GC_gcollect();
#endif
}

/* Small pointer-holding blocks (values, tensors, activations: most of what evaluation
 * allocates) come from free lists of one size class each, which GC_malloc_many fills a
 * heap block at a time, already zeroed but for the link word. The collector's allocation
 * call costs several times a list pop (its thread-local lookup alone was 7% of fib(22)).
 * The lists are static storage, which the collector scans as a root, so a block waiting on
 * a list is never reclaimed; one thread allocates at a time (the evaluator's thread runs
 * while its caller waits, mem_run_on_large_stack), so plain statics suffice. Stress mode
 * keeps every allocation a collector call. */
#ifdef RELAX_GC_STRESS
#define SMALL_LISTS 0
#else
#define SMALL_LISTS 1
#endif
#define SMALL_GRANULE 16
#define SMALL_CLASSES 64 /* blocks up to 1 KiB */
static void *small_free[SMALL_CLASSES + 1];

static void *alloc_small(size_t size)
{
    size_t g = size == 0 ? 1 : (size + SMALL_GRANULE - 1) / SMALL_GRANULE;
    void *p = small_free[g];
    if (p == NULL) {
        p = GC_malloc_many(g * SMALL_GRANULE);
        if (p == NULL)
            return checked(GC_MALLOC(size ? size : 1), size);
    }
    small_free[g] = GC_NEXT(p);
    GC_NEXT(p) = NULL;
    return p;
}

/* Bounds checking, for builds with AddressSanitizer: with RELAX_MEMCHECK=1 in the
 * environment every block is a malloc of its own, never freed, so the sanitizer reports a
 * read or write even one byte past a block (the collector rounds blocks up to size classes
 * and lays them side by side, where such a mistake goes unseen). Blocks that need not be
 * zeroed are filled with 0xFF bytes instead, so that code relying on zeroes it was not
 * promised goes wrong visibly: such a double or float reads as NaN, an integer as -1 (a
 * pattern such as 0xA5 reads as a double of 1e-106, which vanishes in any sum). Nothing is
 * collected: every block made counts toward the heap limit (the whole corpus makes about
 * 0.7 GB). */
#ifdef MEMCHECK_BUILD
static void *memcheck_alloc(size_t size, bool zeroed)
{
    if (size > max_heap || memcheck_total > max_heap - size)
        return checked(NULL, size);
    memcheck_total += size;
    void *p = checked(malloc(size ? size : 1), size);
    memset(p, zeroed ? 0 : 0xFF, size);
    return p;
}
#define MEMCHECK(size, zeroed)                                                                     \
    do {                                                                                           \
        if (memcheck)                                                                              \
            return memcheck_alloc(size, zeroed);                                                   \
    } while (0)
#else
#define MEMCHECK(size, zeroed) ((void)0)
#endif

void *mem_alloc(size_t size)
{
    MEMCHECK(size, true);
    if (SMALL_LISTS && size <= SMALL_GRANULE * SMALL_CLASSES)
        return alloc_small(size);
    stress();
    return checked(GC_MALLOC(size ? size : 1), size);
}

/* Large blocks (tensor data) ask for transparent huge pages where the system grants them on
 * request: a 40 MB result then takes 20 page faults instead of 10,000, the faults that were
 * half the time of a float32 add over 10^7 elements. Only whole 2 MiB pages inside the
 * block are advised; the advice is a hint, so a refusal changes nothing. */
#define HUGE_PAGE ((uintptr_t)2 << 20)

static void advise_huge(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

/* A small atomic block comes from the same lists: the collector then scans a few bytes of
 * data it could have skipped, which costs less than a separate allocation call. */
void *mem_alloc_atomic(size_t size)
{
    MEMCHECK(size, false);
    if (SMALL_LISTS && size <= SMALL_GRANULE * SMALL_CLASSES)
        return alloc_small(size);
    stress();
    void *p = checked(GC_MALLOC_ATOMIC(size ? size : 1), size);
    if (size >= 2 * HUGE_PAGE)
        advise_huge(p, size);
    return p;
}

void *mem_grow(void *ptr, size_t old_size, size_t new_size)
{
    void *p = mem_alloc(new_size);
    if (ptr != NULL)
        memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    return p;
}

char *mem_strndup(const char *s, size_t n)
{
    char *p = mem_alloc_atomic(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *mem_strdup(const char *s)
{
    return mem_strndup(s, strlen(s));
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *p = mem_alloc_atomic((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *mem_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = vformat(fmt, ap);
    va_end(ap);
    return p;
}

void strbuf_init(StrBuf *sb)
{
    sb->cap = 64;
    sb->len = 0;
    sb->data = mem_alloc_atomic(sb->cap);
    sb->data[0] = '\0';
}

void strbuf_addn(StrBuf *sb, const char *s, size_t n)
{
    if (sb->data == NULL)
        strbuf_init(sb);
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap;
        while (sb->len + n + 1 > cap)
            cap *= 2;
        char *d = mem_alloc_atomic(cap);
        memcpy(d, sb->data, sb->len);
        sb->data = d;
        sb->cap = cap;
    }
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void strbuf_add(StrBuf *sb, const char *s)
{
    strbuf_addn(sb, s, strlen(s));
}

void strbuf_addc(StrBuf *sb, char c)
{
    strbuf_addn(sb, &c, 1);
}

void strbuf_addf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = vformat(fmt, ap);
    va_end(ap);
    strbuf_add(sb, p);
}

char *strbuf_str(const StrBuf *sb)
{
    if (sb->data == NULL)
        return mem_strdup("");
    return mem_strndup(sb->data, sb->len);
}

typedef struct StackRun {
    void (*fn)(void *);
    void *arg;
} StackRun;

static void *stack_run(void *p)
{
    StackRun *r = p;
    r->fn(r->arg);
    return NULL;
}

/* A thread with a large stack is made once and kept: making one per run (mapping its 1 GiB
 * stack, faulting in its first pages, unmapping it) was a fifth of the CPU time of a corpus
 * run. The caller hands it one function at a time and waits, as it waited for a thread of
 * its own. A forked child has no such thread (only the forking thread is copied), so a
 * process makes its own. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond; /* a function to run, or its end */
    pthread_t thread;
    pid_t pid; /* the process that made the thread; 0: none */
    size_t bytes;
    StackRun job;
    bool pending; /* job is to run or running */
} big;

/* The pages a deep run touched below the stack's first MiB go back to the system, as they
 * did when its thread ended; the first MiB, which every run uses, stays. */
#define STACK_KEPT ((uintptr_t)1 << 20)

static void stack_release(uintptr_t top)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (top - big.bytes + STACK_KEPT + page - 1) & ~(page - 1);
    uintptr_t hi = (top - STACK_KEPT) & ~(page - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

static void *big_main(void *unused)
{
    (void)unused;
    char top;
    pthread_mutex_lock(&big.lock);
    for (;;) {
        while (!big.pending)
            pthread_cond_wait(&big.cond, &big.lock);
        StackRun job = big.job;
        pthread_mutex_unlock(&big.lock);
        job.fn(job.arg);
        stack_release((uintptr_t)&top);
        pthread_mutex_lock(&big.lock);
        big.pending = false;
        pthread_cond_broadcast(&big.cond);
    }
    return NULL;
}

/* The kept thread, made now if this process has none; false when it cannot serve a stack of
 * `bytes` (a larger one, or the caller is that thread). */
static bool big_ready(size_t bytes)
{
    if (big.pid == getpid())
        return big.bytes >= bytes && !pthread_equal(pthread_self(), big.thread);
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    pthread_mutex_init(&big.lock, NULL);
    pthread_cond_init(&big.cond, NULL);
    big.pending = false;
    bool ok = pthread_attr_setstacksize(&attr, bytes) == 0 &&
              pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
              GC_pthread_create(&big.thread, &attr, big_main, NULL) == 0;
    pthread_attr_destroy(&attr);
    if (ok) {
        big.pid = getpid();
        big.bytes = bytes;
    }
    return ok;
}

/* The caller's wait for the kept thread's job, run through GC_do_blocking: a waiting thread
 * that touches no collected memory, which a collection need not stop (otherwise every
 * collection on the kept thread signals the waiting one and waits for its answer: a tenth
 * of fib(22)'s time). Its frames above the wait are still scanned. */
static void *wait_for_job(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&big.lock);
    while (big.pending)
        pthread_cond_wait(&big.cond, &big.lock);
    pthread_mutex_unlock(&big.lock);
    return NULL;
}

int mem_run_on_large_stack(size_t bytes, void (*fn)(void *), void *arg)
{
    if (big_ready(bytes)) {
        pthread_mutex_lock(&big.lock);
        big.job = (StackRun){fn, arg};
        big.pending = true;
        pthread_cond_broadcast(&big.cond);
        pthread_mutex_unlock(&big.lock);
        GC_do_blocking(wait_for_job, NULL);
        return 1;
    }
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return 0;
    pthread_t th;
    StackRun r = {fn, arg};
    int ok = pthread_attr_setstacksize(&attr, bytes) == 0 &&
             GC_pthread_create(&th, &attr, stack_run, &r) == 0;
    pthread_attr_destroy(&attr);
    if (ok)
        GC_pthread_join(th, NULL);
    return ok;
}

size_t mem_heap_size(void)
{
#ifdef MEMCHECK_BUILD
    if (memcheck)
        return memcheck_total;
#endif
    return GC_get_heap_size();
}

void mem_collect(void)
{
    GC_gcollect();
}
