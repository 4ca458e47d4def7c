/* conf.c - the mesh.conf parser.
 *
 * HOW IT WORKS: a first pass (conf_lex.c) tokenises the text line by
 * line and only records each key's raw value and line (so keys may come
 * in any order); a second pass, here, builds the topology, places the
 * nodes (explicit coordinates first, then the Nodes= list in NodeOrder),
 * applies the I/O nodes and creates the allocator once to prove the name
 * and parameters valid.  Every error names the file, the line and the
 * key.
 */
#include "conf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "conf_raw.h"
#include "error.h"
#include "hostlist.h"

#define CONF_MAX_BYTES (16u << 20)

/* NodeOrder=yxz etc.: perm[k] is the dimension that varies k-th fastest. */
static int parse_order(const struct conf_raw *r, const struct mesh_topo *t,
		       int perm[MESH_MAX_DIMS], struct mesh_diag *d)
{
	const char *s = r->order.val;
	bool seen[MESH_MAX_DIMS] = { false, false, false };
	int k, dim;

	for (k = 0; k < MESH_MAX_DIMS; k++)
		perm[k] = k;
	if (!s)
		return 0;
	if (strlen(s) != (size_t) t->ndims)
		goto bad;
	for (k = 0; k < t->ndims; k++) {
		dim = (s[k] | 0x20) - 'x';
		if (dim < 0 || dim >= t->ndims || seen[dim])
			goto bad;
		seen[dim] = true;
		perm[k] = dim;
	}
	return 0;
bad:
	return mesh__conf_err(
	    d, MESH_EPARSE, r, r->order.line, "NodeOrder",
	    "bad value \"%s\": expected a permutation of %s (first letter varies fastest)",
	    s, t->ndims == 2 ? "xy" : "xyz");
}

/* Mesh index of the i-th position when perm[0] varies fastest. */
static uint32_t order_index(const struct mesh_topo *t, const int perm[3],
			    uint32_t i)
{
	int c[MESH_MAX_DIMS] = { 0, 0, 0 }, k;

	for (k = 0; k < MESH_MAX_DIMS; k++) {
		c[perm[k]] = (int) (i % (uint32_t) t->dim[perm[k]]);
		i /= (uint32_t) t->dim[perm[k]];
	}
	return mesh_topo_index(t, c);
}

static int place(struct mesh_conf *c, const struct conf_raw *r, uint32_t idx,
		 const char *name, long line, const char *key,
		 struct mesh_diag *d)
{
	char other[320];

	if (c->node_name[idx] && !strcmp(key, "Nodes")) {
		/* The explicit Coord= is the line to fix. */
		snprintf(other, sizeof(other), "%s (line %ld, from Nodes=)",
			 name, line);
		return mesh__conf_err(
		    d, MESH_EINVAL, r, c->node_line[idx], "Coord",
		    "node %s is on the same coordinate as node %s",
		    c->node_name[idx], other);
	}
	if (c->node_name[idx]) {
		snprintf(other, sizeof(other), "%s (line %ld)",
			 c->node_name[idx], c->node_line[idx]);
		return mesh__conf_err(
		    d, MESH_EINVAL, r, line, key,
		    "node %s is on the same coordinate as node %s", name,
		    other);
	}
	c->node_name[idx] = strdup(name);
	if (!c->node_name[idx])
		return MESH_ENOMEM;
	c->node_line[idx] = line;
	c->n_named++;
	return 0;
}

static const struct conf_def *find_def(const struct conf_raw *r,
				       const char *name)
{
	size_t i;

	for (i = 0; i < r->ndefs; i++)
		if (!strcmp(r->defs[i].name, name))
			return &r->defs[i];
	return NULL;
}

static int place_defs(struct mesh_conf *c, const struct conf_raw *r,
		      struct mesh_diag *d)
{
	const struct mesh_topo *t = c->topo;
	char dims[64];
	uint32_t idx;
	size_t i;
	int rc;

