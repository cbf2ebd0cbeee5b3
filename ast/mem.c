/* mem: the one allocator, over Boehm GC; GC stress mode collects on every allocation.
 * SPEC_NOTES: none (implementation). */
#include "ast/mem.h"

/* Threads: the evaluator runs on a thread of its own with a large stack; the collector
 * must know that thread to scan its stack. */
#include <pthread.h>
#define GC_THREADS
#include <gc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
}

void mem_set_max_heap(size_t bytes)
{
    max_heap = bytes < MEM_MIN_MAX_HEAP ? MEM_MIN_MAX_HEAP : bytes;
    GC_set_max_heap_size(max_heap);
}

/* Out of memory is one line and the runtime exit code (SPEC_NOTES "Resource limits"). */
static void *checked(void *p, size_t size)
{
    if (p == NULL && size != 0) {
        fprintf(stderr,
                "relax: runtime error [OutOfMemory]: out of memory: %zu bytes "
                "requested with %zu in use (limit %zu; --max-heap changes it)\n",
                size, (size_t)GC_get_heap_size(), max_heap);
        exit(7);
    }
    return p;
}

static void stress(void)
{
#ifdef RELAX_GC_STRESS
    GC_gcollect();
#endif
}

void *mem_alloc(size_t size)
{
    stress();
    return checked(GC_MALLOC(size ? size : 1), size);
}

void *mem_alloc_atomic(size_t size)
{
    stress();
    return checked(GC_MALLOC_ATOMIC(size ? size : 1), size);
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

int mem_run_on_large_stack(size_t bytes, void (*fn)(void *), void *arg)
{
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
    return GC_get_heap_size();
}

void mem_collect(void)
{
    GC_gcollect();
}
