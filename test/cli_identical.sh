#!/bin/bash
# cli_identical.sh - meshsim's outputs (the table, --summary, --jobs-csv
# and stderr, byte for byte, and the exit status) against those of the
# revision before issue 37's speed-ups, OLD_REV, built from git by
# contrib/bench/build-rev.sh: on a generated 3D trace with every
# allocator, on a torus, under conservative backfilling, paired filling
# and the contention model, on whole-machine jobs without --jobs-csv
# (where meshsim skips forced allocator calls), on a saturated queue
# under conservative backfilling, and on the NASA iPSC
# trace when ../shared is there.  The summary's "version" names each build's revision and is
# left out; meshsim prints no timings.
# Skipped (77) without git history (a tarball, a shallow clone).  When
# meshsim's output changes on purpose, OLD_REV has to move to a revision
# that prints the new output with the old code paths.
set -u
meshsim=${MESHSIM:-../src/meshsim/meshsim}
gen=${MESHGEN:-../src/meshgen/meshsim-gen}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cli_lib.sh"
old_rev=${OLD_REV:-2c3cfe7}
shared=${SHARED_DIR:-$here/../../shared}
nasa=$shared/traces/NASA-iPSC-1993-3.1-cln.swf
build=$(cd "$(dirname "$meshsim")/../.." && pwd)
meshsim=$(cd "$(dirname "$meshsim")" && pwd)/$(basename "$meshsim")

SRCDIR=$here/.. "$here/../contrib/bench/build-rev.sh" "$old_rev" "$tmp/old" \
	"$build" -O1
case $? in
0) ;;
77) exit 77 ;;
*)
	echo "FAIL: building meshsim of $old_rev"
	exit 1
	;;
esac

# The two runs' files in $tmp are the same (or both absent); names the
# first that differs.
outputs_match() (
	cd "$tmp" || exit
	for b in old new; do
		# the estimate warnings are new: the old build says nothing
		[ ! -e $b.err ] || sed -i '/requested time/d' $b.err
		[ ! -e $b.json ] || sed -i '/^  "version": /d; /^  "late_heads": /d; /^  "max_head_delay": /d; /^  "late_reserved": /d; /^  "max_reserved_delay": /d; /^  "estimate_no_request": /d; /^  "estimate_clamped": /d' $b.json
	done
	# new since: the share of jobs on a box and the tails (meshcheck
	# recomputes both), cores_per_node, arrival_scale, the
	# --status/--partition filters and the window
	[ ! -e new.out ] || sed -i '/^on a box (>=2) /d; /^wait p50\/p95\/p99\/max (s) /d; /^bsld p50\/p95\/p99\/max /d' new.out
	[ ! -e new.json ] || sed -i '/^  "box_share_multi": /d; /^  "cores_per_node": 1,$/d; /^  "filtered": 0,$/d; /^  "status_filter": null,$/d; /^  "partition_filter": null,$/d; /^  "window": null,$/d; /^  "warmup": 0,$/d; /^  "cooldown": 0,$/d; /^  "bootstrap": null,$/d; /^  "bootstrap_seed": 1,$/d; /^  "outside_window": 0,$/d; /^  "measured": [0-9]*,$/d; s/"refused": \([0-9]*\), "filtered": 0, "outside_window": 0, /"refused": \1, /; /^  "arrival_scale": /d; /^  "\(wait\|bsld\)_\(p50\|p95\|p99\|max\)": /d; s/^\(  "mean_avg_pairwise_multi": .*\),$/\1/' new.json
	for f in out err rc json csv; do
		cmp -s old.$f new.$f || { [ ! -e old.$f ] && [ ! -e new.$f ]; } ||
			{ echo "differs: $f" && exit 1; }
	done
)

# A contiguous allocator's never-placeable jobs are refused at submission
# now, where the old build held them at the queue's head until the mesh
# drained, and EASY reserves its head's placement, not a node count: its
# cases compare under conservative backfilling on the trace without them
# (the last argument), the jobs that this build places.
placeable_only() {
	local trace=${!#}
	(cd "$tmp" && "$meshsim" --jobs-csv kept.csv "$@" >/dev/null 2>&1)
	awk -F, 'NR == FNR { if (FNR > 1) keep[$1] = 1; next }
		/^;/ || ($1 in keep)' "$tmp/kept.csv" "$tmp/$trace" >"$tmp/placeable-$trace"
	rm -f "$tmp/kept.csv"
}

# same NAME ARGS...: both builds, run in $tmp on the same arguments,
# with --jobs-csv unless CSV=0; for contig-* allocators on the jobs it
# places (placeable_only).
same() {
	local name=$1 b m csv
	shift
	case " $* " in
	*" contig-"*)
		placeable_only "$@"
		set -- --scheduler conservative "${@:1:$#-1}" "placeable-${!#}"
		;;
	esac
	for b in old new; do
		[ $b = old ] && m=$tmp/old || m=$meshsim
		[ "${CSV:-1}" = 0 ] && csv=() || csv=(--jobs-csv $b.csv)
		(cd "$tmp" && "$m" --summary $b.json "${csv[@]}" "$@" \
			>$b.out 2>$b.err; echo $? >$b.rc)
	done
	check "$name" outputs_match
	rm -f "$tmp"/old.* "$tmp"/new.*
}

