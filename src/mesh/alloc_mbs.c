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
 * blocks of the hierarchy.  The lists are never built in full (issue 10):
 * each level keeps its blocks sorted by position, and a cursor walks
 * them only as far as the request needs, testing each block's x-rows
 * against the free map's 64-bit words (and its parent's, for
 * maximality).  Children of split blocks go to a small per-level list
 * merged by position.  A level is scanned to its end only when its list
 * runs dry, so small requests stop after a few blocks.  A level scanned
 * past 128 blocks (a quarter of a level of fewer than 512, at least 8:
 * walk_budget) gets one bit per position (is the box of the level's
 * shape with this low corner free?) from the level below by shifted
 * ANDs, so its blocks' tests are single bits, and a level without any
 * ends the scan of all above (box_build).  From then on the walk jumps
 * from one all-free block to the next by the level's words of block
 * positions and their ranks, reading only the words that hold some
 * (list_jump; octet, whose list order is x,
 * then y, then z fastest, keeps them in that order, and its boxes'
 * set bits are copied there while they are few).  The old code
 * (prefix sums over every block, full lists) is test/reference.c's
 * ref_mbs_place; check_alloc_exact compares the two.  With
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
 *    octet cubes have the side of the largest power of 2 that fits the
 *    shortest axis, so a 2D mesh has only 1x1x1 blocks (Sec. III-B);
 *  - "first block" of a free list: the lowest low corner in node index
 *    order (x fastest) for mbs, layered and granular; for octet the
 *    order of nested loops over x, then y, then z (z fastest, so on a 2D
 *    mesh the unit blocks run down the columns).  Row order on a
 *    non-square 2D mesh walks the long side and gave octet a strongly
 *    worse dispersal than the reference behaviour; on square meshes the
 *    two orders are mirror images and give the same figures;
 *  - Granular pairing: along the phase's axis, blocks are scanned by
 *    increasing position and each unpaired block pairs with the adjacent
 *    unpaired block of identical extents that starts where it ends
 *    (greedy from the low end, the buddy-system alignment on power-of-2
 *    runs); the leftover edge of an odd run stays at the high end.  On
 *    16x15 this builds full-width strips 16x8, 16x4, 16x2, 16x1; Walker's
 *    text says an 8x8 top block (27%) there, which its own phase rule
 *    does not give (it is what mbs and layered build); we follow the
 *    rule;
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

#define blk mesh__mbs_block

/* What the free test needs of a block, packed for locality. */
struct geo {
	uint32_t first; /* node index of the low corner */
	uint32_t ext[3];
	int32_t parent;
};

struct mbs_priv {
	struct blk *b;
	struct geo *geo; /* by block id */
	uint32_t nb, cap;
	int base, levels;
	uint32_t **lvl; /* per level: every block id, ascending position */
	uint32_t *lvl_len;
	uint32_t *cur;   /* per level: scan cursor into lvl */
	uint8_t *cur_ok; /* lvl[l][cur[l]] is known to be maximal free */
	uint32_t *stamp; /* per block: epoch of the memoised free test */
	uint8_t *memo;   /* per block: its result */
	uint32_t epoch;  /* one per decision */
	uint32_t **ins;  /* per level: children of split blocks, by position */
	uint32_t *ins_head, *ins_len;
	/* Free boxes by word (issue 10; x-rows fit a word, else rows is
	 * NULL): for a level whose blocks all have one shape (shape[l], or
	 * -1), box[l][z * Y + y] has bit x set if that shape's box with low
	 * corner (x, y, z) is all free; built at the level's first use in a
	 * decision (box_epoch), so a block's free test is one bit, at
	 * pos[id] = (first / X) << 6 | first % X.  Levels >= none hold no
	 * free block this decision. */
	int32_t *shape;
	uint64_t *rows, *box;
	uint32_t *box_epoch, *pos;
	int none;
	/* Where the blocks are (issue 10; octet: tat below, as its list order
	 * is not index order): at[l][z * Y + y] has bit x set if a block of
	 * level l has its low corner at (x, y, z), and rank[l][i] counts the
	 * level's blocks in the words before i, so the block of a set bit is
	 * lvl[l][rank + the bits below it].  With box[l] built, a level's
	 * walk jumps to the next block that is all free (list_jump).
	 * sum[l] has bit w set if at[l][w] is not 0: a large block's corners
	 * lie on few rows, and the jump reads only those. */
	uint64_t *at, *sum;
	uint32_t *rank;
	/* The same for octet (issue 10), whose list order is x slowest and
	 * z fastest: words of z bits, one per (x, y), at tw = x * Y + y,
	 * when Z <= 64.  tat, tsum and trank as at, sum and rank; tbox[l]
	 * is box[l] in this layout, built from box[l]'s set bits when the
	 * level's walk needs it and they are few (tbox_ok; tbox_epoch). */
	uint64_t *tat, *tsum, *tbox;
	uint32_t *trank, *tbox_epoch;
	uint8_t *tbox_ok;
};

