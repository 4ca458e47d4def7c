#!/bin/bash
# check_matrix.sh - the feasibility matrix (issue 35): meshsim under every
# scheduler x every allocator x every runtime model (conservative-count
# without the PFS model), plus the queue and
# walltime policies, on generated workloads with I/O nodes, tori and 3D
# meshes (and a slice of the NASA trace when ../shared is present).  Each
# run's --jobs-csv is checked by meshcheck, which shares no code with
# meshsim, against the run's --summary and its trace.
#
#   check_matrix.sh [--quick]
#
# --quick (what make check runs): conservative backfilling only, every
# allocator, trace and contention models, one workload.  The whole matrix
# is make check-matrix.  MATRIX_JOBS (default 2) runs that many at once.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
meshsim=${MESHSIM:-$top/src/meshsim/meshsim}
gen=${MESHGEN:-$top/src/meshgen/meshsim-gen}
checker=${MESHCHECK:-$top/contrib/check/meshcheck}
shared=${SHARED_DIR:-$top/../shared}
quick=0
[ "${1:-}" = --quick ] && quick=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
started=$SECONDS

# Workloads: name, mesh, meshsim options, trace, attributes.  Every
# seventh job gets runtime 0 (placed and freed at once), the case that
# broke conservative backfilling.
zero_every_7() { awk '/^;/ || NR % 7 { print; next } { $4 = 0; print }' "$1"; }
"$gen" --workload mache --jobs 200 --seed 11 --nodes 62 --interarrival 1200 \
	--swf "$tmp/mache.raw" --attrs "$tmp/mache.attrs" 2>/dev/null
zero_every_7 "$tmp/mache.raw" >"$tmp/mache.swf"
"$gen" --workload ozden --jobs 200 --seed 12 --nodes 64 --interarrival 200 \
	--swf "$tmp/ozden.raw" --attrs "$tmp/ozden.attrs" 2>/dev/null
zero_every_7 "$tmp/ozden.raw" >"$tmp/ozden.swf"
"$gen" --workload bluegene --jobs 200 --seed 13 --nodes 64 \
	--interarrival 2000 --swf "$tmp/bg.raw" 2>/dev/null
zero_every_7 "$tmp/bg.raw" >"$tmp/bg.swf"
{
	echo "mache|8x8|--io-nodes 0,0;7,7 --job-attrs $tmp/mache.attrs|$tmp/mache.swf"
	if [ $quick -eq 0 ]; then
		echo "ozden|8tx8t|--io-nodes 0,0;4,4 --io-nodes-compute --job-attrs $tmp/ozden.attrs|$tmp/ozden.swf"
		echo "bluegene|4x4x4|--comm nearest --comm-share 0.5|$tmp/bg.swf"
		nasa=$shared/traces/NASA-iPSC-1993-3.1-cln.swf
		if [ -r "$nasa" ]; then
			awk '/^;/ || n++ < 1500' "$nasa" >"$tmp/nasa.swf"
			echo "nasa|16x8|--comm all-to-all --comm-share 0.3|$tmp/nasa.swf"
		fi
	fi
} >"$tmp/workloads"

allocators=$("$meshsim" --list-allocators | awk '{ print $1 }')
allocators="$allocators sl:contig-ff sl:hilbert-bf sl:mm"
if [ $quick -eq 1 ]; then
	scheds="conservative"
	models="trace contention"
else
	scheds="fcfs easy conservative conservative-count"
	models="trace contention pfs"
fi
# The policies, each on a few allocators (the rest of the matrix runs
# the defaults: FCFS priority, user estimates, no pairing).
policies=("--priority wfp" "--priority ozden --alpha 0.5"
	"--paired-filling" "--paired-filling --spatial-estimate adjusted"
	"--spatial-estimate actual" "--estimate exact" "--load 0.5"
	"--skip-zero-runtime" "--limit-quantum 60"
	"--comm one-to-all --comm-share 0.4 --load 1.5"
	"--comm chain --comm-share 0.4 --load 2")

# One line per run: workload|mesh|options|trace|allocator|scheduler|model|policy
while IFS='|' read -r w mesh opts trace; do
	for s in $scheds; do
		for m in $models; do
			# the count scheduler's overruns are the contention
			# model's; the PFS model adds nothing for it
			[ "$s" = conservative-count ] && [ "$m" = pfs ] && continue
			for a in $allocators; do
				echo "$w|$mesh|$opts|$trace|$a|$s|$m|"
			done
			[ $quick -eq 1 ] && continue
			for p in "${policies[@]}"; do
				for a in contig-ff sl:contig-ff mc1x1; do
					echo "$w|$mesh|$opts|$trace|$a|$s|$m|$p"
				done
			done
		done
	done
done <"$tmp/workloads" >"$tmp/runs"