	mesh_topo_format(t, dims, sizeof(dims));
	for (i = 0; i < r->ndefs; i++) {
		const struct conf_def *def = &r->defs[i];

		if (find_def(r, def->name) != def)
			return mesh__conf_err(
			    d, MESH_EINVAL, r, def->line, "NodeName",
			    "node %s is given a coordinate twice", def->name);
		if (mesh_topo_coord_index(t, def->coord, def->ncoord, &idx))
			return mesh__conf_err(
			    d, MESH_ERANGE, r, def->line, "Coord",
			    "coordinate of node %s is outside the dimensions %s (need one 0-based value per dimension)",
			    def->name, dims);
		rc = place(c, r, idx, def->name, def->line, "Coord", d);
		if (rc)
			return rc;
	}
	return 0;
}

static int place_list(struct mesh_conf *c, const struct conf_raw *r,
		      const int perm[3], struct mesh_diag *d)
{
	char **names = NULL, cnt[64];
	size_t n = 0, i;
	int rc;

	rc = mesh_hostlist_expand(r->nodes.val, MESH_MAX_NODES, &names, &n, d);
	if (rc)
		return mesh__conf_relocate(d, rc, r, r->nodes.line, "Nodes");
	if (n > c->topo->nodes) {
		snprintf(cnt, sizeof(cnt), "%zu names but %u positions", n,
			 c->topo->nodes);
		rc = mesh__conf_err(
		    d, MESH_ERANGE, r, r->nodes.line, "Nodes",
		    "more node names than mesh positions (%s in %s)", cnt,
		    r->dims.val);
		goto out;
	}
	for (i = 0; i < n && !rc; i++) {
		if (find_def(r, names[i]))
			continue; /* moved by NodeName=/Coord= */
		rc = place(c, r, order_index(c->topo, perm, (uint32_t) i),
			   names[i], r->nodes.line, "Nodes", d);
	}
out:
	mesh_hostlist_free(names, n);
	return rc;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct mesh_conf_entry *) a)->name,
		      ((const struct mesh_conf_entry *) b)->name);
}

static int build_index(struct mesh_conf *c, const struct conf_raw *r,
		       struct mesh_diag *d)
{
	uint32_t i, k = 0;

	c->by_name = calloc(c->n_named ? c->n_named : 1, sizeof(*c->by_name));
	if (!c->by_name)
		return MESH_ENOMEM;
	for (i = 0; i < c->topo->nodes; i++) {
		if (!c->node_name[i])
			continue;
		c->by_name[k].name = c->node_name[i];
		c->by_name[k++].idx = i;
	}
	qsort(c->by_name, k, sizeof(*c->by_name), cmp_entry);
	for (i = 1; i < k; i++) {
		uint32_t a = c->by_name[i].idx;

		if (strcmp(c->by_name[i - 1].name, c->by_name[i].name))
			continue;
		return mesh__conf_err(d, MESH_EINVAL, r, c->node_line[a],
				      "Nodes", "node %s is listed twice",
				      c->node_name[a]);
	}
	return 0;
}

/* x,y[,z];... with integers (a minus sign may start one, to be refused
 * as out of range), as opposed to a list of node names. */
static bool is_coord_list(const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (!strchr("0123456789,;", *p) &&
		    (*p != '-' || (p > s && !strchr(",;", p[-1]))))
			return false;
	return true;
}

/* IONodes=-1,0: name the negative coordinate and the valid range. */
static int negative_coord(const struct mesh_conf *c, const struct conf_raw *r,
			  struct mesh_diag *d)
{
	const char *p = strchr(r->io.val, '-'), *item = p, *end;
	char dims[64];

	if (!p)
		return 0;
	while (item > r->io.val && item[-1] != ';')
		item--;
	end = item + strcspn(item, ";");
	return mesh__conf_err(
	    d, MESH_ERANGE, r, r->io.line, "IONodes",
	    "I/O node coordinate \"%.*s\" is out of range: %.*s is below 0 (coordinates run from 0 to size - 1 in Dimensions=%s)",
	    (int) (end - item), item, (int) strspn(p + 1, "0123456789") + 1, p,
	    mesh_topo_format(c->topo, dims, sizeof(dims)));
}

