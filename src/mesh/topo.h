/* topo.h - the mesh/torus model: dimensions, coordinates, distances and
 * designated I/O nodes.
 *
 * Node indices are row-major with x fastest: idx = x + X*(y + Y*z).
 * A 2D mesh is a 3D mesh with dim[2] == 1, so every algorithm can be
 * written once for three dimensions.
 */
#ifndef MESH_TOPO_H
#define MESH_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define MESH_MAX_DIMS 3
/* Bound on nodes so that index arithmetic and pair sums stay exact. */
#define MESH_MAX_NODES (1u << 22)

/* Read-only for users; create and destroy through the functions below. */
struct mesh_topo {
	int ndims;                /* 2 or 3 as given by the user */
	int dim[MESH_MAX_DIMS];   /* lengths; unused dims are 1 */
	bool wrap[MESH_MAX_DIMS]; /* wraparound (torus) per dimension */
	uint32_t nodes;           /* product of dim[] */
	uint32_t *io_nodes;       /* designated I/O node indices, sorted */
	size_t n_io;
	/* mesh_topo_coords divides by dim[0] and dim[1] as a multiply and a
	 * shift: q = i * recip[d] >> shift[d] (see mesh_topo_create). */
	uint64_t recip[2];
	unsigned shift[2];
};

/** \brief Create a mesh.
 *  \param ndims 2 or 3; \param dim lengths (each >= 1); \param wrap per
 *  dimension, may be NULL for no wraparound.
 *  \param[out] out new topology; free with mesh_topo_destroy().
 *  \return 0, MESH_EINVAL or MESH_ERANGE (too many nodes), MESH_ENOMEM;
 *  *out untouched on error. */
int mesh_topo_create(int ndims, const int *dim, const bool *wrap,
		     struct mesh_topo **out);

/** \brief Parse "16x8", "8tx8tx4" ('t' = wraparound) into a topology.
 *  Errors are described in d (field "mesh"). */
int mesh_topo_parse(const char *spec, struct mesh_topo **out,
		    struct mesh_diag *d);

/** \brief Free a topology; NULL is a no-op. */
void mesh_topo_destroy(struct mesh_topo *t);

/** \brief Write "16x8" / "8tx8tx4" into buf; returns buf. */
const char *mesh_topo_format(const struct mesh_topo *t, char *buf, size_t len);

/** \brief Replace the I/O node set (indices < t->nodes, duplicates are
 *  MESH_EINVAL).  On error the old set is kept. */
int mesh_topo_set_io_nodes(struct mesh_topo *t, const uint32_t *idx, size_t n);

/** \brief Parse "x,y[,z]" (non-negative integers) into c.
 *  \return the number of coordinates (1..3), or -1 if malformed. */
int mesh_coord_parse(const char *s, int c[MESH_MAX_DIMS]);

/** \brief Node index of n coordinates c (n must equal t->ndims).
 *  \return 0 with *idx set, or MESH_ERANGE if outside the mesh. */
int mesh_topo_coord_index(const struct mesh_topo *t, const int *c, int n,
			  uint32_t *idx);

/** \brief Set the I/O nodes from "x,y[,z];x,y[,z]..." (mesh.conf's
 *  IONodes=, meshsim --io-nodes).  Errors (field "IONodes") name the
 *  offending coordinate; on error the old set is kept. */
int mesh_topo_parse_io_nodes(struct mesh_topo *t, const char *list,
			     struct mesh_diag *d);

/** \brief True if node idx is a designated I/O node. */
bool mesh_topo_is_io(const struct mesh_topo *t, uint32_t idx);

/** \brief Coordinates of node idx < t->nodes (no division: a divide
 *  instruction cost more than the rest of a metrics pass). */
static inline void mesh_topo_coords(const struct mesh_topo *t, uint32_t idx,
				    int c[MESH_MAX_DIMS])
{
	uint32_t row = (uint32_t) ((uint64_t) idx * t->recip[0] >> t->shift[0]);
	uint32_t plane =
	    (uint32_t) ((uint64_t) row * t->recip[1] >> t->shift[1]);

	c[0] = (int) (idx - row * (uint32_t) t->dim[0]);
	c[1] = (int) (row - plane * (uint32_t) t->dim[1]);
	c[2] = (int) plane;
}

static inline uint32_t mesh_topo_index(const struct mesh_topo *t,
				       const int c[MESH_MAX_DIMS])
{
	return (uint32_t) c[0] +
	       (uint32_t) t->dim[0] *
		   ((uint32_t) c[1] + (uint32_t) t->dim[1] * (uint32_t) c[2]);
}

/** \brief Hop distance along one dimension (Lee distance on a ring). */
static inline int mesh_topo_axis_distance(const struct mesh_topo *t, int d,
					  int a, int b)
{
	int diff = a > b ? a - b : b - a;

	if (t->wrap[d] && t->dim[d] - diff < diff)
		diff = t->dim[d] - diff;
	return diff;
}

/** \brief L1 distance on a mesh, Lee distance on wrapped dimensions. */
int mesh_topo_distance(const struct mesh_topo *t, uint32_t a, uint32_t b);

/** \brief Validate internal consistency; returns 0 or MESH_EINTERNAL. */
int mesh_topo_check(const struct mesh_topo *t);

#endif