static uint32_t blk_key(const struct mesh_topo *t, const struct blk *b)
{
	return mesh_topo_index(t, b->lo);
}

/* Free-list order of a block's low corner: node index order (x fastest)
 * for mbs, layered and granular; for octet the order of nested loops
 * over x, then y, then z (z fastest, so y before x on a 2D mesh). */
static uint32_t order_key(const struct mesh_topo *t, enum mbs_kind kind,
			  const int lo[3])
{
	if (kind != MBS_OCTET)
		return mesh_topo_index(t, lo);
	return ((uint32_t) lo[0] * (uint32_t) t->dim[1] + (uint32_t) lo[1]) *
		   (uint32_t) t->dim[2] +
	       (uint32_t) lo[2];
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

	for (i = 0; i < p->levels; i++) {
		free(p->lvl ? p->lvl[i] : NULL);
		free(p->ins ? p->ins[i] : NULL);
	}
	free(p->geo);
	free(p->stamp);
	free(p->memo);
	free(p->lvl);
	free(p->ins);
	free(p->lvl_len);
	free(p->cur);
	free(p->cur_ok);
	free(p->ins_head);
	free(p->ins_len);
	free(p->shape);
	free(p->rows);
	free(p->box);
	free(p->box_epoch);
	free(p->pos);
	free(p->at);
	free(p->rank);
	free(p->sum);
	free(p->tat);
	free(p->tbox);
	free(p->trank);
	free(p->tsum);
	free(p->tbox_epoch);
	free(p->tbox_ok);
	free(p->b);
	free(p);
}

