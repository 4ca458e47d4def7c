/* hints.c - parsing of per-job hints (shape, I/O intensity, pattern). */
#include "hints.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

void mesh_hints_init(struct mesh_job_hints *h)
{
	memset(h, 0, sizeof(*h));
	h->io_intensity = -1;
	h->comm = MESH_COMM_UNKNOWN;
}

int mesh_shape_parse(const char *s, int shape[MESH_MAX_DIMS],
		     struct mesh_diag *d)
{
	int got[MESH_MAX_DIMS] = { 1, 1, 1 };
	const char *p = s;
	int n = 0;
	char *end;

	/* Into got[] first: a value that fails half-way leaves shape as it
	 * was, so the caller's default still applies. */
	while (p && n < MESH_MAX_DIMS) {
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || *p == '-' || *p == '+' || errno || v < 1 ||
		    v > (1L << 22))
			break;
		got[n++] = (int) v;
		if (!*end && n >= 2) {
			memcpy(shape, got, sizeof(got));
			return 0;
		}
		if (*end != 'x')
			break;
		p = end + 1;
	}
	return mesh_diag_set(d, MESH_EINVAL, NULL, 0, "shape",
			     "bad shape \"%.64s\": expected WxH or WxHxD with "
			     "positive integers, e.g. 4x2",
			     s ? s : "");
}

int mesh_io_intensity_parse(const char *s, double *v, struct mesh_diag *d)
{
	char *end;
	double x;

	errno = 0;
	x = s ? strtod(s, &end) : NAN;
	if (!s || end == s || *end || errno || !(x >= 0 && x <= 1))
		return mesh_diag_set(d, MESH_EINVAL, NULL, 0, "io-intensity",
				     "bad I/O intensity \"%.64s\": expected a "
				     "number from 0 to 1",
				     s ? s : "");
	*v = x;
	return 0;
}

int mesh_comm_parse_checked(const char *s, enum mesh_comm *c,
			    struct mesh_diag *d)
{
	enum mesh_comm x = mesh_comm_parse(s);

	if (x == MESH_COMM_UNKNOWN)
		return mesh_diag_set(d, MESH_EINVAL, NULL, 0, "comm",
				     "bad communication pattern \"%.64s\": "
				     "expected all-to-all, one-to-all, "
				     "nearest, chain or none",
				     s ? s : "");
	*c = x;
	return 0;
}

/* The value of "NAME=value" if it names key, else NULL. */
static const char *env_value(const char *kv, const char *key)
{
	size_t n = strlen(key);

	return kv && !strncmp(kv, key, n) && kv[n] == '=' ? kv + n + 1 : NULL;
}

int mesh_hints_from_env(const char *const *env, size_t n,
			struct mesh_job_hints *h, struct mesh_diag *d)
{
	struct mesh_diag later;
	const char *v;
	size_t i;
	int rc = 0, r;

	/* Every hint is read; a bad one is skipped, the first reported. */
	for (i = 0; i < n; i++) {
		struct mesh_diag *dd = rc ? &later : d;

		if ((v = env_value(env[i], MESH_HINT_SHAPE)))
			r = mesh_shape_parse(v, h->shape, dd);
		else if ((v = env_value(env[i], MESH_HINT_IO_INTENSITY)))
			r = mesh_io_intensity_parse(v, &h->io_intensity, dd);
		else if ((v = env_value(env[i], MESH_HINT_COMM)))
			r = mesh_comm_parse_checked(v, &h->comm, dd);
		else
			r = 0;
		if (!rc)
			rc = r;
	}
	return rc;
}
