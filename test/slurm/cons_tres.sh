#!/usr/bin/env bash
# cons_tres.sh - issue 39 items 1, 2 and 5: select/mesh over cons_tres
# (SelectTypeParameters=CR_Core_Memory,OTHER_CONS_TRES) against plain
# select/cons_tres (CR_Core_Memory), two 4x4 clusters side by side with
# the same configuration: 4 CPUs, 4000 MB and Gres=gpu:2 (File= links to
# /dev/null) per node, DefMemPerCPU=500, a partition gpu (OverSubscribe=NO:
# jobs share nodes, never cores) and a partition high that preempts it
# (preempt/partition_prio, REQUEUE).  Every check runs on both clusters
# and prints both answers:
#   - a stream of eight GRES / memory / task jobs (--gres=gpu:k,
#     --gpus-per-node, --mem, -n/-c, --exclusive; each with -N, so that
#     the GRES counts are the request's): all run under both,
#     no CPU, GPU or memory is given twice, the per-job GRES counts are
#     the same, and the mean pairwise distance of the jobs' nodes is lower
#     over select/mesh (mc1x1);
#   - CUDA_VISIBLE_DEVICES in a step is the GPU cons_tres allocated;
#   - filling the free GPUs with one-GPU jobs: as many run as free GPUs,
#     CPUs and memory allow, the next waits, no GPU is given twice, nodes
#     are shared;
#   - WILL_RUN (sbatch --test-only) and backfill's planned start of a
#     waiting job: both clusters plan it, at about the same time;
#   - a high-partition job preempts and runs; no overlap afterwards;
#   - resize: scontrol update NumNodes=2 keeps 2 nodes, and over
#     select/mesh SystemComment and squeue's PLACEMENT follow the kept
#     nodes, also after a slurmctld restart;
#   - slurmctld restart and scontrol reconfigure: running jobs keep their
#     nodes and GPUs, new jobs never overlap them.
. "$(dirname "$0")/lib.sh"
mesh_not_on 2411 "SelectTypeParameters=OTHER_CONS_TRES is gone since Slurm 24.05 (fatal at parse); over cons_tres, 24.11 places through topology/mesh (topology_eval.sh, topology_mesh.sh)"
mesh_setup cons_tres

common=(--gres gpu:2 --node-params "CPUs=4 RealMemory=4000"
    --extra-slurm-conf "SlurmdParameters=config_overrides"
    --extra-slurm-conf "DefMemPerCPU=500"
    --extra-slurm-conf "PreemptType=preempt/partition_prio"
    --extra-slurm-conf "PreemptMode=REQUEUE"
    --extra-slurm-conf "PartitionName=gpu Nodes=n[0-15] MaxTime=INFINITE State=UP OverSubscribe=NO PriorityTier=1"
    --extra-slurm-conf "PartitionName=high Nodes=n[0-15] MaxTime=INFINITE State=UP OverSubscribe=NO PriorityTier=10")
M="$work/mesh" C="$work/tres"
start_bg "$M" --select select/mesh --allocator mc1x1 "${common[@]}" \
    --extra-slurm-conf "SelectTypeParameters=CR_Core_Memory,OTHER_CONS_TRES"
start_bg "$C" --select select/cons_tres "${common[@]}" \
    --extra-slurm-conf "SelectTypeParameters=CR_Core_Memory"
wait_started || { mesh_finish; exit 1; }
grep -q "select/mesh: Mesh/torus node selection plugin loaded (plugin_id 190) over select/cons_tres" \
    "$M/log/slurmctld.log" && pass "select/mesh loaded over select/cons_tres" \
    || fail "no 'loaded ... over select/cons_tres' line in slurmctld.log"

sub() {   # dir sbatch-args...: job id
    local d=$1
    shift
    (cd "$work/jobs" && on "$d" sbatch --parsable -o /dev/null -p gpu -t 5 "$@" | cut -d';' -f1)
}
field() { field_on "$@"; }
wait_run() { wait_run_on "$@"; }