"$gen" --workload mache --jobs 1500 --nodes 512 --seed 3 --swf "$tmp/g.swf" \
	--attrs "$tmp/g.csv"
check "generated a 3D trace" '[ "$(grep -vc "^;" "$tmp/g.swf")" -eq 1500 ]'
io="0,0,0;0,4,0;0,0,4;0,4,4"
# the allocators both builds have (box-first is newer than OLD_REV)
for a in $("$tmp/old" --list-allocators | cut -d' ' -f1); do
	same "8x8x8, I/O nodes, job attributes: $a" --mesh 8x8x8 --io-nodes "$io" \
		--job-attrs g.csv --allocator "$a" g.swf
done
for a in hilbert-bf mc1x1 mm random contig-bf; do
	same "torus 8tx8tx8t: $a" --mesh 8tx8tx8t --allocator "$a" g.swf
done
for a in hilbert-bf mc1x1; do
	same "conservative, 8x8x8: $a" --mesh 8x8x8 --scheduler conservative \
		--allocator "$a" g.swf
	same "contention, 8x8x8: $a" --mesh 8x8x8 --runtime-model contention \
		--comm all-to-all --comm-share 0.3 --allocator "$a" g.swf
done
# A saturated queue whose requested times exceed the runtimes (mean
# wait about 23,000 s): conservative's scans start at the floor that the
# jobs planned before them in the pass prove (sim_sched.c, floor_of);
# a floor that ignored the estimates changed every one of these.
"$gen" --workload pods --jobs 600 --nodes 64 --interarrival 15 --seed 5 \
	--swf "$tmp/p.swf"
for a in hilbert-bf mc1x1 random; do
	for m in 8x8 8tx8t; do
		same "conservative, saturated $m: $a" --mesh $m \
			--scheduler conservative --allocator "$a" p.swf
	done
done
same "conservative, saturated 8x8: contig-ff" --mesh 8x8 --allocator contig-ff p.swf
same "paired filling, WFP, adjusted estimates: sl:mc1x1" --mesh 8x8x8 \
	--paired-filling --priority wfp --spatial-estimate adjusted \
	--allocator sl:mc1x1 g.swf

# Without --jobs-csv, a job that needs every free node takes them without
# an allocator call (src/mesh/sim_sched.c, forced()); the old build always
# asked.  Half of these jobs need the whole 8x8x8 mesh (whole.swf) or all
# of it but the four I/O nodes (whole_io.swf).
whole_machine() {
	awk -v whole="$1" 'BEGIN {
		srand(7)
		for (i = 1; i <= 400; i++) {
			k = rand() < 0.5 ? whole : 1 + int(rand() * 300)
			r = 10 + int(rand() * 900)
			printf "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 -1 1 -1 -1 -1\n",
				i, i * 60, r, k, k, r + int(rand() * 300)
		}
	}'
}
whole_machine 512 >"$tmp/whole.swf"
whole_machine 508 >"$tmp/whole_io.swf"
for a in mc1x1 hilbert-bf paging random genalg contig-ff; do
	CSV=0 same "whole-machine jobs, no --jobs-csv, 8x8x8: $a" --mesh 8x8x8 \
		--allocator "$a" whole.swf
done
for a in plas auto mc-elongated; do
	CSV=0 same "whole-machine jobs, no --jobs-csv, I/O nodes: $a" \
		--mesh 8x8x8 --io-nodes "$io" --allocator "$a" whole_io.swf
done
CSV=0 same "whole-machine jobs, no --jobs-csv, contention: mc1x1" \
	--mesh 8x8x8 --runtime-model contention --comm all-to-all \
	--comm-share 0.3 --allocator mc1x1 whole.swf

if [ -r "$nasa" ]; then
	cp "$nasa" "$tmp/nasa.swf"
	for a in hilbert-bf mc1x1 paging; do
		same "NASA iPSC on 16x8: $a" --mesh 16x8 --allocator "$a" nasa.swf
		CSV=0 same "NASA iPSC on 16x8, no --jobs-csv: $a" --mesh 16x8 \
			--allocator "$a" nasa.swf
	done
	same "NASA iPSC on 32x32: mc1x1" --mesh 32x32 --allocator mc1x1 nasa.swf
	same "NASA iPSC on 16tx8t: genalg" --mesh 16tx8t --allocator genalg \
		nasa.swf
else
	echo "NASA trace not found at $nasa: only the generated one compared"
fi
finish
