/* mem: the one allocator. Every heap object of the project lives in Boehm GC memory (or,
 * for bounds checking under AddressSanitizer, in blocks of its own: mem.c).
 * SPEC_NOTES: none (implementation). Nothing else includes <gc.h>. */
#ifndef RELAX_AST_MEM_H
#define RELAX_AST_MEM_H

#include <stddef.h>
#include <stdnoreturn.h>

/* The default limit of the collected heap: 4 GiB (RELAX_MAX_HEAP or `--max-heap` overrides
 * it); the smallest limit that may be set: 64 MiB. */
#define MEM_DEFAULT_MAX_HEAP ((size_t)4 << 30)
#define MEM_MIN_MAX_HEAP ((size_t)64 << 20)

void mem_init(void);
/* Sets the heap's limit (at least MEM_MIN_MAX_HEAP) after mem_init. */
void mem_set_max_heap(size_t bytes);
/* Zeroed memory that may hold pointers to other GC objects. */
void *mem_alloc(size_t size);
/* Memory the collector never scans: tensor data, strings. Not zeroed. */
void *mem_alloc_atomic(size_t size);
/* Grows a block from mem_alloc (or NULL); new bytes are zeroed. */
void *mem_grow(void *ptr, size_t old_size, size_t new_size);
char *mem_strdup(const char *s);
char *mem_strndup(const char *s, size_t n);
char *mem_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What an allocation the heap cannot hold does (SPEC_NOTES 4.18): by default one line,
 * `relax: runtime error [OutOfMemory]: message`, and exit 7. An evaluation installs a handler
 * that raises that error at the call being applied instead, so that `relax conform` goes on
 * with its next case; the handler must not return. mem_fail uninstalls the handler before it
 * calls it (an allocation that fails inside it ends the process), and whoever installed it
 * puts back the one it replaced. */
typedef struct MemFailHandler {
    void (*fn)(void *ctx, const char *message);
    void *ctx;
} MemFailHandler;

MemFailHandler mem_set_fail_handler(MemFailHandler handler);
noreturn void mem_fail(const char *message);

#define MEM_NEW(T) ((T *)mem_alloc(sizeof(T)))
#define MEM_ARRAY(T, n) ((T *)mem_alloc(sizeof(T) * (size_t)(n)))

/* Growable arrays: a pointer, a length and a capacity, grown by doubling. */
#define VEC_PUSH(items, len, cap, x)                                                               \
    do {                                                                                           \
        if ((len) == (cap)) {                                                                      \
            int new_cap_ = (cap) ? 2 * (cap) : 4;                                                  \
            (items) = mem_grow((items), sizeof(*(items)) * (size_t)(cap),                          \
                               sizeof(*(items)) * (size_t)new_cap_);                               \
            (cap) = new_cap_;                                                                      \
        }                                                                                          \
        (items)[(len)++] = (x);                                                                    \
    } while (0)

/* Runs fn(arg) to completion on a new thread whose stack has `bytes` bytes, known to the
 * collector; the caller waits. Returns 0 (without running fn) when no such thread can be
 * made. fn must not longjmp out: catch errors inside and hand them back through arg. */
int mem_run_on_large_stack(size_t bytes, void (*fn)(void *), void *arg);
/* The collector's heap size in bytes (under RELAX_MEMCHECK, every byte allocated: mem.c),
 * and a full collection (for memory tests). */
size_t mem_heap_size(void);
void mem_collect(void);

/* A growable string buffer. */
typedef struct StrBuf {
    char *data;
    size_t len;
    size_t cap;
} StrBuf;

void strbuf_init(StrBuf *sb);
void strbuf_add(StrBuf *sb, const char *s);
void strbuf_addn(StrBuf *sb, const char *s, size_t n);
void strbuf_addc(StrBuf *sb, char c);
void strbuf_addf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The contents as a GC string; the buffer stays usable. */
char *strbuf_str(const StrBuf *sb);

#endif
