/* alloc_contig.c - contiguous sub-mesh allocation: first fit and best fit
 * (least fragmentation).
 *
 * Implements: the contiguous strategies surveyed by Tang, Lan, Desai,
 * Buettner, Yu, "Reducing fragmentation on torus-connected
 * supercomputers", Sec. VI (first fit after Zhu 1992 / Yoo and Das;
 * best fit "attempts to find a free submesh that results in the least
 * fragmentation"), and by Mache, dissertation, Ch. IV (First Fit, Best
 * Fit).  A job gets a free a x b x c sub-mesh with a*b*c = k, or waits.
 * Decisions the papers leave open:
 *  - shapes: the orientations of req->shape if its volume is k, else
 *    every factorisation a x b x c = k that fits the mesh; shapes are
 *    preferred most cube-like first (least a+b+c), then longest along
 *    the fastest-varying axis, so that equally compact boxes whose nodes
 *    are consecutive in node index order come first (Slurm's
 *    --contiguous means consecutive node indices: see shape_cmp);
 *  - tori: sub-meshes may wrap around on wrapped axes;
 *  - ff: the most preferred shape that fits anywhere, at its lowest
 *    base (low corner) node index;
 *  - bf: the placement (any shape) touching the most busy nodes and mesh
 *    boundary positions across its faces ("least fragmentation": the
 *    block hugs what is already used and leaves the free region in one
 *    piece); ties go to the preferred shape, then the lowest base.
 *    With align=1, a box whose base is a multiple of its extent on more
 *    axes wins first (the buddy system's aligned blocks; the anchor grid
 *    of Slurm 26.05's topology/torus3d, as an idea), contact second.
 *    With keep=1, the box after which the largest free box left is
 *    largest wins first (what the next jobs can still get as a box),
 *    contact second; at most KEEP_MAX_NODES nodes, since each candidate
 *    costs a search of the map left.
 * Free boxes are found a word at a time (boxsum.c's staged word
 * boxes, wrapping on tori: one bit per low corner) when x-rows fit a
 * 64-bit word, else by prefix sums (boxsum), O(1) per candidate box;
 * both visit the free boxes in the same order.  Contact (bf) is counted with prefix sums.
 * The equally good placements are listed for sl:contig-*
 * (contig_candidates).  Refuses (MESH_ENOSPC) when no free sub-mesh of any
 * allowed shape exists: MESH_ALLOC_CONTIGUOUS_ONLY.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "boxsum.h"
#include "error.h"

#define MAX_SHAPES 512
#define KEEP_MAX_NODES 4096

struct contig_priv {
	struct mesh__boxsum box;
	int best_fit;
	int align;                /* bf: aligned axes before contact */
	int keep;                 /* bf: largest free box left before contact */
	struct mesh_bitmap *left; /* keep: the map without the candidate */
	struct mesh__boxsum left_sum;
	int (*extents)[3]; /* keep: every box extent, largest first */
	uint32_t n_extents;
	const struct mesh_bitmap *free_map; /* this decision's */
	int word_boxes;        /* free boxes from mesh__box_starts */
	const uint64_t *words; /* this decision's free map */
	uint64_t *starts, *tmp;
	/* this decision's x-row runs, one slot of Y * Z words per extent
	 * along x (slot 0: the rows' bits), shared by the shapes */
	uint64_t *runs;
	uint32_t run_len[64];
	int n_runs, cap_runs;
	int shapes[MAX_SHAPES][3];
	int n_shapes;
};

static void contig_destroy(struct mesh_allocator *a);

/* Word boxes need x-rows of at most 64 nodes; on tori they wrap. */
static int word_boxes_fit(const struct mesh_topo *t)
{
	return t->dim[0] <= 64;
}

static int volume_desc(const void *x, const void *y)
{
	const int *a = x, *b = y;
	long va = (long) a[0] * a[1] * a[2], vb = (long) b[0] * b[1] * b[2];

	return va < vb ? 1 : va > vb ? -1 : 0;
}

/* keep=1's map, its prefix sums and every extent, largest first. */
static int keep_init(struct contig_priv *p, const struct mesh_topo *t)
{
	int e[3];
	uint32_t n = (uint32_t) t->dim[0] * t->dim[1] * t->dim[2];

	p->extents = malloc(n * sizeof(*p->extents));
	if (!p->extents || mesh_bitmap_create(t->nodes, &p->left) ||
	    mesh__boxsum_init(&p->left_sum, t))
		return MESH_ENOMEM;
	for (e[2] = 1; e[2] <= t->dim[2]; e[2]++)
		for (e[1] = 1; e[1] <= t->dim[1]; e[1]++)
			for (e[0] = 1; e[0] <= t->dim[0]; e[0]++)
				memcpy(p->extents[p->n_extents++], e,
				       sizeof(e));
	qsort(p->extents, p->n_extents, sizeof(*p->extents), volume_desc);
	return 0;
}

