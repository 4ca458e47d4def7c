/* l1near.h - "the k free nodes nearest to a centre by L1 distance" and
 * the sum of their pairwise distances, for the centre-based allocators
 * Gen-Alg and MM (private; never installed).
 *
 * A centre's set is every free node within L1 (Lee on wrapped axes)
 * radius R - 1 of it plus the first free nodes at distance exactly R in
 * offset order (on a mesh: lowest node index), R the least radius whose
 * ball holds k free nodes.  Its score is the set's sum of pairwise
 * distances.  Four ways compute the same score:
 *  - l1near.c: shell by shell enumeration with a lower bound (any
 *    topology; the definition the others are tested against), and the
 *    scan over the candidate centres;
 *  - l1_pattern.c: small balls (at most 64 cells) as one 64-bit word;
 *  - l1_tables.c and l1_walk.c: per-slice prefix sums of L1 diamonds
 *    give a centre's radius and coordinate histograms in O(R) reads;
 *  - l1_torus.c: tori run the mesh paths on an unrolled copy of the
 *    torus, or on a window around one short ring.
 * l1_parts.h declares what these files share among themselves.
 */
#ifndef MESH_L1NEAR_H
#define MESH_L1NEAR_H

#include <stdint.h>

#include "bitmap.h"
#include "topo.h"

struct mesh__l1near {
	const struct mesh_topo *topo;
	uint32_t *shell; /* scratch: free nodes of the current shell */
	uint32_t *taken; /* the set so far, in order */
	uint64_t *lb;    /* lb[j]: lower bound on the pair sum of j nodes */
	uint32_t *hist[MESH_MAX_DIMS]; /* coordinate histograms of the set */
	uint32_t *hbuf[2];             /* scratch: axis0 slices of two radii */
	int rmax;

	/* Table path (l1_tables.c; meshes, and the copies of tori): for
	 * axis d, tab[d] holds one table per slice (coordinate i on axis
	 * d) counting the free nodes of any L1 diamond in the plane of the
	 * other two axes, tp[d] (the longer) and tq[d]: 2D prefix sums in
	 * rotated coordinates (rot[d]) or 1D prefix sums per line of
	 * tp[d]. */
	uint16_t *tab[MESH_MAX_DIMS]; /* counts modulo 2^16: exact, as
				       * slices hold < 2^16 nodes */
	size_t stride[MESH_MAX_DIMS]; /* entries per slice */
	/* Entry e of slice i is tab[d][i * sstep[d] + e * estep[d]]: one
	 * table after another (sstep = stride, estep = 1), or, for the row
	 * cache's axis, interleaved (sstep = 1, estep = slices), so that
	 * one entry of every slice is one contiguous run. */
	size_t sstep[MESH_MAX_DIMS], estep[MESH_MAX_DIMS];
	int side[MESH_MAX_DIMS]; /* entries per table row */
	int tp[MESH_MAX_DIMS], tq[MESH_MAX_DIMS], rot[MESH_MAX_DIMS];
	int fast;      /* the table path applies to this topology */
	int axis0;     /* axis whose slices count whole balls */
	int rguess;    /* radius of the previous centre: a good first try */
	int rot_ratio; /* see slice_layout() */
	/* If axis0 == 0 (rotated): the axis-0 diamonds of the current
	 * x-row of centres, rcache[(w + 1) * X + i] for slice i and radius
	 * w, radii below rfill filled; rkey = c[1] + c[2] * Y of that row,
	 * -1 after a table build.  Row w = -1 stays 0 (see v_read()). */
	uint16_t *rcache;
	int rfill;
	long rkey;
	/* Line caches (the other rotated axes d, if the row cache is on):
	 * the same for the line of centres along d through c, keyed by the
	 * other two coordinates (line = c[tp] + c[tq] * dim[tp]):
	 * lcache[d][(line * (lcap + 2) + w + 1) * dim[d] + i], radii below
	 * lfill[d][line] filled, and row w = -1 0.  Kept for the whole
	 * decision. */
	uint16_t *lcache[MESH_MAX_DIMS];
	uint8_t *lfill[MESH_MAX_DIMS];
	int lcap; /* largest radius cached; larger ones read the tables */
	size_t line_entries; /* line caches are allocated up to this */
	/* Line caches pay once most centres of a decision take the table
	 * path (k too large for patterns, or patterns given up): a line's
	 * fill covers every slice, and a lone centre needs 2 R + 1 of
	 * them. */
	int lines_on;
	int built;    /* -1: tables hold this decision's free map; else
		       * centres enumerated before building them */
	int enum_max; /* how many may: nodes / (16 k), at most 31 */

