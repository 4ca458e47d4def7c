/* alloc_mbs.c - the Multiple Buddy Strategy over four block hierarchies:
 * mbs (2D squares), mbs-layered, mbs-octet and mbs-granular.
 *
 * Implements: Lo, Windisch, Liu, Nitzberg 1997 (MBS), as described by
 * Mache, dissertation, Ch. II (free lists of 2^i x 2^i blocks, requests
 * broken into base-four subrequests, first blocks of the free lists,
 * Fig. 13), and the generalisations of Walker, Bunde, Leung, Sec. III-A:
 * Fig. 10 (MBS hierarchy of a 5x4 mesh: a 4x4 block and four 1x1 blocks
 * at the top), Layered MBS (the 2D hierarchy on every z layer), Octet MBS
 * (cubes, 7 buddies) and Granular MBS (Fig. 11: starting from single
 * nodes, phases pair equal blocks along x, then y, then z, repeated until
 * no block finds a buddy; every block seeks a buddy in every phase).
 *
 * HOW IT WORKS: allocators keep no occupancy, so the free lists are
 * derived from the free map on every call: buddies are merged whenever
 * all are free, hence the free blocks are exactly the maximal fully free
 * blocks of the hierarchy (tested in O(1) each with prefix sums).  With
 * base b (4 for squares, 8 for cubes, 2 for Granular) and block level
 * log_b(volume), k is written in base b (digits above the top level fold
 * into it).  From the highest level down, each needed block of level i
 * is the first (lowest low-corner index) free block of level i; if there
 * is none, the first block of the smallest higher level with one is
 * split (children join their level's list) down to level i; if no larger
 * block exists either, the subrequests of level i become b times as many
 * of level i - 1.
 * Decisions the papers leave open:
 *  - non-power-of-2 meshes (mbs, layered, octet): the region is tiled
 *    with the largest power-of-2 blocks that fit, then the leftover slabs
 *    (x, then y, then z) are tiled recursively; this reproduces Fig. 10;
 *  - Granular pairing: along the phase's axis, blocks are scanned by
 *    increasing position and each unpaired block pairs with the adjacent
 *    unpaired block of identical extents that starts where it ends;
 *  - tori: blocks never wrap (the mesh hierarchy is used);
 *  - mbs is the original 2D strategy and refuses 3D meshes at create
 *    (MESH_EINVAL); use mbs-layered, mbs-octet or mbs-granular there.
 * The whole free map is covered by free blocks, so MBS places whenever k
 * nodes are free (no MESH_ALLOC_MAY_REFUSE).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "boxsum.h"
#include "error.h"

enum mbs_kind { MBS_2D, MBS_LAYERED, MBS_OCTET, MBS_GRANULAR };

struct blk {
	int lo[3], ext[3];
	int32_t child;  /* first child, -1 for a leaf */
	int32_t sib;    /* next sibling, -1 for the last */
	int32_t parent; /* -1 for a top-level block */
	uint8_t level;
};

struct mbs_priv {
	struct mesh__boxsum box;
	struct blk *b;
	uint32_t nb, cap;
	int base, levels;
	uint32_t **list; /* per level: free block ids, ascending position */
	uint32_t *len, *head;
	uint8_t *is_free;
	uint32_t *by_pos; /* block ids by low-corner index */
};

static uint32_t blk_key(const struct mesh_topo *t, const struct blk *b)
{
	return mesh_topo_index(t, b->lo);
}

static void set_blk(struct mbs_priv *p, int32_t id, const int lo[3],
		    const int ext[3])
{
	struct blk *b = &p->b[id];

	memcpy(b->lo, lo, sizeof(b->lo));
	memcpy(b->ext, ext, sizeof(b->ext));
	b->child = b->sib = b->parent = -1;
	b->level = 0;
}

/* Block id: a square/cube of side s at lo over the axes in mask, and
 * its subtree; children are appended after all earlier blocks. */