static int contig_create(struct mesh_allocator *a, const char *params,
			 struct mesh_diag *d)
{
	static const char *const bf_keys[] = { "align", "keep", NULL };
	struct contig_priv *p;
	unsigned long align = 0, keep = 0;
	int rc = mesh__param_check(params, a->entry->variant ? bf_keys : NULL,
				   a->name, d);

	if (!rc)
		rc = mesh__param_uint(params, "align", 0, 1, &align, d);
	if (!rc)
		rc = mesh__param_uint(params, "keep", 0, 1, &keep, d);
	if (!rc && align && keep)
		rc = mesh_diag_set(d, MESH_EINVAL, NULL, 0, "keep",
				   "keep=1 and align=1 are two first "
				   "criteria; choose one");
	if (!rc && keep && a->topo->nodes > KEEP_MAX_NODES)
		rc = mesh_diag_set(d, MESH_EINVAL, NULL, 0, "keep",
				   "keep=1 searches the whole map per "
				   "candidate box: at most %d nodes, this "
				   "mesh has %u",
				   KEEP_MAX_NODES, (unsigned) a->topo->nodes);
	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	p->best_fit = a->entry->variant;
	p->align = (int) align;
	p->keep = (int) keep;
	p->word_boxes = word_boxes_fit(a->topo);
	if (p->word_boxes) {
		size_t rows = (size_t) a->topo->dim[1] * a->topo->dim[2];

		p->starts = malloc(rows * sizeof(*p->starts));
		p->tmp = malloc(2 * rows * sizeof(*p->tmp));
	}
	if (mesh__boxsum_init(&p->box, a->topo) ||
	    (p->word_boxes && (!p->starts || !p->tmp)) ||
	    (keep && keep_init(p, a->topo))) {
		a->priv = p;
		contig_destroy(a);
		a->priv = NULL;
		return MESH_ENOMEM;
	}
	a->priv = p;
	return 0;
}

static void contig_destroy(struct mesh_allocator *a)
{
	struct contig_priv *p = a->priv;

	mesh__boxsum_free(&p->box);
	mesh__boxsum_free(&p->left_sum);
	mesh_bitmap_destroy(p->left);
	free(p->extents);
	free(p->starts);
	free(p->tmp);
	free(p->runs);
	free(p);
}

/* Most cube-like first (least a+b+c); among those, the shape longest on
 * the fastest-varying axes (compare c, then b, then a, smallest first).
 * Node index order is x fastest, so a run along x, full rows or full
 * planes - the boxes whose nodes are consecutive in index order, and so
 * in Slurm's node order with the default NodeOrder - always come first
 * when one exists: 3x1x1 before 1x3x1, as select/linear gives n[0-2]. */
static int shape_cmp(const void *x, const void *y)
{
	const int *a = x, *b = y;
	int sa = a[0] + a[1] + a[2], sb = b[0] + b[1] + b[2], d;

	if (sa != sb)
		return sa - sb;
	for (d = 2; d >= 0; d--)
		if (a[d] != b[d])
			return a[d] - b[d];
	return 0;
}

static void add_shape(struct contig_priv *p, const struct mesh_topo *t, int a,
		      int b, int c)
{
	int i;

	if (a > t->dim[0] || b > t->dim[1] || c > t->dim[2] ||
	    p->n_shapes == MAX_SHAPES)
		return;
	for (i = 0; i < p->n_shapes; i++)
		if (p->shapes[i][0] == a && p->shapes[i][1] == b &&
		    p->shapes[i][2] == c)
			return;
	p->shapes[p->n_shapes][0] = a;
	p->shapes[p->n_shapes][1] = b;
	p->shapes[p->n_shapes][2] = c;
	p->n_shapes++;
}

