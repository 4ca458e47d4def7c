# cli_lib.sh - sourced by the cli_*.sh tests: a scratch directory $tmp,
# removed on exit; check NAME 'COMMAND' (evaluated; PASS if it succeeds),
# ok NAME and ko NAME count passes and failures; finish prints the counts
# and returns non-zero if anything failed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else ko "$1"; fi; }
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# check_in_place LABEL PATTERN CMD...: an output that exists and is not a
# regular file is written in place, never renamed over.  CMD runs with
# @OUT@ replaced by a private character device (mknod with the null
# device's numbers, inside $tmp; root only, never the real /dev/null),
# by a FIFO whose reader must receive PATTERN (grep -E), and by a symlink
# to a FIFO; each must keep its type, and no temporary file is left.
check_in_place() {
	local label=$1 pattern=$2 d rc reader kind
	shift 2
	d=$(mktemp -d "$tmp/inplace.XXXXXX")
	_in_place_run() {
		local a=() x
		for x in "$@"; do a+=("${x//@OUT@/$target}"); done
		timeout 120 "${a[@]}" >/dev/null 2>"$d/err"
	}
	if mknod "$d/null" c 1 3 2>/dev/null && echo probe >"$d/null" 2>/dev/null; then
		target=$d/null
		_in_place_run "$@"
		rc=$?
		check "$label: a device node is written in place (still a character device)" \
			'[ $rc -eq 0 ] && [ -c "$d/null" ] && [ -z "$(ls -A "$d" | grep "^\.")" ]'
	else
		echo "SKIP: $label: device node (mknod or a dev-enabled $tmp needs root)"
	fi
	mkfifo "$d/fifo"
	ln -s fifo "$d/link"
	for kind in fifo link; do
		timeout 120 cat "$d/fifo" >"$d/got.$kind" &
		reader=$!
		target=$d/$kind
		_in_place_run "$@"
		rc=$?
		# Renamed over, the FIFO's name is gone and its reader still
		# waits for a writer: stop it.
		[ -p "$d/fifo" ] || kill $reader 2>/dev/null
		wait $reader
		if [ "$kind" = link ]; then
			check "$label: a symlink to a FIFO stays a symlink, and its reader gets the output" \
				'[ $rc -eq 0 ] && [ -L "$d/link" ] && [ -p "$d/fifo" ] && grep -Eq "$pattern" "$d/got.$kind" && [ -z "$(ls -A "$d" | grep "^\.")" ]'
		else
			check "$label: a FIFO stays a FIFO, and its reader gets the output" \
				'[ $rc -eq 0 ] && [ -p "$d/fifo" ] && grep -Eq "$pattern" "$d/got.$kind" && [ -z "$(ls -A "$d" | grep "^\.")" ]'
		fi
		[ -p "$d/fifo" ] || { rm -f "$d/fifo"; mkfifo "$d/fifo"; }
	done
}
