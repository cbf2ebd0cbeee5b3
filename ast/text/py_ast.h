/* py_ast: the syntax tree of the Python subset TVMScript is written in, before any Relax or
 * TIR meaning is given to it. SPEC_NOTES: "TVMScript syntax". */
#ifndef RELAX_AST_PY_AST_H
#define RELAX_AST_PY_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/error.h"

typedef enum PyOp {
    PYOP_ADD,
    PYOP_SUB,
    PYOP_MUL,
    PYOP_DIV,      /* / */
    PYOP_FLOORDIV, /* // */
    PYOP_MOD,
    PYOP_POW,
    PYOP_MATMUL, /* @ */
    PYOP_LSHIFT,
    PYOP_RSHIFT,
    PYOP_BITAND,
    PYOP_BITOR,
    PYOP_BITXOR,
    PYOP_NEG,    /* unary - */
    PYOP_POS,    /* unary + */
    PYOP_INVERT, /* unary ~ */
    PYOP_NOT,    /* not */
    PYOP_AND,    /* and */
    PYOP_OR,     /* or */
    PYOP_EQ,
    PYOP_NE,
    PYOP_LT,
    PYOP_LE,
    PYOP_GT,
    PYOP_GE,
    PYOP_IS,
    PYOP_IS_NOT,
    PYOP_IN,
    PYOP_NOT_IN,
} PyOp;

typedef enum PyExprKind {
    PY_NAME,      /* u.name */
    PY_ATTR,      /* u.attr: value.attr */
    PY_CALL,      /* u.call */
    PY_SUBSCRIPT, /* u.subscript: value[index]; several indices arrive as a PY_TUPLE */
    PY_SLICE,     /* u.slice: lower:upper:step inside a subscript; parts may be NULL */
    PY_TUPLE,     /* u.seq; parenthesized or bare a, b */
    PY_LIST,      /* u.seq */
    PY_DICT,      /* u.dict */
    PY_INT,       /* u.int_value; literals beyond int64 are a BadNumber error */
    PY_FLOAT,     /* u.float_value */
    PY_STR,       /* u.str: escapes decoded; adjacent literals concatenated */
    PY_BOOL,      /* u.bool_value */
    PY_NONE,
    PY_BINOP,   /* u.binop */
    PY_UNARYOP, /* u.unary */
    PY_BOOLOP,  /* u.boolop: a and b and c */
    PY_COMPARE, /* u.compare: a < b <= c */
    PY_IFEXP,   /* u.ifexp: a if cond else b */
    PY_STARRED, /* u.starred: *value in a call or tuple */
    PY_LAMBDA,  /* u.lambda: lambda a, b: body (plain parameter names only) */
} PyExprKind;

typedef struct PyExpr {
    PyExprKind kind;
    Span span;
    bool parenthesized; /* written inside its own parentheses */
    union {
        const char *name;
        struct {
            struct PyExpr *value;
            const char *attr;
        } attr;
        struct {
            struct PyExpr *func;
            struct PyExpr **args;
            int nargs;
            const char **kw_names;
            struct PyExpr **kw_values;
            Span *kw_spans;
            int nkw;
        } call;
        struct {
            struct PyExpr *value;
            struct PyExpr *index;
        } subscript;
        struct {
            struct PyExpr *lower;
            struct PyExpr *upper;
            struct PyExpr *step;
        } slice;
        struct {
            struct PyExpr **items;
            int n;
        } seq;
        struct {
            struct PyExpr **keys;
            struct PyExpr **values;
            int n;
        } dict;
        int64_t int_value;
        double float_value;
        const char *str;
        bool bool_value;
        struct {
            PyOp op;
            struct PyExpr *left;
            struct PyExpr *right;
        } binop;
        struct {
            PyOp op;
            struct PyExpr *operand;
        } unary;
        struct {
            PyOp op; /* PYOP_AND or PYOP_OR */
            struct PyExpr **items;
            int n;
        } boolop;
        struct {
            struct PyExpr *first;
            PyOp *ops;
            struct PyExpr **rest;
            int n;
        } compare;
        struct {
            struct PyExpr *cond;
            struct PyExpr *then_value;
            struct PyExpr *else_value;
        } ifexp;
        struct PyExpr *starred;
        struct {
            const char **params;
            Span *param_spans;
            int nparams;
            struct PyExpr *body;
        } lambda;
    } u;
} PyExpr;

typedef struct PyParam {
    const char *name;
    PyExpr *annotation; /* NULL when absent */
    PyExpr *default_value;
    Span span;
} PyParam;

typedef enum PyStmtKind {
    PYS_EXPR,      /* u.expr */
    PYS_ASSIGN,    /* u.assign: t1 = t2 = value has ntargets 2 */
    PYS_ANNASSIGN, /* u.annassign: target: annotation [= value] */
    PYS_AUGASSIGN, /* u.augassign: target op= value */
    PYS_RETURN,    /* u.ret: value or NULL */
    PYS_IF,        /* u.if_: elif arrives as a nested PYS_IF alone in orelse */
    PYS_FOR,       /* u.for_ */
    PYS_WHILE,     /* u.while_ */
    PYS_WITH,      /* u.with */
    PYS_DEF,       /* u.def */
    PYS_CLASS,     /* u.class_ */
    PYS_PASS,
    PYS_IMPORT, /* u.import: import a.b as c / from a.b import c as d, e */
    PYS_ASSERT, /* u.assert_ */
    PYS_BREAK,
    PYS_CONTINUE,
} PyStmtKind;

typedef struct PyBody {
    struct PyStmt **stmts;
    int n;
} PyBody;

typedef struct PyStmt {
    PyStmtKind kind;
    Span span;
    union {
        PyExpr *expr;
        struct {
            PyExpr **targets;
            int ntargets;
            PyExpr *value;
        } assign;
        struct {
            PyExpr *target;
            PyExpr *annotation;
            PyExpr *value; /* NULL for a bare annotation */
        } annassign;
        struct {
            PyExpr *target;
            PyOp op;
            PyExpr *value;
        } augassign;
        PyExpr *ret;
        struct {
            PyExpr *cond;
            PyBody body;
            PyBody orelse;
            bool has_else; /* an else: or elif was written */
        } if_;
        struct {
            PyExpr *target;
            PyExpr *iter;
            PyBody body;
        } for_;
        struct {
            PyExpr *cond;
            PyBody body;
        } while_;
        struct {
            PyExpr **items;
            PyExpr **as_targets; /* NULL entries where no `as` */
            int n;
            PyBody body;
        } with;
        struct {
            const char *name;
            PyExpr **decorators;
            int ndecorators;
            PyParam *params;
            int nparams;
            bool has_varargs; /* *args, **kwargs or a bare * were written */
            PyExpr *returns;  /* NULL when absent */
            PyBody body;
        } def;
        struct {
            const char *name;
            PyExpr **decorators;
            int ndecorators;
            PyExpr **bases;
            int nbases;
            PyBody body;
        } class_;
        struct {
            const char *module; /* "tvm.script" for `from tvm.script import ...`; NULL for import */
            const char **names; /* dotted names */
            const char **asnames; /* NULL entries where no `as` */
            int n;
        } import;
        struct {
            PyExpr *cond;
            PyExpr *msg;
        } assert_;
    } u;
} PyStmt;

#endif
