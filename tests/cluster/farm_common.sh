# Shared by the proving-farm tests (tests/cluster/*.sh), sourced after tests/cli/common.sh: a throw-away
# PostgreSQL server and `cuzk serve` nodes sharing it.
#
# start_pg: initdb in a fresh folder and a server on a unix socket there only (no TCP), fsync off; sets
#   DB (the libpq URI the nodes use) and PSQL (psql on it). PostgreSQL refuses to run as root: as root,
#   its commands run as the postgres user (nobody when there is none). stop_pg stops it (fast); the EXIT
#   trap of farm_cleanup stops it and every node even when the test fails.
# start_node N [ENV=VALUE…]: node N (node_config N) on a free loopback port with the mimc and tiny circuits
#   (and srs.param_cache = $PARAM_CACHE when set: its Filecoin circuits), its log in $WORK/node-N.log; waits until it listens
#   (fails after 60 s times CUZK_TEST_TIMEOUT_SCALE, tests/cli/common.sh); sets NODE_PID[N] and ADDR[N].
# kill_node N [SIGNAL]; alive N; submit N ARGS…; wait_all_final FILE_OF_JOB_IDS.
PGBIN=$(dirname "$(readlink -f "$(command -v pg_ctl 2>/dev/null || echo /usr/lib/postgresql/15/bin/pg_ctl)")")
[ -x "$PGBIN/postgres" ] && [ -x "$PGBIN/createdb" ] || PGBIN=/usr/lib/postgresql/15/bin
PGDIR=$(mktemp -d /tmp/cuzk-pg.XXXXXX)
PGRUN=()
if [ "$(id -u)" -eq 0 ]; then
  PGUSER_OS=postgres
  id postgres >/dev/null 2>&1 || PGUSER_OS=nobody
  chown "$PGUSER_OS" "$PGDIR"
  PGRUN=(runuser -u "$PGUSER_OS" --)
fi
DB="postgresql:///cuzk?host=$PGDIR&user=cuzk"
PSQL=(psql -X -q -At -h "$PGDIR" -U cuzk cuzk)
declare -a NODE_PID ADDR

farm_cleanup() {
  for p in "${NODE_PID[@]:-}"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
  [ -f "$PGDIR/data/postmaster.pid" ] && "${PGRUN[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1
  [ -n "${FARM_KEEP:-}" ] && { echo "kept $WORK" >&2; rm -rf "$PGDIR"; return; }
  rm -rf "$WORK" "$PGDIR"
}
trap farm_cleanup EXIT

start_pg() {
  if [ ! -d "$PGDIR/data" ]; then
    "${PGRUN[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U cuzk --no-sync >"$WORK/initdb.log" 2>&1 \
      || { cat "$WORK/initdb.log"; fail "initdb"; }
    INIT=1
  fi
  "${PGRUN[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/pg.log" -w -t "$(scaled 30)" \
    -o "-k $PGDIR -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c max_connections=200" start \
    >/dev/null || { cat "$PGDIR/pg.log"; fail "PostgreSQL did not start"; }
  if [ -n "${INIT:-}" ]; then
    "$PGBIN/createdb" -h "$PGDIR" -U cuzk cuzk
    INIT=
  fi
}
stop_pg() { "${PGRUN[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >/dev/null; }

D="$SRC/tests/data"
LEASE=${LEASE:-2s}
HEARTBEAT=${HEARTBEAT:-500ms}
MAX_ATTEMPTS=${MAX_ATTEMPTS:-3}
# node_config N: writes node N's configuration, $WORK/node-N.toml (node_id node-N or $NODE_ID;
# $MAX_QUEUED, when set, is its cluster.max_queued_bytes).
node_config() {
  local queued=
  [ -z "${MAX_QUEUED:-}" ] || queued="max_queued_bytes = \"$MAX_QUEUED\""
  cat >"$WORK/node-$1.toml" <<TOML
[daemon]
listen = "127.0.0.1:0"
[gpus]
gpu_workers_per_device = 1
gpu_threads = 1
[synthesis]
threads = 1
[cluster]
database = "$DB"
node_id = "${NODE_ID:-node-$1}"
lease = "$LEASE"
heartbeat = "$HEARTBEAT"
max_attempts = $MAX_ATTEMPTS
retention = "${RETENTION:-7d}"
$queued
[srs]
param_cache = "${PARAM_CACHE:-}"
verify_subgroup = ${VERIFY_SUBGROUP:-true}
[scheduler]
deadline_lead_s = ${DEADLINE_LEAD:-600}
[[circuits]]
id = "mimc"
zkey = "$D/mimc/mimc_dev.zkey"
[[circuits]]
id = "tiny"
zkey = "$D/tiny/mul_final.zkey"
TOML
}
start_node() {
  local n=$1
  shift
  node_config "$n"
  env "$@" "$CUZK" serve --config "$WORK/node-$n.toml" >>"$WORK/node-$n.log" 2>&1 &
  NODE_PID[$n]=$!
  local end
  end=$(deadline 60)
  until [ "$(grep -c "cuzk daemon listening" "$WORK/node-$n.log")" -ge "${STARTS[$n]:-1}" ]; do
    kill -0 ${NODE_PID[$n]} 2>/dev/null || { cat "$WORK/node-$n.log"; fail "node $n exited at start"; }
    before "$end" || { cat "$WORK/node-$n.log"; fail "node $n did not listen within $(scaled 60) s"; }
    sleep 0.1
  done
  STARTS[$n]=$((${STARTS[$n]:-1} + 1))
  ADDR[$n]="127.0.0.1:$(sed -n 's/.*grpc=[^ ]* (port \([0-9]*\)).*/\1/p' "$WORK/node-$n.log" | tail -1)"
}
declare -a STARTS
kill_node() { kill -"${2:-9}" ${NODE_PID[$1]} 2>/dev/null || true; wait ${NODE_PID[$1]} 2>/dev/null || true; NODE_PID[$1]=; }
alive() { kill -0 ${NODE_PID[$1]} 2>/dev/null || { tail -30 "$WORK/node-$1.log"; fail "node $1 died"; }; }

# submit N CIRCUIT WITNESS [more client args]: a job through node N; prints its id.
submit() {
  local n=$1 c=$2 w=$3
  shift 3
  "$CUZK" client submit --addr "${ADDR[$n]}" --circuit "$c" --witness "$w" "$@"
}
# await_job N JOB OUTDIR: AwaitProof on node N, writes the answer's JSON to OUTDIR/JOB.json.
sql() { "${PSQL[@]}" -c "$1"; }
