/*
 * topology_common_2411.c - Slurm 24.11's topology/common, compiled from the
 * Slurm tree configure found, into topology/mesh, as Slurm links it into
 * each of its own topology plugins (libtopology_common.la).
 */
#include "src/plugins/topology/common/common_topo.c"
#include "src/plugins/topology/common/eval_nodes.c"
#include "src/plugins/topology/common/gres_filter.c"
#include "src/plugins/topology/common/gres_sched.c"