static void list_shapes(struct contig_priv *p, const struct mesh_topo *t,
			const struct mesh_request *req)
{
	const int *s = req->shape;
	uint32_t k = req->nodes, a, b;

	p->n_shapes = 0;
	if (s[0] > 0 && (uint64_t) s[0] * (uint64_t) (s[1] > 0 ? s[1] : 1) *
				(uint64_t) (s[2] > 0 ? s[2] : 1) ==
			    k) {
		int e[3] = { s[0], s[1] > 0 ? s[1] : 1, s[2] > 0 ? s[2] : 1 };

		add_shape(p, t, e[0], e[1], e[2]);
		add_shape(p, t, e[0], e[2], e[1]);
		add_shape(p, t, e[1], e[0], e[2]);
		add_shape(p, t, e[1], e[2], e[0]);
		add_shape(p, t, e[2], e[0], e[1]);
		add_shape(p, t, e[2], e[1], e[0]);
	} else {
		for (a = 1; a <= k && a <= (uint32_t) t->dim[0]; a++)
			for (b = 1; k % a == 0 && b <= k / a &&
				    b <= (uint32_t) t->dim[1];
			     b++)
				if ((k / a) % b == 0)
					add_shape(p, t, (int) a, (int) b,
						  (int) (k / a / b));
	}
	qsort(p->shapes, (size_t) p->n_shapes, sizeof(p->shapes[0]), shape_cmp);
}

/* Highest base coordinate on axis d for extent e (wrapping: any). */
static int base_limit(const struct mesh_topo *t, int d, int e)
{
	return t->wrap[d] && e < t->dim[d] ? t->dim[d] - 1 : t->dim[d] - e;
}

/* Busy or off-mesh positions on the faces of the box [lo, hi]. */
static uint64_t contact(const struct contig_priv *p, const int lo[3],
			const int hi[3])
{
	const struct mesh_topo *t = p->box.topo;
	uint64_t c = 0;
	int d, side, l[3], h[3], e;

	for (d = 0; d < 3; d++) {
		if (t->dim[d] == 1 ||
		    (t->wrap[d] && hi[d] - lo[d] + 1 >= t->dim[d]))
			continue;
		for (side = 0; side < 2; side++) {
			uint64_t area = 1;

			memcpy(l, lo, sizeof(l));
			memcpy(h, hi, sizeof(h));
			l[d] = h[d] = side ? hi[d] + 1 : lo[d] - 1;
			for (e = 0; e < 3; e++)
				if (e != d)
					area *= (uint64_t) (h[e] - l[e] + 1);
			c += area - mesh__box_count(&p->box, l, h);
		}
	}
	return c;
}

/* The volume of the largest free box in p->left_sum, or 0 when it is
 * below floor (the caller's best so far: smaller ones cannot win). */
static uint32_t largest_left(const struct contig_priv *p, uint32_t floor)
{
	const struct mesh_topo *t = p->box.topo;
	uint32_t i;
	int b[3], hi[3], d;

	for (i = 0; i < p->n_extents; i++) {
		const int *e = p->extents[i];
		uint32_t vol = (uint32_t) (e[0] * e[1] * e[2]);

		if (vol < floor)
			return 0;
		for (b[2] = 0; b[2] <= base_limit(t, 2, e[2]); b[2]++)
			for (b[1] = 0; b[1] <= base_limit(t, 1, e[1]); b[1]++)
				for (b[0] = 0; b[0] <= base_limit(t, 0, e[0]);
				     b[0]++) {
					for (d = 0; d < 3; d++)
						hi[d] = b[d] + e[d] - 1;
					if (mesh__box_count(&p->left_sum, b,
							    hi) == vol)
						return vol;
				}
	}
	return 0;
}

/* keep=1: the largest free box once the box [lo, hi] of extents e is
 * taken, or 0 when it is below floor. */
static uint32_t box_left(struct contig_priv *p, const int e[3], const int lo[3],
			 uint32_t floor)
{
	const struct mesh_topo *t = p->box.topo;
	int i[3], q[3], d;

	mesh_bitmap_copy(p->left, p->free_map);
	for (i[2] = 0; i[2] < e[2]; i[2]++)
		for (i[1] = 0; i[1] < e[1]; i[1]++)
			for (i[0] = 0; i[0] < e[0]; i[0]++) {
				for (d = 0; d < 3; d++)
					q[d] = (lo[d] + i[d]) % t->dim[d];
				mesh_bitmap_clear(p->left,
						  mesh_topo_index(t, q));
			}
	mesh__boxsum_build(&p->left_sum, p->left);
	return largest_left(p, floor);
}

/* bf's measure of the box of extents e at [lo, hi]: contact, and with
 * align the number of axes on which lo is a multiple of e above it, or
 * with keep the largest free box it leaves (floor: the best so far's,
 * which a smaller one cannot beat). */
static uint64_t score(struct contig_priv *p, const int e[3], const int lo[3],
		      const int hi[3], uint64_t floor)
{
	uint64_t c = contact(p, lo, hi);
	int d;

	if (p->keep)
		return ((uint64_t) box_left(p, e, lo, (uint32_t) (floor >> 32))
			<< 32) |
		       c;
	if (p->align)
		for (d = 0; d < 3; d++)
			if (lo[d] % e[d] == 0)
				c += (uint64_t) 1 << 48;
	return c;
}

