#!/usr/bin/env bash
# topology_mesh_gres.sh - issue 9.2, the GRES case: select/cons_tres plus
# topology/mesh with GRES defined in gres.conf (cluster.sh --gres
# gpu:2,bw:4; bw is Count only, gpu has File= links to /dev/null because
# Slurm 22.05's slurmd drops a GPU without File=).  Four -N4 --gres=gpu:1
# jobs on the empty 4x4 get the Hilbert 2x2 blocks, no node is drained,
# the GPUs are counted and allocated, and requests beyond a node's count
# are refused.  The checks live in topology_mesh.sh (case cons_tres-gres).
exec bash "$(dirname "$0")/topology_mesh.sh" cons_tres-gres
