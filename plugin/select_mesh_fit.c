/*****************************************************************************\
 *  select_mesh_fit.c - over cons_tres: which nodes can still give a job
 *  what it asks.
 *
 *  HOW IT WORKS: a node is free for a job when what the tracked jobs hold
 *  there leaves the job's per-node share: its CPUs (unless it may
 *  oversubscribe them), its memory under CR_Memory, each GRES it asks
 *  (count and type), and the whole node if it asks for one (--exclusive,
 *  OverSubscribe=EXCLUSIVE); nothing may be added to a node a whole-node
 *  job holds.  What the jobs hold comes from their job_resources (CPUs,
 *  memory per node) and their allocated GRES, so the same count serves
 *  now, without the preemption candidates, and at a later time (WILL_RUN,
 *  without the jobs ending by then).  It is a filter in front of
 *  cons_tres, which stays the judge: socket and core layout, binding and
 *  per-job totals are its to check.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/bitstring.h"
#include "compat/compat.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"

#include "fit.h"
#include "select_mesh.h"

/* A job that gets whole nodes: cons_tres's NODE_CR_RESERVED. */
static bool _job_whole(job_record_t *job_ptr)
{
	return (job_ptr->part_ptr && job_ptr->part_ptr->max_share == 0) ||
		(job_ptr->details &&
		 job_ptr->details->whole_node == WHOLE_NODE_REQUIRED);
}

/* A job whose CPUs may be shared: cons_tres's NODE_CR_AVAILABLE. */
static bool _job_shares_cpus(job_record_t *job_ptr)
{
	uint16_t m = job_ptr->part_ptr ? job_ptr->part_ptr->max_share : 1;

	if (m == 0)
		return false;
	return (m & SHARED_FORCE) ||
		((m > 1) && job_ptr->details->share_res == 1);
}

/* Tasks the job puts on each node at least: --ntasks-per-node, or its
 * tasks spread over its most nodes (-n8 -N2: 4). */
static uint32_t _tasks_per_node(job_details_t *d)
{
	uint32_t t = MAX(d->ntasks_per_node, 1);

	if (d->num_tasks && d->num_tasks != NO_VAL && d->max_nodes &&
	    d->max_nodes != NO_VAL)
		t = MAX(t, (d->num_tasks + d->max_nodes - 1) / d->max_nodes);
	return t;
}

static void _need_gres(job_record_t *job_ptr, struct sm_need *n)
{
	list_itr_t *it;
	gres_state_t *gs;
	gres_job_state_t *js;
	uint64_t cnt;
	uint32_t tasks = _tasks_per_node(job_ptr->details);

	if (!job_ptr->gres_list_req)
		return;
	it = list_iterator_create(job_ptr->gres_list_req);
	while ((gs = list_next(it)) && n->n_gres < SM_MAX_GRES) {
		js = gs->gres_data;
		if (js->gres_per_node)
			cnt = js->gres_per_node;
		else if (js->gres_per_task)
			cnt = js->gres_per_task * tasks;
		else if (js->gres_per_socket)
			cnt = js->gres_per_socket;
		else
			cnt = 1;	/* --gpus (per job): a node gives one */
		n->gres[n->n_gres].plugin_id = gs->plugin_id;
		n->gres[n->n_gres].type_id = js->type_id;
		n->gres[n->n_gres].cnt = cnt;
		n->cpus = MAX(n->cpus, (uint32_t) js->cpus_per_gres * cnt);
		n->mem = MAX(n->mem, js->mem_per_gres * cnt);
		n->n_gres++;
	}
	list_iterator_destroy(it);
}

extern void sm_need_init(job_record_t *job_ptr, struct sm_need *n)
{
	job_details_t *d = job_ptr->details;
	uint64_t mem = d->pn_min_memory;

	memset(n, 0, sizeof(*n));
	n->whole = _job_whole(job_ptr);
	n->share_cpus = _job_shares_cpus(job_ptr);
	n->cpus = MAX(MAX(d->pn_min_cpus, d->cpus_per_task), 1);
	n->cpus = MAX(n->cpus, _tasks_per_node(d) * MAX(d->cpus_per_task, 1));
	_need_gres(job_ptr, n);
	if (!(slurm_conf.select_type_param & CR_MEMORY) || mem == NO_VAL64)
		n->mem = 0;
	else if (mem & MEM_PER_CPU)
		n->mem = MAX(n->mem, (mem & ~MEM_PER_CPU) * n->cpus);
	else
		n->mem = MAX(n->mem, mem);
}

/* Allocated GRES of need g that gs (one of a job's allocations) holds on
 * the job's node number j. */
static uint64_t _gres_on(gres_state_t *gs, const struct sm_need *n, int g,
			 int j)
{
	gres_job_state_t *js = gs->gres_data;

	if (gs->plugin_id != n->gres[g].plugin_id ||
	    (n->gres[g].type_id && js->type_id != n->gres[g].type_id) ||
	    !js->gres_cnt_node_alloc || j >= (int) js->node_cnt)
		return 0;
	return js->gres_cnt_node_alloc[j];
}

