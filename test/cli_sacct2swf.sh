#!/bin/bash
# cli_sacct2swf.sh - sacct2swf on the command line: a dump read from a file
# and from standard input gives the same trace, which meshsim replays and
# filters by status and partition; each bad dump and bad option exits
# non-zero with file:line:field and leaves an existing output as it was.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${TOP_BUILDDIR:-$top}
conv=${SACCT2SWF:-$build/src/sacct2swf/sacct2swf}
meshsim=${MESHSIM:-$build/src/meshsim/meshsim}
. "$top/test/cli_lib.sh"

fields='JobIDRaw|Submit|Start|End|ElapsedRaw|TimelimitRaw|NNodes|ReqNodes|AllocCPUS|ReqCPUS|TotalCPU|State|Partition|UID|GID|NodeList'
cat >"$tmp/dump.txt" <<EOF
$fields
11|1000|1000|1100|100|5|2|2|8|8|00:00:00|COMPLETED|batch|1000|100|n[1-2]
11.batch|1000|1000|1100|100||1||4|4|00:00:00|COMPLETED||1000|100|n1
12|1010|1050|1070|20|5|4|4|16|16|00:00:00|FAILED|batch|1001|100|n[1-4]
13|1020|Unknown|1080|0|5|4|4|16|16|00:00:00|CANCELLED by 0|batch|1000|100|None assigned
14|1030|1100|1130|30|5|1|1|4|4|00:00:00|CANCELLED by 1000|debug|1002|100|n5
15|1040|1100|1200|100|UNLIMITED|3|3|12|12|00:00:00|TIMEOUT|debug|1000|100|n[6-8]
EOF

"$conv" --max-nodes 8 -o "$tmp/a.swf" "$tmp/dump.txt" 2>"$tmp/err"
check "a dump: exit 0" '[ $? -eq 0 ]'
check "the account on stderr: 4 jobs, 1 step, 1 never started" \
	'grep -q "6 records: 4 jobs written (COMPLETED 1 (1), FAILED 1 (0), TIMEOUT 1 (0), CANCELLED 1 (5)); skipped 1 steps, 0 unfinished, 1 never started" "$tmp/err"'
check "jobs in submit order, times from the first submit" \
	'[ "$(grep -v "^;" "$tmp/a.swf" | cut -d" " -f1-5 | tr "\n" "/")" = "11 0 0 100 2/12 10 40 20 4/14 30 70 30 1/15 40 60 100 3/" ]'
check "header: UnixStartTime, MaxNodes/MaxProcs, the partitions" \
	'grep -qx "; UnixStartTime: 1000" "$tmp/a.swf" && grep -qx "; MaxNodes: 8" "$tmp/a.swf" &&
	 grep -qx "; MaxProcs: 8" "$tmp/a.swf" && grep -qx "; Partition: 2 debug" "$tmp/a.swf"'
"$conv" -q --count cpus <"$tmp/dump.txt" >"$tmp/c.swf" 2>"$tmp/err"
check "--count cpus from stdin: AllocCPUS in field 5, quiet" \
	'[ ! -s "$tmp/err" ] && [ "$(grep -v "^;" "$tmp/c.swf" | cut -d" " -f5 | tr "\n" " ")" = "8 16 4 12 " ]'
"$conv" -q --max-nodes 8 - <"$tmp/dump.txt" >"$tmp/b.swf"
check "stdin ('-') and a file give the same jobs" \
	'diff <(grep -v "^;" "$tmp/a.swf") <(grep -v "^;" "$tmp/b.swf")'

"$meshsim" --mesh 4x2 --summary "$tmp/s.json" "$tmp/a.swf" >/dev/null 2>&1
check "meshsim replays the trace: 4 jobs" 'grep -q "^  \"jobs\": 4,$" "$tmp/s.json"'
"$meshsim" --mesh 4x2 --status completed,failed --partition 1 --summary "$tmp/s.json" "$tmp/a.swf" >/dev/null 2>&1
check "meshsim --status completed,failed --partition 1: 2 jobs, 2 filtered" \
	'grep -q "^  \"jobs\": 2,$" "$tmp/s.json" && grep -q "^  \"filtered\": 2,$" "$tmp/s.json" &&
	 grep -q "^  \"status_filter\": \[0, 1\],$" "$tmp/s.json" && grep -q "^  \"partition_filter\": \[1\],$" "$tmp/s.json"'
