/* traffic.h - the flows of one job's communication or I/O phase, counted
 * on the network's resources (the runtime models' input, contention.h).
 *
 * A phase is a set of flows (sender, receiver) that all carry the same
 * volume.  The count of a resource is the number of the phase's flows
 * that use it.  The resources of a topology t with N nodes and m I/O
 * nodes are numbered:
 *   [0, 6N)           directed links (ioload.h's slots: node * 6 +
 *                     axis * 2 + (1 for the - direction));
 *   [6N, 7N)          each node's injection into the network;
 *   [7N, 8N)          each node's ejection from the network;
 *   [8N, 8N + m)      each I/O node's service (its writes to storage);
 *   8N + m            the parallel file system.
 * Routes are dimension ordered (x, then y, then z; on a ring the shorter
 * way, + on a tie), as in ioload.c.
 *
 * Communication (enum mesh_comm, ranks = the job's nodes in the order
 * given): all-to-all, one-to-all (rank 0 to the others), chain (i to
 * i +- 1), nearest (a stencil: each rank to its neighbours on a logical
 * grid, rank r at the row-major position r of the job's shape, or of a
 * near-cubic grid of the mesh's dimensions), or listed pairs.
 * I/O: with MESH_IO_VIA_IONS, every job node writes to every I/O node
 * (Mache's complete bipartite K(n, m)): links, injection, I/O node
 * service and the file system; otherwise every job node writes straight
 * to the file system (Özden et al.'s setting): injection and the file
 * system only.
 */
#ifndef MESH_TRAFFIC_H
#define MESH_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "topo.h"

/* One job's communication pattern. */
struct mesh_pattern {
	enum mesh_comm comm;
	int shape[MESH_MAX_DIMS]; /* nearest: logical grid, 0 = near-cubic */
	const uint32_t *pairs;    /* MESH_COMM_PAIRS: sender, receiver ranks */
	size_t n_pairs;
};

/* Flow counts per resource, sparse, in no particular order. */
struct mesh_flows {
	size_t n;
	uint32_t *res;
	double *count;
};

enum mesh_io_route {
	MESH_IO_DIRECT,   /* node -> file system */
	MESH_IO_VIA_IONS, /* node -> every I/O node -> file system */
};

/* Scratch for counting on one topology (dense accumulators). */
struct mesh_traffic;

/** \brief Resources of t (see above). */
size_t mesh_res_count(const struct mesh_topo *t);

static inline uint32_t mesh_res_inject(const struct mesh_topo *t, uint32_t n)
{
	return 6 * t->nodes + n;
}

static inline uint32_t mesh_res_eject(const struct mesh_topo *t, uint32_t n)
{
	return 7 * t->nodes + n;
}

static inline uint32_t mesh_res_ion(const struct mesh_topo *t, size_t i)
{
	return 8 * t->nodes + (uint32_t) i;
}

static inline uint32_t mesh_res_fs(const struct mesh_topo *t)
{
	return 8 * t->nodes + (uint32_t) t->n_io;
}

/** \brief Scratch for t.  \return 0 or MESH_ENOMEM. */
int mesh_traffic_create(const struct mesh_topo *t, struct mesh_traffic **out);

void mesh_traffic_destroy(struct mesh_traffic *tr);

/** \brief The flows of a communication phase of the job on nodes[0..k)
 *  (rank order).
 *  \param[out] out filled (empty for none/unknown or k < 2); free with
 *  mesh_flows_free().
 *  \return 0, MESH_EINVAL (a bad node, a pair naming a rank >= k, a
 *  shape whose product is not k) or MESH_ENOMEM. */
int mesh_traffic_comm(struct mesh_traffic *tr, const uint32_t *nodes, size_t k,
		      const struct mesh_pattern *p, struct mesh_flows *out);

/** \brief The flows of an I/O phase (see above); with VIA_IONS and no
 *  I/O nodes in t, none.  \return 0, MESH_EINVAL or MESH_ENOMEM. */
int mesh_traffic_io(struct mesh_traffic *tr, const uint32_t *nodes, size_t k,
		    enum mesh_io_route route, struct mesh_flows *out);

/** \brief The Mache link contention of the job's complete bipartite I/O
 *  writes (pairs per link), into out (links only).  \return as above. */
int mesh_traffic_io_pairs(struct mesh_traffic *tr, const uint32_t *nodes,
			  size_t k, struct mesh_flows *out);

/** \brief The stencil's logical grid for k ranks: p's shape if its
 *  product is k, else the most cubic factorisation of k into t's
 *  dimensions (longest first).  \return 0 or MESH_EINVAL. */
int mesh_pattern_grid(const struct mesh_topo *t, const struct mesh_pattern *p,
		      size_t k, int grid[MESH_MAX_DIMS]);

void mesh_flows_free(struct mesh_flows *f);

/** \brief Direction (+1, -1 or 0) a dimension-ordered route takes on axis
 *  d from coordinate a to b: on a ring the shorter way, + on a tie. */
int mesh_route_dir(const struct mesh_topo *t, int d, int a, int b);

#endif