static int io_from_names(const struct mesh_conf *c, const struct conf_raw *r,
			 uint32_t *idx, size_t *n, struct mesh_diag *d)
{
	char **names = NULL;
	size_t cnt = 0, i;
	int rc;

	rc = mesh_hostlist_expand(r->io.val, c->topo->nodes, &names, &cnt, d);
	if (rc)
		return mesh__conf_relocate(d, rc, r, r->io.line, "IONodes");
	for (i = 0; i < cnt && !rc; i++)
		if (mesh_conf_lookup(c, names[i], &idx[(*n)++]))
			rc = mesh__conf_err(
			    d, MESH_EINVAL, r, r->io.line, "IONodes",
			    "I/O node %s is not a node of the mesh", names[i]);
	mesh_hostlist_free(names, cnt);
	return rc;
}

static int apply_io(struct mesh_conf *c, const struct conf_raw *r,
		    struct mesh_diag *d)
{
	uint32_t *idx;
	size_t n = 0;
	int rc;

	if (!r->io.val)
		return 0;
	if (is_coord_list(r->io.val)) {
		if ((rc = negative_coord(c, r, d)))
			return rc;
		rc = mesh_topo_parse_io_nodes(c->topo, r->io.val, d);
		return rc ? mesh__conf_relocate(d, rc, r, r->io.line, "IONodes")
			  : 0;
	}
	idx = calloc((size_t) c->topo->nodes + 1, sizeof(*idx));
	if (!idx)
		return MESH_ENOMEM;
	rc = io_from_names(c, r, idx, &n, d);
	if (!rc &&
	    (rc = mesh_topo_set_io_nodes(c->topo, idx, n)) == MESH_EINVAL)
		rc = mesh__conf_err(d, MESH_EINVAL, r, r->io.line, "IONodes",
				    "an I/O node is listed twice in \"%s\"",
				    r->io.val);
	free(idx);
	return rc;
}

static int check_allocator(struct mesh_conf *c, const struct conf_raw *r,
			   struct mesh_diag *d)
{
	struct mesh_allocator *a = NULL;
	int rc;

	if (!r->alloc.val)
		return mesh__conf_err(
		    d, MESH_EPARSE, r, r->last_line, "Allocator",
		    "missing Allocator= (see meshsim --list-allocators)");
	rc = mesh_alloc_create(c->topo, r->alloc.val, r->params.val, &a, d);
	if (rc == MESH_ENOMEM)
		return rc;
	if (rc == MESH_ENOENT || (rc && !r->params.val))
		return mesh__conf_relocate(d, rc, r, r->alloc.line,
					   "Allocator");
	if (rc)
		return mesh__conf_relocate(d, rc, r, r->params.line,
					   "AllocatorParameters");
	mesh_alloc_destroy(a);
	c->allocator = strdup(r->alloc.val);
	c->alloc_params = r->params.val ? strdup(r->params.val) : NULL;
	if (!c->allocator || (r->params.val && !c->alloc_params))
		return MESH_ENOMEM;
	return 0;
}

/* Curve=: a known curve that can order this mesh. */
static int check_curve(struct mesh_conf *c, const struct conf_raw *r,
		       struct mesh_diag *d)
{
	uint32_t *order;
	int rc;

	c->curve = MESH_CURVE_HILBERT;
	if (r->curve.val && mesh_curve_parse(r->curve.val, &c->curve))
		return mesh__conf_err(
		    d, MESH_EINVAL, r, r->curve.line, "Curve",
		    "unknown curve \"%.64s\": expected rowmajor, "
		    "snake, colsnake or hilbert",
		    r->curve.val);
	order = malloc(c->topo->nodes * sizeof(*order));
	if (!order)
		return MESH_ENOMEM;
	rc = mesh_curve_order(c->topo, c->curve, order);
	free(order);
	if (rc == MESH_EINVAL)
		return mesh__conf_err(d, rc, r, r->curve.line, "Curve",
				      "curve %s cannot order a %s mesh",
				      mesh_curve_name(c->curve), r->dims.val);
	return rc;
}

