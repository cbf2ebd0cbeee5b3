/* ext_session: protocol 2 of the external adapter protocol: one adapter process kept for many
 * requests, a `hello` handshake, messages framed as YAML documents ended by a `...` line.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#ifndef RELAX_TOOLS_EXT_SESSION_H
#define RELAX_TOOLS_EXT_SESSION_H

#include <stdbool.h>

#include "tools/conform/ext_process.h"
#include "tools/conform/ext_protocol.h"

/* Timeouts in a row after which an adapter is not asked again. */
#define EXT_SESSION_MAX_TIMEOUTS 2
/* After a timeout, the restarted adapter's first request is a liveness probe (a `load` of a
 * two-line program) with a short deadline: a quarter of the timeout, at most this many
 * seconds. An adapter that does not answer it is not asked again, so a hanging adapter costs
 * one timeout and one short probe, not two timeouts. */
#define EXT_SESSION_PROBE_MAX_SECONDS 10.0

typedef struct ExtSession ExtSession;

ExtSession *ext_session_new(const char *command, double timeout);

/* Starts the adapter if it is not running and exchanges `hello`. NULL on success, else why
 * not (the adapter is then stopped; after a failed start it is never asked again). */
const char *ext_session_start(ExtSession *s);
/* What the adapter said of itself (valid after a successful start). */
const ExtHello *ext_session_hello(const ExtSession *s);

/* One request (a YAML document without its `...` line); `what` names it in reasons. On an
 * answer: res->end EXT_END_EXITED, status 0, res->out the response document. Otherwise the
 * adapter was killed (it is restarted by the next request) and res says why: a timeout, its
 * death (status or signal, res->err its stderr), or EXT_END_PROTOCOL with the reason in
 * res->err. */
void ext_session_request(ExtSession *s, const char *request, const char *what,
                         ExtProcessResult *res);

/* Kills the adapter, if running. */
void ext_session_stop(ExtSession *s);

#endif
