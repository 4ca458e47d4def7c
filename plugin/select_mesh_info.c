/*****************************************************************************\
 *  select_mesh_info.c - select/mesh per-node and per-job data: allocated
 *  CPUs and TRES for sinfo/scontrol (nodeinfo), and the per-job placement
 *  summary: SystemComment for scontrol, and jobinfo for squeue %s
 *  (versioned pack format).
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <inttypes.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "compat/compat.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "jobinfo.h"
#include "select_mesh.h"

/*
 * Over cons_tres the node records are cons_tres's own: every nodeinfo
 * call goes to it, as select/cray_aries hands them to its other plugin.
 * cons_tres's select_p_select_nodeinfo_set_all() takes its records back
 * through select_g_select_nodeinfo_get(SELECT_NODEDATA_PTR), so they
 * must not be wrapped.  Whole nodes: the records below, packed the way
 * select/linear and cons_tres pack theirs.
 */
extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	select_nodeinfo_t empty = { .magic = NODEINFO_MAGIC };
	sm_layer_ops_t *o = sm_other();

	if (o)
		return o->nodeinfo_pack(nodeinfo, buffer, protocol_version);
	if (!nodeinfo)
		nodeinfo = &empty;
	pack16(nodeinfo->alloc_cpus, buffer);
	pack64(nodeinfo->alloc_memory, buffer);
	packstr(nodeinfo->tres_alloc_fmt_str, buffer);
	packdouble(nodeinfo->tres_alloc_weighted, buffer);
	return SLURM_SUCCESS;
}

extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	sm_layer_ops_t *o = sm_other();
	select_nodeinfo_t *nodeinfo;

	if (o)
		return o->nodeinfo_alloc();
	nodeinfo = xmalloc(sizeof(*nodeinfo));
	nodeinfo->magic = NODEINFO_MAGIC;
	return nodeinfo;
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *nodeinfo)
{
	sm_layer_ops_t *o = sm_other();

	if (o)
		return o->nodeinfo_free(nodeinfo);
	if (!nodeinfo)
		return SLURM_SUCCESS;
	if (nodeinfo->magic != NODEINFO_MAGIC) {
		error("%s: %s: nodeinfo magic bad", plugin_type, __func__);
		return EINVAL;
	}
	nodeinfo->magic = 0;
	xfree(nodeinfo->tres_alloc_fmt_str);
	xfree(nodeinfo);
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	sm_layer_ops_t *o = sm_other();
	select_nodeinfo_t *ni;
	uint32_t len;

	if (o)
		return o->nodeinfo_unpack(nodeinfo, buffer, protocol_version);
	ni = select_p_select_nodeinfo_alloc();
	*nodeinfo = ni;
	safe_unpack16(&ni->alloc_cpus, buffer);
	safe_unpack64(&ni->alloc_memory, buffer);
	safe_unpackstr_xmalloc(&ni->tres_alloc_fmt_str, &len, buffer);
	safe_unpackdouble(&ni->tres_alloc_weighted, buffer);
	return SLURM_SUCCESS;

unpack_error:
	error("%s: %s: error unpacking node info", plugin_type, __func__);
	select_p_select_nodeinfo_free(ni);
	*nodeinfo = NULL;
	return SLURM_ERROR;
}

