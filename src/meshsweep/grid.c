/* grid.c - reading meshsweep's grid file (grid.h). */
#include "grid.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* meshsim options that take a value and may be a grid dimension. */
static const char *const known_keys[] = { "trace",          "workload",
					  "attrs",          "mesh",
					  "mesh-conf",      "io-nodes",
					  "allocator",      "allocator-params",
					  "scheduler",      "priority",
					  "alpha",          "load",
					  "estimate",       "size",
					  "seed",           "workload-seed",
					  "runtime-model",  "comm",
					  "comm-share",     "io-share",
					  "pfs-bandwidth",  "node-bandwidth",
					  "link-bandwidth", "ion-bandwidth",
					  "rank-order",     "spatial-estimate",
					  "pf-max-size",    "cores-per-node",
					  "window",         "warmup",
					  "cooldown",       "bootstrap",
					  "bootstrap-seed", NULL };

static int fail(const char *path, long line, const char *key, const char *msg,
		const char *arg)
{
	fprintf(stderr, "meshsweep: %s:%ld:%s: ", path, line, key);
	fprintf(stderr, msg, arg);
	fputc('\n', stderr);
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char) *s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char) e[-1]))
		*--e = '\0';
	return s;
}

static int known(const char *key)
{
	int i;

	for (i = 0; known_keys[i]; i++)
		if (!strcmp(key, known_keys[i]))
			return 1;
	return 0;
}

/* Comma-separated values of one dimension; a value in double quotes
 * may contain commas (io-nodes = "0,0;0,1"). */
static int add_values(const char *path, long line, struct grid_dim *d,
		      char *list)
{
	char *p = list, *v;

	while (*p) {
		while (isspace((unsigned char) *p))
			p++;
		if (*p == '"') {
			v = ++p;
			p = strchr(p, '"');
			if (!p)
				return fail(path, line, d->key,
					    "unterminated quote in \"%s\"",
					    v - 1);
			*p++ = '\0';
			while (isspace((unsigned char) *p))
				p++;
			if (*p && *p != ',')
				return fail(path, line, d->key,
					    "expected a comma after \"%s\"", v);
		} else {
			v = p;
			p += strcspn(p, ",");
			if (*p)
				*p++ = '\0';
			v = trim(v);
		}
		if (*p == ',')
			p++;
		if (!*v)
			return fail(path, line, d->key, "empty value%s", "");
		if (d->n == GRID_MAX_VALUES)
			return fail(path, line, d->key, "more than %s values",
				    "64");
		d->values[d->n] = strdup(v);
		if (!d->values[d->n++])
			return fail(path, line, d->key, "%s", "out of memory");
	}
	if (!d->n)
		return fail(path, line, d->key, "no value%s", "");
	return 0;
}

static int parse_line(const char *path, long line, char *text, struct grid *g)
{
	char *eq = strchr(text, '='), *key, *val;
	struct grid_dim *d;

	if (!eq)
		return fail(path, line, "line",
			    "expected key = value[, value...], got \"%.60s\"",
			    trim(text));
	*eq = '\0';
	key = trim(text);
	val = trim(eq + 1);
	if (!strcmp(key, "flags")) {
		if (g->flags)
			return fail(path, line, key, "given twice%s", "");
		g->flags = strdup(val);
		return g->flags ? 0 : -1;
	}
	if (!known(key))
		return fail(
		    path, line, key,
		    "unknown key \"%s\" (a meshsim option with a value, "
		    "trace, workload or flags)",
		    key);
	if (grid_find(g, key) >= 0)
		return fail(path, line, key, "given twice%s", "");
	if (g->ndims == GRID_MAX_DIMS)
		return fail(path, line, key, "too many keys%s", "");
	d = &g->dim[g->ndims++];
	snprintf(d->key, sizeof(d->key), "%s", key);
	d->line = line;
	return add_values(path, line, d, val);
}

int grid_load(const char *path, struct grid *g)
{
	struct stat st;
	char *buf = NULL;
	size_t cap = 0;
	long line = 0;
	FILE *f;
	int rc = 0;

	memset(g, 0, sizeof(*g));
	g->path = path;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"meshsweep: %s: is a directory, not a grid file\n",
			path);
		return -1;
	}
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "meshsweep: %s: cannot open: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (!rc && getline(&buf, &cap, f) >= 0) {
		char *hash = strchr(buf, '#');

		line++;
		if (hash)
			*hash = '\0';
		if (*trim(buf))
			rc = parse_line(path, line, buf, g);
	}
	free(buf);
	fclose(f);
	if (!rc && grid_find(g, "trace") < 0 && grid_find(g, "workload") < 0)
		rc = fail(
		    path, line, "trace",
		    "no trace or workload key (what should be replayed?)%s",
		    "");
	if (!rc && grid_find(g, "trace") >= 0 && grid_find(g, "workload") >= 0)
		rc = fail(path, g->dim[grid_find(g, "workload")].line,
			  "workload", "give trace or workload, not both%s", "");
	if (!rc && grid_find(g, "attrs") >= 0 && grid_find(g, "trace") < 0)
		rc = fail(path, g->dim[grid_find(g, "attrs")].line, "attrs",
			  "attrs generates a trace's job attributes: give a "
			  "trace key%s (a workload has its own)",
			  "");
	if (rc)
		grid_free(g);
	return rc;
}

void grid_free(struct grid *g)
{
	size_t d, v;

	for (d = 0; d < g->ndims; d++)
		for (v = 0; v < g->dim[d].n; v++)
			free(g->dim[d].values[v]);
	free(g->flags);
	memset(g, 0, sizeof(*g));
}

size_t grid_points(const struct grid *g)
{
	size_t d, n = 1;

	for (d = 0; d < g->ndims; d++)
		n *= g->dim[d].n;
	return n;
}

size_t grid_index(const struct grid *g, size_t p, size_t d)
{
	size_t e;

	for (e = g->ndims; e-- > d + 1;)
		p /= g->dim[e].n;
	return p % g->dim[d].n;
}

const char *grid_value(const struct grid *g, size_t p, size_t d, char *buf,
		       size_t len)
{
	const char *v = g->dim[d].values[grid_index(g, p, d)];
	const char *slash = strrchr(g->path, '/');

	if ((strcmp(g->dim[d].key, "trace") &&
	     strcmp(g->dim[d].key, "mesh-conf")) ||
	    v[0] == '/' || !slash)
		return v;
	snprintf(buf, len, "%.*s/%s", (int) (slash - g->path), g->path, v);
	return buf;
}

int grid_find(const struct grid *g, const char *key)
{
	size_t d;

	for (d = 0; d < g->ndims; d++)
		if (!strcmp(g->dim[d].key, key))
			return (int) d;
	return -1;
}
