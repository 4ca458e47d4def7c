/* topo.c - mesh/torus construction, parsing and distances. */
#include "topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* Division by d of any i < 2^22 (MESH_MAX_NODES, which bounds node
 * indices and so row numbers) as i * recip >> shift (Granlund and
 * Montgomery 1994, the round-up method): with l = ceil(log2 d), shift =
 * 22 + l and recip = ceil(2^shift / d), recip * d = 2^shift + e with
 * e < d <= 2^l, so i * recip / 2^shift = i / d + i e / (d 2^shift) where
 * i e < 2^(22 + l) = 2^shift: the excess is under 1 / d and the floor is
 * that of i / d.  recip < 2^23 + 1, so i * recip fits in 64 bits. */
_Static_assert(MESH_MAX_NODES == 1u << 22, "set_reciprocal assumes 2^22");

static void set_reciprocal(struct mesh_topo *t, int d)
{
	unsigned l = 0;

	while (((uint64_t) 1 << l) < (uint64_t) t->dim[d])
		l++;
	t->shift[d] = 22 + l;
	t->recip[d] =
	    (((uint64_t) 1 << t->shift[d]) + (uint64_t) t->dim[d] - 1) /
	    (uint64_t) t->dim[d];
}

int mesh_topo_create(int ndims, const int *dim, const bool *wrap,
		     struct mesh_topo **out)
{
	struct mesh_topo *t;
	uint64_t nodes = 1;
	int d;

	if (!out || !dim || ndims < 2 || ndims > MESH_MAX_DIMS)
		return MESH_EINVAL;
	for (d = 0; d < ndims; d++) {
		if (dim[d] < 1)
			return MESH_EINVAL;
		nodes *= (uint64_t) dim[d];
		if (nodes > MESH_MAX_NODES)
			return MESH_ERANGE;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return MESH_ENOMEM;
	t->ndims = ndims;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		t->dim[d] = d < ndims ? dim[d] : 1;
		/* A ring of 1 or 2 nodes has no distinct wrap link. */
		t->wrap[d] = d < ndims && wrap && wrap[d] && t->dim[d] > 2;
	}
	t->nodes = (uint32_t) nodes;
	set_reciprocal(t, 0);
	set_reciprocal(t, 1);
	*out = t;
	return 0;
}

static int parse_dim(const char *s, const char **end, int *len, bool *wrap)
{
	char *e;
	long v;

	if (*s < '0' || *s > '9')
		return MESH_EPARSE;
	errno = 0;
	v = strtol(s, &e, 10);
	if (errno || v < 1 || v > (long) MESH_MAX_NODES)
		return MESH_ERANGE;
	*len = (int) v;
	*wrap = false;
	if (*e == 't' || *e == 'T') {
		*wrap = true;
		e++;
	}
	*end = e;
	return 0;
}

int mesh_topo_parse(const char *spec, struct mesh_topo **out,
		    struct mesh_diag *d)
{
	int dim[MESH_MAX_DIMS];
	bool wrap[MESH_MAX_DIMS];
	const char *p = spec;
	char what[64];
	int n = 0, rc;

	if (!spec || !out)
		return MESH_EINVAL;
	for (;;) {
		if (n == MESH_MAX_DIMS)
			return mesh_diag_set(d, MESH_EPARSE, NULL, 0, "mesh",
					     "more than 3 dimensions in \"%s\"",
					     spec);
		rc = parse_dim(p, &p, &dim[n], &wrap[n]);
		if (rc == MESH_ERANGE)
			return mesh_diag_set(
			    d, rc, NULL, 0, "mesh",
			    *p == '0' && strtol(p, NULL, 10) == 0
				? "\"%s\": dimension %d is 0; each is at least 1 (a mesh has at most %u nodes)"
				: "\"%s\": dimension %d is too large (a mesh has at most %u nodes)",
			    spec, n + 1, MESH_MAX_NODES);
		if (rc)
			return mesh_diag_set(
			    d, rc, NULL, 0, "mesh",
			    "expected WxH[xD] with positive integers and optional 't' for wraparound, got \"%s\"",
			    spec);
		n++;
		if (*p == '\0')
			break;
		if (*p != 'x' && *p != 'X')
			return mesh_diag_set(
			    d, MESH_EPARSE, NULL, 0, "mesh",
			    "unexpected %s in \"%s\": separate the dimensions with the letter 'x', as in 4x4x2",
			    mesh_diag_char(p, what, sizeof(what)), spec);
		p++;
	}
	if (n < 2)
		return mesh_diag_set(d, MESH_EPARSE, NULL, 0, "mesh",
				     "need 2 or 3 dimensions, got \"%s\"",
				     spec);
	rc = mesh_topo_create(n, dim, wrap, out);
	if (rc == MESH_ERANGE) {
		double nodes = 1;
		int i;

		for (i = 0; i < n; i++)
			nodes *= dim[i];
		return mesh_diag_set(
		    d, rc, NULL, 0, "mesh",
		    "\"%s\": %.0f nodes, too many (a mesh has at most %u nodes)",
		    spec, nodes, MESH_MAX_NODES);
	}
	if (rc)
		return mesh_diag_set(d, rc, NULL, 0, "mesh", "\"%s\": %s", spec,
				     mesh_strerror(rc));
	return 0;
}

void mesh_topo_destroy(struct mesh_topo *t)
{
	if (!t)
		return;
	free(t->io_nodes);
	free(t);
}

