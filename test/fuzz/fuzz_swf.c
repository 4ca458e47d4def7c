/* fuzz_swf.c - the SWF reader and the simulator on arbitrary bytes.
 * A trace either parses, or is refused with a line number; a parsed
 * trace replays with every job accounted for (simulated, skipped or
 * refused), each placement inside the mesh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mesh.h"

const char *const fuzz_seeds[] = {
	"; MaxProcs: 16\n1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
	"2 5 -1 20 8 2.5 -1 8 100 -1 1 1 1 -1 -1 -1 -1 -1\n",
	"1 0 0 100 16 -1 -1 16 200 -1 1 1 1 1 1 1 -1 -1\n"
	"2 0 0 0 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n"
	"3 1 0 -1 2 -1 -1 2 5 -1 1 1 1 1 1 1 -1 -1\n",
	"; MaxNodes: 8\n\n   \n3 12 308483 30978 3 30977.54 -1 3 37980 -1 1 1 1 -1 -1 1 -1 -1\n",
	NULL
};

static void replay(const struct mesh_swf_trace *tr)
{
	struct mesh_sim_result *res = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_topo *t = NULL;
	struct mesh_sim_opts o;
	struct mesh_diag d;
	size_t i, j;

	FUZZ_CHECK(mesh_topo_parse("4x4", &t, &d) == 0);
	FUZZ_CHECK(mesh_alloc_create(t, "hilbert-bf", NULL, &a, &d) == 0);
	mesh_sim_opts_init(&o);
	o.keep_zero_runtime = tr->n % 2;
	FUZZ_CHECK(mesh_sim_run(t, a, tr, &o, &res, &d) == 0);
	FUZZ_CHECK(res->summary.jobs + res->summary.skipped +
			   res->summary.refused == tr->n);
	for (i = 0; i < res->n; i++) {
		const struct mesh_sim_job *j0 = &res->jobs[i];

		FUZZ_CHECK(j0->start >= j0->submit);
		for (j = 0; j < j0->size; j++)
			FUZZ_CHECK(res->nodes[j0->node_off + j] < t->nodes);
	}
	mesh_sim_result_free(res);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mesh_swf_trace *tr = NULL;
	struct mesh_diag d;
	FILE *f;
	int rc;

	if (size == 0 || size > 65536)
		return 0;
	f = fmemopen((void *) (uintptr_t) data, size, "r");
	if (!f)
		return 0;
	mesh_diag_clear(&d);
	rc = mesh_swf_read(f, "fuzz.swf", &tr, &d);
	fclose(f);
	FUZZ_CHECK(rc == 0 || rc == MESH_EPARSE || rc == MESH_ENOMEM);
	if (rc == MESH_EPARSE)
		FUZZ_CHECK(d.line > 0 && d.message[0]);
	if (rc == 0 && tr->n <= 256)
		replay(tr);
	mesh_swf_free(tr);
	return 0;
}
