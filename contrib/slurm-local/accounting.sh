#!/usr/bin/env bash
# accounting.sh - real Slurm accounting for a cluster.sh cluster: a private
# MariaDB (temporary datadir, loopback port) and slurmdbd, both started and
# stopped by PID like the rest of the harness.
#
# Usage:
#   accounting.sh prepare --dir DIR [--ports DB,DBD]
#                                     reserve two ports (ports.sh), write
#                                     DIR/etc/slurmdbd.conf and print the
#                                     slurm.conf lines to pass to
#                                     'cluster.sh start --extra-slurm-conf';
#                                     --ports: use these two, which the
#                                     caller reserved (cluster.sh
#                                     --accounting passes its block's last
#                                     two)
#   accounting.sh start --dir DIR [--timeout SECS]
#                                     start MariaDB and slurmdbd (the
#                                     cluster's munged must be running) and
#                                     register the cluster; then run
#                                     'cluster.sh restart-ctld --dir DIR' so
#                                     slurmctld connects at start-up
#   accounting.sh stop --dir DIR      stop slurmdbd and MariaDB, drop the
#                                     ports prepare reserved
#   accounting.sh -h|--help           this help
#   accounting.sh -V|--version        the source revision
#
# Options:
#   --dir DIR          the cluster's directory (cluster.sh's --dir)
#   --ports DB,DBD     prepare: MariaDB's and slurmdbd's ports, reserved by
#                      the caller (default: reserve two)
#   --timeout SECS     start: bound for each daemon to listen (default 60)
#   -h, --help         this help, then exit
#   -V, --version      the source revision, then exit
#
# Both daemons are recorded in DIR/run/pids, so 'cluster.sh stop' stops them
# too.  The database runs with --skip-grant-tables on 127.0.0.1 only: it is
# a throw-away store for tests, never a production setup.
# Exit status: 0 ok, 1 failure, 2 usage error.
set -euo pipefail

MARIADBD=${MARIADBD:-/usr/sbin/mariadbd}
INSTALL_DB=${INSTALL_DB:-/usr/bin/mariadb-install-db}
MARIADB=${MARIADB:-/usr/bin/mariadb}
SLURMDBD=${SLURMDBD:-/usr/sbin/slurmdbd}
CLUSTER_NAME=meshlocal
DB_NAME=slurm_acct_db

prog=${0##*/}
here=$(dirname "$(realpath "$0")")
MESH_LIB='@MESH_LIBEXECDIR@'   # set by make install
case $MESH_LIB in @*) MESH_LIB=$here/../lib ;; esac
# shellcheck source=../lib/meshcli.sh
. "$MESH_LIB/meshcli.sh"
# shellcheck source=ports.sh
. "$here/ports.sh"
log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { printf '%s: ERROR: %s\n' "$prog" "$*" >&2; exit 1; }
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }
val() { [ $# -ge 2 ] || usage_die "option '$1' needs a value"; }

cmd=""
dir=""
ports=""
timeout_s=60
for a in "$@"; do
    case "$a" in
        -h|--help) usage; exit 0 ;;
        -V|--version) mesh_version; exit 0 ;;
    esac
done
while [ $# -gt 0 ]; do
    case "$1" in
        prepare|start|stop) cmd=$1 ;;
        --dir) val "$@"; dir=$2; shift ;;
        --ports) val "$@"; ports=$2; shift ;;
        --timeout) val "$@"; timeout_s=$2; shift ;;
        -*) usage_die "unknown option '$1'" ;;
        *) usage_die "unexpected argument '$1'" ;;
    esac
    shift
done
[ -n "$cmd" ] || usage_die "missing command (prepare, start or stop)"
[ -n "$dir" ] || usage_die "--dir is required"
case "$timeout_s" in ''|*[!0-9]*) usage_die "--timeout must be a number" ;; esac
case "$ports" in ''|[0-9]*,[0-9]*) ;; *) usage_die "--ports wants DB,DBD (two port numbers)" ;; esac
dir=$(cd "$dir" 2>/dev/null && pwd -P) || die "no such directory: $dir"
acct=$dir/acct

wait_port() {   # port secs what logfile
    local end=$((SECONDS + $2))
    until listening_ports | grep -x "$1" >/dev/null; do
        if [ "$SECONDS" -ge "$end" ]; then
            tail -n 30 "$4" >&2 2>/dev/null || true
            die "$3 did not listen on port $1 within $2 s (log: $4)"
        fi
        sleep 0.3
    done
}

record_pid() { printf '%s %s\n' "$1" "$2" >>"$dir/run/pids"; }

drop_record() {
    [ -f "$dir/run/pids" ] || return 0
    awk -v n="$1" '$1 != n' "$dir/run/pids" >"$dir/run/pids.tmp.$$"
    mv -f "$dir/run/pids.tmp.$$" "$dir/run/pids"
}

stop_pid() {   # name: TERM, then KILL after 15 s
    local pid end
    [ -f "$dir/run/pids" ] || return 0
    pid=$(awk -v n="$1" '$1 == n {print $2}' "$dir/run/pids" | tail -n 1)
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || true
    end=$((SECONDS + 15))
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do
        sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
    drop_record "$1"
}

spawn() {   # log cmd... ; sets spawned_pid
    local logf=$1
    shift
    setsid "$@" </dev/null >>"$logf" 2>&1 &
    spawned_pid=$!
}

