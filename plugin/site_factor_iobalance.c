/*****************************************************************************\
 *  site_factor_iobalance.c - Özden et al.'s I/O-balancing weighted
 *  priority as a Slurm site factor.
 *
 *  For every pending job: wp = (1 - alpha) * lambda + alpha * delta, where
 *  lambda is its normalised queue position (job ids, which grow with
 *  submission) and delta how far starting it would move the running jobs'
 *  mean I/O intensity from the whole workload's (mesh_ozden_priority() in
 *  the allocator library, the same code meshsim runs).  The site factor is
 *  scale * (1 - wp), so the job with the lowest wp gets the most.  The
 *  I/O intensity is the job's MESH_IO_INTENSITY hint (SPANK option
 *  --io-intensity); jobs without one count as 0.
 *
 *  PrioritySiteFactorParameters=alpha=A[,scale=S] (defaults 0 and 1000).
 *  Slurm calls update() from priority/multifactor's decay thread, which
 *  only runs with accounting (slurmdbd): it values the whole queue and
 *  keeps aggregates, from which set() values a new job in O(1) between
 *  passes; see doc/site-factor.md.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "compat/compat.h"

#include "mesh/hints.h"
#include "mesh/priority.h"

#include "job_hints.h"

/* Defined by slurmctld, the only daemon that loads site factor plugins. */
slurm_conf_t slurm_conf;
list_t *job_list;

const char plugin_name[] = "I/O-balancing site factor (Ozden et al.)";
const char plugin_type[] = "site_factor/iobalance";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define DEFAULT_SCALE 1000.0

static double alpha;
static double scale = DEFAULT_SCALE;

/*
 * What the last decay pass saw (update()), so that set() values a new job
 * in O(1) instead of walking the queue on every submission.  Without a
 * decay pass yet (none runs without accounting) set() walks the queue.
 * Used under the job write lock, as the scratch below.
 */
static struct mesh_ozden_agg agg;
static bool agg_valid;

/* Scratch, grown as needed; used under the job write lock. */
static job_record_t **cand;
static double *cand_pos, *cand_io, *cand_wp;
static int cand_cap;

/* "alpha=A,scale=S": 0, or -1 with an error() naming the bad key. */
static int _parse_params(const char *params, double *a, double *s)
{
	char *copy, *tok, *save = NULL, *end;
	int rc = 0;

	*a = 0;
	*s = DEFAULT_SCALE;
	if (!params || !params[0])
		return 0;
	copy = xstrdup(params);
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		double v;

		if (!eq) {
			error("%s: PrioritySiteFactorParameters: \"%s\": expected key=value (alpha=, scale=)",
			      plugin_type, tok);
			rc = -1;
			break;
		}
		*eq = '\0';
		v = strtod(eq + 1, &end);
		if (!xstrcasecmp(tok, "alpha") && end != eq + 1 && !*end &&
		    v >= 0 && v <= 1) {
			*a = v;
		} else if (!xstrcasecmp(tok, "scale") && end != eq + 1 &&
			   !*end && v > 0 && v <= 1e6) {
			*s = v;
		} else {
			error("%s: PrioritySiteFactorParameters: %s=\"%s\": expected alpha in [0,1] or scale in (0,1e6]",
			      plugin_type, tok, eq + 1);
			rc = -1;
		}
	}
	xfree(copy);
	return rc;
}

/* Parsed once per job (job_hints.c); a bad value reads as absent. */
static double _io_intensity(job_record_t *job_ptr)
{
	struct mesh_job_hints h;

	mesh_job_own_hints(job_ptr, plugin_type, &h);
	return h.io_intensity >= 0 ? h.io_intensity : 0;
}

static void _grow(int n)
{
	if (n <= cand_cap)
		return;
	cand_cap = n * 2;
	xrecalloc(cand, cand_cap, sizeof(*cand));
	xrecalloc(cand_pos, cand_cap, sizeof(*cand_pos));
	xrecalloc(cand_io, cand_cap, sizeof(*cand_io));
	xrecalloc(cand_wp, cand_cap, sizeof(*cand_wp));
}

static void _set_factor(job_record_t *job_ptr, double io, double wp)
{
	job_ptr->site_factor = NICE_OFFSET + (uint32_t) lround(scale * (1 - wp));
	log_flag(PRIO, "%s: %pJ io=%.3f wp=%.4f site=%u", plugin_type, job_ptr,
		 io, wp, job_ptr->site_factor - NICE_OFFSET);
}

/* Site factors of all pending jobs; caller holds the job write lock. */
static void _compute_all(void)
{
	list_itr_t *it;
	job_record_t *job_ptr;
	double run_sum = 0;
	int n = 0, n_run = 0, i;

	if (!job_list)
		return;
	_grow(list_count(job_list));
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		if (IS_JOB_RUNNING(job_ptr)) {
			run_sum += _io_intensity(job_ptr);
			n_run++;
		} else if (IS_JOB_PENDING(job_ptr)) {
			cand[n] = job_ptr;
			cand_pos[n] = job_ptr->job_id;
			cand_io[n] = _io_intensity(job_ptr);
			n++;
		}
	}
	list_iterator_destroy(it);
	mesh_ozden_priority_agg(alpha, cand_pos, cand_io, n, run_sum, n_run,
				cand_wp, &agg);
	for (i = 0; i < n; i++)
		_set_factor(cand[i], cand_io[i], cand_wp[i]);
}

extern int init(void)
{
	if (_parse_params(slurm_conf.site_factor_params, &alpha, &scale))
		fatal("%s: bad PrioritySiteFactorParameters \"%s\"", plugin_type,
		      slurm_conf.site_factor_params);
	info("%s: alpha=%.3f scale=%.0f", plugin_type, alpha, scale);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	xfree(cand);
	xfree(cand_pos);
	xfree(cand_io);
	xfree(cand_wp);
	cand_cap = 0;
	agg_valid = false;
	mesh_job_hints_fini();
	return SLURM_SUCCESS;
}

/* A bad value on reconfigure keeps the running parameters. */
extern void site_factor_p_reconfig(void)
{
	double a, s;

	if (_parse_params(slurm_conf.site_factor_params, &a, &s)) {
		error("%s: keeping alpha=%.3f scale=%.0f", plugin_type, alpha,
		      scale);
		return;
	}
	alpha = a;
	scale = s;
	info("%s: alpha=%.3f scale=%.0f", plugin_type, alpha, scale);
}

/*
 * At submission (and whenever Slurm resets a job's priority, e.g. on
 * release): the job's factor from the last decay pass's aggregates, O(1).
 * The other jobs' factors depend on it too but keep theirs until the next
 * pass, as Slurm's own factors do.
 */
extern void site_factor_p_set(job_record_t *job_ptr)
{
	double io;

	if (!agg_valid) {
		_compute_all();
		return;
	}
	io = _io_intensity(job_ptr);
	_set_factor(job_ptr, io,
		    mesh_ozden_add(&agg, alpha, job_ptr->job_id, io));
}

/* From priority/multifactor's decay thread, every PriorityCalcPeriod. */
extern void site_factor_p_update(void)
{
	_compute_all();
	agg_valid = true;
	log_flag(PRIO, "%s: decay pass: %zu pending, %zu running",
		 plugin_type, agg.n, agg.n_run);
}
