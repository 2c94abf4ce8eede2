/*
 * test_httpd.c — analysis/serve/httpd.c's pieces behind `pmc exporter`'s
 * /debug/pprof/profile: the query string (httpd__parse_head's query,
 * httpd__query's decoding) and deferred answers on real sockets (a request
 * the handler leaves waiting while the server answers others, answered
 * later with extra header lines; a waiting client that closes is dropped).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve/httpd.h"

static void test_query(void **state)
{
	char v[16];
	(void)state;
	assert_int_equal(httpd__query("seconds=30&hz=99", "seconds", v, sizeof(v)), 1);
	assert_string_equal(v, "30");
	assert_int_equal(httpd__query("seconds=30&hz=99", "hz", v, sizeof(v)), 1);
	assert_string_equal(v, "99");
	assert_int_equal(httpd__query("seconds=30&hz=99", "debug", v, sizeof(v)), 0);
	assert_int_equal(httpd__query("", "hz", v, sizeof(v)), 0);
	/* a longer name that starts with it is another parameter */
	assert_int_equal(httpd__query("hzz=5;hz=7", "hz", v, sizeof(v)), 1);
	assert_string_equal(v, "7");
	/* the first of two, as Go's FormValue */
	assert_int_equal(httpd__query("hz=1&hz=2", "hz", v, sizeof(v)), 1);
	assert_string_equal(v, "1");
	/* decoded: %XX and '+' */
	assert_int_equal(httpd__query("seconds=%33%30&x=a+b", "seconds", v, sizeof(v)), 1);
	assert_string_equal(v, "30");
	assert_int_equal(httpd__query("seconds=%33%30&x=a+b", "x", v, sizeof(v)), 1);
	assert_string_equal(v, "a b");
	/* no '=': an empty value */
	assert_int_equal(httpd__query("seconds&hz=3", "seconds", v, sizeof(v)), 1);
	assert_string_equal(v, "");
	/* malformed: a bad escape, a NUL, too long */
	assert_int_equal(httpd__query("seconds=%zz", "seconds", v, sizeof(v)), -1);
	assert_int_equal(httpd__query("seconds=1%", "seconds", v, sizeof(v)), -1);
	assert_int_equal(httpd__query("seconds=%00", "seconds", v, sizeof(v)), -1);
	assert_int_equal(httpd__query("seconds=0123456789abcdef", "seconds", v, sizeof(v)), -1);
	assert_int_equal(httpd__query("seconds=0123456789abcde", "seconds", v, sizeof(v)), 1);
}

static void test_head_query(void **state)
{
	struct httpd_head h;
	char a[] = "GET /debug/pprof/profile?seconds=5&hz=99#frag HTTP/1.1\r\nHost: x\r\n\r\n";
	char b[] = "GET /metrics HTTP/1.1\r\n\r\n";
	char c[] = "GET /x?#y HTTP/1.0\r\n\r\n";
	(void)state;
	assert_int_equal(httpd__parse_head(a, &h), 0);
	assert_string_equal(h.path, "/debug/pprof/profile");
	assert_string_equal(h.query, "seconds=5&hz=99");
	assert_int_equal(httpd__parse_head(b, &h), 0);
	assert_string_equal(h.path, "/metrics");
	assert_string_equal(h.query, "");
	assert_int_equal(httpd__parse_head(c, &h), 0);
	assert_string_equal(h.path, "/x");
	assert_string_equal(h.query, "");
}

/* ---- deferred answers ----------------------------------------------------------- */

struct srv {
	unsigned long long slow;       /* the ticket of /slow, 0 none yet */
	int nslow;
};

static void handler(void *arg, const struct httpd_request *rq, struct httpd_response *rs)
{
	struct srv *s = arg;
	if (!strcmp(rq->path, "/slow")) {
		s->slow = rq->ticket;
		s->nslow++;
		rs->status = HTTPD_LATER;
		return;
	}
	rs->status = 200;
	rs->body = strdup("fast\n");
	rs->len = 5;
}

static int connect_to(const struct httpd *h)
{
	const char *a = httpd__address(h);
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	assert_true(fd >= 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)atoi(strrchr(a, ':') + 1));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno == EINPROGRESS);
	return fd;
}