# One line per job and node: "job node cpu_ids gres_idx mem" from
# scontrol -d (e.g. "Nodes=n[0-1] CPU_IDs=0-1 Mem=1000 GRES=gpu:1(IDX:0)").
alloc() {   # dir jobid...
    local d=$1 j line nl cpus mem idx n
    shift
    for j in "$@"; do
        on "$d" scontrol -d show job "$j" 2>/dev/null | grep -E '^ +Nodes=' |
            while read -r line; do
                nl=$(echo "$line" | sed -n 's/.*Nodes=\([^ ]*\).*/\1/p')
                cpus=$(echo "$line" | sed -n 's/.*CPU_IDs=\([^ ]*\).*/\1/p')
                mem=$(echo "$line" | sed -n 's/.*Mem=\([0-9]*\).*/\1/p')
                idx=$(echo "$line" | sed -n 's/.*IDX:\([^)]*\)).*/\1/p')
                for n in $(on "$d" scontrol show hostnames "$nl"); do
                    echo "$j $n ${cpus:--} ${idx:--} ${mem:-0}"
                done
            done
    done
}

# Expand "0-2,5" to one number a line.
expand() { echo "$1" | tr ',' '\n' | awk -F- '$1 != "-" { e = ($2 == "") ? $1 : $2; for (i = $1; i <= e; i++) print i }'; }

# No CPU or GPU index twice on a node, no node's memory exceeded (4000).
no_double() {   # allocfile
    local bad
    bad=$(while read -r j n c g m; do
            expand "$c" | sed "s/^/$n cpu /"
            [ "$g" = - ] || expand "$g" | sed "s/^/$n gpu /"
          done <"$1" | sort | uniq -d)
    bad+=$(awk '{ m[$2] += $5 } END { for (n in m) if (m[n] > 4000) printf " %s:mem=%d", n, m[n] }' "$1")
    [ -z "$bad" ] || { echo "  given twice: $bad"; return 1; }
}

# Mean over jobs (>= 2 nodes) of the mean pairwise Manhattan distance of
# their nodes on the 4x4 (n<i> at x = i % 4, y = i / 4).
mean_dist() {   # allocfile
    awk '{ i = substr($2, 2); if (!(($1, i) in seen)) { seen[$1, i] = 1; k = cnt[$1]++; x[$1, k] = i % 4; y[$1, k] = int(i / 4) } }
         END { for (j in cnt) { n = cnt[j]; if (n < 2) continue; s = 0; p = 0
                 for (a = 0; a < n; a++) for (b = a + 1; b < n; b++) {
                     dx = x[j, a] - x[j, b]; dy = y[j, a] - y[j, b]
                     s += (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy); p++ }
                 tot += s / p; jobs++ }
               printf "%.3f %d\n", jobs ? tot / jobs : 0, jobs }' "$1"
}

# GPUs per job: "job count", from the allocation lines.
gpus_per_job() { awk '$4 != "-" { n = split($4, r, ","); for (i = 1; i <= n; i++) { split(r[i], e, "-"); c[$1] += (e[2] == "" ? 1 : e[2] - e[1] + 1) } } END { for (j in c) print j, c[j] }' "$1"; }

# ---------------------------------------------------------------- stream
stream=("-N4 --gres=gpu:1 -n4" "-N2 --gres=gpu:1" "-N3 --gpus-per-node=1 -c2"
    "-N4 --mem=2000" "-N2 -n8 -c1 --gres=gpu:1" "-N2 --exclusive"
    "-N5 --gres=gpu:1" "-N1 --gres=gpu:1 -c4")
for d in "$M" "$C"; do
    ids=()
    for s in "${stream[@]}"; do
        # shellcheck disable=SC2086  # the job's options
        ids+=("$(sub "$d" $s --wrap 'sleep 300')")
    done
    echo "${ids[*]}" >"$d.ids"
    if wait_run "$d" 40 "${ids[@]}"; then
        pass "${d##*/}: the 8 stream jobs run"
    else
        fail "${d##*/}: stream jobs not all RUNNING: $(for j in "${ids[@]}"; do printf '%s:%s ' "$j" "$(field "$d" "$j" JobState)"; done)"
    fi
    alloc "$d" "${ids[@]}" >"$d.alloc"
    no_double "$d.alloc" && pass "${d##*/}: no CPU, GPU or memory given twice" \
        || fail "${d##*/}: resources given twice"
