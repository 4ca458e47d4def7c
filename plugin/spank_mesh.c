/*****************************************************************************\
 *  spank_mesh.c - sbatch/salloc/srun options that describe a job to the
 *  mesh allocator: --mesh-shape=WxH[xD], --io-intensity=0..1 and
 *  --comm=all-to-all|one-to-all|nearest|none.
 *
 *  Values are checked on the submitting host with the allocator library's
 *  parsers (src/mesh/hints.h), and a shape against the job's node count,
 *  so a bad one is refused before the job exists, and passed to slurmctld in the job's SPANK environment
 *  (spank_job_control_setenv) as MESH_SHAPE, MESH_IO_INTENSITY and
 *  MESH_COMM, where select/mesh and site_factor/iobalance read them.
 *  Enable it in plugstack.conf:  optional /path/to/spank_mesh.so
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/spank.h>

#include "mesh/hints.h"
#include "mesh/topo.h"

/*
 * sbatch, salloc and srun keep their parsed options in an exported
 * global "opt", which libslurm's slurm_option_get() reads by option name
 * (the same values the job request is built from, #SBATCH lines
 * included).  slurmd and slurmstepd have no "opt": everything is weak,
 * and the node count check is skipped where it is missing.
 */
extern char opt __attribute__((weak));
extern char *slurm_option_get(void *o, const char *name)
	__attribute__((weak));
extern bool slurm_option_isset(void *o, const char *name)
	__attribute__((weak));
extern void slurm_xfree(void **p) __attribute__((weak));

SPANK_PLUGIN(mesh, 1);

#define VALUE_MAX 64

/* Checked values, in the order of hint_names; "" = not given. */
static char values[3][VALUE_MAX];
static const char *const hint_names[3] = { MESH_HINT_SHAPE,
					   MESH_HINT_IO_INTENSITY,
					   MESH_HINT_COMM };

static int _check(int val, const char *optarg, int remote)
{
	static const char *const opts[3] = { "--mesh-shape", "--io-intensity",
					     "--comm" };
	struct mesh_diag d;
	enum mesh_comm c;
	int shape[MESH_MAX_DIMS], rc;
	double v;

	if (val < 0 || val > 2)
		return ESPANK_BAD_ARG;
	if (!optarg || strlen(optarg) >= VALUE_MAX) {
		if (!remote)
			slurm_error("%s: a value of fewer than %d characters is required",
				    opts[val], VALUE_MAX);
		return ESPANK_BAD_ARG;
	}
	if (val == 0)
		rc = mesh_shape_parse(optarg, shape, &d);
	else if (val == 1)
		rc = mesh_io_intensity_parse(optarg, &v, &d);
	else
		rc = mesh_comm_parse_checked(optarg, &c, &d);
	if (rc) {
		/* On the submitting host the user sees this, not Slurm's
		 * generic "Invalid argument". */
		if (!remote)
			slurm_error("%s: %s", opts[val], d.message);
		return ESPANK_BAD_ARG;
	}
	snprintf(values[val], VALUE_MAX, "%s", optarg);
	return ESPANK_SUCCESS;
}

static int _opt_cb(int val, const char *optarg, int remote)
{
	return _check(val, optarg, remote);
}

/* Registered in slurm_spank_init: in sbatch and salloc (allocator
 * context) Slurm ignores a static spank_options table. */
static struct spank_option mesh_options[] = {
	{ "mesh-shape", "WxH[xD]",
	  "Requested shape of the job's sub-mesh for the mc allocator "
	  "(select/mesh), e.g. 4x2.",
	  1, 0, _opt_cb },
	{ "io-intensity", "0..1",
	  "Share of the job's runtime spent in parallel I/O (select/mesh, "
	  "site_factor/iobalance).",
	  1, 1, _opt_cb },
	{ "comm", "all-to-all|one-to-all|nearest|none",
	  "The job's communication pattern (select/mesh).", 1, 2, _opt_cb },
	SPANK_OPTIONS_TABLE_END
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	struct spank_option *o;

	(void) ac;
	(void) av;
	for (o = mesh_options; o->name; o++)
		if (spank_option_register(sp, o) != ESPANK_SUCCESS) {
			slurm_error("mesh: cannot register --%s", o->name);
			return ESPANK_ERROR;
		}
	return ESPANK_SUCCESS;
}

/* The job's node count as -N gave it: *lo and *hi (0: no upper bound).
 * RET false if unknown (no -N, or not in sbatch/salloc/srun). */
static bool _node_count(long *lo, long *hi)
{
	char *v, *end;
	bool ok;

	if (!&opt || !slurm_option_get || !slurm_option_isset ||
	    !slurm_xfree || !slurm_option_isset(&opt, "nodes") ||
	    !(v = slurm_option_get(&opt, "nodes")))
		return false;
	*lo = strtol(v, &end, 10);
	*hi = *lo;
	if (*end == '-')
		*hi = strtol(end + 1, &end, 10);
	ok = *end == '\0' && *lo > 0 && *hi >= 0;
	slurm_xfree((void **) &v);
	return ok;
}

/*
 * --mesh-shape against the node count: an allocator can honour a shape
 * only when its volume is the job's node count, and no mesh holds more
 * than MESH_MAX_NODES nodes.  Refused here, on the submitting host, with
 * what does not match, instead of being ignored later.
 * RET 0, or -1 after the message.
 */
static int _check_shape_volume(void)
{
	int shape[MESH_MAX_DIMS];
	uint64_t vol;
	long lo, hi;

	if (!values[0][0] || mesh_shape_parse(values[0], shape, NULL))
		return 0;
	vol = (uint64_t) shape[0] * shape[1] * shape[2];
	if (vol > MESH_MAX_NODES) {
		slurm_error("--mesh-shape=%s: %llu nodes, more than any mesh holds (%u)",
			    values[0], (unsigned long long) vol,
			    MESH_MAX_NODES);
		return -1;
	}
	if (!_node_count(&lo, &hi) || (vol >= (uint64_t) lo &&
				       (hi == 0 || vol <= (uint64_t) hi)))
		return 0;
	if (hi == lo)
		slurm_error("--mesh-shape=%s is %llu nodes, but the job asks for %ld (-N): the shape's volume must be the node count",
			    values[0], (unsigned long long) vol, lo);
	else
		slurm_error("--mesh-shape=%s is %llu nodes, outside the job's node range %ld-%ld (-N): the shape's volume must be the node count",
			    values[0], (unsigned long long) vol, lo, hi);
	return -1;
}

/* After option processing, on the submitting host: check the shape
 * against the node count, hand the values to slurmctld with the job. */
int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();
	int i;

	(void) ac;
	(void) av;
	if (ctx != S_CTX_ALLOCATOR && ctx != S_CTX_LOCAL)
		return ESPANK_SUCCESS;
	/* negative: sbatch, salloc and srun then stop (a positive error
	 * is only logged, and the job is submitted) */
	if (_check_shape_volume())
		return -1;
	for (i = 0; i < 3; i++) {
		if (!values[i][0])
			continue;
		if (spank_job_control_setenv(sp, hint_names[i], values[i], 1) !=
		    ESPANK_SUCCESS) {
			slurm_error("mesh: cannot pass %s to slurmctld",
				    hint_names[i]);
			return ESPANK_ERROR;
		}
	}
	return ESPANK_SUCCESS;
}