"$meshsim" --mesh 4x2 --status 5 --summary "$tmp/s.json" "$tmp/a.swf" >/dev/null 2>&1
check "meshsim --status 5: the cancelled job that ran" 'grep -q "^  \"jobs\": 1,$" "$tmp/s.json"'
"$meshsim" --mesh 4x2 --status 6 "$tmp/a.swf" >/dev/null 2>"$tmp/err"
check "meshsim --status 6: usage error" '[ $? -eq 2 ] && grep -q "^meshsim: --status: invalid value \"6\"" "$tmp/err"'
"$meshsim" --mesh 4x2 --partition 0 "$tmp/a.swf" >/dev/null 2>"$tmp/err"
check "meshsim --partition 0: usage error" '[ $? -eq 2 ] && grep -q "^meshsim: --partition: invalid value \"0\"" "$tmp/err"'

# Bad dumps: exit 1, file:line:field, the old output untouched.
bad() {   # label expected-message-prefix line-to-append-or-replace...
	local label=$1 want=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/bad.txt"
	echo "old" >"$tmp/out.swf"
	"$conv" -o "$tmp/out.swf" "$tmp/bad.txt" 2>"$tmp/err"
	local rc=$?
	check "$label: exit 1, \"$want\"" \
		'[ $rc -eq 1 ] && grep -qF "sacct2swf: $tmp/bad.txt:$want" "$tmp/err" && [ "$(cat "$tmp/out.swf")" = old ]'
}
row='11|1000|1000|1100|100|5|2|2|8|8|00:00:00|COMPLETED|batch|1000|100|n[1-2]'
bad "truncated line" "2:line: 9 fields, the header names 16" "$fields" '11|1000|1000|1100|100|5|2|2|8'
bad "time in another format" "2:Start: expected seconds since the epoch" "$fields" "${row/|1000|1000|/|1000|12/03 10:00|}"
bad "unknown state" "3:State: unknown job state \"DONE\"" "$fields" "$row" "${row/COMPLETED/DONE}"
bad "duplicate job" "3:JobIDRaw: job 11 again (line 2)" "$fields" "$row" "$row"
bad "no header (-n)" "1:header: the first line is a record" "$row"
bad "not --parsable2" "1:header: no '|' between fields" "JobIDRaw Submit Start End State NNodes"
bad "a field missing from --format" "1:header: no NNodes field" "JobIDRaw|Submit|Start|End|State"
printf '\037\213gz' >"$tmp/bad.txt"
"$conv" "$tmp/bad.txt" >/dev/null 2>"$tmp/err"
check "binary input: exit 1 with a located message" '[ $? -eq 1 ] && grep -q "bad.txt:1:header" "$tmp/err"'
"$conv" "$tmp/none.txt" >/dev/null 2>"$tmp/err"
check "a missing file: exit 1, cannot open" '[ $? -eq 1 ] && grep -q "none.txt: cannot open" "$tmp/err"'
"$conv" --count gpus "$tmp/dump.txt" >/dev/null 2>"$tmp/err"
check "--count gpus: usage error" '[ $? -eq 2 ] && grep -q "^sacct2swf: --count: invalid value \"gpus\"" "$tmp/err"'
"$conv" --max-nodes 8 --max-procs 16 "$tmp/dump.txt" >/dev/null 2>"$tmp/err"
check "--max-procs unlike --max-nodes under --count nodes: usage error" '[ $? -eq 2 ]'
"$conv" --max-nodes -3 "$tmp/dump.txt" >/dev/null 2>"$tmp/err"
check "--max-nodes -3: usage error" '[ $? -eq 2 ] && grep -q "expected a positive whole number" "$tmp/err"'
finish
