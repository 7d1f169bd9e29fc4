#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: Debian's PostgreSQL, initdb in a folder of its
# own, on a port of its own on 127.0.0.1, run as a non-root user (root runs it as `postgres`).
#
#   eval "$(bash scripts/pg-throwaway.sh start /tmp/wuzi-pg)"   # sets WUZI_TEST_POSTGRES
#   bash scripts/pg-throwaway.sh restart /tmp/wuzi-pg           # a fast restart (fault tests)
#   bash scripts/pg-throwaway.sh stop /tmp/wuzi-pg              # stops it and removes the folder
#
# `start` prints `export WUZI_TEST_POSTGRES=postgres://wuzi@127.0.0.1:PORT/postgres`: a
# superuser the tests create their own databases with (trust authentication, loopback only).
set -euo pipefail

cmd="${1:?usage: pg-throwaway.sh start|restart|stop DIR}"
dir="${2:?usage: pg-throwaway.sh start|restart|stop DIR}"

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "PostgreSQL is not installed (apt-get install postgresql; scripts/install-test-deps.sh does it)" >&2
    exit 1
fi

# As root, the cluster belongs to the `postgres` user that Debian's package makes.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$cmd" in
start)
    if [ -e "$dir" ]; then
        echo "$dir exists already; stop it first (pg-throwaway.sh stop $dir)" >&2
        exit 1
    fi
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U wuzi --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port: ask the kernel for one.
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null ||
        { cat "$dir/server.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    echo "export WUZI_TEST_POSTGRES=postgres://wuzi@127.0.0.1:$port/postgres"
    ;;
restart)
    # A fast restart (open connections are cut), for fault tests.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null ||
        { cat "$dir/server.log" >&2; exit 1; }
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: pg-throwaway.sh start|restart|stop DIR" >&2
    exit 2
    ;;
esac
