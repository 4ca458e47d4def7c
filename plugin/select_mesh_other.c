/*****************************************************************************\
 *  select_mesh_other.c - the select plugin below select/mesh.
 *
 *  With SelectTypeParameters=OTHER_CONS_TRES (plus the usual CR_Core_Memory
 *  and friends), select/mesh layers over select/cons_tres the way
 *  select/cray_aries layers over the plugin other_select.c loads: the mesh
 *  allocator chooses which nodes, cons_tres chooses cores, memory and GRES
 *  within them and keeps everything else (job_resources, steps, nodeinfo).
 *  Without it there is no layer and select/mesh places whole nodes itself.
 *  The layer is loaded lazily, in every process that loads select/mesh
 *  (clients unpack node records through it), through Slurm's plugin
 *  context, with the symbol list of Slurm's select API.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <pthread.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/log.h"
#include "src/common/plugin.h"
#include "src/common/run_in_daemon.h"
#include "compat/compat.h"
#include "src/slurmctld/slurmctld.h"

#include "select_mesh.h"

/*
 * The select API's symbols, in the order of sm_layer_ops_t
 * (src/common/select.h).  libslurm's own list (node_select_syms) is not
 * exported by libslurm.so, which clients such as smesh link: a reference
 * to it would make select_mesh.so fail to load there.
 */
static const char *other_syms[] = {
	"plugin_id",
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
	"select_p_job_signal",
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
	"select_p_select_jobinfo_sprint",
	"select_p_select_jobinfo_xstrdup",
	"select_p_get_info_from_plugin",
	"select_p_update_node_config",
	"select_p_reconfigure",
	"select_p_resv_test",
};

/* One name per pointer of sm_layer_ops_t, or the build fails. */
_Static_assert(sizeof(other_syms) == sizeof(sm_layer_ops_t),
	       "other_syms must match sm_layer_ops_t");

static pthread_mutex_t other_lock = PTHREAD_MUTEX_INITIALIZER;
static plugin_context_t *other_ctx;
static sm_layer_ops_t other_ops;
static bool other_failed;

extern const char *sm_other_type(void)
{
	if (slurm_conf.select_type_param & CR_OTHER_CONS_TRES)
		return "select/cons_tres";
	return NULL;
}

/*
 * The layer's operations, loaded on first use; NULL without a layer.  A
 * layer that cannot be loaded is fatal in slurmctld (placing whole nodes
 * instead would hand cons_tres's jobs resources it never tracked) and an
 * error elsewhere.
 */
extern sm_layer_ops_t *sm_other(void)
{
	const char *type = sm_other_type();

	if ((slurm_conf.select_type_param & CR_OTHER_CONS_RES) &&
	    running_in_slurmctld())
		fatal("%s: SelectTypeParameters=OTHER_CONS_RES is not supported; select/mesh layers over select/cons_tres (OTHER_CONS_TRES) or places whole nodes itself",
		      plugin_type);
	if (!type)
		return NULL;
	slurm_mutex_lock(&other_lock);
	if (!other_ctx && !other_failed) {
		other_ctx = plugin_context_create("select", type,
						  (void **) &other_ops,
						  other_syms,
						  sizeof(other_syms));
		if (!other_ctx) {
			other_failed = true;
			if (running_in_slurmctld())
				fatal("%s: cannot load %s, the layer that SelectTypeParameters=OTHER_CONS_TRES puts below select/mesh",
				      plugin_type, type);
			error("%s: cannot load %s (SelectTypeParameters=OTHER_CONS_TRES)",
			      plugin_type, type);
		}
	}
	slurm_mutex_unlock(&other_lock);
	return other_ctx ? &other_ops : NULL;
}

extern void sm_other_fini(void)
{
	slurm_mutex_lock(&other_lock);
	if (other_ctx)
		plugin_context_destroy(other_ctx);
	other_ctx = NULL;
	other_failed = false;
	slurm_mutex_unlock(&other_lock);
}