/* DefaultMeshShape=, DefaultIOIntensity=, DefaultComm= with the hint
 * parsers the SPANK options use. */
static int check_hint_defaults(struct mesh_conf *c, const struct conf_raw *r,
			       struct mesh_diag *d)
{
	struct mesh_job_hints *h = &c->hint_defaults;
	int rc;

	mesh_hints_init(h);
	if (r->dshape.val) {
		rc = mesh_shape_parse(r->dshape.val, h->shape, d);
		if (rc)
			return mesh__conf_relocate(d, rc, r, r->dshape.line,
						   "DefaultMeshShape");
	}
	if (r->dio.val) {
		rc = mesh_io_intensity_parse(r->dio.val, &h->io_intensity, d);
		if (rc)
			return mesh__conf_relocate(d, rc, r, r->dio.line,
						   "DefaultIOIntensity");
	}
	if (r->dcomm.val) {
		rc = mesh_comm_parse_checked(r->dcomm.val, &h->comm, d);
		if (rc)
			return mesh__conf_relocate(d, rc, r, r->dcomm.line,
						   "DefaultComm");
	}
	return 0;
}

/* PlanMaxPlacements= (an integer, 0 = no bound) and PlanMaxTime=
 * (seconds >= 0, 0 = no bound): the bound on a WILL_RUN search. */
static int check_plan_bound(struct mesh_conf *c, const struct conf_raw *r,
			    struct mesh_diag *d)
{
	unsigned long long n;
	char *end;

	c->plan_max_places = MESH_CONF_PLAN_MAX_PLACES;
	c->plan_max_seconds = MESH_CONF_PLAN_MAX_SECONDS;
	if (r->pplaces.val) {
		errno = 0;
		n = strtoull(r->pplaces.val, &end, 10);
		if (end == r->pplaces.val || *end || errno ||
		    r->pplaces.val[0] == '-' || n > SIZE_MAX)
			return mesh__conf_err(
			    d, MESH_EPARSE, r, r->pplaces.line,
			    "PlanMaxPlacements",
			    "bad value \"%.64s\": expected a "
			    "count of placements, 0 for no bound",
			    r->pplaces.val);
		c->plan_max_places = (size_t) n;
	}
	if (r->ptime.val) {
		errno = 0;
		c->plan_max_seconds = strtod(r->ptime.val, &end);
		if (end == r->ptime.val || *end || errno ||
		    !(c->plan_max_seconds >= 0) || isinf(c->plan_max_seconds))
			return mesh__conf_err(d, MESH_EPARSE, r, r->ptime.line,
					      "PlanMaxTime",
					      "bad value \"%.64s\": expected "
					      "seconds >= 0, 0 for no bound",
					      r->ptime.val);
	}
	return 0;
}

/* CoresPerNode=: processors per node, 1..MESH_CONF_MAX_CORES; 0 in c
 * when not given. */
static int check_cores(struct mesh_conf *c, const struct conf_raw *r,
		       struct mesh_diag *d)
{
	unsigned long n;
	char *end;

	if (!r->cores.val)
		return 0;
	errno = 0;
	n = strtoul(r->cores.val, &end, 10);
	if (end == r->cores.val || *end || errno || r->cores.val[0] == '-' ||
	    n < 1 || n > MESH_CONF_MAX_CORES)
		return mesh__conf_err(d, MESH_EPARSE, r, r->cores.line,
				      "CoresPerNode",
				      "bad value \"%.64s\": expected the "
				      "processors of one node, 1 to %u",
				      r->cores.val, MESH_CONF_MAX_CORES);
	c->cores_per_node = (uint32_t) n;
	return 0;
}

/* LinkBandwidth= ... FileSystemBandwidth=: GB/s > 0, or inf; a key not
 * given keeps the default (mesh_net_params_init()), and net_set says
 * which were given. */
