/*
 * httpd.c — the small HTTP/1.1 server of httpd.h: a listening socket and up
 * to HTTPD_MAX_CLIENTS connections in one poll(2) loop.  Each connection
 * reads a request head into a fixed buffer, hands it to the handler, and
 * writes the answer as the socket takes it (a slow reader never blocks the
 * others).  Only what a scraper needs: GET/HEAD, no bodies, keep-alive;
 * an answer the handler defers waits on its connection (waiting) until the
 * owner gives it, an eventfd waking the poll loop for that.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "common/error.h"
#include "serve/httpd.h"
#include "common/clock.h"

struct client {
	int fd;                        /* -1: free slot */
	char in[HTTPD_MAX_REQUEST + 1];
	size_t nin;
	char *out;                     /* head + body being written */
	size_t nout, off;
	int close_after;               /* close once out is written */
	uint64_t last;                 /* ms of the last progress (writing) */
	uint64_t since;                /* ms: accepted, or the last answer written */
	uint64_t req;                  /* ms of the current request's first byte */
	int waiting;                   /* a deferred answer is due (HTTPD_LATER) */
	int head_only;                 /* ... to a HEAD request */
	unsigned long long ticket;     /* the connection's (httpd__answer) */
};

struct httpd {
	int fd;
	int wakefd;                    /* eventfd: httpd__wake */
	unsigned long long tickets;    /* the last given */
	char addr[INET6_ADDRSTRLEN + 16];
	struct client c[HTTPD_MAX_CLIENTS];
};

static uint64_t now_ms(void)
{
	return pmc__mono_ns() / 1000000u;
}

/* "HOST:PORT", "[V6]:PORT", ":PORT" -> host (NULL: any) and port. */
static int split_addr(const char *addr, char *host, size_t hl, char *port, size_t pl)
{
	const char *colon;

	if (addr[0] == '[') {
		const char *close = strchr(addr, ']');
		if (!close || close[1] != ':' || (size_t)(close - addr - 1) >= hl)
			return -1;
		snprintf(host, hl, "%.*s", (int)(close - addr - 1), addr + 1);
		colon = close + 1;
	} else {
		colon = strrchr(addr, ':');
		if (!colon || strchr(addr, ':') != colon || (size_t)(colon - addr) >= hl)
			return -1;
		snprintf(host, hl, "%.*s", (int)(colon - addr), addr);
	}
	if (!colon[1] || strlen(colon + 1) >= pl || strspn(colon + 1, "0123456789") !=
	    strlen(colon + 1) || atol(colon + 1) > 65535)
		return -1;
	snprintf(port, pl, "%s", colon + 1);
	return 0;
}

struct httpd *httpd__listen(const char *addr, int *usage)
{
	char host[256], port[8];
	struct addrinfo hints, *res = NULL, *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd = -1, e = 0, rc;
	struct httpd *h;

	*usage = 1;
	pmc__clear_reason();
	if (split_addr(addr, host, sizeof(host), port, sizeof(port)) < 0) {
		pmc__err(-EINVAL, "'%s' is not an address to listen on (HOST:PORT, "
		    "[IPV6]:PORT or :PORT)", addr);
		return NULL;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if ((rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &res)) != 0) {
		pmc__err(-EINVAL, "cannot listen on '%s': %s", addr, gai_strerror(rc));
		return NULL;
	}
	*usage = 0;
	for (ai = res; ai; ai = ai->ai_next) {
		int one = 1;
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		/* a restarted exporter may bind while old connections linger */
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 64) == 0)
			break;
		e = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		pmc__err(-e, "cannot listen on '%s': %s%s", addr, strerror(e),
		    e == EADDRINUSE ? " (another program has that port; choose another)" : "");
		return NULL;
	}
	if (!(h = calloc(1, sizeof(*h)))) {
		close(fd);
		pmc__nomem();
		return NULL;
	}
	h->fd = fd;
	if ((h->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
		int er = errno;
		close(fd);
		free(h);
		pmc__err(-er, "cannot listen on '%s': eventfd: %s", addr, strerror(er));
		return NULL;
	}
	for (int i = 0; i < HTTPD_MAX_CLIENTS; i++)
		h->c[i].fd = -1;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
		char a[INET6_ADDRSTRLEN] = "?";
		if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
			inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
			snprintf(h->addr, sizeof(h->addr), "[%s]:%u", a, ntohs(s6->sin6_port));
		} else {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
			inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
			snprintf(h->addr, sizeof(h->addr), "%s:%u", a, ntohs(s4->sin_port));
		}
	}
	return h;
}

