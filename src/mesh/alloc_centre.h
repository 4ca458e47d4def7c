/* alloc_centre.h - machinery shared by the L1 centre-based allocators
 * Gen-Alg, MM and MM-Inc (private; never installed).
 *
 * - mesh__pairsum: an incrementally built node set whose sum of pairwise
 *   distances (L1, Lee on wrapped axes) is kept up to date in O(log L)
 *   per insertion with one pair of Fenwick trees (count, coordinate sum)
 *   per axis.
 * - mesh__l1near: "the k free nodes nearest to a centre by L1 distance,
 *   ties to the lowest node index" and its sum of pairwise distances.
 *   On meshes, small balls (at most 64 cells) are read as one 64-bit
 *   pattern each; otherwise per-slice prefix sums of L1 diamonds (built
 *   once per decision, when first needed) give each centre's radius and
 *   coordinate histograms in O(R) reads.  Tori run the same search on
 *   an unrolled copy (a mesh that repeats the torus around it) where a
 *   ball fits the copy, or on a window (the same, with one short ring
 *   held as one turn around the centre) when balls outgrow that ring;
 *   otherwise L1 spheres are enumerated shell by shell with early
 *   termination against a bound.  All give the same answers.
 */
#ifndef MESH_ALLOC_CENTRE_H
#define MESH_ALLOC_CENTRE_H

#include <stdint.h>

#include "alloc.h"
#include "bitmap.h"
#include "boxsum.h"
#include "topo.h"

struct mesh__pairsum {
	const struct mesh_topo *topo;
	int64_t *cnt[MESH_MAX_DIMS]; /* Fenwick trees, 1-based */
	int64_t *sum[MESH_MAX_DIMS];
	uint32_t n;
	uint64_t total; /* sum over unordered pairs */
};

int mesh__pairsum_init(struct mesh__pairsum *p, const struct mesh_topo *t);
void mesh__pairsum_free(struct mesh__pairsum *p);
/* Sum of distances from the point c to every member. */
uint64_t mesh__pairsum_dist_to(const struct mesh__pairsum *p, const int c[3]);
/* Insert (sign = +1) or remove (sign = -1) the point c; total follows. */
void mesh__pairsum_update(struct mesh__pairsum *p, const int c[3], int sign);