static int check_bandwidths(struct mesh_conf *c, const struct conf_raw *r,
			    struct mesh_diag *d)
{
	double *v[4] = { &c->net.link_bw, &c->net.node_bw, &c->net.ion_bw,
			 &c->net.fs_bw };
	char *end;
	int i;

	mesh_net_params_init(&c->net);
	for (i = 0; i < 4; i++) {
		const char *s = r->bw[i].val;

		if (!s)
			continue;
		c->net_set |= 1u << i;
		if (!strcasecmp(s, "inf") || !strcasecmp(s, "unlimited")) {
			*v[i] = INFINITY;
			continue;
		}
		errno = 0;
		*v[i] = strtod(s, &end);
		if (end == s || *end || errno || !(*v[i] > 0) || isinf(*v[i]))
			return mesh__conf_err(
			    d, MESH_EPARSE, r, r->bw[i].line,
			    mesh__conf_bw_keys[i],
			    "bad value \"%.64s\": expected GB/s > 0, "
			    "or inf for unlimited",
			    s);
	}
	return 0;
}

static int build_topo(struct mesh_conf *c, const struct conf_raw *r,
		      struct mesh_diag *d)
{
	int rc;

	if (!r->dims.val)
		return mesh__conf_err(d, MESH_EPARSE, r, r->last_line,
				      "Dimensions",
				      "missing Dimensions=WxH[xD]");
	if (!r->nodes.val && !r->ndefs)
		return mesh__conf_err(
		    d, MESH_EPARSE, r, r->last_line, "Nodes",
		    "no nodes: give Nodes=<hostlist> and/or NodeName=<name> Coord=x,y[,z]");
	rc = mesh_topo_parse(r->dims.val, &c->topo, d);
	if (rc)
		return mesh__conf_relocate(d, rc, r, r->dims.line,
					   "Dimensions");
	c->node_name = calloc(c->topo->nodes, sizeof(*c->node_name));
	c->node_line = calloc(c->topo->nodes, sizeof(*c->node_line));
	if (!c->node_name || !c->node_line)
		return MESH_ENOMEM;
	return 0;
}

static int build(struct mesh_conf *c, const struct conf_raw *r,
		 struct mesh_diag *d)
{
	int perm[MESH_MAX_DIMS], rc;

	rc = build_topo(c, r, d);
	if (!rc)
		rc = parse_order(r, c->topo, perm, d);
	if (!rc)
		rc = place_defs(c, r, d);
	if (!rc && r->nodes.val)
		rc = place_list(c, r, perm, d);
	if (!rc)
		rc = build_index(c, r, d);
	if (!rc)
		rc = apply_io(c, r, d);
	if (!rc)
		rc = check_curve(c, r, d);
	if (!rc)
		rc = check_hint_defaults(c, r, d);
	if (!rc)
		rc = check_plan_bound(c, r, d);
	if (!rc)
		rc = check_cores(c, r, d);
	if (!rc)
		rc = check_bandwidths(c, r, d);
	if (!rc)
		rc = check_allocator(c, r, d);
	c->nodes_line =
	    r->nodes.val ? r->nodes.line : (r->ndefs ? r->defs[0].line : 1);
	return rc;
}

int mesh_conf_parse(const char *text, size_t len, const char *name,
		    struct mesh_conf **out, struct mesh_diag *d)
{
	struct conf_raw r;
	struct mesh_conf *c;
	int rc;

	if (!text || !out)
		return MESH_EINVAL;
	memset(&r, 0, sizeof(r));
	r.file = name ? name : "mesh.conf";
	c = calloc(1, sizeof(*c));
	if (!c)
		return MESH_ENOMEM;
	rc = mesh__conf_parse_text(&r, text, len, d);
	if (!rc)
		rc = build(c, &r, d);
	if (!rc) {
		c->path = strdup(r.file);
		rc = c->path ? 0 : MESH_ENOMEM;
	}
	mesh__conf_raw_free(&r);
	if (rc) {
		mesh_conf_destroy(c);
		return rc;
	}
	*out = c;
	return 0;
}