const char *httpd__address(const struct httpd *h)
{
	return h->addr;
}

static void drop(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->out);
	c->out = NULL;
	c->fd = -1;
	c->nin = c->nout = c->off = 0;
	c->close_after = 0;
	c->waiting = 0;
}

/* The client is past its time: a request not complete HTTPD_REQUEST_MS
 * after its first byte (however it trickles in), a connection idle for
 * HTTPD_TIMEOUT_MS, or an answer the client stopped reading for as long. */
static int expired(const struct client *c, uint64_t t)
{
	if (c->waiting)
		return 0;              /* the server owes the answer */
	if (c->out)
		return t - c->last >= HTTPD_TIMEOUT_MS;
	if (c->nin)
		return t - c->req >= HTTPD_REQUEST_MS;
	return t - c->since >= HTTPD_TIMEOUT_MS;
}

static const char *reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 413: return "Content Too Large";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default:  return "Error";
	}
}

/* Queue the answer: head (with the extra header lines, if any), and the
 * body unless HEAD.  Takes body. */
static void respond(struct client *c, int status, const char *type, char *body, size_t len,
    const char *extra, int head_only)
{
	char hdr[512 + HTTPD_MAX_EXTRA_HEADERS];
	int n;
	char *plain = NULL;

	if (!body && status != 200) {
		/* a one-line reason as the body */
		if ((plain = malloc(64)) != NULL) {
			len = (size_t)snprintf(plain, 64, "%d %s\n", status, reason(status));
			body = plain;
			type = "text/plain; charset=utf-8";
		}
	}
	n = snprintf(hdr, sizeof(hdr), "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
	    "Content-Length: %zu\r\n%s%s%.*s\r\n", status, reason(status),
	    type ? type : "text/plain; charset=utf-8", body ? len : 0,
	    status == 405 ? "Allow: GET, HEAD\r\n" : "",
	    c->close_after ? "Connection: close\r\n" : "", HTTPD_MAX_EXTRA_HEADERS,
	    extra ? extra : "");
	size_t blen = body && !head_only ? len : 0;
	free(c->out);
	c->out = malloc((size_t)n + blen);
	if (!c->out) {
		free(body);
		drop(c);
		return;
	}
	memcpy(c->out, hdr, (size_t)n);
	if (blen)
		memcpy(c->out + n, body, blen);
	free(body);
	c->nout = (size_t)n + blen;
	c->off = 0;
}

/* The value of header name in the head (NUL-terminated lines), "" if none;
 * *count: how many lines carry it. */
static const char *header_n(char *const *lines, int n, const char *name, int *count)
{
	size_t l = strlen(name);
	const char *first = "";
	*count = 0;
	for (int i = 1; i < n; i++)
		if (!strncasecmp(lines[i], name, l) && lines[i][l] == ':') {
			const char *v = lines[i] + l + 1;
			if (!(*count)++)
				first = v + strspn(v, " \t");
		}
	return first;
}

static const char *header(char *const *lines, int n, const char *name)
{
	int count;
	return header_n(lines, n, name, &count);
}

/* Content-Length as RFC 9112 6.3 takes it: every value on every such line
 * (a line may list several, comma-separated) the same decimal number; -1
 * when they differ or one is not a number. */
static long long content_length(char *const *lines, int n)
{
	long long v = -2;
	for (int i = 1; i < n; i++) {
		if (strncasecmp(lines[i], "Content-Length:", 15))
			continue;
		for (const char *p = lines[i] + 15; ; p++) {
			p += strspn(p, " \t");
			size_t d = strspn(p, "0123456789");
			long long x = 0;
			if (d == 0 || d > 15)
				return -1;
			for (size_t k = 0; k < d; k++)
				x = x * 10 + (p[k] - '0');
			if (v != -2 && x != v)
				return -1;
			v = x;
			p += d;
			p += strspn(p, " \t");
			if (!*p)
				break;
			if (*p != ',')
				return -1;
		}
	}
	return v == -2 ? 0 : v;
}

/* A header line as RFC 9112 5 has it: a token, then the colon (no space
 * before it), no obsolete line folding, no bare CR. */
