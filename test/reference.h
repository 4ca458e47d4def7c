/* reference.h - definition-by-scan versions of allocators (tests and
 * benchmarks only; O(n^2) per decision). */
#ifndef TEST_REFERENCE_H
#define TEST_REFERENCE_H

#include <stdint.h>

#include "mesh.h"
#include "alloc_internal.h"
#include "boxsum.h"
#include "l1near.h"
#include "mc.h"

/* MC1x1 by its definition: every free centre, every free node.  Returns
 * the centre with the least sum of L-inf shell numbers of its k nearest
 * free nodes (ties: lowest index) and that sum in *best_score;
 * UINT32_MAX if no node is free. */
uint32_t ref_mc1x1_centre(const struct mesh_topo *t,
			  const struct mesh_bitmap *f, uint32_t k,
			  uint64_t *best_score);

/* Curve ff, bf or sos (fit "ff", "bf", "sos") by its definition, node
 * by node over the curve order (rank -> node), as the library did before
 * issue 10; fills out[0..k).  scratch: 2 * nodes + 1 entries, zeroed
 * before the first call and left zeroed.  Returns 0, or -1 if fewer than
 * k nodes are free. */
int ref_curve_place(const struct mesh_topo *t, const uint32_t *order,
		    const char *fit, const struct mesh_bitmap *f, uint32_t k,
		    uint32_t *out, uint32_t *scratch);

/* MBS (any mbs* allocator's block hierarchy) as the library computed it
 * before issue 10: prefix sums over the whole free map, every block
 * tested, full free lists, then the base-b requests.  Create once per
 * allocator (a must outlive it); ref_mbs_place returns 0, or -1 if the
 * request cannot be served. */
struct ref_mbs;
struct ref_mbs *ref_mbs_create(const struct mesh_allocator *a,
			       const struct mesh_topo *t);
void ref_mbs_destroy(struct ref_mbs *r);
int ref_mbs_place(struct ref_mbs *r, const struct mesh_bitmap *f, uint32_t k,
		  uint32_t *out);

/* MC's centre search by its definition, for shell-0 extents ext: every
 * free centre, every free node; the least sum of the k smallest shell
 * numbers (ties: lowest centre) in *best_score.  UINT32_MAX if fewer
 * than k nodes are free. */
uint32_t ref_mc_centre(const struct mesh_topo *t, const struct mesh_bitmap *f,
		       const int ext[3], uint32_t k, uint64_t *best_score);

/* MC's centre search as the library did it before issue 10 (centre by
 * centre, generic box counts); m prepared with mesh__mc_prepare.  Returns
 * the centre and its cost in *best_cost. */
uint32_t ref_mc_search_old(const struct mesh__mc *m,
			   const struct mesh_bitmap *f, const int ext[3],
			   uint32_t k, uint64_t *best_cost);

/* mc1x1's greedy fill as first written (O(n (inner + m)) distance
 * calls); same contract as mesh__greedy_fill. */
void ref_greedy_fill(const struct mesh_topo *t, const uint32_t *cand,
		     uint32_t n, uint32_t *out, uint32_t inner, uint32_t m);

/* Gen-Alg (mm = 0) and MM (mm = 1) as the library computed them before
 * the issue-10 speed-up (per-slice diamond tables on
 * all three axes, or shell enumeration on tori).  ref_l1_place returns
 * the least pair sum and writes that centre's set to out[0..k) in the
 * library's order, UINT64_MAX if no centre; ref_l1_ties calls cb for
 * every centre whose set scores exactly best, in centre order. */
struct ref_l1near;
struct ref_l1near *ref_l1_create(const struct mesh_topo *t, int mm);
void ref_l1_destroy(struct ref_l1near *x);
uint64_t ref_l1_place(struct ref_l1near *x, const struct mesh_bitmap *f,
		      uint32_t k, uint32_t *out);
int ref_l1_ties(struct ref_l1near *x, const struct mesh_bitmap *f, uint32_t k,
		uint64_t best, uint32_t *buf,
		int (*cb)(void *, const uint32_t *), void *cb_ctx);

/* mm-inc's improvement by its definition (alloc_mm.c): from the set
 * out[0..k) of free nodes of f, the single best improving swap, a in the
 * set for b free outside it, of greatest D(a) + d(a, b) - D(b) > 0 (D(p):
 * the sum of distances from p to the set), ties to the lowest a then the
 * lowest b, with b taking a's place in out; repeated while one improves,
 * at most k times.  Every D by direct summation, every pair tried. */
void ref_mm_inc_improve(const struct mesh_topo *t, const struct mesh_bitmap *f,
			uint32_t *out, uint32_t k);

/* contig-ff (best_fit 0) or contig-bf (1) on a mesh without wrapping,
 * by its definition: every shape a x b x c = k, most cube-like first
 * (least a+b+c, then smallest c, b, a), every base in index order, each
 * box tested node by node; bf keeps the box with strictly the most busy
 * or off-mesh positions on its faces.  Fills out[0..k) in index order.
 * Returns 0, or -1 if no free box exists. */
int ref_contig_place(const struct mesh_topo *t, const struct mesh_bitmap *f,
		     uint32_t k, int best_fit, uint32_t *out);

#endif
