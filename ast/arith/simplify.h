/* simplify: integer PrimExprs (shape dimensions) in the canonical form TVM's arith analyzer
 * prints them. SPEC_NOTES: "Symbolic dimensions" (ARITH-1). */
#ifndef RELAX_AST_ARITH_SIMPLIFY_H
#define RELAX_AST_ARITH_SIMPLIFY_H

#include "ast/primexpr.h"

/* The expression with constants folded, like terms collected (`n + n` is `n * 2`), a floordiv
 * or floormod by a constant that divides every coefficient done exactly (`n * 6 // 3` is
 * `n * 2`), and its terms in TVM's order: by coefficient, largest first, then as written; the
 * constant last (`n + 3`), or first when every term is subtracted (`1 - n`). A product of two
 * sums is kept as written, as TVM keeps it. Expressions of a non-integer dtype are returned
 * unchanged. Never mutates its argument. NULL when a folded coefficient or constant
 * overflows int64 (ast/checked.h): the caller's size overflow error. */
PrimExpr *arith_simplify(const PrimExpr *e);

#endif
