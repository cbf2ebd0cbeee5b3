/* lowered_packed: the vm.builtin.* packed functions a lowered program calls through
 * R.call_builtin_with_ctx or R.call_packed. SPEC_NOTES: "The lowered IR" (LOW-vm_builtin). */
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/eval/interp.h"
#include "interp/lowered/lowered.h"

static void want_args(Interp *in, const char *fn, int nargs, int want)
{
    if (nargs != want)
        interp_fail(in, "PackedFuncError", "LOW-vm_builtin", span_none(),
                    "%s takes %d arguments, got %d", fn, want, nargs);
}

/* vm.builtin.null_value(): the null object, as R.null_value. */
static Value *vm_null_value(void *ctx, Value **args, int nargs)
{
    rule_fired("LOW-vm_builtin");
    (void)args;
    want_args(ctx, "vm.builtin.null_value", nargs, 0);
    return value_null();
}

/* vm.builtin.alloc_storage(size, device_index, dtype, scope): as R.vm.alloc_storage,
 * prod(size) elements of dtype. */
static Value *vm_alloc_storage(void *ctx, Value **args, int nargs)
{
    rule_fired("LOW-vm_builtin");
    Interp *in = ctx;
    want_args(in, "vm.builtin.alloc_storage", nargs, 4);
    if (args[0]->kind != VAL_SHAPE || args[2]->kind != VAL_DTYPE)
        interp_fail(in, "PackedFuncError", "LOW-vm_builtin", span_none(),
                    "vm.builtin.alloc_storage takes a shape, a device index, a dtype, a scope");
    DataType byte = dtype_make(DT_UINT, 8, 1);
    int64_t n = tensor_shape_numel(args[2]->u.dtype, args[0]->u.shape.ndim, args[0]->u.shape.dims);
    int64_t nbytes = n < 0 ? -1 : n * (int64_t)dtype_bytes(args[2]->u.dtype);
    if (nbytes < 0 || tensor_shape_numel(byte, 1, &nbytes) < 0)
        interp_fail(in, "PackedFuncError", "LOW-vm_builtin", span_none(),
                    "vm.builtin.alloc_storage: the size is unsupported");
    Storage *s = MEM_NEW(Storage);
    s->data = mem_alloc_atomic((size_t)(nbytes > 0 ? nbytes : 1));
    memset(s->data, 0, (size_t)(nbytes > 0 ? nbytes : 1));
    s->nbytes = nbytes;
    s->dtype_hint = args[2]->u.dtype;
    s->scope = args[3]->kind == VAL_STRING ? args[3]->u.str : "global";
    return value_storage(s);
}

/* vm.builtin.invoke_closure(closure, args...): calls the closure, as R.invoke_closure. */
static Value *vm_invoke_closure(void *ctx, Value **args, int nargs)
{
    rule_fired("LOW-vm_builtin");
    Interp *in = ctx;
    /* LOW-vm_builtin: a first argument that is no closure or packed function is a bad
     * argument of this packed function, not a call of a non-callable in the program. */
    if (nargs < 1 || (args[0]->kind != VAL_CLOSURE && args[0]->kind != VAL_PACKED))
        interp_fail(in, "PackedFuncError", "LOW-vm_builtin", span_none(),
                    "vm.builtin.invoke_closure takes a closure and its arguments");
    return interp_call(in, args[0], args + 1, nargs - 1, span_none());
}

void lowered_register_packed(PackedRegistry *r)
{
    packed_register(r, "vm.builtin.null_value", true, vm_null_value);
    packed_register(r, "vm.builtin.alloc_storage", true, vm_alloc_storage);
    packed_register(r, "vm.builtin.invoke_closure", false, vm_invoke_closure);
}