struct mesh__l1near {
	const struct mesh_topo *topo;
	struct mesh__pairsum ps;
	uint32_t *shell; /* scratch: free nodes of the current shell */
	uint32_t *taken; /* nodes inserted into ps, in order */
	uint64_t *lb;    /* lb[j]: lower bound on the pair sum of j nodes */
	uint32_t *hist[MESH_MAX_DIMS]; /* coordinate histograms of the set */
	uint32_t *hist0_alt; /* hist[0]'s twin: find_radius_row() fills both */
	uint32_t *hbuf[2];   /* scratch: axis0 slices of two radii */
	int rmax;
	/* Fast path (no wrapped axis longer than 1): for axis d, tab[d]
	 * holds one table per slice (coordinate i on axis d) counting the
	 * free nodes of any L1 diamond in the plane of the other two axes,
	 * tp[d] (the longer) and tq[d]: 2D prefix sums in rotated
	 * coordinates (rot[d]) or 1D prefix sums per line of tp[d]. */
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
	int fast;   /* the fast path applies to this topology */
	int axis0;  /* axis whose slices count whole balls */
	int rguess; /* radius of the previous centre: a good first try */
	/* If axis0 == 0 (rotated): the axis-0 diamonds of the current
	 * x-row of centres, rcache[(w + 1) * X + i] for slice i and radius
	 * w, radii below rfill filled; rkey = c[1] + c[2] * Y of that row,
	 * -1 after a tables_build().  Row w = -1 stays 0 (see v_read()). */
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
	int lcap; /* largest radius cached; larger ones use slice_hist() */
	/* If X <= 62: the free map's x-rows, each in one word shifted left
	 * by wpad = (64 - X) / 2, with wpy and wpz empty rows around (y, z)
	 * (wmax = min(wpad, WALK_PAD), or less on a shorter axis):
	 * wrow[(y + wpy) + (z + wpz) * wstride].  Walks of radius <= wmax
	 * read both cells of a shell row from one word with no bounds test,
	 * the rows in index order from wplan; those of plane dz (|dz| <=
	 * min(r, wpz)) start at wplan[wzs[r * (2 wmax + 2) + dz + wmax]],
	 * and the next plane's start ends them. */
	uint64_t *wrow;
	int wpad, wpy, wpz, wmax;
	size_t wstride;
	struct mesh__wstep {
		int32_t off; /* dy + dz * wstride */
		int8_t dy, dz, rx;
		uint8_t hi; /* 1 if the row has a second cell (rx > 0) */
	} * wplan;
	uint32_t *wzs;
	/* Line caches pay once most centres of a decision take fast_score()
	 * (k too large for patterns, or patterns given up): a line's fill
	 * covers every slice, and a lone centre needs 2 R + 1 of them. */
	int lines_on;
	/* The bound before the walk is tried for walks of at least this
	 * many nodes (WALK_BOUND_MIN; tests use 1). */
	uint32_t bound_walks;
	int built;    /* -1: tables hold this decision's free map; else
		       * centres enumerated before building them */
	int enum_max; /* how many may: nodes / (16 k), at most 31 */
	/* Ball-pattern path (meshes, radius <= rp): the free nodes of the
	 * ball of radius rp around a centre as one 64-bit word, bit i being
	 * cell poff[i] (cells in node-index order); prow[] are its x-rows. */
	int rp;              /* 0: no pattern path */
	int pguess;          /* radius of the previous pattern */
	uint32_t pcells;     /* cells of the ball of radius rp */
	int32_t phit, pmiss; /* this decision's pattern fits */
	int8_t poff[64][MESH_MAX_DIMS];
	uint64_t pball[64]; /* cells within distance r, r = 0..rp */
	uint64_t phalf[MESH_MAX_DIMS][64]; /* [d][g + rp]: offset_d <= g */
	/* phist[d][i]: 1 in field offset_d + rp of pfield bits (histogram
	 * entries of cell i); pones: 1 in each of the 2 rp + 1 fields */
	uint64_t phist[MESH_MAX_DIMS][64], pones;
	int pfield;
	uint8_t pdist[64][64]; /* L1 distance of cells i, j */
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
	/* Line caches are allocated up to this many entries per axis. */
	size_t line_entries;
	/* Tori: the search runs on an unrolled copy, a mesh (unr_topo)
	 * that repeats the torus pad[d] nodes beyond both ends of each
	 * wrapped axis, pad[] being the copy's own field; unr_free is
	 * this decision's free map on it.  A centre c of the torus is the
	 * copy's c + pad. */
	struct mesh__l1near *unr;
	struct mesh_topo *unr_topo;
	struct mesh_bitmap *unr_free;
	int pad[MESH_MAX_DIMS];
	/* On an unrolled copy: ring[d], the torus's length of axis d if it
	 * wraps (else 0); balls of radius <= rlimit are the torus's balls,
	 * and within radius rlin every pair's Lee distance is its L1 one.
	 * too_far: the radius of the copy's ball that the last centre
	 * needed, if larger than rlimit (else 0).  On meshes rlimit
	 * and rlin are INT_MAX. */
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
	int rot_ratio; /* see slice_layout() */
	/* On a copy, the bound before the walk in Lee distances (balls
	 * past rlin): its recent tries and prunes in this decision, and
	 * a count of the centres it skips while it prunes less than half
	 * the time (see ring_bound_wanted()); ring_auto 0 tries it on
	 * every centre. */
	uint32_t ring_tries, ring_prunes, ring_skip;
	int ring_auto;
	/* Tori whose copy pads by more than NEAR_PAD: a smaller unrolled
	 * copy, padded by at most NEAR_PAD, whose tables cost less to
	 * build, for decisions whose balls mostly fit in it (near_on;
	 * larger balls start from its ball, see copy_enum()).
	 * near_mode: 0 by that estimate, 1 always, -1 never (tests). */
	struct mesh__l1near *near;
	struct mesh_topo *near_topo;
	struct mesh_bitmap *near_free;
	int near_on, near_mode;
};

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

/* Free nodes in the box lo[d] <= c[d] <= hi[d]; bounds may lie outside
 * the mesh: wrapped axes wrap (a box at least as long as the ring is the
 * whole ring), other axes are clipped. */
/* Split [lo, hi] on axis d into at most two in-range intervals
 * [ilo[i], ihi[i]]: clipped on a mesh (0 if nothing is left); on a torus
 * wrapped, or the whole ring when it is longer. */
int mesh__split_axis(const struct mesh_topo *t, int d, int lo, int hi,
		     int ilo[2], int ihi[2]);
uint32_t mesh__box_count(const struct mesh__boxsum *b, const int lo[3],
			 const int hi[3]);

/* Distance from coordinate q to the interval [lo, hi] on axis d (wrapped
 * as above); 0 inside. */
int mesh__interval_distance(const struct mesh_topo *t, int d, int q, int lo,
			    int hi);

/* MC engine (alloc_mc.c), shared with MC-Elongated.  Shell 0 around
 * centre c with extents ext[] is the box whose low corner is
 * c[d] - ceil((ext[d] - 1) / 2); shell s is that box grown by s on every
 * side (L-inf rings); a node costs its shell number. */
struct mesh__mc_live; /* alloc_mc.c: a centre still in the search */
struct mesh__mc_cand; /* alloc_mc.c: a centre and its lower bound */

struct mesh__mc {
	const struct mesh_topo *topo;
	struct mesh__boxsum box;
	uint64_t *keys;             /* scratch for gathering */
	struct mesh__mc_live *live; /* scratch: centres in the sweep */
	struct mesh__mc_cand *cand; /* scratch: centres that may win */
	uint64_t *vol;              /* scratch: per shell, box volume factors */
	uint64_t *tmp;              /* scratch: sorting keys */
	int *ax;                    /* scratch: 2 (X + Y + Z) per-axis values */
	uint32_t *rowq;  /* scratch: two padded x-rows of shell counts */
	size_t rowq_len; /* ... of at most this many entries each */
	/* scratch, tori: a row's counts (X + 1), one shell's row read as
	 * the summed-volume table's (2 X + 1) and zeros (2 X + 1) */
	uint32_t *rowp;
};