	/* Planned walk (l1_walk.c; X <= 62): the free map's x-rows, each
	 * in one word shifted left by wpad = (64 - X) / 2, with wpy and wpz
	 * empty rows around (y, z) (wmax = min(wpad, WALK_PAD), or less on
	 * a shorter axis): wrow[(y + wpy) + (z + wpz) * wstride].  Walks of
	 * radius <= wmax read both cells of a shell row from one word with
	 * no bounds test, the rows in index order from wplan; those of
	 * plane dz (|dz| <= min(r, wpz)) start at
	 * wplan[wzs[r * (2 wmax + 2) + dz + wmax]], and the next plane's
	 * start ends them. */
	uint64_t *wrow;
	int wpad, wpy, wpz, wmax;
	size_t wstride;
	struct mesh__wstep {
		int32_t off; /* dy + dz * wstride */
		int8_t dy, dz, rx;
		uint8_t hi; /* 1 if the row has a second cell (rx > 0) */
	} * wplan;
	uint32_t *wzs;

	/* Ball patterns (l1_pattern.c; meshes, radius <= rp): the free
	 * nodes of the ball of radius rp around a centre as one 64-bit
	 * word, bit i being cell poff[i] (cells in node-index order);
	 * prow[] are its x-rows. */
	int rp;              /* 0: no pattern path */
	int pguess;          /* radius of the previous pattern */
	uint32_t pcells;     /* cells of the ball of radius rp */
	int32_t phit, pmiss; /* this decision's pattern fits */
	int8_t poff[64][MESH_MAX_DIMS];
	uint64_t pball[64]; /* cells within distance r, r = 0..rp */
	uint64_t phalf[MESH_MAX_DIMS][64]; /* [d][g + rp]: offset_d <= g */
	uint8_t pdist[64][64];             /* L1 distance of cells i, j */
	struct {
		int8_t dy, dz, rx;
		uint8_t pos;
		int32_t off; /* dz * (Y + 2 rp) + dy: padded-row offset */
	} prow[64];
	int nrows;
	uint8_t pnear[64]; /* prow indices by |dy| + |dz|, ascending */
	int pupto[64];     /* rows with |dy| + |dz| <= r: pnear[0..pupto[r]) */
	/* If X + 2 rp <= 64: the free map's x-rows, each in one word
	 * shifted left by rp, with rp empty rows around (y, z): the
	 * pattern's rows then need no bounds checks. */
	uint64_t *padrow;
	/* With padrow: pplan[r * 64 + j], the j-th row of a gather of
	 * radius r (rows pnear[j]): pattern |= ((padrow[row + off] >> (c[0]
	 * + shift)) & mask) << dst. */
	struct mesh__pgather {
		int32_t off;
		uint8_t shift, dst;
		uint64_t mask;
	} * pplan;
	/* With padrow: the patterns at radius rp of the centres of x-row
	 * prow_at (z Y + y; -1: none), and the row of the last gather. */
	uint64_t prowpat[64];
	int prow_at, prow_seen;
	struct {
		int32_t off;   /* its row's prow[].off */
		uint8_t shift; /* rp + its x offset */
	} pcell[64];

	/* Tori (l1_torus.c): the search runs on an unrolled copy, a mesh
	 * (unr_topo) that repeats the torus pad[d] nodes beyond both ends
	 * of each wrapped axis, pad[] being the copy's own field; unr_free
	 * is this decision's free map on it.  A centre c of the torus is
	 * the copy's c + pad. */
	struct mesh__l1near *unr;
	struct mesh_topo *unr_topo;
	struct mesh_bitmap *unr_free;
	int pad[MESH_MAX_DIMS];
	/* On a copy: ring[d], the torus's length of axis d if it wraps
	 * (else 0); balls of radius <= rlimit are the torus's balls, and
	 * within radius rlin every pair's Lee distance is its L1 one.
	 * too_far: the radius of the copy's ball that the last centre
	 * needed, if larger than rlimit (else 0).  On meshes rlimit and
	 * rlin are INT_MAX. */
	int ring[MESH_MAX_DIMS];
	int rlimit, rlin, too_far;
	/* Tori with one ring shorter than the others (Titan's 16 among 25
	 * and 24): a second copy, the window, which repeats the other
	 * wrapped axes as above but holds axis win_axis as one turn of its
	 * ring, centred on coordinate win_at: an open axis whose clipped
	 * balls are the torus's balls of any radius there.  A decision
	 * whose balls would outgrow the unrolled copy (win_on) visits the
	 * centres one coordinate of win_axis at a time and maps the window
	 * once for each.  win_mode: 0 by that estimate, 1 always, -1 never
	 * (tests). */
	struct mesh__l1near *win;
	/* On the window: the slices across its own axis (share_axis) are
	 * the same planes in every window, only in another order.  Their
	 * tables are built once per decision, twice over (slice i + L a
	 * copy of slice i), into share_tab, for the window at share_at
	 * (-1: not yet this decision); the window at share_now reads them
	 * from slice (share_now - share_at) mod L on, through
	 * tab[share_axis]. */
	uint16_t *share_tab;
	int share_axis, share_at, share_now;
	struct mesh_topo *win_topo;
	struct mesh_bitmap *win_free;
	struct mesh_bitmap *win_ties; /* scratch: centres that tie */
	int win_axis, win_at, win_on, win_mode;
	uint32_t win_k;
	/* Tori whose copy pads by more than NEAR_PAD: a smaller unrolled
	 * copy, padded by at most NEAR_PAD, whose tables cost less to
	 * build, for decisions whose balls mostly fit in it (near_on;
	 * centres whose balls outgrow it take the enumeration).
	 * near_mode: 0 by that estimate, 1 always, -1 never (tests). */
	struct mesh__l1near *near;
	struct mesh_topo *near_topo;
	struct mesh_bitmap *near_free;
	int near_on, near_mode;
};