static void fill_tree(struct mbs_priv *p, int32_t id, const int lo[3], int s,
		      int mask)
{
	int ext[3], d, i, n = 0, clo[3], bit;
	int32_t c0;

	for (d = 0; d < 3; d++) {
		ext[d] = mask >> d & 1 ? s : 1;
		n += mask >> d & 1;
	}
	set_blk(p, id, lo, ext);
	if (s == 1)
		return;
	c0 = (int32_t) p->nb;
	p->nb += 1u << n;
	p->b[id].child = c0;
	for (i = 0; i < 1 << n; i++) {
		for (d = 0, bit = 0; d < 3; d++) {
			clo[d] = lo[d];
			if (mask >> d & 1)
				clo[d] += (i >> bit++ & 1) * (s / 2);
		}
		fill_tree(p, c0 + i, clo, s / 2, mask);
		p->b[c0 + i].parent = id;
		p->b[c0 + i].sib = i + 1 < 1 << n ? c0 + i + 1 : -1;
	}
}

/* Tile the region [lo, lo + ext) with the largest power-of-2 blocks over
 * the axes in mask, then the leftover slabs recursively (Fig. 10). */
static void tile(struct mbs_priv *p, const int lo[3], const int ext[3],
		 int mask)
{
	int s = 1 << 30, d, n[3], i[3], blo[3], slo[3], sext[3], e;

	for (d = 0; d < 3; d++) {
		if (ext[d] <= 0)
			return;
		if (mask >> d & 1 && ext[d] < s)
			s = ext[d];
	}
	for (e = 1; e * 2 <= s; e *= 2)
		;
	s = e;
	for (d = 0; d < 3; d++)
		n[d] = mask >> d & 1 ? ext[d] / s : ext[d];
	for (i[2] = 0; i[2] < n[2]; i[2]++)
		for (i[1] = 0; i[1] < n[1]; i[1]++)
			for (i[0] = 0; i[0] < n[0]; i[0]++) {
				for (d = 0; d < 3; d++)
					blo[d] = lo[d] +
						 i[d] * (mask >> d & 1 ? s : 1);
				fill_tree(p, (int32_t) p->nb++, blo, s, mask);
			}
	for (d = 0; d < 3; d++) {
		if (!(mask >> d & 1))
			continue;
		for (e = 0; e < 3; e++) {
			slo[e] = lo[e];
			sext[e] = ext[e];
			if (e < d && mask >> e & 1)
				sext[e] = n[e] * s; /* tiled part only */
		}
		slo[d] = lo[d] + n[d] * s;
		sext[d] = ext[d] - n[d] * s;
		tile(p, slo, sext, mask);
	}
}

/* Granular MBS (Fig. 11): one phase along axis d over the top-level
 * blocks top[0..*nt), kept in node-index order (so within a line the
 * scan runs by increasing position and pairs greedily from low); at[] is
 * all -1 on entry and exit.  Returns the number of pairs formed. */
static uint32_t granular_phase(struct mbs_priv *p, const struct mesh_topo *t,
			       int d, uint32_t *top, uint32_t *nt, int32_t *at)
{
	uint32_t i, pairs = 0, m = 0, par;
	int lo[3], ext[3];
	int32_t bid;

	for (i = 0; i < *nt; i++)
		at[blk_key(t, &p->b[top[i]])] = (int32_t) top[i];
	for (i = 0; i < *nt; i++) {
		struct blk *a = &p->b[top[i]];

		if (at[blk_key(t, a)] < 0 || a->lo[d] + a->ext[d] >= t->dim[d])
			continue;
		memcpy(lo, a->lo, sizeof(lo));
		lo[d] += a->ext[d];
		bid = at[mesh_topo_index(t, lo)];
		if (bid < 0 || memcmp(p->b[bid].ext, a->ext, sizeof(ext)))
			continue;
		at[blk_key(t, a)] = at[mesh_topo_index(t, lo)] = -1;
		memcpy(ext, a->ext, sizeof(ext));
		ext[d] *= 2;
		par = p->nb++;
		set_blk(p, (int32_t) par, p->b[top[i]].lo, ext);
		p->b[par].child = (int32_t) top[i];
		p->b[top[i]].sib = bid;
		p->b[top[i]].parent = p->b[bid].parent = (int32_t) par;
		top[i] = par;
		pairs++;
	}
	for (i = 0; i < *nt; i++) {
		at[blk_key(t, &p->b[top[i]])] = -1;
		if (p->b[top[i]].parent < 0)
			top[m++] = top[i];
	}
	*nt = m;
	return pairs;
}