# The promise a run's policy makes, checked from its outputs: FCFS (queue
# in submit order, no pairing) starts no job before one submitted earlier
# (meshcheck sees only the jobs CSV; the trace order breaks ties); EASY
# under the trace model, where no job outlives its estimate, starts no
# head after the shadow computed when it became head (the summary's
# late_heads, meshsim's own count); conservative-count under the trace
# model starts no job after its first reservation (late_reserved).
# Prints "kept", "none" (no promise applies) or the broken promise.
promise() {
	local s=$1 m=$2 p=$3 out=$4
	case "$p" in *priority* | *paired* | *estimate\ exact*) echo none; return ;; esac
	if [ "$s" = fcfs ]; then
		sort -t, -k2,2g -k1,1n "$out.csv" | awk -F, 'NR > 1 && $1 != "job_id" {
			if ($3 + 0 < last) { print "job " $1 " started at " $3 " before " lastid " (" last "), submitted earlier"; bad = 1; exit }
			last = $3 + 0; lastid = $1 } END { if (!bad) print "kept" }'
	elif [ "$s" = easy ] && [ "$m" = trace ]; then
		grep -q '"late_heads": 0,$' "$out.json" && echo kept ||
			echo "EASY: $(grep -E '"(late_heads|max_head_delay)"' "$out.json" | tr -d ' \n')"
	elif [ "$s" = conservative-count ] && [ "$m" = trace ]; then
		grep -q '"late_reserved": 0,$' "$out.json" && echo kept ||
			echo "conservative-count: $(grep -E '"(late_reserved|max_reserved_delay)"' "$out.json" | tr -d ' \n')"
	else
		echo none
	fi
}

# One run: meshsim (stopped after MATRIX_RUN_LIMIT s, default 120: a run
# that does not end is a failure of liveness), meshcheck, then the
# policy's promise.  Prints "ok kept|none", "n/a" (the allocator does
# not take this mesh or scheduler: meshsim refuses it) or "FAIL ..."
# on one line.
run_one() {
	local n=$1 line=$2 w mesh opts trace a s m p out rc kept
	IFS='|' read -r w mesh opts trace a s m p <<<"$line"
	out=$tmp/run$n
	# shellcheck disable=SC2086
	timeout "${MATRIX_RUN_LIMIT:-120}" "$meshsim" --mesh "$mesh" $opts \
		--allocator "$a" --scheduler "$s" \
		--runtime-model "$m" $p --jobs-csv "$out.csv" \
		--summary "$out.json" "$trace" >/dev/null 2>"$out.err"
	rc=$?
	if { [ $rc -eq 2 ] && grep -q "^meshsim: --allocator: " "$out.err"; } ||
		{ [ $rc -eq 1 ] && grep -q "conservative-count reserves node counts" "$out.err"; }; then
		echo "n/a $line"
	elif [ $rc -eq 124 ]; then
		echo "FAIL liveness: not ended after ${MATRIX_RUN_LIMIT:-120} s: $line"
	elif [ $rc -ne 0 ]; then
		echo "FAIL meshsim exit $rc: $line: $(head -c 300 "$out.err")"
	elif ! "$checker" --quiet --summary "$out.json" --trace "$trace" \
		"$out.csv" >"$out.chk" 2>&1; then
		echo "FAIL meshcheck: $line: $(head -c 600 "$out.chk")"
	elif kept=$(promise "$s" "$m" "$p" "$out") && [ "$kept" != kept ] && [ "$kept" != none ]; then
		echo "FAIL promise: $line: $kept"
	else
		echo "ok $kept $line"
	fi
	rm -f "$out".*
}
export -f run_one promise
export meshsim checker tmp
nl -ba -w1 -s'|' "$tmp/runs" |
	while IFS='|' read -r n rest; do printf '%s\0%s\0' "$n" "$rest"; done |
	xargs -0 -n 2 -P "${MATRIX_JOBS:-2}" bash -c 'run_one "$0" "$1"' \
		>"$tmp/results"

total=$(wc -l <"$tmp/results")
ok=$(grep -c '^ok ' "$tmp/results")
na=$(grep -c '^n/a ' "$tmp/results")
failed=$(grep -c '^FAIL' "$tmp/results")
live=$((total - na - $(grep -c '^FAIL liveness' "$tmp/results")))
promised=$(grep -c '^ok kept \|^FAIL promise' "$tmp/results")
kept=$(grep -c '^ok kept ' "$tmp/results")
grep '^FAIL' "$tmp/results" | head -20
echo "check_matrix: $total runs ($(wc -l <"$tmp/workloads") workloads):" \
	"$ok feasible by meshcheck, $na not applicable, $live of" \
	"$((total - na)) live, promises kept in $kept of $promised," \
	"$failed failed, $((SECONDS - started)) s"
[ "$failed" -eq 0 ] && [ "$ok" -gt 0 ]
