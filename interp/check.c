/* check: well-formedness, then StructInfo. SPEC_NOTES: "Well-formedness", "StructInfo". */
#include "interp/check.h"

#include "interp/structinfo/sinfo_check.h"
#include "interp/wellformed/wellformed.h"

bool check_module(IRModule *mod, DiagList *errors, DiagList *warnings)
{
    int before = errors->n;
    wellformed_check(mod, errors);
    if (errors->n == before)
        sinfo_check_module(mod, errors, warnings);
    return errors->n == before;
}
