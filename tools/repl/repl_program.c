/* repl_program: the program a `relax repl` session builds up, kept as the text of its
 * definitions and assembled into one TVMScript program. SPEC_NOTES: "Exit codes" (TS-1). */
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "ast/text/py_parser.h"
#include "tools/repl/repl.h"

const char REPL_ASSEMBLED[] = "<repl program>";

/* The indentation of a module's members in the assembled text. */
#define MEMBER_INDENT 4

void repl_program_init(ReplProgram *p)
{
    memset(p, 0, sizeof *p);
    p->class_name = "Module";
    p->text = "";
}

/* ---- the entry's text as lines ---- */

typedef struct Lines {
    const char **items;
    int n;
} Lines;

static Lines split_lines(const char *text)
{
    Lines ls = {NULL, 0};
    int cap = 0;
    while (*text != '\0') {
        const char *nl = strchr(text, '\n');
        size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text);
        size_t keep = len > 0 && text[len - 1] == '\r' ? len - 1 : len;
        VEC_PUSH(ls.items, ls.n, cap, mem_strndup(text, keep));
        text += nl != NULL ? len + 1 : len;
    }
    return ls;
}

static int leading_spaces(const char *line)
{
    int n = 0;
    while (line[n] == ' ')
        n++;
    return n;
}

static bool blank_line(const char *line)
{
    return line[strspn(line, " \t")] == '\0';
}

/* A statement's first line: its first decorator's, when it has decorators. */
static int first_line(const PyStmt *s)
{
    int line = s->span.line;
    if (s->kind == PYS_DEF && s->u.def.ndecorators > 0)
        line = s->u.def.decorators[0]->span.line;
    if (s->kind == PYS_CLASS && s->u.class_.ndecorators > 0)
        line = s->u.class_.decorators[0]->span.line;
    return line;
}

/* The part holding lines [from, to] (1-based, inclusive), trailing blank lines left out. */
static ReplPart make_part(const Lines *ls, int from, int to, const char *origin)
{
    while (to > from && blank_line(ls->items[to - 1]))
        to--;
    ReplPart part = {NULL, ls->items + from - 1, to - from + 1, 0, origin, from};
    part.indent = leading_spaces(ls->items[from - 1]);
    return part;
}

static const char *defined_name(const PyStmt *s)
{
    if (s->kind == PYS_DEF)
        return s->u.def.name;
    if (s->kind == PYS_ASSIGN && s->u.assign.ntargets == 1 &&
        s->u.assign.targets[0]->kind == PY_NAME)
        return s->u.assign.targets[0]->u.name;
    return NULL;
}

/* The statements of a body as parts: each runs to the line before the next one, the last
 * to `limit`. */
static ReplPart *body_parts(const PyBody *body, const Lines *ls, int limit, const char *origin)
{
    ReplPart *parts = MEM_ARRAY(ReplPart, body->n + 1);
    for (int i = 0; i < body->n; i++) {
        int to = i + 1 < body->n ? first_line(body->stmts[i + 1]) - 1 : limit;
        parts[i] = make_part(ls, first_line(body->stmts[i]), to, origin);
        parts[i].name = defined_name(body->stmts[i]);
    }
    return parts;
}

/* ---- entering definitions ---- */

/* The entry's definition when it is exactly one def (with imports, docstrings and `pass`
 * around it), else NULL. */
static const PyStmt *lone_def(const PyBody *top)
{
    const PyStmt *def = NULL;
    for (int i = 0; i < top->n; i++) {
        const PyStmt *s = top->stmts[i];
        if (s->kind == PYS_IMPORT || s->kind == PYS_PASS ||
            (s->kind == PYS_EXPR && s->u.expr->kind == PY_STR))
            continue;
        if (s->kind != PYS_DEF || def != NULL)
            return NULL;
        def = s;
    }
    return def;
}

static const PyStmt *find_class(const PyBody *top)
{
    for (int i = 0; i < top->n; i++)
        if (top->stmts[i]->kind == PYS_CLASS)
            return top->stmts[i];
    return NULL;
}

/* The line before the top-level statement after `s`, or the last line. */
static int statement_end(const PyBody *top, const PyStmt *s, const Lines *ls)
{
    for (int i = 0; i + 1 < top->n; i++)
        if (top->stmts[i] == s)
            return first_line(top->stmts[i + 1]) - 1;
    return ls->n;
}

static bool same_part_text(const ReplPart *a, const ReplPart *b)
{
    if (a->nlines != b->nlines)
        return false;
    for (int i = 0; i < a->nlines; i++)
        if (strcmp(a->lines[i], b->lines[i]) != 0)
            return false;
    return true;
}