static int field_ok(const char *l)
{
	size_t name = strcspn(l, ":");
	if (!l[name] || name == 0 || strchr(l, '\r'))
		return 0;
	for (size_t i = 0; i < name; i++)
		if ((unsigned char)l[i] <= ' ' || strchr("\"(),/;<=>?@[\\]{}", l[i]) ||
		    (unsigned char)l[i] >= 0x7f)
			return 0;
	return 1;
}

int httpd__parse_head(char *text, struct httpd_head *h)
{
	char *lines[HTTPD_MAX_HEADERS + 1], *p = text, *sp1, *sp2;
	int n = 0;

	memset(h, 0, sizeof(*h));
	while (*p) {
		if (n == HTTPD_MAX_HEADERS + 1) {
			h->close = 1;
			return 431;    /* more header lines than taken: refused, not cut */
		}
		char *eol = strstr(p, "\r\n");
		char *lf = strchr(p, '\n');
		if (eol && (!lf || eol < lf)) {
			*eol = '\0';
			lines[n++] = p;
			p = eol + 2;
		} else if (lf) {
			*lf = '\0';
			lines[n++] = p;
			p = lf + 1;
		} else {
			lines[n++] = p;
			break;
		}
		if (!lines[n - 1][0]) {
			n--;
			break;
		}
	}
	if (n == 0 || !(sp1 = strchr(lines[0], ' ')) || !(sp2 = strchr(sp1 + 1, ' ')) ||
	    strchr(lines[0], '\r')) {
		h->close = 1;
		return 400;
	}
	for (int i = 1; i < n; i++)
		if (!field_ok(lines[i])) {
			h->close = 1;
			return 400;
		}
	*sp1 = *sp2 = '\0';
	h->method = lines[0];
	h->version = sp2 + 1;
	snprintf(h->path, sizeof(h->path), "%.*s", (int)strcspn(sp1 + 1, "?#"), sp1 + 1);
	{
		char *q = sp1 + 1 + strcspn(sp1 + 1, "?#");
		if (*q == '?') {
			q++;
			q[strcspn(q, "#")] = '\0';
			h->query = q;
		} else {
			h->query = "";
		}
	}
	h->accept = header(lines, n, "Accept");
	int v11 = !strcmp(h->version, "HTTP/1.1");
	const char *conn = header(lines, n, "Connection");
	long long cl = content_length(lines, n);
	int nte, ncl;
	header_n(lines, n, "Transfer-Encoding", &nte);
	header_n(lines, n, "Content-Length", &ncl);
	if (!v11 && strcmp(h->version, "HTTP/1.0")) {
		h->close = 1;
		return strncmp(h->version, "HTTP/", 5) ? 400 : 505;
	}
	h->close = v11 ? !strcasecmp(conn, "close") : !!strcasecmp(conn, "keep-alive");
	h->head_only = !strcmp(h->method, "HEAD");
	if (cl < 0 || (nte && ncl)) {
		/* framing that two parsers could read two ways (RFC 9112 6.3):
		 * refused, and the connection closed */
		h->close = 1;
		return 400;
	}
	if (cl > 0 || nte) {
		/* no endpoint takes a body: refuse it rather than read it */
		h->close = 1;
		return 413;
	}
	if (strcmp(h->method, "GET") && !h->head_only)
		return 405;
	return 0;
}

/* A whole head is in c->in (ends at the blank line at end): parse, answer
 * (or leave it waiting when the handler defers). */
static void handle(struct client *c, size_t end, httpd_handler handler, void *arg)
{
	static char text[HTTPD_MAX_REQUEST + 1];   /* one thread serves */
	struct httpd_head h;
	int status;

	memcpy(text, c->in, end);
	text[end] = '\0';
	/* keep what a pipelining client sent after this request */
	memmove(c->in, c->in + end, c->nin - end);
	c->nin -= end;
	status = httpd__parse_head(text, &h);
	c->close_after = status == 400 || status == 431 || h.close;
	if (status) {
		respond(c, status, NULL, NULL, 0, NULL, status == 413 && h.head_only);
		return;
	}
	struct httpd_request rq = { h.method, h.path, h.accept, h.query, c->ticket };
	struct httpd_response rs = { 404, NULL, NULL, 0, NULL };
	handler(arg, &rq, &rs);
	if (rs.status == HTTPD_LATER) {
		free(rs.body);
		c->waiting = 1;
		c->head_only = h.head_only;
		return;
	}
	respond(c, rs.status, rs.content_type, rs.body, rs.len, rs.headers, h.head_only);
}