cmd_prepare() {
    local db_port dbd_port user base
    mkdir -p "$acct" "$dir/etc" "$dir/run" "$dir/log"
    if [ -n "$ports" ]; then
        db_port=${ports%,*}
        dbd_port=${ports#*,}
    else
        # On its own: a block of two, owned by DIR/acct (cluster.sh start
        # then keeps clear of it).
        base=$(reserve_ports "$acct" 1) || exit 1
        db_port=$base
        dbd_port=$((base + 1))
    fi
    user=$(id -un)
    echo "$db_port" >"$acct/db_port"
    echo "$dbd_port" >"$acct/dbd_port"
    umask 077
    cat >"$dir/etc/slurmdbd.conf" <<EOF
# Generated by slurm-mesh contrib/slurm-local/accounting.sh; do not edit.
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$dbd_port
SlurmUser=$user
DebugLevel=info
LogFile=$dir/log/slurmdbd.log
PidFile=$dir/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$db_port
StorageUser=$user
StorageLoc=$DB_NAME
EOF
    chmod 0600 "$dir/etc/slurmdbd.conf"
    printf '%s\n' \
        "AccountingStorageType=accounting_storage/slurmdbd" \
        "AccountingStorageHost=127.0.0.1" \
        "AccountingStoragePort=$dbd_port" \
        "AccountingStoragePass=$dir/munge/munge.socket"
}

start_mariadb() {
    local port
    port=$(cat "$acct/db_port")
    # A private tmpdir: at start-up mariadbd deletes every #sql* file in
    # its tmpdir, so with /tmp shared one cluster's server deleted the
    # temporary tables of another's mariadb-install-db ("Unknown table
    # 'mysql.tmp_user_sys'": the CI failure of
    # harness_accounting.sh, reproduced here).
    mkdir -p "$acct/tmp"
    if [ ! -d "$acct/db/mysql" ]; then
        "$INSTALL_DB" --no-defaults --user="$(id -un)" --datadir="$acct/db" \
            --tmpdir="$acct/tmp" \
            --auth-root-authentication-method=normal --skip-test-db \
            >"$dir/log/mariadb-install.log" 2>&1 \
            || { tail -n 20 "$dir/log/mariadb-install.log" >&2; die "mariadb-install-db failed"; }
    fi
    spawn "$dir/log/mariadb.stdout" "$MARIADBD" --no-defaults \
        --user="$(id -un)" --datadir="$acct/db" --tmpdir="$acct/tmp" \
        --socket="$acct/mysql.sock" \
        --port="$port" --bind-address=127.0.0.1 --skip-grant-tables \
        --pid-file="$acct/mariadb.pid" --log-error="$dir/log/mariadb.log" \
        --innodb-buffer-pool-size=64M --innodb-lock-wait-timeout=900
    record_pid mariadbd "$spawned_pid"
    wait_port "$port" "$timeout_s" MariaDB "$dir/log/mariadb.log"
    # Create slurmdbd's database ourselves.  Left to slurmdbd, its first
    # connect fails with "Unknown database", it creates the database on a
    # second connection and then reconnects on the MYSQL handle whose
    # connect failed; with libmariadb 3.4 (Debian 13's MariaDB 11.8) every
    # result set on such a handle fails ("5027 Number of columns in
    # result (=1) set execeeds maxmimum allowed number of columns (=0)"),
    # so slurmdbd dies at _check_mysql_concat_is_sane.  libmariadb 3.3
    # (Debian 12) is not affected.  Over TCP, as slurmdbd connects.
    timeout "$timeout_s" "$MARIADB" --no-defaults --protocol=tcp \
        --host=127.0.0.1 --port="$port" --user="$(id -un)" \
        -e "CREATE DATABASE IF NOT EXISTS $DB_NAME" \
        >>"$dir/log/mariadb.stdout" 2>&1 \
        || { tail -n 5 "$dir/log/mariadb.stdout" >&2; die "could not create database $DB_NAME"; }
}

start_slurmdbd() {
    local port
    port=$(cat "$acct/dbd_port")
    [ -S "$dir/munge/munge.socket" ] \
        || die "no munged socket in $dir/munge: start the cluster first"
    SLURM_CONF=$dir/etc/slurm.conf spawn "$dir/log/slurmdbd.stdout" \
        "$SLURMDBD" -D
    record_pid slurmdbd "$spawned_pid"
    wait_port "$port" "$timeout_s" slurmdbd "$dir/log/slurmdbd.log"
}

cmd_start() {
    [ -f "$dir/etc/slurmdbd.conf" ] || die "run '$prog prepare --dir $dir' first"
    [ -f "$dir/etc/slurm.conf" ] || die "no $dir/etc/slurm.conf: start the cluster first"
    start_mariadb
    start_slurmdbd
    SLURM_CONF=$dir/etc/slurm.conf timeout "$timeout_s" \
        sacctmgr -i add cluster "$CLUSTER_NAME" >"$dir/log/sacctmgr.log" 2>&1 \
        || grep -q "already exists" "$dir/log/sacctmgr.log" \
        || { cat "$dir/log/sacctmgr.log" >&2; die "sacctmgr add cluster failed"; }
    log "accounting up: MariaDB on 127.0.0.1:$(cat "$acct/db_port"), slurmdbd on 127.0.0.1:$(cat "$acct/dbd_port")"
}

case "$cmd" in
    prepare) cmd_prepare ;;
    start) cmd_start ;;
    stop) stop_pid slurmdbd; stop_pid mariadbd; release_ports "$acct"; log "accounting stopped" ;;
esac