static int build_granular(struct mbs_priv *p, const struct mesh_topo *t)
{
	uint32_t *top = malloc(t->nodes * sizeof(*top)), nt = t->nodes, i,
		 pairs;
	int32_t *at = malloc(t->nodes * sizeof(*at));
	int c[3], one[3] = { 1, 1, 1 }, d;

	if (!top || !at) {
		free(top);
		free(at);
		return MESH_ENOMEM;
	}
	for (i = 0; i < t->nodes; i++) {
		mesh_topo_coords(t, i, c);
		set_blk(p, (int32_t) i, c, one);
		top[i] = i;
		at[i] = -1;
	}
	p->nb = t->nodes;
	do {
		pairs = 0;
		for (d = 0; d < 3; d++)
			if (t->dim[d] > 1)
				pairs += granular_phase(p, t, d, top, &nt, at);
	} while (pairs);
	free(top);
	free(at);
	return 0;
}

static int build(struct mbs_priv *p, const struct mesh_topo *t,
		 enum mbs_kind kind)
{
	int lo[3] = { 0, 0, 0 }, ext[3] = { t->dim[0], t->dim[1], 1 };
	int z;

	switch (kind) {
	case MBS_GRANULAR:
		return build_granular(p, t);
	case MBS_OCTET:
		ext[2] = t->dim[2];
		tile(p, lo, ext, 7);
		return 0;
	default:
		for (z = 0; z < t->dim[2]; z++) {
			lo[2] = z;
			tile(p, lo, ext, 3);
		}
		return 0;
	}
}

static void mbs_destroy(struct mesh_allocator *a)
{
	struct mbs_priv *p = a->priv;
	int i;

	mesh__boxsum_free(&p->box);
	for (i = 0; p->list && i < p->levels; i++)
		free(p->list[i]);
	free(p->list);
	free(p->len);
	free(p->head);
	free(p->is_free);
	free(p->by_pos);
	free(p->b);
	free(p);
}

