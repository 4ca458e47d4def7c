/* fuzz_conf.c - the mesh.conf parser on arbitrary bytes.  A file either
 * parses into a consistent map (unique positions inside the mesh, every
 * name found again by lookup, an allocator that can place), or is
 * refused with a line number. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mesh.h"

const char *const fuzz_seeds[] = {
	"Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n",
	"Dimensions=4tx2x2 # torus in x\nNodes=r[0-1]n[0-7]\nNodeOrder=zyx\n"
	"IONodes=0,0,0;3,1,1\nAllocator=plas\n",
	"dimensions=3x3 nodes=a[1-8]\nNodeName=b Coord=2,2\n"
	"Allocator=paging AllocatorParameters=page=1\n",
	"Dimensions=8x2\nNodes=n[0-15]\nIONodes=n[0,8]\nAllocator=sl:snake-bf\n",
	/* a thin 3D mesh: its Hilbert order once walked a 1024^3 cube */
	"Dimensions=626tx6x2\nNodes=n[0-7511]\n",
	NULL
};

static void check_conf(const struct mesh_conf *c)
{
	struct mesh_allocator *a = NULL;
	struct mesh_bitmap *free_map = NULL;
	struct mesh_request req;
	struct mesh_view v;
	struct mesh_diag d;
	uint32_t i, idx, named = 0, out[4];

	FUZZ_CHECK(mesh_topo_check(c->topo) == 0);
	for (i = 0; i < c->topo->nodes; i++) {
		if (!c->node_name[i])
			continue;
		named++;
		FUZZ_CHECK(mesh_conf_lookup(c, c->node_name[i], &idx) == 0);
		FUZZ_CHECK(idx == i);
	}
	FUZZ_CHECK(named == c->n_named);
	FUZZ_CHECK(mesh_alloc_create(c->topo, c->allocator, c->alloc_params,
				     &a, &d) == 0);
	FUZZ_CHECK(mesh_bitmap_create(c->topo->nodes, &free_map) == 0);
	mesh_bitmap_fill(free_map, true);
	memset(&req, 0, sizeof(req));
	req.nodes = c->topo->nodes < 4 ? c->topo->nodes : 4;
	v.topo = c->topo, v.free = free_map, v.end_time = NULL, v.now = 0;
	i = (uint32_t) mesh_alloc_place(a, &v, &req, out);
	FUZZ_CHECK(i == 0 || (int) i == MESH_ENOSPC);
	mesh_bitmap_destroy(free_map);
	mesh_alloc_destroy(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mesh_conf *c = NULL;
	struct mesh_diag d;
	int rc;

	if (size > 16384)
		return 0;
	mesh_diag_clear(&d);
	rc = mesh_conf_parse((const char *) data, size, "fuzz.conf", &c, &d);
	if (rc == 0) {
		if (c->topo->nodes <= 4096)
			check_conf(c);
		mesh_conf_destroy(c);
	} else {
		FUZZ_CHECK(rc != MESH_EINTERNAL && d.message[0]);
	}
	return 0;
}