/* Add (sign 1) or take away (sign -1) what job_ptr holds, to the
 * counts of f.  The counts are sums, so taking a job away leaves what a
 * build without it gives. */
static void _fit_job(struct sm_fit *f, job_record_t *job_ptr, int sign)
{
	job_resources_t *jr = job_ptr->job_resrcs;
	uint16_t whole = _job_whole(job_ptr);
	list_itr_t *it;
	gres_state_t *gs;
	int i, j = 0, g, last;

	if (!jr || !jr->node_bitmap)
		return;
	last = MIN(bit_fls(jr->node_bitmap), sm.node_cnt - 1);
	for (i = bit_ffs(jr->node_bitmap); i >= 0 && i <= last; i++) {
		if (!bit_test(jr->node_bitmap, i))
			continue;
		if (job_ptr->node_bitmap && i < bit_size(job_ptr->node_bitmap) &&
		    bit_test(job_ptr->node_bitmap, i)) {
			f->jobs[i] += sign;
			f->whole[i] += sign * whole;
			f->cpus[i] += sign * (jr->cpus ? jr->cpus[j] : 0);
			f->mem[i] += sign * (int64_t) (jr->memory_allocated ?
				jr->memory_allocated[j] : 0);
			if (job_ptr->gres_list_alloc) {
				it = list_iterator_create(
					job_ptr->gres_list_alloc);
				while ((gs = list_next(it)))
					for (g = 0; g < f->need.n_gres; g++)
						f->gres[i * SM_MAX_GRES + g] +=
							sign * (int64_t)
							_gres_on(gs, &f->need,
								 g, j);
				list_iterator_destroy(it);
			}
		}
		j++;
	}
}

/* A tracked job cons_tres has no record of: all its nodes count as held
 * whole. */
static void _fit_unknown(struct sm_fit *f, const struct mesh_job *mj, int sign)
{
	int j;

	for (j = 0; j < mj->n_idx; j++)
		if (mj->idx[j] < sm.node_cnt) {
			f->whole[mj->idx[j]] += sign;
			f->jobs[mj->idx[j]] += sign;
		}
}

/* What tracked job mj holds, as sm_fit_build() counts it. */
extern void sm_fit_job(struct sm_fit *f, const struct mesh_job *mj, int sign)
{
	job_record_t *job_ptr = find_job_record(mj->job_id);

	if (!job_ptr || !job_ptr->job_resrcs)
		_fit_unknown(f, mj, sign);
	else
		_fit_job(f, job_ptr, sign);
}

/* True, with an error() naming the first difference, unless f holds the
 * counts a build leaving out skip[] gives (DebugFlags=SelectType checks
 * the counts kept by subtraction against a rebuild). */
extern bool sm_fit_verify(const struct sm_fit *f, const uint32_t *skip,
			  int n_skip)
{
	struct sm_fit g;
	int i, k, n = sm.node_cnt + 1;
	bool same = true;

	memset(&g, 0, sizeof(g));
	g.need = f->need;
	g.jobs = xcalloc(n, sizeof(*g.jobs));
	g.whole = xcalloc(n, sizeof(*g.whole));
	g.cpus = xcalloc(n, sizeof(*g.cpus));
	g.mem = xcalloc(n, sizeof(*g.mem));
	g.gres = xcalloc(n * SM_MAX_GRES, sizeof(*g.gres));
	sm_fit_build(&g, skip, n_skip, 0);
	for (i = 0; i < n && same; i++) {
		same = f->jobs[i] == g.jobs[i] && f->whole[i] == g.whole[i] &&
			f->cpus[i] == g.cpus[i] && f->mem[i] == g.mem[i];
		for (k = 0; k < SM_MAX_GRES && same; k++)
			same = f->gres[i * SM_MAX_GRES + k] ==
				g.gres[i * SM_MAX_GRES + k];
		if (!same)
			error("%s: the fit kept by subtraction differs from a rebuild at node index %d: jobs %u/%u whole %u/%u cpus %u/%u mem %"PRIu64"/%"PRIu64,
			      plugin_type, i, f->jobs[i], g.jobs[i],
			      f->whole[i], g.whole[i], f->cpus[i], g.cpus[i],
			      f->mem[i], g.mem[i]);
	}
	xfree(g.jobs);
	xfree(g.whole);
	xfree(g.cpus);
	xfree(g.mem);
	xfree(g.gres);
	return same;
}

/*
 * Count what the tracked jobs hold, leaving out those whose ids are in
 * the sorted array skip[] and, if until > 0, those that end by until (an
 * end already past as mesh_plan_running_end() has it, as WILL_RUN plans).
 */
