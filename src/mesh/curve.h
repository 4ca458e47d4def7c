/* curve.h - linear orders (curves) over mesh nodes.
 *
 * Walker, Bunde, Leung, "Faster high-quality processor allocation",
 * Sec. II, Figs. 2-5.  Dimensions are ranked by length (longest first,
 * ties in the order given), as the paper lists mesh dimensions in
 * non-increasing order:
 *  - rowmajor: longest dimension fastest, no reversal (Fig. 2a);
 *  - snake:    boustrophedon along the longest dimension first
 *              ("row-major snake", Fig. 4a);
 *  - colsnake: boustrophedon along the shortest dimension first
 *              ("column-major snake", Fig. 4b);
 *  - hilbert:  when the shorter sides are equal powers of two s and the
 *              longest is a multiple of s, the mesh is cut into s^d cubes
 *              along the longest dimension and their Hilbert curves are
 *              spliced end to start ("spliced Hilbert", Fig. 5, the
 *              variant the paper simulates).  Otherwise the curve is the
 *              Hilbert curve of the smallest enclosing power-of-two cube,
 *              with nodes outside the mesh skipped (see doc/curves.md).
 */
#ifndef MESH_CURVE_H
#define MESH_CURVE_H

#include <stdint.h>

#include "topo.h"

enum mesh_curve {
	MESH_CURVE_ROWMAJOR,
	MESH_CURVE_SNAKE,
	MESH_CURVE_COLSNAKE,
	MESH_CURVE_HILBERT,
	MESH_CURVE_COUNT
};

/** \brief Curve name ("rowmajor", "snake", "colsnake", "hilbert"). */
const char *mesh_curve_name(enum mesh_curve c);

/** \brief Look a curve up by name; 0 or MESH_ENOENT. */
int mesh_curve_parse(const char *name, enum mesh_curve *out);

/** \brief Fill order[r] with the node at rank r (t->nodes entries).
 *  \return 0, MESH_EINVAL or MESH_ENOMEM (order left partly written). */
int mesh_curve_order(const struct mesh_topo *t, enum mesh_curve c,
		     uint32_t *order);

#endif
