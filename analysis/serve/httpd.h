/*
 * httpd.h — a small HTTP/1.1 server for pmc's own endpoints (`pmc exporter`:
 * /metrics for Prometheus).  One thread, poll(2), non-blocking sockets, no
 * thread per client: a scrape is a few kilobytes, answered from memory.
 *
 * Bounds, so that a bad or slow client cannot hold the server: at most
 * HTTPD_MAX_CLIENTS connections, and when they are all taken a new one
 * closes the connection that has waited longest unanswered (idle, or a
 * request still trickling in), so a scraper always gets through; a
 * request head of at most HTTPD_MAX_REQUEST bytes and HTTPD_MAX_HEADERS
 * header lines (431 otherwise), complete HTTPD_REQUEST_MS after its first
 * byte however slowly it comes (else closed); no request bodies (413); a
 * connection idle, or not reading its answer, for HTTPD_TIMEOUT_MS is
 * closed.  RFC 9112 framing: differing or malformed Content-Length, both
 * Content-Length and Transfer-Encoding, a bare CR, a NUL, a malformed
 * header line: 400 and closed.  GET and HEAD only (405); HTTP/1.1
 * keep-alive (Prometheus reuses its connection) and HTTP/1.0.
 *
 * An answer that takes time (a CPU profile of N seconds) is deferred: the
 * handler says HTTPD_LATER, the connection waits, exempt from the time
 * limits and from being closed for a newcomer, while the server goes on
 * answering the others; the owner answers it later with httpd__answer
 * (after httpd__wake, from any thread, has made httpd__serve return).  A
 * client that closes its side while it waits is dropped (httpd__waiting
 * then says 0), as Go's servers cancel a request whose client went.
 */
#ifndef PMCSTAT_HTTPD_H
#define PMCSTAT_HTTPD_H

#include <stddef.h>

#define HTTPD_MAX_CLIENTS  64
#define HTTPD_MAX_REQUEST  8192
#define HTTPD_MAX_HEADERS  100
#define HTTPD_REQUEST_MS   5000
#define HTTPD_TIMEOUT_MS   10000

struct httpd;

/* What the handler sees of a request (valid during the call). */
struct httpd_request {
	const char *method;            /* "GET" or "HEAD" */
	const char *path;              /* "/metrics" (without the query) */
	const char *accept;            /* the Accept header, "" if none */
	const char *query;             /* after '?', without a fragment; "" if none */
	unsigned long long ticket;     /* the connection's, for httpd__answer */
};

/* What it answers: status, content type and a body it allocated with
 * malloc (the server frees it), or NULL for none; headers: more header
 * lines ("Retry-After: 3\r\n"), copied, or NULL.  Status HTTPD_LATER: no
 * answer yet (httpd__answer gives it). */
#define HTTPD_LATER (-1)
#define HTTPD_MAX_EXTRA_HEADERS 512
struct httpd_response {
	int status;                    /* 200, 404 ... */
	const char *content_type;
	char *body;
	size_t len;
	const char *headers;           /* at most HTTPD_MAX_EXTRA_HEADERS bytes */
};

typedef void (*httpd_handler)(void *arg, const struct httpd_request *rq,
    struct httpd_response *rs);

/*
 * httpd__parse_head — parse a request head (request line and headers, NUL-
 * terminated, modified in place: h points into it).  0 for a request to
 * answer, or the status to refuse it with: 400 (not a request line, a
 * malformed header line, a bare CR, Content-Length that differ or are not
 * numbers, or with Transfer-Encoding), 431 (over HTTPD_MAX_HEADERS header
 * lines), 505 (not HTTP/1.0 or 1.1), 413 (a body), 405 (not GET or
 * HEAD).  h->close:
 * close after answering (Connection, the version's default, or a refusal).
 */
struct httpd_head {
	const char *method, *version, *accept;
	const char *query;             /* in text: after '?', without fragment ("") */
	char path[1024];               /* the target without query or fragment */
	int head_only, close;
};
int httpd__parse_head(char *text, struct httpd_head *h);

/*
 * Listen on addr: "HOST:PORT", "[IPV6]:PORT" or ":PORT" (every interface);
 * port 0 picks a free one (httpd__address says which).  NULL with errno
 * and pmc_errmsg() saying why: a bad address (*usage set to 1: the user's
 * mistake), or the port in use, no permission ... (*usage 0).
 */
struct httpd *httpd__listen(const char *addr, int *usage);

/* The address listened on, e.g. "127.0.0.1:9464" or "[::]:9464". */
const char *httpd__address(const struct httpd *h);

/*
 * Serve for at most timeout_ms (-1: until something happened): accept,
 * read, answer through handler, time out idle clients.  0, or -1 with errno
 * EINTR when a signal interrupted the wait (the caller checks its flags and
 * calls again).
 */
int httpd__serve(struct httpd *h, int timeout_ms, httpd_handler handler, void *arg);

/*
 * The deferred request of connection ticket (its handler said HTTPD_LATER)
 * is answered with rs (its body taken, whatever happens): 0, or -1 when
 * that connection has gone meanwhile (nothing sent).  From the thread that
 * calls httpd__serve.
 */
int httpd__answer(struct httpd *h, unsigned long long ticket, struct httpd_response *rs);
/* Does connection ticket still wait for its deferred answer?  1 or 0. */
int httpd__waiting(const struct httpd *h, unsigned long long ticket);
/* Make httpd__serve return now (or its next call at once): from any
 * thread, async-signal-safe. */
void httpd__wake(struct httpd *h);

/*
 * The value of parameter name in a query string ("seconds=30&hz=99"),
 * percent-decoded ('+' a space), the first if it is given twice: 1 and the
 * value in val, 0 when the query lacks it, -1 when its value is malformed
 * (a bad %-escape, a NUL) or longer than len - 1.
 */
int httpd__query(const char *query, const char *name, char *val, size_t len);

/* Close every connection and the listening socket. */
void httpd__close(struct httpd *h);

#endif
