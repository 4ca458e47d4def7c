/* l1_parts.h - what the files of the L1 nearest-set search share among
 * themselves (private to l1near.c, l1_tables.c, l1_walk.c, l1_pattern.c
 * and l1_torus.c; see l1near.h for the whole).
 */
#ifndef MESH_L1_PARTS_H
#define MESH_L1_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "l1near.h"
#include "topo.h"

/* Rotated tables of slices up to this many times their size. */
#define ROT_RATIO 5
/* Line caches hold radii up to this. */
#define L1LINE_MAX_RADIUS 31
/* Walks of radius up to this read padded rows (see wrow in l1near.h). */
#define WALK_PAD 16
/* hist[d] has this many zeros on either side of the mesh (only ever
 * added 0 to), so that the planned walk adds its rows off the mesh there
 * with no bounds test. */
#define HIST_PAD WALK_PAD

static inline int imax(int a, int b)
{
	return a > b ? a : b;
}

static inline int imin(int a, int b)
{
	return a < b ? a : b;
}

/* q in [-len, 2 len) onto the ring [0, len). */
static inline int wrap_coord(int q, int len)
{
	return q < 0 ? q + len : q >= len ? q - len : q;
}

/* l1near.c: the search and the shell enumeration. */

/* mesh__l1near_init() with the largest radius that matters (rlimit),
 * the line caches' size limit and how much larger than a slice its
 * rotated table may be (rot_ratio, see slice_layout()); for the copies
 * of a torus.  0, or MESH_ENOMEM with x freed. */
int mesh__l1_init(struct mesh__l1near *x, const struct mesh_topo *t, int rlimit,
		  size_t line_entries, int rot_ratio);
/* Per decision: no tables yet; patterns while k fits in one. */
void mesh__l1_decision_start(struct mesh__l1near *x,
			     const struct mesh_bitmap *free_map, uint32_t k);
/* mesh__l1near_score() by the fastest path that applies to x. */
uint64_t mesh__l1_centre_score(struct mesh__l1near *x,
			       const struct mesh_bitmap *f, const int c[3],
			       uint32_t k, uint64_t bound, uint32_t *out);

/* l1_tables.c: the diamond tables and their caches. */

/* Sets x->fast and allocates the tables and caches that apply;
 * MESH_ENOMEM on failure. */
int mesh__l1_tables_init(struct mesh__l1near *x);
/* The tables for the free map f. */
void mesh__l1_tables_build(struct mesh__l1near *x, const struct mesh_bitmap *f);
/* h[i] := free nodes of slice i of axis d within in-plane radius
 * rho - |i - c[d]| of c (0 where that is negative), for the slices i
 * within win of c[d]; returns the sum over them: for win >= rho, the
 * free nodes of the ball of radius rho. */
uint32_t mesh__l1_slice_hist(const struct mesh__l1near *x, int d,
			     const int c[3], int rho, int win, uint32_t *h);
/* The least R with ball(R) >= k (k >= 1, k <= free nodes); *below is
 * ball(R - 1), *at ball(R); hist[axis0] is left holding the slices of
 * ball(R - 1) if k - *below <= *at - k, else of ball(R), on the window
 * of radius R. */
int mesh__l1_find_radius(struct mesh__l1near *x, const int c[3], uint32_t k,
			 uint32_t *below, uint32_t *at);
/* mesh__l1_slice_hist() from the line cache of axis d (0 <= rho - 1 <=
 * lcap or rho <= lcap): hist h on the window of radius win. */
void mesh__l1_line_hist(struct mesh__l1near *x, int d, const int c[3], int rho,
			int win, uint32_t *h);

/* l1_walk.c: the table path's score. */

/* The padded rows and the walk plan (X <= 62); 0 or MESH_ENOMEM. */
int mesh__l1_walk_init(struct mesh__l1near *x);
/* The padded rows of f. */
void mesh__l1_walk_rows_fill(struct mesh__l1near *x,
			     const struct mesh_bitmap *f);
/* mesh__l1near_score() without the set, on a topology whose tables
 * (and walk rows) are built for f; below bound, the set is the ball of
 * radius *r - 1 and the first *m free nodes of shell *r. */
uint64_t mesh__l1_table_score(struct mesh__l1near *x,
			      const struct mesh_bitmap *f, const int c[3],
			      uint32_t k, uint64_t bound, int *r, uint32_t *m);

/* l1_pattern.c: ball patterns. */

/* Cells of the ball of radius r (offsets only on axes longer than 1). */
int mesh__l1_ball_cells(const int *dim, int r);
void mesh__l1_pattern_init(struct mesh__l1near *x);
/* Per decision: f's rows for the pattern gathers. */
void mesh__l1_pattern_prepare(struct mesh__l1near *x,
			      const struct mesh_bitmap *f);
/* The table path's score for a centre whose set lies in the ball of
 * radius rp: returns 1 and the score (UINT64_MAX if >= bound) in
 * *score, or 0 if the ball holds fewer than k free nodes. */
int mesh__l1_pattern_score(struct mesh__l1near *x, const struct mesh_bitmap *f,
			   const int c[3], uint32_t k, uint64_t bound,
			   uint32_t *out, uint64_t *score);

/* l1_torus.c: the unrolled copies and the window. */

/* The copies of a torus without a table path of its own; 0 or
 * MESH_ENOMEM. */
int mesh__l1_copies_init(struct mesh__l1near *x);
void mesh__l1_copies_free(struct mesh__l1near *x);
/* Per decision: which copy scores the centres, and its free map. */
void mesh__l1_copies_start(struct mesh__l1near *x,
			   const struct mesh_bitmap *free_map, uint32_t k);
/* mesh__l1_centre_score() on a torus through its copy in use (the
 * window if window). */
uint64_t mesh__l1_copy_score(struct mesh__l1near *x,
			     const struct mesh_bitmap *f, int window,
			     const int c[3], uint32_t k, uint64_t bound,
			     uint32_t *out);

#endif