done
read -r -a mids <"$M.ids"
read -r -a cids <"$C.ids"
i=0
for s in "${stream[@]}"; do
    printf '  %-28s mesh %-4s %-14s %-28s | cons_tres %-4s %-14s\n' "$s" "${mids[$i]}" \
        "$(field "$M" "${mids[$i]}" NodeList)" \
        "$(on "$M" scontrol -o show job "${mids[$i]}" | sed -n 's/.* SystemComment=mesh:v1 alloc=[^ ]* \(bbox=[^ ]*\).*avgdist=\([^ ]*\).*/\1 avgdist=\2/p')" \
        "${cids[$i]}" "$(field "$C" "${cids[$i]}" NodeList)"
    i=$((i + 1))
done
# Same GPU counts per job, in submission order.
gm=$(gpus_per_job "$M.alloc" | sort -n | awk '{ print $2 }' | paste -sd' ')
gc=$(gpus_per_job "$C.alloc" | sort -n | awk '{ print $2 }' | paste -sd' ')
[ -n "$gm" ] && [ "$gm" = "$gc" ] && pass "same GPUs per job: $gm" \
    || fail "GPUs per job: mesh '$gm', cons_tres '$gc'"
read -r dm nm < <(mean_dist "$M.alloc")
read -r dc nc < <(mean_dist "$C.alloc")
echo "  mean pairwise distance of the multi-node jobs: select/mesh over cons_tres $dm ($nm jobs), select/cons_tres $dc ($nc jobs)"
awk -v a="$dm" -v b="$dc" 'BEGIN { exit !(a < b) }' \
    && pass "mean pairwise distance lower over select/mesh: $dm < $dc" \
    || fail "mean pairwise distance: mesh $dm, cons_tres $dc"

# --------------------------------------------------- CUDA_VISIBLE_DEVICES
for d in "$M" "$C"; do
    j=$(sub "$d" -N1 --gres=gpu:1 -o "$work/jobs/cvd-${d##*/}.out" \
        --wrap 'srun --gres=gpu:1 printenv CUDA_VISIBLE_DEVICES; sleep 60')
    wait_run "$d" 30 "$j" || true
    sleep 2
    idx=$(alloc "$d" "$j" | awk '{ print $4 }')
    got=$(cat "$work/jobs/cvd-${d##*/}.out" 2>/dev/null)
    echo "  ${d##*/}: job $j on $(field "$d" "$j" NodeList) GPU IDX $idx, step CUDA_VISIBLE_DEVICES=$got"
    [ -n "$idx" ] && [ "$got" = "$idx" ] \
        && pass "${d##*/}: the step's CUDA_VISIBLE_DEVICES is the GPU cons_tres allocated ($idx)" \
        || fail "${d##*/}: CUDA_VISIBLE_DEVICES '$got', allocated GPU '$idx'"
    echo "$j" >>"$d.ids.more"
done

# ------------------------------------------------------- fill the GPUs
# One-GPU, one-CPU, 100 MB jobs a node still takes: the least of its
# free GPUs, CPUs and memory / 100 (4 CPUs, 2 GPUs, 4000 MB per node).
capacity() {   # allocfile
    awk 'function cnt(s,   n, r, i, e, c) { if (s == "-") return 0; n = split(s, r, ",")
             for (i = 1; i <= n; i++) { split(r[i], e, "-"); c += (e[2] == "" ? 1 : e[2] - e[1] + 1) }; return c }
         { cpu[$2] += cnt($3); gpu[$2] += cnt($4); mem[$2] += $5 }
         END { for (i = 0; i < 16; i++) { n = "n" i; f = 4 - cpu[n]; g = 2 - gpu[n]; m = int((4000 - mem[n]) / 100)
                 if (g < f) f = g; if (m < f) f = m; if (f > 0) t += f }
               print t + 0 }' "$1"
}
# run, pend: how many of ids[] on cluster d run and wait.
count_states() {
    local j
    run=0 pend=0
    for j in "${ids[@]}"; do
        case $(field "$d" "$j" JobState) in RUNNING) run=$((run + 1)) ;; PENDING) pend=$((pend + 1)) ;; esac
    done
}
all_fit() { count_states; [ "$run" -ge "$free" ]; }
for d in "$M" "$C"; do
    alloc "$d" $(on "$d" squeue -h -t R -o '%i') >"$d.before-fill"
    free=$(capacity "$d.before-fill")
    ids=()
    for ((i = 0; i <= free; i++)); do
        ids+=("$(sub "$d" -N1 -n1 --gres=gpu:1 --mem=100 --wrap 'sleep 300')")
    done
    # Until as many run as there is room for (a loaded machine can take
    # a few scheduler passes), then two more passes: the last must wait.
    wait_until 30 all_fit || true
    sleep 4
    count_states
    read -r -a all <"$d.ids"
    all+=("${ids[@]}" $(cat "$d.ids.more"))
    alloc "$d" "${all[@]}" >"$d.fill"
    shared=$(awk '{ print $1, $2 }' "$d.fill" | sort -u | awk '{ c[$2]++ } END { for (n in c) if (c[n] > 1) k++; print k + 0 }')
    echo "  ${d##*/}: room for $free one-GPU jobs; $((free + 1)) submitted: $run run, $pend wait; $shared nodes shared by jobs"
    [ "$run" -eq "$free" ] && [ "$pend" -eq 1 ] && pass "${d##*/}: as many one-GPU jobs run as the free GPUs, CPUs and memory allow ($free), the next waits" \
        || fail "${d##*/}: $run of $((free + 1)) one-GPU jobs run with room for $free"
    no_double "$d.fill" && [ "$shared" -gt 0 ] \
        && pass "${d##*/}: nodes shared by jobs ($shared), no GPU or CPU given twice" \
        || fail "${d##*/}: overlap, or no node shared ($shared)"
    echo "${ids[@]}" >"$d.fill.ids"
