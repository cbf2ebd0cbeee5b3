/* op_schema_norm: the Python signatures of the normalizations, attention, losses and pixel_shuffle of R.nn as TVM's op constructors define them.
 * SPEC_NOTES: "Operators" (OP-nn.group_norm and the rows after it). */
#include "ast/schema/op_schema.h"

#include <stddef.h>

const OpSchema *op_schema_norm(int *n)
{
    *n = 0;
    return NULL;
}