const char *mesh_topo_format(const struct mesh_topo *t, char *buf, size_t len)
{
	size_t used = 0;
	int d, n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (d = 0; d < t->ndims && used < len; d++) {
		n = snprintf(buf + used, len - used, "%s%d%s", d ? "x" : "",
			     t->dim[d], t->wrap[d] ? "t" : "");
		if (n < 0)
			break;
		used += (size_t) n;
	}
	return buf;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

int mesh_topo_set_io_nodes(struct mesh_topo *t, const uint32_t *idx, size_t n)
{
	uint32_t *copy = NULL;
	size_t i;

	if (!t || (n && !idx))
		return MESH_EINVAL;
	if (n) {
		copy = malloc(n * sizeof(*copy));
		if (!copy)
			return MESH_ENOMEM;
		memcpy(copy, idx, n * sizeof(*copy));
		qsort(copy, n, sizeof(*copy), cmp_u32);
		for (i = 0; i < n; i++) {
			if (copy[i] >= t->nodes ||
			    (i && copy[i] == copy[i - 1])) {
				free(copy);
				return MESH_EINVAL;
			}
		}
	}
	free(t->io_nodes);
	t->io_nodes = copy;
	t->n_io = n;
	return 0;
}

int mesh_coord_parse(const char *s, int c[MESH_MAX_DIMS])
{
	int n = 0;
	char *end;
	long v;

	for (;;) {
		if (n == MESH_MAX_DIMS || *s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || v > (long) MESH_MAX_NODES)
			return -1;
		c[n++] = (int) v;
		if (*end == '\0')
			return n;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

int mesh_topo_coord_index(const struct mesh_topo *t, const int *c, int n,
			  uint32_t *idx)
{
	int full[MESH_MAX_DIMS] = { 0, 0, 0 }, k;

	if (n != t->ndims)
		return MESH_ERANGE;
	for (k = 0; k < n; k++) {
		if (c[k] < 0 || c[k] >= t->dim[k])
			return MESH_ERANGE;
		full[k] = c[k];
	}
	*idx = mesh_topo_index(t, full);
	return 0;
}

/* One "x,y[,z]" item of an I/O list into idx[*n]. */
static int io_item(struct mesh_topo *t, const char *item, uint32_t *idx,
		   size_t *n, struct mesh_diag *d)
{
	int co[MESH_MAX_DIMS], nc = mesh_coord_parse(item, co);
	char dims[64];

	if (nc < 0 || mesh_topo_coord_index(t, co, nc, &idx[*n]))
		return mesh_diag_set(
		    d, MESH_ERANGE, NULL, 0, "IONodes",
		    "bad I/O node coordinate \"%s\": expected x,y[,z] inside the dimensions %s",
		    item, mesh_topo_format(t, dims, sizeof(dims)));
	if (++*n > t->nodes)
		return mesh_diag_set(d, MESH_ERANGE, NULL, 0, "IONodes",
				     "more I/O nodes than mesh positions");
	return 0;
}

int mesh_topo_parse_io_nodes(struct mesh_topo *t, const char *list,
			     struct mesh_diag *d)
{
	char *copy, *item, *save = NULL;
	uint32_t *idx;
	size_t n = 0;
	int rc = 0;

	if (!t || !list)
		return MESH_EINVAL;
	copy = strdup(list);
	idx = calloc((size_t) t->nodes + 1, sizeof(*idx));
	if (!copy || !idx)
		rc = MESH_ENOMEM;
	for (item = rc ? NULL : strtok_r(copy, ";", &save); item && !rc;
	     item = strtok_r(NULL, ";", &save))
		rc = io_item(t, item, idx, &n, d);
	if (!rc && n == 0)
		rc = mesh_diag_set(d, MESH_EPARSE, NULL, 0, "IONodes",
				   "bad value \"%s\": no coordinates", list);
	if (!rc && (rc = mesh_topo_set_io_nodes(t, idx, n)) == MESH_EINVAL)
		rc = mesh_diag_set(d, MESH_EINVAL, NULL, 0, "IONodes",
				   "an I/O node is listed twice in \"%s\"",
				   list);
	free(copy);
	free(idx);
	return rc;
}

bool mesh_topo_is_io(const struct mesh_topo *t, uint32_t idx)
{
	return t->n_io &&
	       bsearch(&idx, t->io_nodes, t->n_io, sizeof(idx), cmp_u32);
}

int mesh_topo_distance(const struct mesh_topo *t, uint32_t a, uint32_t b)
{
	int ca[MESH_MAX_DIMS], cb[MESH_MAX_DIMS];
	int d, sum = 0;

	mesh_topo_coords(t, a, ca);
	mesh_topo_coords(t, b, cb);
	for (d = 0; d < MESH_MAX_DIMS; d++)
		sum += mesh_topo_axis_distance(t, d, ca[d], cb[d]);
	return sum;
}

int mesh_topo_check(const struct mesh_topo *t)
{
	int c[MESH_MAX_DIMS], d;
	uint64_t n = 1;
	size_t i;

	if (!t || t->ndims < 2 || t->ndims > MESH_MAX_DIMS)
		return MESH_EINTERNAL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (t->dim[d] < 1 || (d >= t->ndims && t->dim[d] != 1))
			return MESH_EINTERNAL;
		n *= (uint64_t) t->dim[d];
	}
	if (n != t->nodes)
		return MESH_EINTERNAL;
	/* mesh_topo_coords's reciprocals: the last node's coordinates */
	mesh_topo_coords(t, t->nodes - 1, c);
	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (c[d] != t->dim[d] - 1)
			return MESH_EINTERNAL;
	for (i = 0; i < t->n_io; i++)
		if (t->io_nodes[i] >= t->nodes ||
		    (i && t->io_nodes[i] <= t->io_nodes[i - 1]))
			return MESH_EINTERNAL;
	return 0;
}
