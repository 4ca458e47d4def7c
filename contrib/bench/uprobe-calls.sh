# uprobe-calls.sh - time a select plugin's select_p_job_test calls inside
# a running slurmctld with perf uprobes; sourced by preempt-lock.sh and
# willrun-cost.sh.  slurmctld holds its job and node locks around each
# call, so a call's wall time is time under those locks.
#
# The caller sets $work (a scratch directory) and an array probes=(),
# and removes "${probes[@]}" with 'perf probe -d' when it exits.  The
# probes add to every call's time, the same for every plugin: on the
# project's 2-core VM an entry and return probe pair around an empty
# function cost 19.8 us per call (2026-12-08).

# add_probes SO TAG: probes on select_p_job_test's entry, with its mode
# (the 6th argument, SELECT_MODE_*), and on its return.
add_probes() {   # so tag
    perf probe -q -x "$1" --add "pl$$_$2_in=select_p_job_test mode=%r9:u16" &&
        perf probe -q -x "$1" --add "pl$$_$2_out=select_p_job_test%return" ||
        { echo "perf probe failed on $1" >&2; return 1; }
    probes+=("probe_$(basename "$1" .so):pl$$_$2_*")
}

# probe_calls SO TAG PID MODE CMD...: the probed calls in mode MODE
# (0 RUN_NOW, 1 TEST_ONLY, 2 WILL_RUN) while PID runs CMD, entry and
# return paired by thread.  Prints "first calls max_us total_us" (first:
# the first call's wall time).
probe_calls() {   # so tag pid mode cmd...
    local lib=$1 tag=$2 pid=$3 want=$4 grp ev rec
    shift 4
    grp=probe_$(basename "$lib" .so)
    ev=pl$$_$tag
    rec=$work/$tag.perf
    perf record -q -o "$rec" -e "$grp:${ev}_in" -e "$grp:${ev}_out__return" -p "$pid" \
        >"$rec.log" 2>&1 &
    local perf_pid=$!
    sleep 1
    kill -0 "$perf_pid" 2>/dev/null || { cat "$rec.log" >&2; return 1; }
    "$@" || { kill -INT "$perf_pid"; wait "$perf_pid" || true; return 1; }
    kill -INT "$perf_pid"
    wait "$perf_pid" || true
    perf script -i "$rec" -F tid,time,event,trace 2>/dev/null | awk -v want="$want" '
        { t = $2; sub(/:$/, "", t); t *= 1e6 }
        $3 ~ /_in:$/ { begin[$1] = t; m = $0; sub(/.*mode=/, "", m); mode[$1] = m + 0; next }
        $3 ~ /_out/ && ($1 in begin) && mode[$1] == want {
            d = t - begin[$1]; delete begin[$1]
            if (!n++) first = d
            sum += d; if (d > max) max = d
        }
        END { printf "%.0f %d %.0f %.0f\n", first, n, max, sum }'
}