/* Whole nodes: an allocated node has all its CPUs allocated. */
extern int select_p_select_nodeinfo_set_all(void)
{
	static time_t last_set_all = 0;
	sm_layer_ops_t *o = sm_other();
	select_nodeinfo_t *ni;
	node_record_t *node_ptr;
	int i;

	if (o)
		return o->nodeinfo_set_all();
	if (last_set_all && last_node_update < last_set_all)
		return SLURM_NO_CHANGE_IN_DATA;
	last_set_all = last_node_update;
	for (i = 0; (node_ptr = next_node(&i)); i++) {
		ni = NULL;
		select_g_select_nodeinfo_get(node_ptr->select_nodeinfo,
					     SELECT_NODEDATA_PTR, 0, &ni);
		if (!ni)
			continue;
		xfree(ni->tres_alloc_fmt_str);
		ni->alloc_memory = 0;
		if (IS_NODE_COMPLETING(node_ptr) ||
		    IS_NODE_ALLOCATED(node_ptr)) {
			ni->alloc_cpus = node_ptr->config_ptr->cpus;
			ni->tres_alloc_fmt_str =
				assoc_mgr_make_tres_str_from_array(
					node_ptr->tres_cnt,
					TRES_STR_CONVERT_UNITS, false);
			ni->tres_alloc_weighted = assoc_mgr_tres_weighted(
				node_ptr->tres_cnt,
				node_ptr->config_ptr->tres_weights,
				slurm_conf.priority_flags, false);
		} else {
			ni->alloc_cpus = 0;
			ni->tres_alloc_weighted = 0.0;
		}
	}
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_get(select_nodeinfo_t *nodeinfo,
					enum select_nodedata_type dinfo,
					enum node_states state, void *data)
{
	sm_layer_ops_t *o = sm_other();

	if (o)
		return o->nodeinfo_get(nodeinfo, dinfo, state, data);
	if (!nodeinfo || nodeinfo->magic != NODEINFO_MAGIC) {
		error("%s: %s: nodeinfo not set or magic bad", plugin_type,
		      __func__);
		return SLURM_ERROR;
	}
	switch (dinfo) {
	case SELECT_NODEDATA_SUBCNT:
		*(uint16_t *) data = state == NODE_STATE_ALLOCATED ?
			nodeinfo->alloc_cpus : 0;
		break;
	case SELECT_NODEDATA_PTR:
		*(select_nodeinfo_t **) data = nodeinfo;
		break;
	case SELECT_NODEDATA_MEM_ALLOC:
		*(uint64_t *) data = nodeinfo->alloc_memory;
		break;
	case SELECT_NODEDATA_TRES_ALLOC_FMT_STR:
		*(char **) data = xstrdup(nodeinfo->tres_alloc_fmt_str);
		break;
	case SELECT_NODEDATA_TRES_ALLOC_WEIGHTED:
		*(double *) data = nodeinfo->tres_alloc_weighted;
		break;
	default:
		error("%s: %s: unsupported option %d", plugin_type, __func__,
		      dinfo);
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/*
 * select_jobinfo: the placement summary (see select_mesh.h).  Its bytes
 * are the decision core's (core/jobinfo.h): mark, format and blob, as
 * pack32, pack16 and packmem write them; version 1's blob is the
 * NUL-terminated summary.  Before this format the plugin packed nothing,
 * so an unpacker that does not find the mark at the cursor leaves the
 * buffer alone: in saved state the next field is a node count, NO_VAL
 * or a string length, never the mark.
 */

extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	sm_layer_ops_t *o = sm_other();
	select_jobinfo_t *jobinfo = xmalloc(sizeof(*jobinfo));

	jobinfo->magic = JOBINFO_MAGIC;
	if (o)
		jobinfo->other = o->jobinfo_alloc();
	return jobinfo;
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	if (!jobinfo)
		return SLURM_SUCCESS;
	if (jobinfo->magic != JOBINFO_MAGIC) {
		error("%s: %s: jobinfo magic bad", plugin_type, __func__);
		return EINVAL;
	}
	jobinfo->magic = 0;
	xfree(jobinfo->placement);
	if (jobinfo->other && sm_other())
		sm_other()->jobinfo_free(jobinfo->other);
	xfree(jobinfo);
	return SLURM_SUCCESS;
}

extern void sm_jobinfo_set_placement(job_record_t *job_ptr,
				     const char *placement)
{
	select_jobinfo_t *jobinfo;

	if (!job_ptr->select_jobinfo)
		job_ptr->select_jobinfo = select_g_select_jobinfo_alloc();
	if (!job_ptr->select_jobinfo)
		return;
	if (!job_ptr->select_jobinfo->data)
		job_ptr->select_jobinfo->data = select_p_select_jobinfo_alloc();
	jobinfo = job_ptr->select_jobinfo->data;
	if (jobinfo->magic != JOBINFO_MAGIC)
		return;
	xfree(jobinfo->placement);
	jobinfo->placement = xstrdup(placement);
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	sm_layer_ops_t *o = sm_other();

	if (o && jobinfo && jobinfo->magic == JOBINFO_MAGIC)
		return o->jobinfo_set(jobinfo->other, data_type, data);
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	sm_layer_ops_t *o = sm_other();

	if (o && jobinfo && jobinfo->magic == JOBINFO_MAGIC)
		return o->jobinfo_get(jobinfo->other, data_type, data);
	return SLURM_ERROR;
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(
	select_jobinfo_t *jobinfo)
{
	sm_layer_ops_t *o = sm_other();
	select_jobinfo_t *copy = xmalloc(sizeof(*copy));

	copy->magic = JOBINFO_MAGIC;
	if (jobinfo && jobinfo->magic == JOBINFO_MAGIC) {
		copy->placement = xstrdup(jobinfo->placement);
		if (o && jobinfo->other)
			copy->other = o->jobinfo_copy(jobinfo->other);
	}
	return copy;
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	const char *p = jobinfo ? jobinfo->placement : NULL;
	sm_layer_ops_t *o = sm_other();
	size_t n = smc_jobinfo_encode(p, NULL, 0);
	unsigned char *bytes = xmalloc(n);

	(void) smc_jobinfo_encode(p, bytes, n);
	packmem_array((char *) bytes, n, buffer);
	xfree(bytes);
	if (o)
		return o->jobinfo_pack(jobinfo ? jobinfo->other : NULL, buffer,
				       protocol_version);
	return SLURM_SUCCESS;
}

/* Our part of a packed jobinfo into ji; a missing mark is no data. */
static int _unpack_placement(select_jobinfo_t *ji, buf_t *buffer)
{
	uint32_t offset = get_buf_offset(buffer);
	char *placement = NULL;
	long n;

	n = smc_jobinfo_decode((unsigned char *) get_buf_data(buffer) + offset,
			       remaining_buf(buffer), &placement);
	if (n < 0)
		return SLURM_ERROR;
	set_buf_offset(buffer, offset + n);
	if (placement) {
		ji->placement = xstrdup(placement);
		free(placement);
	}
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	sm_layer_ops_t *o = sm_other();
	select_jobinfo_t *ji = select_p_select_jobinfo_alloc();

	*jobinfo = ji;
	if (_unpack_placement(ji, buffer) != SLURM_SUCCESS)
		goto unpack_error;
	if (o) {
		if (ji->other)
			o->jobinfo_free(ji->other);
		ji->other = NULL;
		if (o->jobinfo_unpack(&ji->other, buffer, protocol_version))
			goto unpack_error;
	}
	return SLURM_SUCCESS;

unpack_error:
	error("%s: %s: error unpacking job info", plugin_type, __func__);
	select_p_select_jobinfo_free(ji);
	*jobinfo = NULL;
	return SLURM_ERROR;
}

/* Which placed the job: the configured allocator, the contiguous-only
 * helper (--contiguous), or the layer below on its own (over cons_tres,
 * when it refused the allocator's choices). */
static const char *_placed_by(job_record_t *job_ptr)
{
	if (job_ptr->job_id == sm.other_job_id && sm_other_type())
		return sm_other_type();
	if (job_ptr->job_id == sm.contig_job_id && sm.contig)
		return mesh_alloc_name(sm.contig);
	return sm.conf->allocator;
}

/* " shape=ignored" if the job has a shape hint (its own or mesh.conf's
 * DefaultMeshShape) that the allocator does not use, else "". */
static const char *_shape_note(job_record_t *job_ptr)
{
	struct mesh_request r;

	if (mesh_alloc_flags(sm.alloc) & MESH_ALLOC_USES_SHAPE)
		return "";
	memset(&r, 0, sizeof(r));
	sm_job_hints_locked(job_ptr, &r);
	return r.shape[0] ? " shape=ignored" : "";
}

/*
 * Write "mesh:v1 alloc=... bbox=WxHxD sumdist=S avgdist=A diam=D
 * [shape=ignored]" for the nodes of the job (at its start, and again
 * when it is resized) into SystemComment and jobinfo.  What others wrote
 * there, before or after ours, is kept, with ours after it; ours is
 * replaced (mesh_comment_replace()).
 */
extern void sm_set_comment(job_record_t *job_ptr, bitstr_t *nodes,
			   const char *why)
{
	struct mesh_metrics m;
	uint32_t *idx = xcalloc(bit_size(nodes) + 1, sizeof(*idx));
	char *c = NULL, *ours;
	size_t n = 0;
	int i;

	for (i = 0; i < MIN(bit_size(nodes), sm.node_cnt); i++)
		if (bit_test(nodes, i))
			idx[n++] = sm.node2mesh[i];
	if (n && !mesh_metrics_compute(sm.conf->topo, idx, n, &m)) {
		xstrfmtcat(c, "%salloc=%s bbox=%dx%dx%d sumdist=%" PRIu64 " avgdist=%.2f diam=%d%s",
			   MESH_COMMENT_PREFIX, _placed_by(job_ptr),
			   m.bbox[0], m.bbox[1], m.bbox[2], m.sum_pairwise,
			   m.avg_pairwise, m.diameter, _shape_note(job_ptr));
		sm_jobinfo_set_placement(job_ptr,
					 c + strlen(MESH_COMMENT_PREFIX));
		ours = mesh_comment_replace(job_ptr->system_comment, c);
		if (ours) {
			xfree(job_ptr->system_comment);
			job_ptr->system_comment = xstrdup(ours);
			free(ours);
		}
		log_flag(SELECT_TYPE, "%s: %pJ %s: %s", plugin_type, job_ptr,
			 why, job_ptr->system_comment);
	}
	xfree(c);
	xfree(idx);
}
