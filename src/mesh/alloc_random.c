/* alloc_random.c - Random: k free nodes chosen uniformly at random.
 *
 * Implements: Lo, Windisch, Liu, Nitzberg 1997 ("Random" baseline), as
 * used by Mache, dissertation, Ch. IV (Fig. 20 snapshots, Random among
 * the compared strategies).
 * Decisions the papers leave open: the randomness comes only from
 * req->seed (splitmix64), so a given seed and free map always give the
 * same answer; the free nodes are listed in index order and the first k
 * positions of a Fisher-Yates shuffle are taken.
 */
#include <stdlib.h>

#include "alloc_internal.h"
#include "error.h"
#include "rng.h"

static int random_create(struct mesh_allocator *a, const char *params,
			 struct mesh_diag *d)
{
	int rc = mesh__param_check(params, NULL, a->name, d);

	if (rc)
		return rc;
	a->priv = malloc(a->topo->nodes * sizeof(uint32_t));
	return a->priv ? 0 : MESH_ENOMEM;
}

static void random_destroy(struct mesh_allocator *a)
{
	free(a->priv);
}

static int random_place(struct mesh_allocator *a, const struct mesh_view *v,
			const struct mesh_request *req, uint32_t *out)
{
	uint32_t *pool = a->priv, m = 0, i, j, tmp;
	uint64_t state = req->seed;

	for (i = 0; i < v->topo->nodes; i++)
		if (mesh_bitmap_test(v->free, i))
			pool[m++] = i;
	if (m < req->nodes)
		return MESH_ENOSPC;
	for (i = 0; i < req->nodes; i++) {
		j = i + (uint32_t) mesh__below(&state, m - i);
		tmp = pool[i];
		pool[i] = pool[j];
		pool[j] = tmp;
		out[i] = pool[i];
	}
	return 0;
}

const struct mesh_alloc_ops mesh__random_ops = {
	.create = random_create,
	.destroy = random_destroy,
	.place = random_place,
};