/* The end of the head (index after the blank line) if complete, else 0;
 * -1 when a byte before it can never make a request: a NUL, or a CR that
 * is not followed by LF (RFC 9112 2.2: a bare CR is refused, not waited on). */
static long head_end(const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (b[i] == '\0' || (b[i] == '\r' && i + 1 < n && b[i + 1] != '\n'))
			return -1;
		if (i + 1 < n && b[i] == '\n' && b[i + 1] == '\n')
			return (long)i + 2;
		if (i + 3 < n && b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' &&
		    b[i + 3] == '\n')
			return (long)i + 4;
	}
	return 0;
}

/* A head that cannot be answered: refused with status, then closed. */
static void refuse(struct client *c, int status)
{
	c->close_after = 1;
	c->nin = 0;
	respond(c, status, NULL, NULL, 0, NULL, 0);
}

static void on_readable(struct client *c, httpd_handler handler, void *arg)
{
	ssize_t r = read(c->fd, c->in + c->nin, HTTPD_MAX_REQUEST - c->nin);
	long end;

	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
		drop(c);
		return;
	}
	if (r < 0)
		return;
	if (c->nin == 0 && r > 0)
		c->req = now_ms();      /* the request's deadline runs from here */
	c->nin += (size_t)r;
	c->last = now_ms();
	if ((end = head_end(c->in, c->nin)) > 0)
		handle(c, (size_t)end, handler, arg);
	else if (end < 0)
		refuse(c, 400);
	else if (c->nin >= HTTPD_MAX_REQUEST)
		refuse(c, 431);
}

static void on_writable(struct client *c, httpd_handler handler, void *arg)
{
	ssize_t w = send(c->fd, c->out + c->off, c->nout - c->off, MSG_NOSIGNAL);
	if (w < 0) {
		if (errno != EAGAIN && errno != EINTR)
			drop(c);
		return;
	}
	c->off += (size_t)w;
	c->last = now_ms();
	if (c->off == c->nout) {
		free(c->out);
		c->out = NULL;
		c->nout = c->off = 0;
		c->since = c->req = c->last;   /* idle from now; a pipelined request's time runs */
		if (c->close_after) {
			drop(c);
			return;
		}
		/* a pipelined request already read */
		long end = head_end(c->in, c->nin);
		if (end > 0)
			handle(c, (size_t)end, handler, arg);
		else if (end < 0)
			refuse(c, 400);
	}
}

/* A slot for a new connection: a free one, else the one that has held its
 * slot longest without being answered (idle, or a request still coming in,
 * however slowly), closed for it.  So whoever fills the table, a scraper
 * that connects and asks at once is answered.  -1 if every connection is
 * being answered. */
static int slot(struct httpd *h)
{
	int v = -1;
	for (int i = 0; i < HTTPD_MAX_CLIENTS; i++) {
		const struct client *c = &h->c[i];
		if (c->fd < 0)
			return i;
		if (!c->out && !c->waiting && (v < 0 || c->since < h->c[v].since))
			v = i;
	}
	if (v >= 0)
		drop(&h->c[v]);
	return v;
}

static void accept_all(struct httpd *h)
{
	for (;;) {
		int i, fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		if ((i = slot(h)) < 0) {
			close(fd);     /* every slot is writing an answer: the client retries */
			continue;
		}
		h->c[i].fd = fd;
		h->c[i].ticket = ++h->tickets;
		h->c[i].last = h->c[i].since = h->c[i].req = now_ms();
	}
}