/* The entry's import lines added to `p`'s (once each). */
static void add_imports(ReplProgram *p, const PyBody *top, const Lines *ls, const char *origin)
{
    ReplPart *all = MEM_ARRAY(ReplPart, p->nimports + top->n + 1);
    if (p->nimports > 0)
        memcpy(all, p->imports, sizeof *all * (size_t)p->nimports);
    int n = p->nimports;
    for (int i = 0; i < top->n; i++) {
        if (top->stmts[i]->kind != PYS_IMPORT)
            continue;
        ReplPart part =
            make_part(ls, first_line(top->stmts[i]), statement_end(top, top->stmts[i], ls), origin);
        bool seen = false;
        for (int j = 0; j < n && !seen; j++)
            seen = same_part_text(&all[j], &part);
        if (!seen)
            all[n++] = part;
    }
    p->imports = all;
    p->nimports = n;
}

static bool is_prim_func(const PyStmt *def, const Lines *ls)
{
    for (int i = 0; i < def->u.def.ndecorators; i++)
        if (strstr(ls->items[def->u.def.decorators[i]->span.line - 1], "prim_func") != NULL)
            return true;
    return false;
}

/* A lone function adds or replaces that function. A PrimFunc cannot stand alone, so it
 * always makes the program a module. */
static const char *enter_function(ReplProgram *p, const PyBody *top, const PyStmt *def,
                                  const Lines *ls, const char *origin)
{
    const char *name = def->u.def.name;
    ReplPart part = make_part(ls, first_line(def), statement_end(top, def, ls), origin);
    part.name = name;
    ReplPart *parts = MEM_ARRAY(ReplPart, p->nparts + 1);
    if (p->nparts > 0)
        memcpy(parts, p->parts, sizeof *parts * (size_t)p->nparts);
    int at = 0;
    while (at < p->nparts && (parts[at].name == NULL || strcmp(parts[at].name, name) != 0))
        at++;
    bool replaced = at < p->nparts;
    parts[at] = part;
    p->lone = !is_prim_func(def, ls) && (p->nparts == 0 || (p->lone && replaced));
    p->parts = parts;
    p->nparts = replaced ? p->nparts : p->nparts + 1;
    return mem_printf("%s %s", replaced ? "redefined" : "defined", name);
}

/* A module replaces everything, its imports included. */
static void enter_module(ReplProgram *p, const PyStmt *cls, const PyBody *top, const Lines *ls,
                         const char *origin)
{
    p->class_name = cls->u.class_.name;
    p->parts = body_parts(&cls->u.class_.body, ls, statement_end(top, cls, ls), origin);
    p->nparts = cls->u.class_.body.n;
    p->imports = NULL;
    p->nimports = 0;
    p->lone = false;
}

/* ---- the assembled text ---- */

typedef struct Assembly {
    StrBuf text;
    ReplLineOrigin *map;
    int n;
    int cap;
} Assembly;

static void add_line(Assembly *a, const char *line, ReplLineOrigin where)
{
    strbuf_add(&a->text, line);
    strbuf_addc(&a->text, '\n');
    VEC_PUSH(a->map, a->n, a->cap, where);
}

/* The part re-indented to `indent` columns; each line keeps its origin position. */
static void add_part(Assembly *a, const ReplPart *part, int indent)
{
    for (int i = 0; i < part->nlines; i++) {
        const char *line = part->lines[i];
        int strip = leading_spaces(line);
        if (strip > part->indent)
            strip = part->indent;
        ReplLineOrigin where = {part->origin, part->line0 + i, strip - indent};
        add_line(a, blank_line(line) ? "" : mem_printf("%*s%s", indent, "", line + strip), where);
    }
}

static void assemble(ReplProgram *p)
{
    Assembly a;
    memset(&a, 0, sizeof a);
    strbuf_init(&a.text);
    for (int i = 0; i < p->nimports; i++)
        add_part(&a, &p->imports[i], 0);
    ReplLineOrigin header = {"<repl>", 1, 0};
    if (p->nparts > 0) {
        header.origin = p->parts[0].origin;
        header.line = p->parts[0].line0;
    }
    if (!p->lone) {
        add_line(&a, "@I.ir_module", header);
        add_line(&a, mem_printf("class %s:", p->class_name), header);
    }
    for (int i = 0; i < p->nparts; i++)
        add_part(&a, &p->parts[i], p->lone ? 0 : MEMBER_INDENT);
    p->text = strbuf_str(&a.text);
    p->map = a.map;
    p->nmap = a.n;
}