struct contig_pick {
	int shape, base[3];
	uint64_t score;
	int found;
};

/* Room for n run slots (at most 64: one per x extent); 0 if none. */
static int runs_room(struct contig_priv *p, int n, size_t rows)
{
	int cap = p->cap_runs ? p->cap_runs : 4;
	uint64_t *r;

	if (n <= p->cap_runs)
		return 1;
	while (cap < n)
		cap *= 2;
	cap = cap > 64 ? 64 : cap;
	if (n > cap ||
	    !(r = realloc(p->runs, (size_t) cap * rows * sizeof(*r))))
		return 0;
	p->runs = r;
	p->cap_runs = cap;
	return 1;
}

/* The x-row runs of len for this decision's map, from the cache (slot 0
 * holds the rows' bits, the runs of 1); computed into p->tmp when the
 * cache cannot grow. */
static const uint64_t *row_runs(struct contig_priv *p, uint32_t len, int ring)
{
	const struct mesh_topo *t = p->box.topo;
	size_t rows = (size_t) t->dim[1] * (size_t) t->dim[2];
	uint64_t *slot;
	int i;

	for (i = 0; i < p->n_runs; i++)
		if (p->run_len[i] == len)
			return p->runs + (size_t) i * rows;
	if (!runs_room(p, p->n_runs ? p->n_runs + 1 : 2, rows)) {
		mesh__row_bits(t, p->words, p->tmp);
		mesh__row_runs(t, p->tmp, len, ring, p->tmp);
		return p->tmp;
	}
	if (!p->n_runs) {
		mesh__row_bits(t, p->words, p->runs);
		p->run_len[p->n_runs++] = 1;
		if (len == 1)
			return p->runs;
	}
	slot = p->runs + (size_t) p->n_runs * rows;
	mesh__row_runs(t, p->runs, len, ring, slot);
	p->run_len[p->n_runs++] = len;
	return slot;
}

/* visit_boxes on word boxes: the low corners of the free boxes of
 * shape si, row by row, lowest x first: the same order. */
static int visit_word_boxes(struct contig_priv *p, int si,
			    int (*fn)(void *arg, int si, const int b[3],
				      const int hi[3]),
			    void *arg)
{
	const struct mesh_topo *t = p->box.topo;
	const int *e = p->shapes[si];
	uint32_t ext[3] = { (uint32_t) e[0], (uint32_t) e[1], (uint32_t) e[2] };
	uint32_t row, rows = (uint32_t) t->dim[1] * (uint32_t) t->dim[2];
	int ring = t->wrap[0] || t->wrap[1] || t->wrap[2];
	uint64_t x;
	int b[3], hi[3], d, rc;

	if (!mesh__box_starts_from_runs(t, row_runs(p, ext[0], ring), ext, ring,
					p->tmp + rows, p->starts))
		return 0;
	for (row = 0; row < rows; row++)
		for (x = p->starts[row]; x; x &= x - 1) {
			b[0] = __builtin_ctzll(x);
			b[1] = (int) (row % (uint32_t) t->dim[1]);
			b[2] = (int) (row / (uint32_t) t->dim[1]);
			for (d = 0; d < 3; d++)
				hi[d] = b[d] + e[d] - 1;
			rc = fn(arg, si, b, hi);
			if (rc)
				return rc;
		}
	return 0;
}

/* Calls fn on every free box of shape si, bases in index order (z, y,
 * x slowest to fastest), until fn returns non-zero; returns that. */
static int visit_boxes(struct contig_priv *p, int si,
		       int (*fn)(void *arg, int si, const int b[3],
				 const int hi[3]),
		       void *arg)
{
	const struct mesh_topo *t = p->box.topo;
	const int *e = p->shapes[si];
	uint64_t vol = (uint64_t) e[0] * e[1] * e[2];
	int b[3], hi[3], d, rc;

	if (p->word_boxes)
		return visit_word_boxes(p, si, fn, arg);
	for (b[2] = 0; b[2] <= base_limit(t, 2, e[2]); b[2]++)
		for (b[1] = 0; b[1] <= base_limit(t, 1, e[1]); b[1]++)
			for (b[0] = 0; b[0] <= base_limit(t, 0, e[0]); b[0]++) {
				for (d = 0; d < 3; d++)
					hi[d] = b[d] + e[d] - 1;
				if (mesh__box_count(&p->box, b, hi) != vol)
					continue;
				rc = fn(arg, si, b, hi);
				if (rc)
					return rc;
			}
	return 0;
}

