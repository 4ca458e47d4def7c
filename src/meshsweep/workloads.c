/* workloads.c - the generated workloads of a sweep, made once per
 * (workload, generator seed) by meshsim-gen, and the generated job
 * attributes of a trace, made once per (trace, attrs, generator seed) by
 * meshsim-gen attrs; both kept next to the tidy CSV, so that every row's
 * inputs can be read again (their SHA-256 is in the row, and each file's
 * header names the command that made it). */
#include "runner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "outfile.h"
#include "proc.h"

#define MAX_ARGS 64
#define KEY_LEN 40

const char *workload_seed(const struct grid *g, size_t p)
{
	int d = grid_find(g, "workload-seed");

	if (d < 0)
		d = grid_find(g, "seed");
	return d < 0 ? "0" : g->dim[d].values[grid_index(g, p, (size_t) d)];
}

/* spec with ':' as '+' and every byte that is not a letter, a digit,
 * '=', '.' or '-' as %XX: a file name, different for different specs. */
static void encode(const char *spec, char *out, size_t len)
{
	static const char keep[] = "=.-";
	size_t n = 0;

	for (; *spec && n + 4 < len; spec++) {
		unsigned char c = (unsigned char) *spec;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || (c && strchr(keep, c)))
			out[n++] = (char) c;
		else if (c == ':')
			out[n++] = '+';
		else
			n += (size_t) snprintf(out + n, len - n, "%%%02X", c);
	}
	out[n] = '\0';
}

void workload_paths(const struct runner *r, size_t p, char *swf, char *attrs)
{
	const struct grid *g = &r->s->grid;
	int dw = grid_find(g, "workload");
	char name[400];

	encode(g->dim[dw].values[grid_index(g, p, (size_t) dw)], name,
	       sizeof(name));
	snprintf(swf, PATH_MAX, "%s/%s-seed%s.swf", r->wl_dir, name,
		 workload_seed(g, p));
	snprintf(attrs, PATH_MAX, "%s/%s-seed%s.csv", r->wl_dir, name,
		 workload_seed(g, p));
}

/* workload "mache:jobs=300:interarrival=1500" -> argv for meshsim-gen;
 * the number of arguments, or -1 for a bad option. */
static int gen_args(struct runner *r, const char *spec, char *seed, char *swf,
		    char *attrs, char **av, char *buf, size_t len,
		    char names[][KEY_LEN])
{
	char *tok, *save = NULL;
	int n = 0;

	snprintf(buf, len, "%s", spec);
	av[n++] = r->meshgen;
	av[n++] = "--workload";
	av[n++] = strtok_r(buf, ":", &save);
	while ((tok = strtok_r(NULL, ":", &save)) && n < MAX_ARGS - 10) {
		char *eq = strchr(tok, '=');

		if (!eq || strlen(tok) > KEY_LEN - 3)
			return -1;
		*eq = '\0';
		snprintf(names[n], KEY_LEN, "--%s", tok);
		av[n] = names[n];
		n++;
		av[n++] = eq + 1;
	}
	av[n++] = "--seed";
	av[n++] = seed;
	av[n++] = "--swf";
	av[n++] = swf;
	av[n++] = "--attrs";
	av[n++] = attrs;
	av[n] = NULL;
	return n;
}

/* Did a point before p that still runs need the same generated file?
 * The same workload, or the same trace and attrs; and the same seed. */
static int made_before(const struct runner *r, size_t p, int d1, int d2)
{
	const struct grid *g = &r->s->grid;
	const char *seed = workload_seed(g, p);
	size_t q;

	for (q = 0; q < p; q++)
		if (!r->done[q] &&
		    grid_index(g, q, (size_t) d1) ==
			grid_index(g, p, (size_t) d1) &&
		    (d2 < 0 || grid_index(g, q, (size_t) d2) ==
				   grid_index(g, p, (size_t) d2)) &&
		    !strcmp(workload_seed(g, q), seed))
			return 1;
	return 0;
}

/* meshsim-gen argv av failed: say which grid line asked for what. */
static int gen_failed(const struct runner *r, int rc, const char *key,
		      const char *spec, const char *err)
{
	const struct grid *g = &r->s->grid;
	char *said;

	if (!rc || cli_caught())
		return rc ? -1 : 0;
	said = proc_read_file(err);
	fprintf(stderr,
		"meshsweep: %s:%ld:%s: meshsim-gen failed for \"%s\" (exit "
		"%d): %s",
		r->s->grid_path, g->dim[grid_find(g, key)].line, key, spec, rc,
		said && *said ? said : "\n");
	free(said);
	return -1;
}