/* Levels (log_base of volume) and per-level storage. */
static int set_levels(struct mbs_priv *p)
{
	uint32_t i;
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
	p->lvl = calloc((size_t) p->levels, sizeof(*p->lvl));
	p->geo = malloc(p->nb * sizeof(*p->geo));
	p->stamp = calloc(p->nb, sizeof(*p->stamp));
	p->memo = malloc(p->nb);
	p->ins = calloc((size_t) p->levels, sizeof(*p->ins));
	p->lvl_len = calloc((size_t) p->levels, sizeof(*p->lvl_len));
	p->cur = calloc((size_t) p->levels, sizeof(*p->cur));
	p->cur_ok = calloc((size_t) p->levels, sizeof(*p->cur_ok));
	p->ins_head = calloc((size_t) p->levels, sizeof(*p->ins_head));
	p->ins_len = calloc((size_t) p->levels, sizeof(*p->ins_len));
	if (!p->lvl || !p->geo || !p->stamp || !p->memo || !p->ins ||
	    !p->lvl_len || !p->cur || !p->cur_ok || !p->ins_head || !p->ins_len)
		return MESH_ENOMEM;
	for (i = 0; i < p->nb; i++)
		p->lvl_len[p->b[i].level]++;
	for (l = 0; l < p->levels; l++) {
		p->lvl[l] = malloc(p->lvl_len[l] * sizeof(uint32_t));
		p->ins[l] = malloc(p->lvl_len[l] * sizeof(uint32_t));
		if (!p->lvl[l] || !p->ins[l])
			return MESH_ENOMEM;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* Each level's blocks by low-corner index (unique within a level). */
static int sort_by_position(struct mbs_priv *p, const struct mesh_topo *t,
			    enum mbs_kind kind)
{
	uint64_t *k = malloc(p->nb * sizeof(*k));
	uint32_t i, id;
	int l;

	if (!k)
		return MESH_ENOMEM;
	for (i = 0; i < p->nb; i++)
		p->b[i].order = order_key(t, kind, p->b[i].lo);
	for (i = 0; i < p->nb; i++)
		k[i] = (uint64_t) p->b[i].order << 32 | i;
	qsort(k, p->nb, sizeof(*k), cmp_u64);
	for (l = 0; l < p->levels; l++)
		p->lvl_len[l] = 0;
	for (i = 0; i < p->nb; i++) {
		p->geo[i].first = blk_key(t, &p->b[i]);
		for (l = 0; l < 3; l++)
			p->geo[i].ext[l] = (uint32_t) p->b[i].ext[l];
		p->geo[i].parent = p->b[i].parent;
	}
	for (i = 0; i < p->nb; i++) {
		id = (uint32_t) k[i];
		l = p->b[id].level;
		p->lvl[l][p->lvl_len[l]++] = id;
	}
	free(k);
	return 0;
}

/* Words of a summary of n words: one bit per word. */
static size_t sum_words(size_t n)
{
	return (n + 63) / 64;
}

/* rank[w]: the set bits of at[] before word w; sum: bit w set if at[w]
 * is not 0. */
static void rank_words(const uint64_t *at, size_t n, uint32_t *rank,
		       uint64_t *sum)
{
	uint32_t c = 0;
	size_t w;

	memset(sum, 0, sum_words(n) * sizeof(*sum));
	for (w = 0; w < n; w++) {
		rank[w] = c;
		c += (uint32_t) mesh__popcount64(at[w]);
		sum[w >> 6] |= (uint64_t) (at[w] != 0) << (w & 63);
	}
}

/* Block id's position in octet's words: x * Y + y, then z. */
static uint32_t octet_pos(const struct mesh_topo *t, const struct geo *g)
{
	uint32_t X = (uint32_t) t->dim[0], Y = (uint32_t) t->dim[1];
	uint32_t x = g->first % X, y = g->first / X % Y, z = g->first / X / Y;

	return (x * Y + y) << 6 | z;
}

/* tat and trank (see struct mbs_priv) and tbox's storage. */
static int octet_init(struct mbs_priv *p, const struct mesh_topo *t)
{
	size_t tn = (size_t) t->dim[0] * (size_t) t->dim[1];
	uint32_t i, at;
	int l;

	p->tat = calloc((size_t) p->levels * tn, sizeof(*p->tat));
	p->tbox = malloc((size_t) p->levels * tn * sizeof(*p->tbox));
	p->trank = malloc((size_t) p->levels * tn * sizeof(*p->trank));
	p->tsum = malloc((size_t) p->levels * sum_words(tn) * sizeof(*p->tsum));
	p->tbox_epoch = calloc((size_t) p->levels, sizeof(*p->tbox_epoch));
	p->tbox_ok = calloc((size_t) p->levels, sizeof(*p->tbox_ok));
	if (!p->tat || !p->tbox || !p->trank || !p->tsum || !p->tbox_epoch ||
	    !p->tbox_ok)
		return MESH_ENOMEM;
	for (l = 0; l < p->levels; l++) {
		for (i = 0; i < p->lvl_len[l]; i++) {
			at = octet_pos(t, &p->geo[p->lvl[l][i]]);
			p->tat[(size_t) l * tn + (at >> 6)] |= (uint64_t) 1
							       << (at & 63);
		}
		rank_words(p->tat + (size_t) l * tn, tn,
			   p->trank + (size_t) l * tn,
			   p->tsum + (size_t) l * sum_words(tn));
	}
	return 0;
}

/* Per level the one shape of its blocks (or -1), and the word boxes'
 * storage, when x-rows fit a word. */
static int box_init(struct mbs_priv *p, const struct mesh_topo *t,
		    enum mbs_kind kind)
{
	size_t rows = (size_t) t->dim[1] * (size_t) t->dim[2];
	uint32_t i, id, X = (uint32_t) t->dim[0];
	int l;

	if (t->dim[0] > 64)
		return 0;
	p->shape = malloc((size_t) p->levels * sizeof(*p->shape));
	p->rows = malloc(2 * rows * sizeof(*p->rows));
	p->box = malloc((size_t) p->levels * rows * sizeof(*p->box));
	p->box_epoch = calloc((size_t) p->levels, sizeof(*p->box_epoch));
	p->pos = malloc(p->nb * sizeof(*p->pos));
	if (!p->shape || !p->rows || !p->box || !p->box_epoch || !p->pos)
		return MESH_ENOMEM;
	for (l = 0; l < p->levels; l++) {
		p->shape[l] = p->lvl_len[l] ? (int32_t) p->lvl[l][0] : -1;
		for (i = 0; i < p->lvl_len[l] && p->shape[l] >= 0; i++) {
			id = p->lvl[l][i];
			if (memcmp(p->geo[id].ext, p->geo[p->shape[l]].ext,
				   sizeof(p->geo[id].ext)))
				p->shape[l] = -1;
		}
	}
	for (i = 0; i < p->nb; i++)
		p->pos[i] = p->geo[i].first / X << 6 | p->geo[i].first % X;
	if (kind == MBS_OCTET)
		return t->dim[2] <= 64 ? octet_init(p, t) : 0;
	p->at = calloc((size_t) p->levels * rows, sizeof(*p->at));
	p->rank = malloc((size_t) p->levels * rows * sizeof(*p->rank));
	p->sum = malloc((size_t) p->levels * sum_words(rows) * sizeof(*p->sum));
	if (!p->at || !p->rank || !p->sum)
		return MESH_ENOMEM;
	for (l = 0; l < p->levels; l++) {
		for (i = 0; i < p->lvl_len[l]; i++)
			p->at[(size_t) l * rows +
			      (p->pos[p->lvl[l][i]] >> 6)] |=
			    (uint64_t) 1 << (p->pos[p->lvl[l][i]] & 63);
		rank_words(p->at + (size_t) l * rows, rows,
			   p->rank + (size_t) l * rows,
			   p->sum + (size_t) l * sum_words(rows));
	}
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
	rc = p->b ? build(p, t, kind) : MESH_ENOMEM;
	if (!rc)
		rc = set_levels(p);
	if (!rc)
		rc = sort_by_position(p, t, kind);
	if (!rc)
		rc = box_init(p, t, kind);
	if (rc) {
		mbs_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

/* Ranks pos .. pos + len - 1 of the free map all free. */
static int bits_all_set(const uint64_t *w, uint32_t pos, uint32_t len)
{
	uint32_t off, n;
	uint64_t mask;

	while (len) {
		off = pos & 63;
		n = 64 - off < len ? 64 - off : len;
		mask = (n == 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << n) - 1)
		       << off;
		if ((w[pos >> 6] & mask) != mask)
			return 0;
		pos += n;
		len -= n;
	}
	return 1;
}

/* Block fully free: its x-rows tested a word at a time (most rows lie
 * in one word).  The rows of a z-plane are combined without branches and
 * the test stops after the first plane with a busy node: on a half-busy
 * machine a per-row early exit is a coin toss the CPU mispredicts. */
static int block_free(const struct mesh_topo *t, const uint64_t *w,
		      const struct geo *b)
{
	uint32_t len = b->ext[0], row = (uint32_t) t->dim[0],
		 plane = row * (uint32_t) t->dim[1];
	uint32_t first = b->first, pos, off;
	uint64_t mask = len >= 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << len) - 1;
	int y, z, ok;

	for (z = 0; z < (int) b->ext[2]; z++) {
		for (y = 0, ok = 1; y < (int) b->ext[1]; y++) {
			pos = first + (uint32_t) z * plane + (uint32_t) y * row;
			off = pos & 63;
			if (off + len <= 64)
				ok &= (w[pos >> 6] >> off & mask) == mask;
			else
				ok &= bits_all_set(w, pos, len);
		}
		if (!ok)
			return 0;
	}
	return 1;
}

/* Block id fully free, memoised for this decision.  Blocks of more than
 * 16 nodes ask their children, so that the levels scanned first (the
 * largest) settle most blocks by one child's test, which the smaller
 * levels then reuse. */
static int free_memo(struct mbs_priv *p, const struct mesh_view *v, uint32_t id)
{
	const struct geo *g = &p->geo[id];
	int32_t c = p->b[id].child;
	int r = 1;

	if (p->stamp[id] == p->epoch)
		return p->memo[id];
	if (c >= 0 && g->ext[0] * g->ext[1] * g->ext[2] > 16)
		for (; c >= 0 && r; c = p->b[c].sib)
			r = free_memo(p, v, (uint32_t) c);
	else
		r = block_free(v->topo, v->free->words, g);
	p->stamp[id] = p->epoch;
	p->memo[id] = (uint8_t) r;
	return r;
}

/* box[l] for level l's shape e.  If level l - 1 has one shape and e is
 * it doubled along some axes, box[l] is box[l - 1] ANDed with itself
 * shifted by the old extent along each of them (one pass per axis);
 * otherwise from the free map: per x-row the bits where a free run of
 * e[0] starts, ANDed over e[1] rows (in y), then over e[2] planes (in
 * z).  Returns whether any bit is set. */
static int box_build(struct mbs_priv *p, const struct mesh_topo *t,
		     const uint64_t *w, int l)
{
	const uint32_t *e = p->geo[p->shape[l]].ext, *f = NULL;
	uint32_t Y = (uint32_t) t->dim[1], Z = (uint32_t) t->dim[2], y, z, i,
		 n = Y * Z, d, ok;
	uint64_t *box = p->box + (size_t) l * n, *src, any = 0;

	if (l > 0 && p->shape[l - 1] >= 0) {
		f = p->geo[p->shape[l - 1]].ext;
		for (d = 0, ok = 1; d < 3; d++)
			ok &= e[d] == f[d] || e[d] == 2 * f[d];
		f = ok ? f : NULL;
	}
	if (f) {
		if (p->box_epoch[l - 1] != p->epoch)
			box_build(p, t, w, l - 1);
		src = p->box + (size_t) (l - 1) * n;
		if (e[0] == f[0])
			memcpy(box, src, n * sizeof(*box));
		else
			for (i = 0; i < n; i++)
				box[i] = src[i] & src[i] >> f[0];
		if (e[1] != f[1])
			for (z = 0; z < Z; z++) {
				uint64_t *b = box + (size_t) z * Y;

				for (y = 0; y + f[1] < Y; y++)
					b[y] &= b[y + f[1]];
				for (; y < Y; y++)
					b[y] = 0;
			}
		if (e[2] != f[2]) {
			for (i = 0; i + f[2] * Y < n; i++)
				box[i] &= box[i + f[2] * Y];
			for (; i < n; i++)
				box[i] = 0;
		}
		for (i = 0; i < n; i++)
			any |= box[i];
		p->box_epoch[l] = p->epoch;
		return any != 0;
	}
	any = (uint64_t) mesh__box_starts(t, w, e, p->rows, box);
	p->box_epoch[l] = p->epoch;
	return any != 0;
}

/* Block id (of level l) fully free: one bit of box[l] if the level has
 * one shape and x-rows fit a word, else free_memo. */
static inline int block_is_free(struct mbs_priv *p, const struct mesh_view *v,
				uint32_t id, int l)
{
	uint32_t at;

	if (!p->rows || p->shape[l] < 0 || p->box_epoch[l] != p->epoch)
		return free_memo(p, v, id);
	at = p->pos[id];
	return (int) (p->box[(size_t) l * v->topo->dim[1] * v->topo->dim[2] +
			     (at >> 6)] >>
			  (at & 63) &
		      1);
}

/* A free list entry: fully free, and its parent is not. */
static inline int maximal_free(struct mbs_priv *p, const struct mesh_view *v,
			       uint32_t id, int l)
{
	int32_t parent = p->geo[id].parent;

	return block_is_free(p, v, id, l) &&
	       (parent < 0 || !block_is_free(p, v, (uint32_t) parent, l + 1));
}

/* Level l's cursor to its next maximal free block (or its end), with
 * box[l] built: only the blocks whose box bit is set are tested, in the
 * words that sum marks. */
static void list_jump(struct mbs_priv *p, const struct mesh_view *v, int l,
		      const uint64_t *box, const uint64_t *at,
		      const uint64_t *sum, const uint32_t *rank, size_t n,
		      uint32_t pos)
{
	size_t first = pos >> 6, s = first >> 6, w;
	uint64_t live = sum[s] & ~(uint64_t) 0 << (first & 63), bits;
	uint32_t i;

	for (;;) {
		while (!live && ++s < sum_words(n))
			live = sum[s];
		if (!live)
			break;
		w = s << 6 | (size_t) __builtin_ctzll(live);
		live &= live - 1;
		bits = box[w] & at[w];
		if (w == first)
			bits &= ~(uint64_t) 0 << (pos & 63);
		for (; bits; bits &= bits - 1) {
			i = rank[w] +
			    mesh__popcount64(at[w] & ((bits & -bits) - 1));
			if (maximal_free(p, v, p->lvl[l][i], l)) {
				p->cur[l] = i;
				p->cur_ok[l] = 1;
				return;
			}
		}
	}
	p->cur[l] = p->lvl_len[l];
}

/* tbox[l] from box[l]'s set bits, unless there are more than a quarter
 * of the blocks left to walk (then walking costs no more): 1 if built.
 * Levels of single nodes walk. */
static int tbox_build(struct mbs_priv *p, const struct mesh_topo *t, int l)
{
	uint32_t Y = (uint32_t) t->dim[1], n = Y * (uint32_t) t->dim[2], w;
	size_t tn = (size_t) t->dim[0] * Y;
	const uint64_t *box = p->box + (size_t) l * n;
	uint64_t *tb = p->tbox + (size_t) l * tn, bits;
	const struct geo *g = &p->geo[p->shape[l]];
	uint32_t budget = (p->lvl_len[l] - p->cur[l]) / 4;

	if (p->tbox_epoch[l] == p->epoch)
		return p->tbox_ok[l];
	p->tbox_epoch[l] = p->epoch;
	p->tbox_ok[l] = 0;
	if (g->ext[0] * g->ext[1] * g->ext[2] == 1)
		return 0;
	memset(tb, 0, tn * sizeof(*tb));
	for (w = 0; w < n; w++)
		for (bits = box[w]; bits; bits &= bits - 1) {
			if (!budget--)
				return 0;
			tb[(size_t) __builtin_ctzll(bits) * Y + w % Y] |=
			    (uint64_t) 1 << (w / Y);
		}
	p->tbox_ok[l] = 1;
	return 1;
}

/* With level l's word boxes built, the cursor jumps to the next block
 * that is all free and maximal (or the end): 1.  0 when the level has
 * no jump this decision (octet with Z > 64, or too many free boxes). */
static int jump(struct mbs_priv *p, const struct mesh_view *v, int l)
{
	const struct mesh_topo *t = v->topo;
	size_t n = (size_t) t->dim[1] * (size_t) t->dim[2],
	       tn = (size_t) t->dim[0] * (size_t) t->dim[1];
	uint32_t id = p->lvl[l][p->cur[l]];

	if (p->at) {
		list_jump(p, v, l, p->box + l * n, p->at + l * n,
			  p->sum + l * sum_words(n), p->rank + l * n, n,
			  p->pos[id]);
		return 1;
	}
	if (!p->tat || !tbox_build(p, t, l))
		return 0;
	list_jump(p, v, l, p->tbox + l * tn, p->tat + l * tn,
		  p->tsum + l * sum_words(tn), p->trank + l * tn, tn,
		  octet_pos(t, &p->geo[id]));
	return 1;
}

/* How many of level l's blocks a walk tests before it builds the
 * level's word boxes. */
static uint32_t walk_budget(const struct mbs_priv *p, int l)
{
	uint32_t q = p->lvl_len[l] / 4;

	return q < 8 ? 8 : q > 128 ? 128 : q;
}

/* Head of level l's free list, or -1: the earlier (by position) of the
 * next maximal free block found by the level's cursor and the first
 * child of a split block not yet used. */
static int64_t list_peek(struct mbs_priv *p, const struct mesh_view *v, int l)
{
	const uint32_t *L = p->lvl[l];
	int64_t a = -1, c = -1;

	/* Every block above level 0 contains one of the level below: no
	 * free block at level none, none above. */
	if (l >= p->none)
		p->cur[l] = p->lvl_len[l];
	/* With the level's word boxes (built here or by another level's
	 * walk), jump over the blocks that are not all free. */
	if (!p->cur_ok[l] && p->cur[l] < p->lvl_len[l] && p->rows &&
	    p->shape[l] >= 0 && p->box_epoch[l] == p->epoch)
		jump(p, v, l);
	while (!p->cur_ok[l] && p->cur[l] < p->lvl_len[l]) {
		/* A level scanned past its walk budget gets its word boxes
		 * (and its parents', for maximality); none if empty. */
		if (p->cur[l] == walk_budget(p, l) && p->rows &&
		    p->shape[l] >= 0 && p->box_epoch[l] != p->epoch) {
			if (!box_build(p, v->topo, v->free->words, l)) {
				p->none = l < p->none ? l : p->none;
				p->cur[l] = p->lvl_len[l];
				break;
			}
			if (l + 1 < p->levels && p->shape[l + 1] >= 0 &&
			    p->box_epoch[l + 1] != p->epoch &&
			    !box_build(p, v->topo, v->free->words, l + 1))
				p->none = l + 1 < p->none ? l + 1 : p->none;
			if (jump(p, v, l))
				break;
		}
		if (maximal_free(p, v, L[p->cur[l]], l))
			p->cur_ok[l] = 1;
		else
			p->cur[l]++;
	}
	if (p->cur_ok[l])
		a = L[p->cur[l]];
	if (p->ins_head[l] < p->ins_len[l])
		c = p->ins[l][p->ins_head[l]];
	if (a < 0 || c < 0)
		return a < 0 ? c : a;
	return p->b[a].order < p->b[c].order ? a : c;
}

/* Remove the head id (as list_peek returned it) from level l's list. */
static void list_pop(struct mbs_priv *p, int l, int64_t id)
{
	if (p->cur_ok[l] && p->lvl[l][p->cur[l]] == (uint32_t) id) {
		p->cur[l]++;
		p->cur_ok[l] = 0;
	} else {
		p->ins_head[l]++;
	}
}

/* Insert a split block's child into its level's list, by position. */
static void list_insert(struct mbs_priv *p, uint32_t id)
{
	int l = p->b[id].level;
	uint32_t *L = p->ins[l], i = p->ins_len[l], key = p->b[id].order;

	while (i > p->ins_head[l] && p->b[L[i - 1]].order > key) {
		L[i] = L[i - 1];
		i--;
	}
	L[i] = id;
	p->ins_len[l]++;
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
	uint32_t m = 0;
	int64_t id;
	int i, j;

	for (i = 0; i < p->levels; i++)
		p->cur[i] = p->cur_ok[i] = p->ins_head[i] = p->ins_len[i] = 0;
	p->none = p->levels;
	if (++p->epoch == 0) { /* wrapped: forget every memo */
		memset(p->stamp, 0, p->nb * sizeof(*p->stamp));
		if (p->box_epoch)
			memset(p->box_epoch, 0,
			       (size_t) p->levels * sizeof(*p->box_epoch));
		if (p->tbox_epoch)
			memset(p->tbox_epoch, 0,
			       (size_t) p->levels * sizeof(*p->tbox_epoch));
		p->epoch = 1;
	}
	for (i = 1; i < p->levels; i++)
		unit *= (uint64_t) p->base;
	for (i = p->levels - 1; i >= 0; unit /= (uint64_t) p->base, i--) {
		need[i] = rem / unit;
		rem %= unit;
	}
	for (i = p->levels - 1; i >= 0; i--) {
		while (need[i]) {
			if ((id = list_peek(p, v, i)) >= 0) {
				list_pop(p, i, id);
				m += emit(v->topo, &p->b[id], out + m);
				need[i]--;
				continue;
			}
			for (j = i + 1;
			     j < p->levels && (id = list_peek(p, v, j)) < 0;
			     j++)
				;
			if (j < p->levels) {
				int32_t c = p->b[id].child;

				list_pop(p, j, id);
				for (; c >= 0; c = p->b[c].sib)
					list_insert(p, (uint32_t) c);
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

int mesh__mbs_hierarchy(const struct mesh_allocator *a,
			const struct mesh__mbs_block **blocks, uint32_t *nb,
			int *base, int *levels)
{
	const struct mbs_priv *p = a->priv;

	if (a->entry->ops != &mesh__mbs_ops)
		return MESH_EINVAL;
	*blocks = p->b;
	*nb = p->nb;
	*base = p->base;
	*levels = p->levels;
	return 0;
}

const struct mesh_alloc_ops mesh__mbs_ops = {
	.create = mbs_create,
	.destroy = mbs_destroy,
	.place = mbs_place,
};