struct scan_ctx {
	struct contig_priv *p;
	struct contig_pick *pick;
};

/* Keeps the box if it is the first, or has a strictly higher score (bf);
 * ff stops at the first. */
static int pick_box(void *arg, int si, const int b[3], const int hi[3])
{
	struct scan_ctx *sc = arg;
	struct contig_pick *pick = sc->pick;
	uint64_t c = sc->p->best_fit ? score(sc->p, sc->p->shapes[si], b, hi,
					     pick->found ? pick->score : 0)
				     : 0;

	if (pick->found && c <= pick->score)
		return 0;
	pick->found = 1;
	pick->shape = si;
	pick->score = c;
	memcpy(pick->base, b, sizeof(pick->base));
	return !sc->p->best_fit;
}

/* Scans one shape; updates pick (strictly better score for bf). */
static void scan_shape(struct contig_priv *p, int si, struct contig_pick *pick)
{
	struct scan_ctx sc = { p, pick };

	visit_boxes(p, si, pick_box, &sc);
}

static void emit(const struct mesh_topo *t, const int e[3], const int b[3],
		 uint32_t *out)
{
	int i[3], q[3], d;
	uint32_t m = 0;

	for (i[2] = 0; i[2] < e[2]; i[2]++)
		for (i[1] = 0; i[1] < e[1]; i[1]++)
			for (i[0] = 0; i[0] < e[0]; i[0]++) {
				for (d = 0; d < 3; d++)
					q[d] = (b[d] + i[d]) % t->dim[d];
				out[m++] = mesh_topo_index(t, q);
			}
}

/* place()'s choice into pick; 0 or MESH_ENOSPC. */
static int find_pick(struct contig_priv *p, const struct mesh_view *v,
		     const struct mesh_request *req, struct contig_pick *pick)
{
	int si;

	memset(pick, 0, sizeof(*pick));
	list_shapes(p, v->topo, req);
	p->words = v->free->words;
	p->free_map = v->free;
	p->n_runs = 0;
	if (!p->word_boxes || p->best_fit)
		mesh__boxsum_build(&p->box, v->free);
	for (si = 0; si < p->n_shapes && !(pick->found && !p->best_fit); si++)
		scan_shape(p, si, pick);
	return pick->found ? 0 : MESH_ENOSPC;
}

static int contig_place(struct mesh_allocator *a, const struct mesh_view *v,
			const struct mesh_request *req, uint32_t *out)
{
	struct contig_priv *p = a->priv;
	struct contig_pick pick;
	int rc = find_pick(p, v, req, &pick);

	if (rc)
		return rc;
	emit(v->topo, p->shapes[pick.shape], pick.base, out);
	return 0;
}

struct cand_ctx {
	struct contig_priv *p;
	const struct mesh_topo *t;
	uint64_t score;
	uint32_t *buf;
	int (*cb)(void *ctx, const uint32_t *nodes);
	void *ctx;
};

static int emit_candidate(void *arg, int si, const int b[3], const int hi[3])
{
	struct cand_ctx *cc = arg;

	if (cc->p->best_fit &&
	    score(cc->p, cc->p->shapes[si], b, hi, cc->score) != cc->score)
		return 0;
	emit(cc->t, cc->p->shapes[si], b, cc->buf);
	return cc->cb(cc->ctx, cc->buf);
}

/* For sl:contig-*: the placements as good as place()'s, its own first.
 * ff: every free box of the first shape that fits (ff has no measure
 * but position, and Tang et al.'s SL breaks exactly such ties); bf:
 * every box of any shape with the best score, in shape then base
 * order. */
static int contig_candidates(struct mesh_allocator *a,
			     const struct mesh_view *v,
			     const struct mesh_request *req, uint32_t *buf,
			     int (*cb)(void *ctx, const uint32_t *nodes),
			     void *ctx)
{
	struct contig_priv *p = a->priv;
	struct cand_ctx cc = { p, v->topo, 0, buf, cb, ctx };
	struct contig_pick pick;
	int si, rc = find_pick(p, v, req, &pick);

	if (rc)
		return rc;
	cc.score = pick.score;
	for (si = pick.shape; si < p->n_shapes; si++)
		if (visit_boxes(p, si, emit_candidate, &cc) || !p->best_fit)
			break;
	return 0;
}

const struct mesh_alloc_ops mesh__contig_ops = {
	.create = contig_create,
	.destroy = contig_destroy,
	.place = contig_place,
	.candidates = contig_candidates,
};