/* 0, or MESH_ENOMEM with x freed. */
int mesh__l1near_init(struct mesh__l1near *x, const struct mesh_topo *t);
void mesh__l1near_free(struct mesh__l1near *x);

/* Sum of pairwise distances of the k free nodes nearest to centre c (L1,
 * Lee on wrapped axes; ties in offset order: the lowest offset from c in
 * z, then y, then x, offsets of a wrapped axis of length L running from
 * -(L - 1) / 2 to L / 2, which on a mesh is the lowest node index), or
 * UINT64_MAX once the score is known to be >= bound.  If out is not NULL
 * and the score is below bound, the nodes are written to out[0..k):
 * shell by shell, in offset order within a shell.  Requires k <= free
 * nodes.  This is the shell-enumeration path; mesh__l1near_best() and
 * mesh__l1near_ties() take faster paths with the same results. */
uint64_t mesh__l1near_score(struct mesh__l1near *x,
			    const struct mesh_bitmap *free_map, const int c[3],
			    uint32_t k, uint64_t bound, uint32_t *out);

/* Candidate-centre predicate of an allocator (Gen-Alg: free nodes; MM:
 * points whose coordinates each occur among the free nodes); c holds
 * the node's coordinates.  NULL: every node is a candidate. */
typedef int (*mesh__centre_pred)(const void *ctx, uint32_t node,
				 const int c[3]);

/* Gen-Alg's predicate: the free nodes, ctx being the free map.
 * mesh__l1near_best() knows it, and on meshes whose x-rows fit a word
 * takes each row's free bits instead of asking node by node (on a
 * random map, that branch mispredicts half the time). */
int mesh__centre_free(const void *ctx, uint32_t node, const int c[3]);

/* Lowest score over the candidate centres, ties to the lowest centre
 * index; out receives that centre's set.  UINT64_MAX if no centre. */
uint64_t mesh__l1near_best(struct mesh__l1near *x,
			   const struct mesh_bitmap *free_map, uint32_t k,
			   mesh__centre_pred pred, const void *ctx,
			   uint32_t *out);

/* Calls cb(cb_ctx, buf) for every candidate centre whose set scores
 * exactly best, in centre order; stops early if cb returns non-zero. */
int mesh__l1near_ties(struct mesh__l1near *x,
		      const struct mesh_bitmap *free_map, uint32_t k,
		      mesh__centre_pred pred, const void *ctx, uint64_t best,
		      uint32_t *buf, int (*cb)(void *, const uint32_t *),
		      void *cb_ctx);

/* For tests: every node's score as a centre into score[node], against
 * bound[node] (UINT64_MAX if bound is NULL; a score or bound not below
 * it gives UINT64_MAX).  With lines, by the table path with the line
 * caches; without, by a ball pattern where one fits (their count into
 * *patterns if not NULL), else by the table path without line caches
 * (on a torus whose unrolled copy has no patterns, with them).  Each
 * must equal mesh__l1near_score().  k must not exceed the free nodes.
 * Returns MESH_EINVAL on topologies without the table path. */
int mesh__l1near_path_scores(struct mesh__l1near *x,
			     const struct mesh_bitmap *free_map, uint32_t k,
			     int lines, const uint64_t *bound, uint64_t *score,
			     uint32_t *patterns);

#endif