int httpd__serve(struct httpd *h, int timeout_ms, httpd_handler handler, void *arg)
{
	/* every client, the listening socket and the wake-up eventfd */
	struct pollfd pf[HTTPD_MAX_CLIENTS + 2];
	int map[HTTPD_MAX_CLIENTS + 2], n = 0, busy = 0;
	uint64_t t = now_ms();

	for (int i = 0; i < HTTPD_MAX_CLIENTS; i++) {
		struct client *c = &h->c[i];
		if (c->fd < 0)
			continue;
		if (expired(c, t)) {
			drop(c);       /* idle keep-alive, a slow request, a stalled reader */
			continue;
		}
		pf[n].fd = c->fd;
		/* waiting: only whether the client goes (not its next request) */
		pf[n].events = c->waiting ? POLLRDHUP : c->out ? POLLOUT : POLLIN;
		pf[n].revents = 0;
		map[n++] = i;
		busy++;
	}
	/* always accepting: a full table makes room (slot) */
	pf[n].fd = h->fd;
	pf[n].events = POLLIN;
	pf[n].revents = 0;
	map[n++] = -1;
	pf[n].fd = h->wakefd;
	pf[n].events = POLLIN;
	pf[n].revents = 0;
	map[n++] = -2;
	/* wake up in time to time out the first client due */
	if (busy) {
		uint64_t due = UINT64_MAX;
		for (int i = 0; i < HTTPD_MAX_CLIENTS; i++) {
			const struct client *c = &h->c[i];
			uint64_t d = c->out ? c->last + HTTPD_TIMEOUT_MS : c->nin ?
			    c->req + HTTPD_REQUEST_MS : c->since + HTTPD_TIMEOUT_MS;
			if (c->fd >= 0 && !c->waiting && d < due)
				due = d;
		}
		int wait = due > t ? (int)(due - t) : 0;
		if (timeout_ms < 0 || timeout_ms > wait)
			timeout_ms = wait;
	}
	int r = poll(pf, (nfds_t)n, timeout_ms);
	if (r < 0)
		return -1;             /* errno: EINTR when a signal came */
	for (int k = 0; k < n; k++) {
		if (!pf[k].revents)
			continue;
		if (map[k] == -2) {
			uint64_t v;
			if (read(h->wakefd, &v, sizeof(v)) < 0 && errno != EAGAIN)
				return -1;
			continue;
		}
		if (map[k] < 0) {
			accept_all(h);
			continue;
		}
		struct client *c = &h->c[map[k]];
		if (c->waiting || (pf[k].revents & (POLLERR | POLLNVAL))) {
			/* a waiting client that closed (or failed): it goes */
			drop(c);
			continue;
		}
		if (c->out)
			on_writable(c, handler, arg);
		else
			on_readable(c, handler, arg);
	}
	return 0;
}

static struct client *waiting_client(const struct httpd *h, unsigned long long ticket)
{
	for (int i = 0; i < HTTPD_MAX_CLIENTS; i++)
		if (h->c[i].fd >= 0 && h->c[i].waiting && h->c[i].ticket == ticket)
			return (struct client *)&h->c[i];
	return NULL;
}

int httpd__waiting(const struct httpd *h, unsigned long long ticket)
{
	return waiting_client(h, ticket) != NULL;
}

int httpd__answer(struct httpd *h, unsigned long long ticket, struct httpd_response *rs)
{
	struct client *c = waiting_client(h, ticket);
	if (!c) {
		free(rs->body);
		rs->body = NULL;
		return -1;
	}
	c->waiting = 0;
	c->last = now_ms();            /* the answer's write time runs from here */
	respond(c, rs->status, rs->content_type, rs->body, rs->len, rs->headers, c->head_only);
	rs->body = NULL;
	return 0;
}

void httpd__wake(struct httpd *h)
{
	uint64_t one = 1;
	ssize_t w = write(h->wakefd, &one, sizeof(one));
	(void)w;                       /* EAGAIN: a wake is pending already */
}

static int hexval(int ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 :
	    ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

int httpd__query(const char *query, const char *name, char *val, size_t len)
{
	size_t nl = strlen(name);
	for (const char *p = query; p && *p; ) {
		size_t n = strcspn(p, "&;");
		if (n >= nl && !strncmp(p, name, nl) && (n == nl || p[nl] == '=')) {
			size_t o = 0;
			for (size_t i = nl + (n > nl); i < n; i++) {
				int ch = (unsigned char)p[i];
				if (ch == '+') {
					ch = ' ';
				} else if (ch == '%') {
					int hi = i + 2 < n ? hexval(p[i + 1]) : -1;
					int lo = hi >= 0 ? hexval(p[i + 2]) : -1;
					if (lo < 0)
						return -1;
					ch = hi * 16 + lo;
					i += 2;
				}
				if (ch == 0 || o + 1 >= len)
					return -1;
				val[o++] = (char)ch;
			}
			if (len)
				val[o] = '\0';
			return 1;
		}
		p += n + (p[n] != '\0');
	}
	return 0;
}

void httpd__close(struct httpd *h)
{
	if (!h)
		return;
	for (int i = 0; i < HTTPD_MAX_CLIENTS; i++)
		drop(&h->c[i]);
	close(h->fd);
	close(h->wakefd);
	free(h);
}