struct mesh__mc_best {
	uint64_t cost; /* UINT64_MAX: none */
	uint32_t centre;
	int ext[3];
	int radius; /* last shell used */
};

/* Order within shells: returns a sort key < 2^20 for free node q at
 * shell s around shell 0's box (low corner lo); per axis d, out[d] is
 * q's distance outside that box and near[d] its distance to the
 * centre's coordinate (Lee distance on a ring).  Nodes are taken by (s,
 * key, node). */
typedef uint64_t (*mesh__mc_key)(const void *ctx, const struct mesh_topo *t,
				 const int q[3], int s, const int lo[3],
				 const int out[3], const int near[3]);

int mesh__mc_init(struct mesh__mc *m, const struct mesh_topo *t);
void mesh__mc_free(struct mesh__mc *m);
/* Builds the prefix sums of free_map (call once per allocation). */
void mesh__mc_prepare(struct mesh__mc *m, const struct mesh_bitmap *free_map);
/* Cost of centre c with extents ext, or >= bound (early exit). */
uint64_t mesh__mc_cost(const struct mesh__mc *m, const int c[3],
		       const int ext[3], uint32_t k, uint64_t bound,
		       int *radius);
/* Improves *best with every free centre for extents ext (strictly lower
 * cost only, so earlier orientations and lower centres win ties). */
void mesh__mc_search(const struct mesh__mc *m,
		     const struct mesh_bitmap *free_map, const int ext[3],
		     uint32_t k, struct mesh__mc_best *best);
/* The k nodes of the candidate cluster described by best.  Returns the
 * number of free nodes in the cluster's box; m->keys[0..that) holds them
 * sorted by shell, then key, then node (node in the low 22 bits, shell
 * from bit 42). */
uint32_t mesh__mc_gather(struct mesh__mc *m, const struct mesh_bitmap *free_map,
			 const struct mesh__mc_best *best, uint32_t k,
			 mesh__mc_key key, const void *ctx, uint32_t *out);

/* Greedy fill (mc1x1, Walker et al.'s reported variant): with out[0..
 * inner) chosen, append m of the candidates cand[0..n) one at a time,
 * each the one with the least total L1 (Lee) distance to all chosen so
 * far, ties to the earlier candidate.  That total is separable: per axis
 * d, a table wsum over the candidates' coordinate range holds the
 * distance on axis d to the chosen, built from the first inner nodes'
 * coordinate histograms; each pick adds its distances to the tables
 * (O(range)) and scores every candidate left with three reads; a pick
 * leaves the list, which keeps its order.  The caller fills cand. */
struct mesh__greedy {
	uint32_t *cand; /* candidates, filled by the caller */
	int *xyz; /* per candidate left: its wsum indices and cand index */
	uint32_t *hist; /* X + Y + Z + 3 counts, zero between calls */
	uint64_t *wsum; /* X + Y + Z + 3: per-axis distance sums */
};

int mesh__greedy_init(struct mesh__greedy *g, const struct mesh_topo *t);
void mesh__greedy_free(struct mesh__greedy *g);
void mesh__greedy_fill(struct mesh__greedy *g, const struct mesh_topo *t,
		       uint32_t n, uint32_t *out, uint32_t inner, uint32_t m);

/* I/O geometry for PLAS and MC-Elongated (Mache Ch. VII generalised):
 * columns run along the axis over which the I/O nodes spread most (ties:
 * y, z, x); mid is the coordinate of the (m/2)-th I/O node in that order,
 * so the middle I/O link lies between mid - 1 and mid; u and w are the
 * other axes (u first in x, y, z order). */
struct mesh__io_geom {
	int axis, mid, u, w;
};

/* MESH_EINVAL (described in d) unless the mesh has designated I/O
 * nodes: the I/O-aware allocators cannot work without them. */
int mesh__io_required(const struct mesh_allocator *a, struct mesh_diag *d);

/* 0, or MESH_EINVAL if t has no I/O nodes. */
int mesh__io_geometry(const struct mesh_topo *t, struct mesh__io_geom *g);

/* Middle-out rank of coordinate y along the column axis: mid, mid - 1,
 * mid + 1, mid - 2, ... alternate above and below the middle link (rows
 * past one end continue in order on the other). */
int mesh__io_rank(const struct mesh_topo *t, const struct mesh__io_geom *g,
		  int y);

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
 * caches and the bound before the walk (tried on every walk); without,
 * by a ball pattern where one fits (their count into *patterns if not
 * NULL), else by the table path without line caches (on a torus whose
 * unrolled copy has no patterns, with them).  Each must equal
 * mesh__l1near_score().  k must not exceed the free nodes.  Returns
 * MESH_EINVAL on topologies without the table path. */
int mesh__l1near_path_scores(struct mesh__l1near *x,
			     const struct mesh_bitmap *free_map, uint32_t k,
			     int lines, const uint64_t *bound, uint64_t *score,
			     uint32_t *patterns);

#endif