extern void sm_fit_build(struct sm_fit *f, const uint32_t *skip, int n_skip,
			 time_t until)
{
	time_t now = time(NULL);
	job_record_t *job_ptr;
	struct mesh_job *mj;
	int t, n = sm.node_cnt + 1;

	memset(f->jobs, 0, n * sizeof(*f->jobs));
	memset(f->whole, 0, n * sizeof(*f->whole));
	memset(f->cpus, 0, n * sizeof(*f->cpus));
	memset(f->mem, 0, n * sizeof(*f->mem));
	memset(f->gres, 0, n * SM_MAX_GRES * sizeof(*f->gres));
	for (t = 0; t < sm.n_tracked; t++) {
		mj = &sm.tracked[t];
		if (sm_in_ids(skip, n_skip, mj->job_id))
			continue;
		if (!(job_ptr = find_job_record(mj->job_id)) ||
		    !job_ptr->job_resrcs) {
			/* unknown to cons_tres's terms: hold its nodes */
			_fit_unknown(f, mj, 1);
			continue;
		}
		if (until > 0 &&
		    mesh_plan_running_end((double) job_ptr->end_time,
					  (double) now) <= (double) until)
			continue;
		_fit_job(f, job_ptr, 1);
	}
}

/* GRES g of the need that node_ptr has in all (of the asked type). */
static uint64_t _gres_cap(node_record_t *node_ptr, const struct sm_need *n,
			  int g)
{
	list_itr_t *it;
	gres_state_t *gs;
	gres_node_state_t *ns;
	uint64_t cap = 0;
	int k;

	if (!node_ptr->gres_list)
		return 0;
	it = list_iterator_create(node_ptr->gres_list);
	while ((gs = list_next(it))) {
		if (gs->plugin_id != n->gres[g].plugin_id)
			continue;
		ns = gs->gres_data;
		if (!n->gres[g].type_id) {
			cap += ns->gres_cnt_avail;
			continue;
		}
		for (k = 0; k < ns->type_cnt; k++)
			if (ns->type_id[k] == n->gres[g].type_id)
				cap += ns->type_cnt_avail[k];
	}
	list_iterator_destroy(it);
	return cap;
}

/* True if node i can still give the job its share; *cpus: the CPUs it
 * could get there (core/fit.h decides from the counts). */
extern bool sm_fit_node(const struct sm_fit *f, int i, uint32_t *cpus)
{
	node_record_t *node_ptr = node_record_table_ptr[i];
	const struct sm_need *n = &f->need;
	uint64_t need_gres[SM_MAX_GRES], cap_gres[SM_MAX_GRES];
	struct smc_need cn = {
		.cpus = n->cpus, .mem = n->mem, .whole = n->whole,
		.share_cpus = n->share_cpus, .n_gres = n->n_gres,
		.gres = need_gres,
	};
	struct smc_node cnode;
	int g;

	*cpus = 0;
	if (!node_ptr)
		return false;
	for (g = 0; g < n->n_gres; g++) {
		need_gres[g] = n->gres[g].cnt;
		cap_gres[g] = _gres_cap(node_ptr, n, g);
	}
	cnode = (struct smc_node) {
		.cpus = node_ptr->config_ptr->cpus,
		.real_memory = node_ptr->real_memory,
		.mem_spec_limit = node_ptr->mem_spec_limit,
		.cap_gres = cap_gres,
		.jobs = f->jobs[i],
		.held_whole = f->whole[i] > 0,
		.held_cpus = f->cpus[i],
		.held_mem = f->mem[i],
		.held_gres = &f->gres[i * SM_MAX_GRES],
	};
	return smc_fit_node(&cn, &cnode, cpus);
}

extern void sm_fit_alloc(struct sm_fit *f, job_record_t *job_ptr)
{
	int n = sm.node_cnt + 1;

	memset(f, 0, sizeof(*f));
	sm_need_init(job_ptr, &f->need);
	f->jobs = xcalloc(n, sizeof(*f->jobs));
	f->whole = xcalloc(n, sizeof(*f->whole));
	f->cpus = xcalloc(n, sizeof(*f->cpus));
	f->mem = xcalloc(n, sizeof(*f->mem));
	f->gres = xcalloc(n * SM_MAX_GRES, sizeof(*f->gres));
	f->free_cpus = xcalloc(n, sizeof(*f->free_cpus));
	f->use = xcalloc(n, sizeof(*f->use));
}

extern void sm_fit_free(struct sm_fit *f)
{
	xfree(f->jobs);
	xfree(f->whole);
	xfree(f->cpus);
	xfree(f->mem);
	xfree(f->gres);
	xfree(f->free_cpus);
	xfree(f->use);
}

/*
 * f->use[i] = 0 for the nodes of avail that can give the job its share,
 * 1 for the others, and f->free_cpus[i] the CPUs the job could get
 * there: the usage array and CPU counts a placement attempt reads.
 * RET the number of nodes that fit.
 */
extern int sm_fit_use(struct sm_fit *f, bitstr_t *avail)
{
	int i, n = 0, last = MIN(bit_size(avail), sm.node_cnt);

	for (i = 0; i < sm.node_cnt; i++) {
		f->use[i] = 1;
		f->free_cpus[i] = 0;
		if (i < last && bit_test(avail, i) &&
		    sm_fit_node(f, i, &f->free_cpus[i])) {
			f->use[i] = 0;
			n++;
		}
	}
	return n;
}