static void put(int fd, const char *s)
{
	size_t off = 0, n = strlen(s);
	while (off < n) {
		ssize_t w = send(fd, s + off, n - off, MSG_NOSIGNAL);
		if (w > 0)
			off += (size_t)w;
		else
			assert_true(errno == EAGAIN || errno == ENOTCONN);
	}
}

/* Serve until fd has a whole answer (its head's blank line and the body
 * of Content-Length), which goes into buf: its length. */
static size_t answer(struct httpd *h, struct srv *s, int fd, char *buf, size_t cap)
{
	size_t n = 0;
	for (;;) {
		assert_int_equal(httpd__serve(h, 20, handler, s), 0);
		ssize_t r = recv(fd, buf + n, cap - 1 - n, 0);
		if (r > 0)
			n += (size_t)r;
		buf[n] = '\0';
		char *end = strstr(buf, "\r\n\r\n");
		const char *cl = strstr(buf, "Content-Length: ");
		if (end && cl && n >= (size_t)(end + 4 - buf) + (size_t)atol(cl + 16))
			return n;
	}
}

static void test_deferred(void **state)
{
	struct srv s = { 0, 0 };
	int usage;
	char buf[4096];
	(void)state;
	struct httpd *h = httpd__listen("127.0.0.1:0", &usage);
	assert_non_null(h);

	int slow = connect_to(h);
	put(slow, "GET /slow?seconds=9 HTTP/1.1\r\nHost: x\r\n\r\n");
	while (!s.nslow)
		assert_int_equal(httpd__serve(h, 20, handler, &s), 0);
	assert_true(httpd__waiting(h, s.slow));
	/* meanwhile another client is answered, however often */
	for (int i = 0; i < 3; i++) {
		int fast = connect_to(h);
		put(fast, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
		answer(h, &s, fast, buf, sizeof(buf));
		assert_non_null(strstr(buf, "HTTP/1.1 200 OK\r\n"));
		assert_non_null(strstr(buf, "\r\n\r\nfast\n"));
		close(fast);
	}
	/* the waiting one has had nothing, and still waits */
	assert_true(recv(slow, buf, sizeof(buf), 0) < 0 && errno == EAGAIN);
	assert_true(httpd__waiting(h, s.slow));
	/* a wake from elsewhere makes serve return (no client has anything) */
	httpd__wake(h);
	assert_int_equal(httpd__serve(h, -1, handler, &s), 0);
	/* answered later, with a header line of the owner's */
	struct httpd_response rs = { 429, "text/plain", strdup("busy\n"), 5, "Retry-After: 7\r\n" };
	assert_int_equal(httpd__answer(h, s.slow, &rs), 0);
	assert_null(rs.body);
	assert_false(httpd__waiting(h, s.slow));
	answer(h, &s, slow, buf, sizeof(buf));
	assert_non_null(strstr(buf, "HTTP/1.1 429 Too Many Requests\r\n"));
	assert_non_null(strstr(buf, "\r\nRetry-After: 7\r\n"));
	assert_non_null(strstr(buf, "\r\n\r\nbusy\n"));
	/* the connection is kept: its next request is read and answered */
	put(slow, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
	answer(h, &s, slow, buf, sizeof(buf));
	assert_non_null(strstr(buf, "fast\n"));
	/* a second answer to the same ticket: nobody waits */
	struct httpd_response again = { 200, NULL, strdup("x"), 1, NULL };
	assert_int_equal(httpd__answer(h, s.slow, &again), -1);
	close(slow);

	/* a waiting client that closes is dropped */
	int gone = connect_to(h);
	put(gone, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
	while (s.nslow < 2)
		assert_int_equal(httpd__serve(h, 20, handler, &s), 0);
	assert_true(httpd__waiting(h, s.slow));
	close(gone);
	while (httpd__waiting(h, s.slow))
		assert_int_equal(httpd__serve(h, 20, handler, &s), 0);
	struct httpd_response late = { 200, NULL, strdup("x"), 1, NULL };
	assert_int_equal(httpd__answer(h, s.slow, &late), -1);
	httpd__close(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_head_query),
		cmocka_unit_test(test_deferred),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
