#!/bin/bash
# check_matrix_quick.sh - the fast subset of the feasibility matrix that
# make check runs (conservative backfilling, every allocator, the trace
# and contention models, one workload); make check-matrix runs it all.
exec "$(dirname "$0")/check_matrix.sh" --quick