done

# --------------------------------------------- WILL_RUN and backfill plans
for d in "$M" "$C"; do
    out=$(cd "$work/jobs" && on "$d" sbatch --test-only -p gpu -t 5 -N2 --gres=gpu:2 --wrap true 2>&1)
    t=$(echo "$out" | sed -n 's/.* to start at \([^ ]*\) .*/\1/p')
    echo "  ${d##*/}: sbatch --test-only -N2 --gres=gpu:2: $out"
    [ -n "$t" ] && date -d "$t" +%s >"$d.willrun" \
        && pass "${d##*/}: WILL_RUN gives a start time" || fail "${d##*/}: WILL_RUN: $out"
    w=$(sub "$d" -N2 --gres=gpu:2 --wrap 'sleep 10')
    echo "$w" >"$d.waiter"
done
# bf_interval=1, but on two loaded cores a backfill cycle can come late:
# wait up to 60 s for the plan rather than a fixed few seconds.
for d in "$M" "$C"; do
    w=$(cat "$d.waiter")
    planned() { st=$(on "$d" squeue -h -j "$w" -o '%S'); case "$st" in 20*) ;; *) false ;; esac; }
    wait_until 60 planned || true
    echo "  ${d##*/}: backfill plans the waiting -N2 --gres=gpu:2 job $w at $st"
    case "$st" in
        20*) date -d "$st" +%s >"$d.planned"; pass "${d##*/}: backfill plans job $w" ;;
        *) fail "${d##*/}: job $w has no planned start ('$st')" ;;
    esac
done
if [ -s "$M.willrun" ] && [ -s "$C.willrun" ]; then
    delta=$(( $(cat "$M.willrun") - $(cat "$C.willrun") ))
    [ "${delta#-}" -le 90 ] && pass "WILL_RUN start times agree within 90 s (mesh - cons_tres = ${delta} s)" \
        || fail "WILL_RUN: mesh $(cat "$M.willrun"), cons_tres $(cat "$C.willrun")"
fi

# ----------------------------------------------------------- preemption
for d in "$M" "$C"; do
    h=$(cd "$work/jobs" && on "$d" sbatch --parsable -o /dev/null -p high -t 5 -N2 --gres=gpu:2 --wrap 'sleep 300')
    if wait_run "$d" 40 "$h"; then
        v=$(grep -c "preempted JobId=[0-9]* has been requeued" "$d/log/slurmctld.log")
        echo "  ${d##*/}: high job $h runs on $(field "$d" "$h" NodeList) after preempting $v job(s)"
        pass "${d##*/}: the high-partition job preempts and runs"
    else
        fail "${d##*/}: high job $h is $(field "$d" "$h" JobState) ($(field "$d" "$h" Reason))"
    fi
    echo "$h" >"$d.high"
done
sleep 3
for d in "$M" "$C"; do
    alloc "$d" $(on "$d" squeue -h -t R -o '%i') >"$d.after"
    no_double "$d.after" && pass "${d##*/}: after preemption, no CPU, GPU or memory given twice" \
        || fail "${d##*/}: overlap after preemption"
