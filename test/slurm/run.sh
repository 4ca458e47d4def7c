#!/usr/bin/env bash
# run.sh - run the real-Slurm tests (make check-slurm), one at a time, and
# summarise.  Exit 0 if all passed, 77 if all were skipped (Slurm not
# installed), 1 otherwise.
here=$(cd "$(dirname "$0")" && pwd -P)
pass=() failed=() skipped=()
t_all=$SECONDS
for t in "$@"; do
    t0=$SECONDS
    echo "=== $t"
    bash "$here/$t"
    rc=$?
    case $rc in
        0) pass+=("$t") ;;
        77) skipped+=("$t") ;;
        *) failed+=("$t") ;;
    esac
    echo "=== $t: $( [ $rc -eq 0 ] && echo PASS || { [ $rc -eq 77 ] && echo SKIP || echo "FAIL (rc=$rc)"; })  $((SECONDS - t0))s"
done
echo "check-slurm: ${#pass[@]} passed, ${#failed[@]} failed, ${#skipped[@]} skipped in $((SECONDS - t_all))s"
[ "${#failed[@]}" -eq 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
[ "${#pass[@]}" -gt 0 ] || exit 77
exit 0
