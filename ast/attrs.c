/* attrs: attribute dictionaries in insertion order.
 * SPEC_NOTES: "Attributes". */
#include "ast/attrs.h"

#include <string.h>

#include "ast/mem.h"

Attrs *attrs_new(void)
{
    return MEM_NEW(Attrs);
}

static int find(const Attrs *attrs, const char *key)
{
    for (int i = 0; i < attrs->n; i++)
        if (strcmp(attrs->keys[i], key) == 0)
            return i;
    return -1;
}

void attrs_set(Attrs *attrs, const char *key, AttrValue *value)
{
    int i = find(attrs, key);
    if (i >= 0) {
        attrs->values[i] = value;
        return;
    }
    int cap = attrs->cap;
    VEC_PUSH(attrs->keys, attrs->n, attrs->cap, key);
    attrs->n--;
    attrs->cap = cap;
    VEC_PUSH(attrs->values, attrs->n, attrs->cap, value);
}

AttrValue *attrs_get(const Attrs *attrs, const char *key)
{
    int i = attrs ? find(attrs, key) : -1;
    return i < 0 ? NULL : attrs->values[i];
}

bool attrs_remove(Attrs *attrs, const char *key)
{
    int i = find(attrs, key);
    if (i < 0)
        return false;
    for (int j = i + 1; j < attrs->n; j++) {
        attrs->keys[j - 1] = attrs->keys[j];
        attrs->values[j - 1] = attrs->values[j];
    }
    attrs->n--;
    return true;
}

AttrValue *attr_new(AttrKind kind, Span span)
{
    AttrValue *v = MEM_NEW(AttrValue);
    v->kind = kind;
    v->span = span;
    return v;
}

AttrValue *attr_str(const char *s, Span span)
{
    AttrValue *v = attr_new(ATTR_STR, span);
    v->u.s = s;
    return v;
}

AttrValue *attr_bool(bool b, Span span)
{
    AttrValue *v = attr_new(ATTR_BOOL, span);
    v->u.b = b;
    return v;
}

AttrValue *attr_int(int64_t i, Span span)
{
    AttrValue *v = attr_new(ATTR_INT, span);
    v->u.i = i;
    return v;
}