done
# The victim search keeps the fit by subtraction; DebugFlags=SelectType
# checks every try against a rebuild and logs a difference.
tries=$(grep -c "preempts [0-9]* of [0-9]* candidate(s) after" "$M/log/slurmctld.log")
if grep -q "differs from a rebuild" "$M/log/slurmctld.log"; then
    fail "the fit kept by subtraction: $(grep -m1 "differs from a rebuild" "$M/log/slurmctld.log")"
elif [ "$tries" -gt 0 ]; then
    pass "the fit kept by subtraction equals a rebuild at every try ($tries search(es) logged)"
else
    fail "no victim search logged"
fi

# --------------------------------------------------------------- resize
for d in "$M" "$C"; do
    on "$d" scancel -p gpu
done
sleep 4
for d in "$M" "$C"; do
    r=$(sub "$d" -N4 --gres=gpu:1 --wrap 'sleep 300')
    wait_run "$d" 30 "$r" || fail "${d##*/}: job $r to resize does not run"
    before=$(field "$d" "$r" NodeList)
    on "$d" scontrol update JobId="$r" NumNodes=2 >/dev/null 2>&1
    sleep 1
    after=$(field "$d" "$r" NodeList)
    echo "  ${d##*/}: job $r resized from $before to $after"
    [ "$(on "$d" scontrol show hostnames "$after" | wc -l)" -eq 2 ] \
        && pass "${d##*/}: job $r keeps 2 nodes after NumNodes=2" || fail "${d##*/}: job $r holds $after"
    echo "$r" >"$d.resized"
done
r=$(cat "$M.resized")
want=$(on "$M" scontrol -o show job "$r" | sed -n 's/.*NodeList=\([^ ]*\).*/\1/p')
placement() { on "$M" squeue -h -j "$r" -O SelectJobInfo:80 | sed 's/ *$//'; }
comment() { on "$M" scontrol -o show job "$r" | sed -n 's/.*SystemComment=\(mesh:v1 [^=]*=[^ ]* [^ ]* [^ ]* [^ ]* [^ ]*\).*/\1/p'; }
# Two nodes: bbox up to 4x4, sumdist = avgdist = diam (one pair).
check_resized() {   # when
    local c p
    c=$(comment) p=$(placement)
    echo "  after $1: SystemComment '$c', PLACEMENT '$p'"
    echo "$c" | matches -E 'sumdist=([0-9]+) avgdist=\1\.00 diam=\1' && [ "${c#mesh:v1 }" = "$p" ] \
        && pass "select/mesh: placement text of job $r follows the resize to $want ($1)" \
        || fail "select/mesh: placement text of resized job $r ($1): '$c' / '$p'"
}
check_resized resize
"$CLUSTER" restart-ctld --dir "$M" >/dev/null 2>&1 || fail "select/mesh: slurmctld restart"
check_resized "slurmctld restart"

# ------------------------------------------------- restart and reconfigure
"$CLUSTER" restart-ctld --dir "$C" >/dev/null 2>&1 || fail "cons_tres: slurmctld restart"
for d in "$M" "$C"; do
    on "$d" scontrol reconfigure >/dev/null 2>&1 || fail "${d##*/}: scontrol reconfigure"
    sleep 2
    [ "$(field "$d" "$(cat "$d.resized")" JobState)" = RUNNING ] \
        && pass "${d##*/}: the resized job runs on after restart and reconfigure" \
        || fail "${d##*/}: resized job $(cat "$d.resized") is $(field "$d" "$(cat "$d.resized")" JobState)"
    ids=()
    for i in 1 2 3 4; do ids+=("$(sub "$d" -N2 --gres=gpu:2 --wrap 'sleep 300')"); done
    sleep 4
    alloc "$d" $(on "$d" squeue -h -t R -o '%i') >"$d.last"
    no_double "$d.last" && pass "${d##*/}: after restart and reconfigure, new jobs ($(on "$d" squeue -h -t R | wc -l) running) overlap nothing" \
        || fail "${d##*/}: overlap after restart and reconfigure"
    on "$d" scontrol ping | matches 'is UP' || fail "${d##*/}: slurmctld died"
done
mesh_finish