static bool later(const Span *a, const Span *b)
{
    return a->line > b->line || (a->line == b->line && a->col > b->col);
}

/* The assembled program parsed. A function entered alone that refers to the module (cls =
 * Module) does not parse as a lone function; it is then taken as a module's only member.
 * When neither parses, the error of the reading that got further is the one reported. */
static IRModule *parse_assembled(ReplProgram *p, ErrorTrap *trap)
{
    assemble(p);
    if (!p->lone)
        return script_parse(REPL_ASSEMBLED, p->text, trap);
    ErrorTrap lone_trap;
    if (setjmp(lone_trap.jmp) == 0)
        return script_parse(REPL_ASSEMBLED, p->text, &lone_trap);
    repl_program_map(p, &lone_trap.error.span);
    p->lone = false;
    assemble(p);
    ErrorTrap module_trap;
    if (setjmp(module_trap.jmp) == 0)
        return script_parse(REPL_ASSEMBLED, p->text, &module_trap);
    repl_program_map(p, &module_trap.error.span);
    const Error *e = &lone_trap.error;
    if (later(&module_trap.error.span, &e->span))
        e = &module_trap.error;
    error_raise(trap, e->phase, e->code, e->rule, e->span, "%s", e->message);
}

/* Reads the entry, applies it to `next` and parses the result. */
static const char *enter(ReplProgram *next, const char *origin, const char *text, ErrorTrap *trap)
{
    Lines ls = split_lines(text);
    PyBody top = py_parse_file(origin, text, trap);
    const PyStmt *def = lone_def(&top);
    const char *summary;
    if (def != NULL) {
        summary = enter_function(next, &top, def, &ls, origin);
    } else {
        /* Anything but one def must be a module on its own; the parser says what is wrong
         * with anything else, in the entry's own lines (parsing it once more only then:
         * the program of a big entry is parsed once, below). */
        const PyStmt *cls = find_class(&top);
        if (cls == NULL) {
            script_parse(origin, text, trap);
            error_raise(trap, PHASE_PARSE, "BadModule", "TS-1", span_make(origin, 1, 1),
                        "no @I.ir_module class or @R.function in the entry");
        }
        enter_module(next, cls, &top, &ls, origin);
        summary = NULL;
    }
    add_imports(next, &top, &ls, origin);
    if (def == NULL) {
        ErrorTrap assembled;
        if (setjmp(assembled.jmp) == 0) {
            next->mod = parse_assembled(next, &assembled);
        } else {
            script_parse(origin, text, trap);
            error_raise(trap, assembled.error.phase, assembled.error.code, assembled.error.rule,
                        assembled.error.span, "%s", assembled.error.message);
        }
    } else {
        next->mod = parse_assembled(next, trap);
    }
    if (summary == NULL)
        summary = mem_printf("module %s: %s", next->class_name, repl_program_names(next));
    return summary;
}

const char *repl_program_enter(ReplProgram *p, const char *origin, const char *text, Error *err)
{
    ReplProgram *next = MEM_NEW(ReplProgram);
    *next = *p;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *err = trap.error;
        repl_program_map(next, &err->span);
        return NULL;
    }
    const char *summary = enter(next, origin, text, &trap);
    *p = *next;
    return summary;
}

IRModule *repl_program_fresh(const ReplProgram *p)
{
    if (p->mod == NULL)
        return NULL;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return p->mod;
    return script_parse(REPL_ASSEMBLED, p->text, &trap);
}

void repl_program_map(const ReplProgram *p, Span *span)
{
    if (span->file == NULL || strcmp(span->file, REPL_ASSEMBLED) != 0)
        return;
    if (span->line < 1 || span->line > p->nmap)
        return;
    const ReplLineOrigin *at = &p->map[span->line - 1];
    span->file = at->origin;
    span->line = at->line;
    if (span->col > 0 && span->col + at->col_shift > 0)
        span->col += at->col_shift;
    if (span->end_line < 1 || span->end_line > p->nmap)
        return;
    const ReplLineOrigin *end = &p->map[span->end_line - 1];
    span->end_line = end->line;
    if (span->end_col > 0 && span->end_col + end->col_shift > 0)
        span->end_col += end->col_shift;
}

const char *repl_program_names(const ReplProgram *p)
{
    if (p->mod == NULL)
        return "";
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < p->mod->nfuncs; i++)
        strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "", p->mod->funcs[i]->gvar->name);
    return strbuf_str(&sb);
}
