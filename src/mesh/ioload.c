/* ioload.c - I/O link loads and the generalised balance factor.
 *
 * HOW IT WORKS: loads are counted by walking every dimension-ordered
 * route, O(n * m * diameter).  The middle link is found without routes:
 * a write route crosses the link leaving q along axis a in direction +
 * towards I/O node r only if r agrees with q on the axes routed before a
 * and r lies ahead of q along a (on a ring: within the half the router
 * sends that way).  A sender at q itself reaches every such r, so that
 * count is the number of I/O nodes the direction can reach.
 */
#include "ioload.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

size_t mesh_io_link_count(const struct mesh_topo *t)
{
	return (size_t) t->nodes * 6;
}

/* Direction (+1, -1 or 0) the router takes on axis d from a to b. */
static int route_dir(const struct mesh_topo *t, int d, int a, int b)
{
	int len = t->dim[d], f;

	if (a == b)
		return 0;
	if (!t->wrap[d])
		return b > a ? 1 : -1;
	f = ((b - a) % len + len) % len;
	return f <= len - f ? 1 : -1;
}

/* Adds 1 to loads[] of every directed link slot on the route src -> dst
 * (if loads is not NULL); returns 1 if the route uses slot a or b. */
static int route(const struct mesh_topo *t, uint32_t src, uint32_t dst,
		 uint64_t *loads, size_t a, size_t b)
{
	int p[3], q[3], d, s, hit = 0;
	size_t slot;

	mesh_topo_coords(t, src, p);
	mesh_topo_coords(t, dst, q);
	for (d = 0; d < 3; d++) {
		while ((s = route_dir(t, d, p[d], q[d])) != 0) {
			slot = (size_t) mesh_topo_index(t, p) * 6 +
			       (size_t) d * 2 + (s < 0);
			if (loads)
				loads[slot]++;
			hit |= slot == a || slot == b;
			p[d] = (p[d] + s + t->dim[d]) % t->dim[d];
		}
	}
	return hit;
}

int mesh_io_link_loads(const struct mesh_topo *t, const uint32_t *nodes,
		       size_t n, enum mesh_io_dir dir, uint64_t *loads)
{
	size_t i, j;

	if (!t || (!nodes && n) || !loads || !t->n_io)
		return MESH_EINVAL;
	for (i = 0; i < n; i++)
		if (nodes[i] >= t->nodes)
			return MESH_EINVAL;
	memset(loads, 0, mesh_io_link_count(t) * sizeof(*loads));
	for (i = 0; i < n; i++)
		for (j = 0; j < t->n_io; j++) {
			if (dir == MESH_IO_WRITE)
				route(t, nodes[i], t->io_nodes[j], loads, 0, 0);
			else
				route(t, t->io_nodes[j], nodes[i], loads, 0, 0);
		}
	return 0;
}

/* I/O nodes a write route can reach through the link leaving q along
 * axis a in direction s. */
static uint32_t reach(const struct mesh_topo *t, const int q[3], int a, int s)
{
	uint32_t j, cnt = 0;
	int r[3], d, ok, nq = q[a] + s;

	if (!t->wrap[a] && (nq < 0 || nq >= t->dim[a]))
		return 0;
	for (j = 0; j < t->n_io; j++) {
		mesh_topo_coords(t, t->io_nodes[j], r);
		for (d = 0, ok = 1; d < a; d++)
			ok &= r[d] == q[d];
		cnt += ok && route_dir(t, a, q[a], r[a]) == s;
	}
	return cnt;
}

static size_t middle_link(const struct mesh_topo *t)
{
	uint32_t i, best = 0, m;
	size_t slot = 0;
	int q[3], nq[3], a;

	for (i = 0; i < t->nodes; i++) {
		mesh_topo_coords(t, i, q);
		for (a = 0; a < 3; a++) {
			if (t->dim[a] == 1 ||
			    (!t->wrap[a] && q[a] + 1 >= t->dim[a]))
				continue;
			memcpy(nq, q, sizeof(nq));
			nq[a] = (q[a] + 1) % t->dim[a];
			m = reach(t, q, a, 1);
			if (reach(t, nq, a, -1) < m)
				m = reach(t, nq, a, -1);
			if (m > best) {
				best = m;
				slot = (size_t) i * 6 + (size_t) a * 2;
			}
		}
	}
	return slot;
}

/* The middle link's + slot and the slot of its - direction. */
static void middle_slots(const struct mesh_topo *t, size_t *mid, size_t *rev)
{
	int q[3], a;

	*mid = middle_link(t);
	mesh_topo_coords(t, (uint32_t) (*mid / 6), q);
	a = (int) (*mid % 6 / 2);
	q[a] = (q[a] + 1) % t->dim[a];
	*rev = (size_t) mesh_topo_index(t, q) * 6 + (size_t) a * 2 + 1;
}

/* +1 if node i's write routes use the - direction, -1 if the +, else 0
 * (both: 0). */
static int node_side(const struct mesh_topo *t, uint32_t i, size_t mid,
		     size_t rev)
{
	int up = 0, down = 0;
	size_t j;

	for (j = 0; j < t->n_io; j++) {
		up |= route(t, i, t->io_nodes[j], NULL, mid, mid);
		down |= route(t, i, t->io_nodes[j], NULL, rev, rev);
	}
	return down - up;
}

int mesh_io_balance_factor(const struct mesh_topo *t, const uint32_t *nodes,
			   size_t n, long *bf, size_t *link)
{
	size_t mid, rev, i;

	if (!t || (!nodes && n) || !bf || !t->n_io)
		return MESH_EINVAL;
	for (i = 0; i < n; i++)
		if (nodes[i] >= t->nodes)
			return MESH_EINVAL;
	middle_slots(t, &mid, &rev);
	*bf = 0;
	for (i = 0; i < n; i++)
		*bf += node_side(t, nodes[i], mid, rev);
	if (link)
		*link = mid;
	return 0;
}

int mesh_io_balance_sides(const struct mesh_topo *t, int8_t *side)
{
	size_t mid, rev;
	uint32_t i;

	if (!t || !side || !t->n_io)
		return MESH_EINVAL;
	middle_slots(t, &mid, &rev);
	for (i = 0; i < t->nodes; i++)
		side[i] = (int8_t) node_side(t, i, mid, rev);
	return 0;
}
