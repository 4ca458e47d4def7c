/* mc.h - the MC engine: shells around a shell 0, their costs, the
 * search for the cheapest centre and the nodes of its cluster (private;
 * never installed).
 *
 * mc_shell.c counts shells, costs one centre and gathers a cluster;
 * mc_sweep.c searches every free centre; greedy.c fills mc1x1's
 * outermost shell.  The allocators MC, MC1x1 (alloc_mc.c) and
 * MC-Elongated (alloc_mce.c) are built on them.
 */
#ifndef MESH_MC_H
#define MESH_MC_H

#include <stdint.h>

#include "bitmap.h"
#include "boxsum.h"
#include "topo.h"

/* MC engine, shared by MC, MC1x1 and MC-Elongated.  Shell 0 around
 * centre c with extents ext[] is the box whose low corner is
 * c[d] - ceil((ext[d] - 1) / 2); shell s is that box grown by s on every
 * side (L-inf rings); a node costs its shell number. */

/* A centre still in the sweep.  Ascending: it has taken min(k, free
 * nodes within the shells so far), at the cost so far.  Descending: see
 * sweep_descending. */
struct mesh__mc_live {
	uint32_t node, x, taken, x2;
	uint64_t cost;
};

/* A centre whose lower bound (mesh__mc_search, step 2) is below the bound
 * of the centres scored before: its free nodes within shells S - 2 (if
 * counted), S - 1 and S, and that lower bound (capped at UINT32_MAX,
 * still a lower bound). */
struct mesh__mc_cand {
	uint32_t node, n0, n1, n2, lb;
};

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

/* Buckets of a greedy fill: more cost a memset per fill and rescore
 * the far candidates less often. */
#define MESH__GREEDY_WINDOW 4096

/* Greedy fill (mc1x1, Walker et al.'s reported variant): with out[0..
 * inner) chosen, append m of the candidates cand[0..n) one at a time,
 * each the one with the least total L1 (Lee) distance to all chosen so
 * far, ties to the earlier candidate.  That total is separable: per axis
 * d, a table wsum over the candidates' coordinate range holds the
 * distance on axis d to the chosen, built from the first inner nodes'
 * coordinate histograms; each pick adds its distances to the tables
 * (O(range)); the candidates wait in buckets by a lower bound of their
 * score (a candidate's score only grows), and only the least bucket is
 * scored again until it holds a current one.  The caller fills cand. */
struct mesh__greedy {
	uint32_t *cand; /* candidates, filled by the caller */
	int *xyz;       /* per candidate: its three wsum indices, and a pad */
	uint32_t *hist; /* X + Y + Z + 3 counts, zero between calls */
	uint64_t *wsum; /* X + Y + Z + 3: per-axis distance sums */
	/* the candidates not picked wait in buckets: bucket b holds those
	 * whose key (at most the score now) is base + b, or more in the
	 * last bucket; a list by next from head[b], nonempty if bit b of
	 * bits is set */
	uint32_t *next, *head, *tie; /* tie: the current ones of a bucket */
	uint64_t *bits;
	uint32_t window; /* buckets (>= 2); a test lowers it */
};

int mesh__greedy_init(struct mesh__greedy *g, const struct mesh_topo *t);
void mesh__greedy_free(struct mesh__greedy *g);
void mesh__greedy_fill(struct mesh__greedy *g, const struct mesh_topo *t,
		       uint32_t n, uint32_t *out, uint32_t inner, uint32_t m);

/* Shell s around centre c with shell-0 extents ext: the box lo..hi
 * (inclusive, unclipped and unwrapped). */
void mesh__mc_shell_box(const int c[3], const int ext[3], int s, int lo[3],
			int hi[3]);

#endif