static int read_file(const char *path, char **buf, size_t *len,
		     struct mesh_diag *d)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *p = NULL, *q;

	if (!f)
		return mesh_diag_set(d, MESH_EIO, path, 0, "",
				     "cannot open: %s", strerror(errno));
	for (;;) {
		q = realloc(p, cap);
		if (!q) {
			free(p);
			fclose(f);
			return MESH_ENOMEM;
		}
		p = q;
		errno = 0;
		got = fread(p + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		if (cap >= CONF_MAX_BYTES) {
			free(p);
			fclose(f);
			return mesh_diag_set(d, MESH_ERANGE, path, 0, "",
					     "file larger than %u bytes",
					     CONF_MAX_BYTES);
		}
		cap *= 2;
	}
	if (ferror(f)) {
		int err = errno;

		free(p);
		fclose(f);
		if (err == EISDIR)
			return mesh_diag_set(
			    d, MESH_EIO, path, 0, "",
			    "is a directory; give the path of the mesh.conf file itself");
		return mesh_diag_set(d, MESH_EIO, path, 0, "", "read error: %s",
				     err ? strerror(err) : "unknown cause");
	}
	fclose(f);
	*buf = p;
	*len = n;
	return 0;
}

int mesh_conf_load(const char *path, struct mesh_conf **out,
		   struct mesh_diag *d)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!path || !out)
		return MESH_EINVAL;
	rc = read_file(path, &buf, &len, d);
	if (rc)
		return rc;
	rc = mesh_conf_parse(buf, len, path, out, d);
	free(buf);
	return rc;
}

void mesh_conf_destroy(struct mesh_conf *c)
{
	uint32_t i;

	if (!c)
		return;
	if (c->node_name && c->topo)
		for (i = 0; i < c->topo->nodes; i++)
			free(c->node_name[i]);
	free(c->node_name);
	free(c->node_line);
	free(c->by_name);
	free(c->allocator);
	free(c->alloc_params);
	free(c->path);
	mesh_topo_destroy(c->topo);
	free(c);
}

int mesh_conf_lookup(const struct mesh_conf *c, const char *name, uint32_t *idx)
{
	struct mesh_conf_entry key = { name, 0 };
	const struct mesh_conf_entry *e;

	if (!c || !name || !c->by_name)
		return MESH_ENOENT;
	e = bsearch(&key, c->by_name, c->n_named, sizeof(key), cmp_entry);
	if (!e)
		return MESH_ENOENT;
	if (idx)
		*idx = e->idx;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

int mesh_conf_validate_nodes(const struct mesh_conf *c,
			     const char *const *names, size_t n,
			     struct mesh_diag *d)
{
	const char **sorted;
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++)
		if (mesh_conf_lookup(c, names[i], NULL))
			return mesh_diag_set(
			    d, MESH_ENOENT, c->path, c->nodes_line, "Nodes",
			    "node %s is defined in slurm.conf but has no position in the mesh",
			    names[i]);
	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!sorted)
		return MESH_ENOMEM;
	memcpy(sorted, names, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_str);
	for (i = 0; i < c->n_named && !rc; i++) {
		const struct mesh_conf_entry *e = &c->by_name[i];

		if (!bsearch(&e->name, sorted, n, sizeof(*sorted), cmp_str))
			rc = mesh_diag_set(
			    d, MESH_ENOENT, c->path, c->node_line[e->idx],
			    "Nodes",
			    "node %s is in the mesh but not defined in slurm.conf",
			    e->name);
	}
	free(sorted);
	return rc;
}

int mesh_conf_path_near(const char *slurm_conf, char *buf, size_t len)
{
	const char *slash = slurm_conf ? strrchr(slurm_conf, '/') : NULL;
	int n;

	if (!buf || !len)
		return MESH_ERANGE;
	if (!slash)
		n = snprintf(buf, len, "mesh.conf");
	else
		n = snprintf(buf, len, "%.*s/mesh.conf",
			     (int) (slash - slurm_conf), slurm_conf);
	return n < 0 || (size_t) n >= len ? MESH_ERANGE : 0;
}