/* Levels (log_base of volume) and per-level list storage. */
static int set_levels(struct mbs_priv *p)
{
	uint32_t i, *count;
	int l;

	for (i = 0; i < p->nb; i++) {
		uint64_t v =
		    (uint64_t) p->b[i].ext[0] * p->b[i].ext[1] * p->b[i].ext[2];

		for (l = 0; v > 1; l++)
			v /= (uint64_t) p->base;
		p->b[i].level = (uint8_t) l;
		if (l + 1 > p->levels)
			p->levels = l + 1;
	}
	count = calloc((size_t) p->levels, sizeof(*count));
	p->list = calloc((size_t) p->levels, sizeof(*p->list));
	p->len = calloc((size_t) p->levels, sizeof(*p->len));
	p->head = calloc((size_t) p->levels, sizeof(*p->head));
	if (!count || !p->list || !p->len || !p->head) {
		free(count);
		return MESH_ENOMEM;
	}
	for (i = 0; i < p->nb; i++)
		count[p->b[i].level]++;
	for (l = 0; l < p->levels; l++)
		if (!(p->list[l] = malloc(count[l] * sizeof(uint32_t)))) {
			free(count);
			return MESH_ENOMEM;
		}
	free(count);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

static int sort_by_position(struct mbs_priv *p, const struct mesh_topo *t)
{
	uint64_t *k = malloc(p->nb * sizeof(*k));
	uint32_t i;

	p->by_pos = malloc(p->nb * sizeof(*p->by_pos));
	if (!k || !p->by_pos) {
		free(k);
		return MESH_ENOMEM;
	}
	for (i = 0; i < p->nb; i++)
		k[i] = (uint64_t) blk_key(t, &p->b[i]) << 32 | i;
	qsort(k, p->nb, sizeof(*k), cmp_u64);
	for (i = 0; i < p->nb; i++)
		p->by_pos[i] = (uint32_t) k[i];
	free(k);
	return 0;
}

static int mbs_create(struct mesh_allocator *a, const char *params,
		      struct mesh_diag *d)
{
	static const int base[] = { 4, 4, 8, 2 };
	enum mbs_kind kind = (enum mbs_kind) a->entry->variant;
	const struct mesh_topo *t = a->topo;
	struct mbs_priv *p;
	int rc = mesh__param_check(params, NULL, a->name, d);

	if (rc)
		return rc;
	if (kind == MBS_2D && t->dim[2] > 1)
		return mesh_diag_set(
		    d, MESH_EINVAL, NULL, 0, "allocator",
		    "mbs is the 2D Multiple Buddy Strategy; on 3D meshes use mbs-layered, mbs-octet or mbs-granular");
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	a->priv = p;
	p->base = base[kind];
	p->cap = 2 * t->nodes;
	p->b = malloc(p->cap * sizeof(*p->b));
	p->is_free = malloc(p->cap);
	rc = p->b && p->is_free ? build(p, t, kind) : MESH_ENOMEM;
	if (!rc)
		rc = set_levels(p);
	if (!rc)
		rc = mesh__boxsum_init(&p->box, t);
	if (!rc)
		rc = sort_by_position(p, t);
	if (rc) {
		mbs_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

static uint32_t volume(const struct blk *b)
{
	return (uint32_t) b->ext[0] * (uint32_t) b->ext[1] *
	       (uint32_t) b->ext[2];
}

/* Insert block id into its level's list, keeping position order. */
static void list_insert(struct mbs_priv *p, const struct mesh_topo *t,
			uint32_t id)
{
	int l = p->b[id].level;
	uint32_t *L = p->list[l], i = p->len[l], key = blk_key(t, &p->b[id]);

	while (i > p->head[l] && blk_key(t, &p->b[L[i - 1]]) > key) {
		L[i] = L[i - 1];
		i--;
	}
	L[i] = id;
	p->len[l]++;
}

/* Free lists: the maximal fully free blocks, by position. */
static void free_lists(struct mbs_priv *p, const struct mesh_view *v)
{
	uint32_t i, j;
	int l, hi[3], d;

	mesh__boxsum_build(&p->box, v->free);
	for (l = 0; l < p->levels; l++)
		p->len[l] = p->head[l] = 0;
	for (i = 0; i < p->nb; i++) {
		for (d = 0; d < 3; d++)
			hi[d] = p->b[i].lo[d] + p->b[i].ext[d] - 1;
		p->is_free[i] = mesh__boxsum_box(&p->box, p->b[i].lo, hi) ==
				volume(&p->b[i]);
	}
	for (j = 0; j < p->nb; j++) {
		i = p->by_pos[j];
		if (p->is_free[i] &&
		    (p->b[i].parent < 0 || !p->is_free[p->b[i].parent]))
			p->list[p->b[i].level][p->len[p->b[i].level]++] = i;
	}
}

static uint32_t emit(const struct mesh_topo *t, const struct blk *b,
		     uint32_t *out)
{
	int q[3];
	uint32_t m = 0;

	for (q[2] = b->lo[2]; q[2] < b->lo[2] + b->ext[2]; q[2]++)
		for (q[1] = b->lo[1]; q[1] < b->lo[1] + b->ext[1]; q[1]++)
			for (q[0] = b->lo[0]; q[0] < b->lo[0] + b->ext[0];
			     q[0]++)
				out[m++] = mesh_topo_index(t, q);
	return m;
}

static int mbs_place(struct mesh_allocator *a, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out)
{
	struct mbs_priv *p = a->priv;
	uint64_t need[32] = { 0 }, unit = 1, rem = req->nodes;
	uint32_t m = 0, id;
	int i, j;

	free_lists(p, v);
	for (i = 1; i < p->levels; i++)
		unit *= (uint64_t) p->base;
	for (i = p->levels - 1; i >= 0; unit /= (uint64_t) p->base, i--) {
		need[i] = rem / unit;
		rem %= unit;
	}
	for (i = p->levels - 1; i >= 0; i--) {
		while (need[i]) {
			if (p->head[i] < p->len[i]) {
				id = p->list[i][p->head[i]++];
				m += emit(v->topo, &p->b[id], out + m);
				need[i]--;
				continue;
			}
			for (j = i + 1;
			     j < p->levels && p->head[j] == p->len[j]; j++)
				;
			if (j < p->levels) {
				int32_t c =
				    p->b[p->list[j][p->head[j]++]].child;

				for (; c >= 0; c = p->b[c].sib)
					list_insert(p, v->topo, (uint32_t) c);
				continue;
			}
			if (i == 0)
				return MESH_EINTERNAL;
			need[i - 1] += need[i] * (uint64_t) p->base;
			need[i] = 0;
		}
	}
	return m == req->nodes ? 0 : MESH_EINTERNAL;
}

const struct mesh_alloc_ops mesh__mbs_ops = {
	.create = mbs_create,
	.destroy = mbs_destroy,
	.place = mbs_place,
};