static int make_one(struct runner *r, size_t p)
{
	const struct grid *g = &r->s->grid;
	int dw = grid_find(g, "workload"), rc, n;
	const char *spec = g->dim[dw].values[grid_index(g, p, (size_t) dw)];
	char swf[PATH_MAX], attrs[PATH_MAX], err[PATH_MAX + 16], buf[512];
	char names[MAX_ARGS][KEY_LEN], *av[MAX_ARGS], seed[64];

	snprintf(seed, sizeof(seed), "%s", workload_seed(g, p));
	workload_paths(r, p, swf, attrs);
	snprintf(err, sizeof(err), "%s/gen.err", r->tmpdir);
	n = gen_args(r, spec, seed, swf, attrs, av, buf, sizeof(buf), names);
	rc = n < 0 ? 2 : proc_run(av, err);
	return gen_failed(r, rc, "workload", spec, err);
}

void attrs_path(const struct runner *r, size_t p, char *attrs)
{
	const struct grid *g = &r->s->grid;
	int dt = grid_find(g, "trace"), da = grid_find(g, "attrs");
	const char *trace = g->dim[dt].values[grid_index(g, p, (size_t) dt)];
	const char *base = strrchr(trace, '/');
	char t[200], a[200];

	encode(base ? base + 1 : trace, t, sizeof(t));
	encode(g->dim[da].values[grid_index(g, p, (size_t) da)], a, sizeof(a));
	snprintf(attrs, PATH_MAX, "%s/%s+%s-seed%s.csv", r->wl_dir, t, a,
		 workload_seed(g, p));
}

/* attrs "comm=mix:io-fraction=0.3:phases" -> argv for meshsim-gen attrs
 * (a word without '=' is a flag); the number of arguments, or -1. */
static int attrs_args(struct runner *r, const char *spec, char *trace,
		      char *seed, char *out, char **av, char *buf, size_t len,
		      char names[][KEY_LEN])
{
	char *tok, *save = NULL;
	int n = 0;

	snprintf(buf, len, "%s", spec);
	av[n++] = r->meshgen;
	av[n++] = "attrs";
	av[n++] = "--trace";
	av[n++] = trace;
	for (tok = strtok_r(buf, ":", &save); tok && n < MAX_ARGS - 6;
	     tok = strtok_r(NULL, ":", &save)) {
		char *eq = strchr(tok, '=');

		if (strlen(tok) > KEY_LEN - 3 || (eq && !eq[1]))
			return -1;
		if (eq)
			*eq = '\0';
		snprintf(names[n], KEY_LEN, "--%s", tok);
		av[n] = names[n];
		n++;
		if (eq)
			av[n++] = eq + 1;
	}
	av[n++] = "--seed";
	av[n++] = seed;
	av[n++] = "--attrs";
	av[n++] = out;
	av[n] = NULL;
	return n;
}

static int make_attrs(struct runner *r, size_t p)
{
	const struct grid *g = &r->s->grid;
	int da = grid_find(g, "attrs"), dt = grid_find(g, "trace"), rc, n;
	const char *spec = g->dim[da].values[grid_index(g, p, (size_t) da)];
	char out[PATH_MAX], trace[PATH_MAX], err[PATH_MAX + 16], buf[512];
	char names[MAX_ARGS][KEY_LEN], *av[MAX_ARGS], seed[64];

	snprintf(seed, sizeof(seed), "%s", workload_seed(g, p));
	snprintf(out, sizeof(out), "%s",
		 grid_value(g, p, (size_t) dt, trace, sizeof(trace)));
	snprintf(trace, sizeof(trace), "%s", out);
	attrs_path(r, p, out);
	snprintf(err, sizeof(err), "%s/gen.err", r->tmpdir);
	n = attrs_args(r, spec, trace, seed, out, av, buf, sizeof(buf), names);
	rc = n < 0 ? 2 : proc_run(av, err);
	return gen_failed(r, rc, "attrs", spec, err);
}

int workloads_make(struct runner *r)
{
	const struct grid *g = &r->s->grid;
	int dw = grid_find(g, "workload"), da = grid_find(g, "attrs");
	int dt = grid_find(g, "trace");
	size_t np = grid_points(g), p;

	if (dw < 0 && da < 0)
		return 0;
	if (mkdir(r->wl_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "meshsweep: cannot create %s: %s\n", r->wl_dir,
			strerror(errno));
		return -1;
	}
	for (p = 0; p < np; p++) {
		if (r->done[p])
			continue;
		if (dw >= 0 && !made_before(r, p, dw, -1) && make_one(r, p))
			return -1;
		if (da >= 0 && !made_before(r, p, da, dt) && make_attrs(r, p))
			return -1;
	}
	return 0;
}
