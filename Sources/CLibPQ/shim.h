// libpq, PostgreSQL's own client library: the render server's shared job
// store (TLS, SCRAM, service files and every PG* environment variable
// behave as PostgreSQL's documentation says).
#include <libpq-fe.h>
