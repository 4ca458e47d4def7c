/* fuzz_jobattrs.c - the job-attribute sidecar reader on arbitrary bytes.
 * A file either parses into attributes that all satisfy their ranges,
 * sorted by distinct ids, or is refused naming a line (or the header). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mesh.h"

const char *const fuzz_seeds[] = {
	"job_id,io_intensity,io_volume,comm,shape,compute_phase,checkpoint_phase\n"
	"1,0.7,120,all-to-all,4x2,600,60\n2,,,none,,,\n",
	"# sidecar\nshape,job_id\n4x2x2,5\n,6\n",
	"job_id,comm\n1,nearest\n1,none\n",
	"job_id,comm\n1,pairs:0>1 1>0\n2,chain\n", NULL
};

static void check_attr(const struct mesh_job_attr *a)
{
	const struct mesh_job_hints *h = &a->hints;

	FUZZ_CHECK(a->id >= 0 && a->line > 0);
	FUZZ_CHECK(h->io_intensity < 0 ||
		   (h->io_intensity >= 0 && h->io_intensity <= 1));
	FUZZ_CHECK(h->comm >= MESH_COMM_UNKNOWN && h->comm <= MESH_COMM_LAST);
	FUZZ_CHECK((h->comm == MESH_COMM_PAIRS) == (a->n_pairs > 0));
	FUZZ_CHECK(h->shape[0] >= 0 && h->shape[1] >= 0 && h->shape[2] >= 0);
	FUZZ_CHECK(a->compute_phase < 0 || a->compute_phase > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mesh_job_attrs *s = NULL;
	struct mesh_diag d;
	size_t i;
	FILE *f;
	int rc;

	if (size == 0 || size > 65536)
		return 0;
	f = fmemopen((void *) (uintptr_t) data, size, "r");
	if (!f)
		return 0;
	mesh_diag_clear(&d);
	rc = mesh_job_attrs_read(f, "fuzz.csv", &s, &d);
	fclose(f);
	FUZZ_CHECK(rc == 0 || rc == MESH_EPARSE || rc == MESH_ENOMEM);
	if (rc == MESH_EPARSE)
		FUZZ_CHECK(d.message[0] && d.field[0] &&
			   !strcmp(d.file, "fuzz.csv"));
	for (i = 0; rc == 0 && i < s->n; i++) {
		check_attr(&s->a[i]);
		FUZZ_CHECK(i == 0 || s->a[i].id > s->a[i - 1].id);
		FUZZ_CHECK(mesh_job_attrs_find(s, s->a[i].id) == &s->a[i]);
	}
	mesh_job_attrs_free(s);
	return 0;
}
