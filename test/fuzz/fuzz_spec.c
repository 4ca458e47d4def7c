/* fuzz_spec.c - mesh specs, allocator names and parameters from the
 * command line or mesh.conf, then one placement on a random free map.
 * Input: "MESH\nALLOCATOR\nPARAMS\nbytes for the free map...". */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mesh.h"

const char *const fuzz_seeds[] = {
	"16x8\nsnake-bf\n\n\x55\xaa\x0f",
	"4tx4x2t\nmc\nshape=2x2x1\n\x01\x02\x03\x04\x05\x06\x07\x08",
	"5x4\nmbs-granular\n\n\xff\x00\xff",
	"6x6\npaging\npage=2\n\x10\x20",
	"8x8\ncontig-bf\n\n\x00\x00",
	"4x4x4\nsl:genalg\n\n\x33",
	/* Gen-Alg's and MM's interleaved tables and line caches (a
	 * pointer-overflow in their prefix sums was found here) */
	"8x8x8\ngenalg\n\n\x55\xaa\x0f",
	"6x64x4\nsl:genalg\n\n(\x01\x0e#l:ge\ng\n\x97,",
	"12x10x9\nmm\n\n\xf0\x0f\x3c",
	NULL
};

/* Copy the next '\n'-terminated field of at most cap-1 bytes. */
static size_t field(const uint8_t *data, size_t size, size_t pos, char *buf,
		    size_t cap)
{
	size_t n = 0;

	while (pos < size && data[pos] != '\n') {
		if (n + 1 < cap)
			buf[n++] = (char) data[pos];
		pos++;
	}
	buf[n] = '\0';
	return pos < size ? pos + 1 : pos;
}

static void place_once(struct mesh_topo *t, const char *name,
		       const char *params, const uint8_t *bits, size_t nbits)
{
	struct mesh_allocator *a = NULL;
	struct mesh_bitmap *free_map = NULL;
	struct mesh_request req;
	struct mesh_view v;
	struct mesh_diag d;
	uint32_t i, *out, io = 0;
	int rc;

	mesh_topo_set_io_nodes(t, &io, 1);
	if (mesh_alloc_create(t, name, params[0] ? params : NULL, &a, &d))
		return;
	FUZZ_CHECK(mesh_bitmap_create(t->nodes, &free_map) == 0);
	for (i = 0; i < t->nodes; i++)
		if (!nbits || (bits[(i / 8) % nbits] >> (i % 8)) & 1)
			mesh_bitmap_set(free_map, i);
	out = malloc(t->nodes * sizeof(*out));
	memset(&req, 0, sizeof(req));
	req.nodes = 1 + (nbits ? bits[0] : 0) % t->nodes;
	req.seed = nbits;
	v.topo = t, v.free = free_map, v.end_time = NULL, v.now = 0;
	rc = mesh_alloc_place(a, &v, &req, out);
	FUZZ_CHECK(rc == 0 || rc == MESH_ENOSPC);
	for (i = 0; rc == 0 && i < req.nodes; i++)
		FUZZ_CHECK(mesh_bitmap_test(free_map, out[i]));
	free(out);
	mesh_bitmap_destroy(free_map);
	mesh_alloc_destroy(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[64], name[64], params[128];
	struct mesh_topo *t = NULL;
	struct mesh_diag d;
	size_t pos = 0;

	pos = field(data, size, pos, spec, sizeof(spec));
	pos = field(data, size, pos, name, sizeof(name));
	pos = field(data, size, pos, params, sizeof(params));
	mesh_diag_clear(&d);
	if (mesh_topo_parse(spec, &t, &d)) {
		FUZZ_CHECK(!strcmp(d.field, "mesh") && d.message[0]);
		return 0;
	}
	if (t->nodes <= 4096)
		place_once(t, name, params, data + pos, size - pos);
	mesh_topo_destroy(t);
	return 0;
}
