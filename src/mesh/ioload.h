/* ioload.h - link loads of parallel I/O traffic and the balance factor.
 *
 * Mache, dissertation, Ch. VI (I/O traffic graph K_{m,n}: every job node
 * exchanges data with every I/O node; link contention = number of
 * sender-receiver pairs whose dimension-ordered route uses the link) and
 * Ch. VII (balance factor).  Routes are dimension ordered (x, then y,
 * then z); on a wrapped axis the shorter way round, + on a tie.  See
 * doc/io-balance.md for the generalisation of the balance factor to any
 * I/O node placement.
 */
#ifndef MESH_IOLOAD_H
#define MESH_IOLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "topo.h"

enum mesh_io_dir {
	MESH_IO_WRITE, /* job nodes -> I/O nodes */
	MESH_IO_READ,  /* I/O nodes -> job nodes */
};

/** \brief Number of directed link slots: 6 per node.  Slot
 *  node * 6 + axis * 2 + (0 for the + direction, 1 for -) is the link
 *  from node to its neighbour along axis in that direction (slots of
 *  links that do not exist stay 0). */
size_t mesh_io_link_count(const struct mesh_topo *t);

/** \brief Per-link contention of the job's I/O traffic.
 *  \param nodes job nodes (distinct), \param n their number;
 *  \param[out] loads mesh_io_link_count(t) entries, overwritten.
 *  Pairs whose sender is its receiver use no link.
 *  \return 0, or MESH_EINVAL (bad node, no I/O nodes). */
int mesh_io_link_loads(const struct mesh_topo *t, const uint32_t *nodes,
		       size_t n, enum mesh_io_dir dir, uint64_t *loads);

/** \brief Generalised balance factor of a node set (a job or, since it
 *  is additive, all running jobs together).
 *  The middle I/O link is the physical link whose two directions reach
 *  the most balanced I/O node sets (max over links of the smaller number
 *  of I/O nodes a write route through that direction can reach; ties to
 *  the lowest node, then axis).  The balance factor is the number of job
 *  nodes whose write routes use its - direction minus the number using
 *  its + direction.  With I/O nodes on one column of a mesh (the
 *  dissertation's configuration) this is exactly "above_middle -
 *  below_middle" of Ch. VII.
 *  \param[out] bf the balance factor; \param[out] link if not NULL, the
 *  slot of the middle link's + direction.
 *  \return 0 or MESH_EINVAL (bad node, no I/O nodes). */
int mesh_io_balance_factor(const struct mesh_topo *t, const uint32_t *nodes,
			   size_t n, long *bf, size_t *link);

/** \brief Each node's contribution to the balance factor: +1 if its
 *  write routes use the middle link's - direction, -1 if they use its +
 *  direction, else 0.  The balance factor of any node set is the sum over
 *  its nodes, so callers that need it often compute this once.
 *  \param[out] side t->nodes entries.  \return 0 or MESH_EINVAL (no I/O
 *  nodes). */
int mesh_io_balance_sides(const struct mesh_topo *t, int8_t *side);

#endif
