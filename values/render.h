/* render: the two written forms of a value, case-file notation and R.print's text.
 * SPEC_NOTES: "Values" (value notation), "R.print and assert_op rendering". */
#ifndef RELAX_VALUES_RENDER_H
#define RELAX_VALUES_RENDER_H

#include "ast/dtype.h"
#include "ast/mem.h"
#include "values/value.h"

/* The case-file value notation as one line of YAML flow text, e.g.
 * {tensor: {dtype: float32, shape: [2, 2], data: [[1, 2], [3, 4]]}}. Floats are written
 * in the shortest form that reads back to the same value in their dtype (an integral value
 * without a fraction), nan/inf/-inf as such; closures, packed functions and PrimFuncs as
 * {callable: true}. */
char *render_value_case(const Value *v);
void render_value_case_to(StrBuf *sb, const Value *v);

/* What R.print and assert_op show for a value: a tensor as numpy's str(ndarray), a
 * PrimValue as a Python number (True/False for bool), a shape as a Python tuple
 * ("(2,)"), a tuple as "(a, b)" of its rendered fields, a string bare, a dtype by name,
 * null as "None". */
char *render_value_print(const Value *v);
/* numpy's str(ndarray) with default print options (precision 8, line width 75,
 * summarising arrays of more than 1000 elements). */
char *render_tensor_numpy(const Tensor *t);

/* The shortest decimal text that reads back to v once rounded to `dtype` (a float dtype),
 * laid out as Python writes floats: "0.1", "1.0", "1e+20", "1.5e-05", "nan", "-inf". */
char *render_float_repr(double v, DataType dtype);

/* Python's str.format over already rendered strings: "{}" and "{0}" fields (not mixed),
 * "{{" and "}}", and a string format spec [[fill]align][width][.precision]. On a format
 * Python would reject, returns NULL and sets *error to Python's complaint. */
char *render_format(const char *fmt, char *const *args, int nargs, char **error);
/* The line R.print writes, without the newline: the rendered values separated by spaces
 * when `fmt` is empty, otherwise fmt.format(*rendered). NULL and *error on a bad format. */
char *render_print_line(const char *fmt, Value *const *vals, int n, char **error);
/* assert_op's failure message: fmt.format(*rendered) when fmt is not empty, else the
 * rendered values joined by ", ", else "Assertion Failed". */
char *render_assert_message(const char *fmt, Value *const *vals, int n, char **error);

#endif
