#!/usr/bin/env bash
# A proving farm end to end (docs/CLUSTER.md): `cuzk serve` nodes (CPU backends) sharing one throw-away
# PostgreSQL server. One scenario per run, named by the first argument:
#   basic     FARM_JOBS circom jobs (default 30) submitted round-robin to 3 nodes; every job answered
#             by every node with the same proofs, which cuzk verifies (and snarkjs for the first);
#             request_id idempotency and a farm-wide cancel; `client status` lists the 3 nodes.
#   failover  kill -9 of a node holding leases: every job completes within about 2 leases, each
#             partition stored once; a SIGSTOPped node whose leases were taken over stores nothing
#             when it wakes; the killed node restarts and claims work again.
#   dbrestart PostgreSQL restarted mid-run: SubmitProof is UNAVAILABLE while it is away, the nodes
#             reconnect, no job is lost.
#   failures  a corrupt witness fails its job once, for good; a partition whose node dies every time
#             is claimed cluster.max_attempts times, then its job fails saying so.
source "$(dirname "$0")/../cli/common.sh"
source "$(dirname "$0")/farm_common.sh"
MODE=${1:?basic, failover, dbrestart or failures}
W_TINY="$D/tiny/mul.wtns"
W_MIMC="$D/mimc/mimc.wtns"
VK_TINY="$D/tiny/verification_key.json"
VK_MIMC="$D/mimc/mimc_dev_vk.json"

# await_ok NODE JOB: the job completes, answered by NODE (proofs into $WORK/ans/JOB.NODE/).
await_ok() {
  mkdir -p "$WORK/ans/$2.$1"
  "$CUZK" client await --addr "${ADDR[$1]}" --out "$WORK/ans/$2.$1" --timeout-ms "${3:-60000}" "$2" >"$WORK/ans/$2.$1.json" \
    || { cat "$WORK/ans/$2.$1.json"; fail "job $2 on node $1: not completed"; }
}
# stored_once FILE_OF_JOBS: every partition of those jobs has its proof stored once (one partition_stored
# line in all the logs) and is done in the database.
stored_once() {
  local dup
  dup=$(cat "$WORK"/node-*.log | sed -n 's/.*partition_stored job=\([^ ]*\) partition=\([0-9]*\).*/\1 \2/p' | sort | uniq -d)
  [ -z "$dup" ] || fail "partitions stored twice: $dup"
  local bad
  bad=$(sql "SELECT count(*) FROM cuzk_partitions WHERE state <> 'done' OR proof IS NULL")
  [ "$bad" -eq 0 ] || fail "$bad partitions not done in the database"
  while read -r j; do
    local want got
    want=$(sql "SELECT n_partitions FROM cuzk_jobs WHERE id = '$j'")
    got=$(cat "$WORK"/node-*.log | grep -c "partition_stored job=$j " || true)
    [ "$got" -eq "$want" ] || fail "job $j: $got partitions stored, expected $want"
  done <"$1"
}
start_pg

case "$MODE" in
basic)
  N=${FARM_JOBS:-30}
  for n in 1 2 3; do start_node $n; done
  echo "== $N jobs round-robin to 3 nodes"
  : >"$WORK/jobs"
  for i in $(seq 0 $((N - 1))); do
    n=$((i % 3 + 1))
    if [ $((i % 5)) -eq 0 ]; then
      echo "mimc $(submit $n mimc "$W_MIMC" --partitions 2)" >>"$WORK/jobs"
    else
      echo "tiny $(submit $n tiny "$W_TINY")" >>"$WORK/jobs"
    fi
  done
  cut -d' ' -f2 "$WORK/jobs" >"$WORK/ids"
  echo "== every job answered by every node; proofs verify"
  first=1
  while read -r c j; do
    for n in 1 2 3; do await_ok $n "$j"; done
    cmp -s "$WORK/ans/$j.1/proof.bin" "$WORK/ans/$j.2/proof.bin" && cmp -s "$WORK/ans/$j.1/proof.bin" "$WORK/ans/$j.3/proof.bin" \
      || fail "job $j: the nodes answer different proofs"
    vk=$VK_TINY
    [ "$c" = mimc ] && vk=$VK_MIMC
    for f in "$WORK/ans/$j.1"/proof_*.json; do
      i=${f##*proof_}
      i=${i%.json}
      "$CUZK" verify "$vk" "$WORK/ans/$j.1/public_$i.json" "$f" >/dev/null || fail "job $j partition $i: cuzk rejects the proof"
      if [ -n "$first" ]; then
        "${SNARKJS[@]}" groth16 verify "$vk" "$WORK/ans/$j.1/public_$i.json" "$f" | grep -q OK || fail "snarkjs rejects job $j"
        first=
      fi
    done
  done <"$WORK/jobs"
  stored_once "$WORK/ids"
  provers=$(sql "SELECT count(DISTINCT split_part(proved_by, '/', 1)) FROM cuzk_partitions")
  echo "   partitions proved by $provers nodes"
  [ "$provers" -ge 2 ] || fail "the work was not shared (proved by $provers node)"
  echo "== request_id: the same job from any node; a different request under it refused"
  r1=$(submit 1 tiny "$W_TINY" --request-id farm-r1)
  r2=$(submit 2 tiny "$W_TINY" --request-id farm-r1)
  [ "$r1" = "$r2" ] || fail "request_id farm-r1: $r1 on node 1, $r2 on node 2"
  expect_exit 2 "a different request under farm-r1" -- "$CUZK" client submit --addr "${ADDR[3]}" --circuit mimc --witness "$W_MIMC" --request-id farm-r1
  expect_err_contains "is taken by job $r1"
  await_ok 3 "$r1"
  pids=()
  for n in 1 2 3; do
    submit $n tiny "$W_TINY" --request-id farm-race >"$WORK/race.$n" &
    pids+=($!)
  done
  wait "${pids[@]}"
  [ "$(sort -u "$WORK"/race.* | wc -l)" -eq 1 ] || { cat "$WORK"/race.*; fail "one request_id sent to 3 nodes at once made several jobs"; }
  echo "== cancel on one node: the job is cancelled on every node; a retry is a new job"
  : >"$WORK/busy"
  for i in 1 2 3; do submit $i mimc "$W_MIMC" --partitions 4 --priority high >>"$WORK/busy"; done
  c=$(submit 1 mimc "$W_MIMC" --partitions 40 --priority low --request-id farm-c1)
  "$CUZK" client cancel --addr "${ADDR[2]}" "$c" | grep -q '"found": true' || fail "cancel: not found"
  "$CUZK" client await --addr "${ADDR[3]}" "$c" >"$WORK/cancelled.json" || true
  grep -q '"status": "CANCELLED"' "$WORK/cancelled.json" || { cat "$WORK/cancelled.json"; fail "job $c is not cancelled on node 3"; }
  c2=$(submit 3 mimc "$W_MIMC" --partitions 40 --priority low --request-id farm-c1)
  [ "$c2" != "$c" ] || fail "a retry after CANCELLED returned the cancelled job"
  "$CUZK" client cancel --addr "${ADDR[3]}" "$c2" | grep -q '"found": true' || fail "cancel of the retry: not found"
  while read -r j; do await_ok 1 "$j"; done <"$WORK/busy"
  echo "== a Filecoin kind is refused by a farm node (not farm-capable yet)"
  echo '{}' >"$WORK/c1.json"
  expect_exit 2 "POREP_SEAL_COMMIT in a farm" -- "$CUZK" client submit --addr "${ADDR[1]}" --porep "$WORK/c1.json"
  expect_err_contains "POREP_SEAL_COMMIT is not farm-capable yet"
  echo "== client status lists the 3 nodes, alive"
  "$CUZK" client status --addr "${ADDR[2]}" >"$WORK/status.json"
  [ "$(grep -c '"alive": true' "$WORK/status.json")" -eq 3 ] || { cat "$WORK/status.json"; fail "status: not 3 live nodes"; }
  for n in 1 2 3; do grep -q "\"nodeId\": \"node-$n\"" "$WORK/status.json" || fail "status: node-$n missing"; done
  for n in 1 2 3; do alive $n; done
  sed -n 's/.*claim_ms=\([0-9.]*\) store_ms=\([0-9.]*\).*/\1 \2/p' "$WORK"/node-*.log \
    | awk '{print $1 + $2}' | sort -n | awk '{a[NR]=$1} END {print "   claim+store per partition: median " a[int((NR+1)/2)] " ms over " NR}'
  ;;

failover)
  for n in 1 2 3; do start_node $n; done
  echo "== kill -9 of a node holding leases"
  : >"$WORK/ids"
  for i in 1 2; do submit $i mimc "$W_MIMC" --partitions 24 >>"$WORK/ids"; done
  for _ in $(seq 200); do
    [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-2@%'")" -gt 0 ] && break
    sleep 0.05
  done
  held=$(sql "SELECT count(*) FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-2@%'")
  [ "$held" -gt 0 ] || fail "node 2 never held a lease"
  t0=$(date +%s.%N)
  kill_node 2
  echo "   node 2 killed holding $held leases"
  # Its partitions are taken over once its leases expire ($LEASE): within 2 leases.
  for _ in $(seq 100); do
    [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-2@%'")" -eq 0 ] && break
    sleep 0.05
  done
  t=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "   its partitions taken over ${t}s after the kill (lease $LEASE)"
  [ "$(echo "$t < 2 * ${LEASE%s}" | bc)" -eq 1 ] || fail "node 2's partitions were not taken over within 2 leases"
  for i in 1 2 3 4; do submit $((i % 2 * 2 + 1)) mimc "$W_MIMC" --partitions 3 >>"$WORK/ids"; done
  while read -r j; do await_ok 1 "$j"; done <"$WORK/ids"
  t=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "   every job completed ${t}s after the kill"
  stored_once "$WORK/ids"
  retried=$(sql "SELECT count(*) FROM cuzk_partitions WHERE attempts > 1")
  [ "$retried" -ge 1 ] || fail "no partition was claimed again after the kill"
  echo "== a stopped node whose leases were taken over stores nothing when it resumes"
  : >"$WORK/ids2"
  for i in 1 2; do submit $((i * 2 - 1)) mimc "$W_MIMC" --partitions 24 >>"$WORK/ids2"; done
  for _ in $(seq 200); do
    p=$(sql "SELECT job_id || ' ' || idx FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-3@%' LIMIT 1")
    [ -n "$p" ] && break
    sleep 0.05
  done
  [ -n "$p" ] || fail "node 3 never held a lease"
  kill -STOP ${NODE_PID[3]}
  set -- $p
  for _ in $(seq 200); do
    [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE job_id = '$1' AND idx = $2 AND lease_owner NOT LIKE 'node-3@%'")" -eq 1 ] && break
    sleep 0.05
  done
  [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE job_id = '$1' AND idx = $2 AND lease_owner NOT LIKE 'node-3@%'")" -eq 1 ] \
    || fail "node 1 did not take over partition $2 of $1"
  kill -CONT ${NODE_PID[3]}
  while read -r j; do await_ok 3 "$j"; done <"$WORK/ids2"
  for _ in $(seq 50); do
    grep -q "partition_lease_\(lost\|gone\) job=$1 partition=$2 " "$WORK/node-3.log" && break
    sleep 0.1
  done
  grep -q "partition_lease_\(lost\|gone\) job=$1 partition=$2 " "$WORK/node-3.log" || fail "node 3 did not give up partition $2 of $1"
  cat "$WORK/ids" "$WORK/ids2" >"$WORK/all"
  stored_once "$WORK/all"
  echo "== the killed node restarts and claims work"
  start_node 2
  : >"$WORK/ids3"
  for i in $(seq 6); do submit 2 mimc "$W_MIMC" --partitions 3 >>"$WORK/ids3"; done
  while read -r j; do await_ok 2 "$j"; done <"$WORK/ids3"
  n2=$(awk '/farm_worker_started/ {n++} n == 2 && /partition_stored/ {c++} END {print c + 0}' "$WORK/node-2.log")
  [ "$n2" -ge 1 ] || fail "the restarted node 2 proved nothing"
  cat "$WORK/all" "$WORK/ids3" >"$WORK/all2"
  stored_once "$WORK/all2"
  for n in 1 2 3; do alive $n; done
  ;;

dbrestart)
  for n in 1 2 3; do start_node $n; done
  : >"$WORK/ids"
  for i in $(seq 9); do submit $((i % 3 + 1)) mimc "$W_MIMC" --partitions 2 >>"$WORK/ids"; done
  echo "== PostgreSQL stops: SubmitProof is UNAVAILABLE"
  stop_pg
  expect_exit 2 "SubmitProof while the database is down" -- "$CUZK" client submit --addr "${ADDR[2]}" --circuit tiny --witness "$W_TINY"
  expect_err_contains "unavailable"
  sleep 1
  for n in 1 2 3; do alive $n; done
  echo "== PostgreSQL back: the nodes reconnect, no job is lost"
  start_pg
  # UNAVAILABLE means "retry": each node takes work again once it has reconnected (back-off ≤ 2 s).
  for i in $(seq 6); do
    for _ in $(seq 50); do submit $((i % 3 + 1)) tiny "$W_TINY" >>"$WORK/ids" 2>/dev/null && break; sleep 0.2; done
  done
  [ "$(wc -l <"$WORK/ids")" -eq 15 ] || fail "the nodes did not take jobs again after the database came back"
  while read -r j; do await_ok $((RANDOM % 3 + 1)) "$j"; done <"$WORK/ids"
  stored_once "$WORK/ids"
  grep -q "farm_store_unavailable" "$WORK"/node-*.log || fail "no node noticed the database going away"
  for n in 1 2 3; do alive $n; done
  ;;

failures)
  MAX_ATTEMPTS=2
  echo "== bad [cluster] tables and an unreachable database stop cuzk serve, naming the key"
  printf '[cluster]\nnode_id = "x"\n' >"$WORK/bad1.toml"
  expect_exit 2 "no database" -- "$CUZK" serve --config "$WORK/bad1.toml"
  expect_err_contains "cluster.database: missing"
  printf '[cluster]\ndatabase = "%s"\nlease = "10 s"\n' "$DB" >"$WORK/bad2.toml"
  expect_exit 2 "bad lease" -- "$CUZK" serve --config "$WORK/bad2.toml"
  expect_err_contains "cluster.lease: \"10 s\" is not a duration"
  printf '[cluster]\ndatabase = "%s"\nlease = "2s"\nheartbeat = "1500ms"\n' "$DB" >"$WORK/bad3.toml"
  expect_exit 2 "heartbeat over half the lease" -- "$CUZK" serve --config "$WORK/bad3.toml"
  expect_err_contains "cluster.heartbeat: must be at most half of cluster.lease"
  printf '[daemon]\nlisten = "127.0.0.1:0"\n[cluster]\ndatabase = "postgresql:///cuzk?host=%s/none"\n' "$WORK" >"$WORK/bad4.toml"
  expect_exit 2 "unreachable database" -- "$CUZK" serve --config "$WORK/bad4.toml"
  expect_err_contains "cannot connect to the database (cluster.database)"
  echo "== a corrupt witness fails once, for good"
  start_node 1
  start_node 2
  head -c 200 "$W_MIMC" >"$WORK/corrupt.wtns"
  j=$(submit 1 mimc "$WORK/corrupt.wtns")
  expect_exit 1 "corrupt witness" -- "$CUZK" client await --addr "${ADDR[2]}" "$j"
  grep -q '"status": "FAILED"' "$WORK/out" || fail "corrupt witness: not FAILED"
  grep -q 'witness' "$WORK/out" || fail "corrupt witness: the error does not say why"
  sleep 1
  [ "$(sql "SELECT attempts FROM cuzk_partitions WHERE job_id = '$j'")" -eq 1 ] || fail "the corrupt job was claimed again"
  [ "$(cat "$WORK"/node-*.log | grep -c "partition_claimed job=$j ")" -eq 1 ] || fail "the corrupt job was claimed more than once"
  echo "== a partition whose node dies every time: claimed max_attempts (2) times, then the job fails"
  kill_node 1
  kill_node 2
  # The faulty node dies 300 ms after each claim (before proving): it takes the job, dies, restarts,
  # takes it over from its dead incarnation, dies again.
  start_node 1 CUZK_FAIL_FARM_EXIT_AFTER_CLAIM=300
  j=$(submit 1 mimc "$W_MIMC" --priority critical)
  for k in 1 2; do
    rc=0
    timeout 30 tail --pid=${NODE_PID[1]} -f /dev/null || rc=$?
    [ $rc -eq 0 ] || fail "the faulty node did not die on its claim ($k)"
    [ $k -eq 2 ] && break
    CUZK_FAIL_FARM_EXIT_AFTER_CLAIM=300 "$CUZK" serve --config "$WORK/node-1.toml" >>"$WORK/node-1.log" 2>&1 &
    NODE_PID[1]=$!
  done
  NODE_PID[1]=
  [ "$(sql "SELECT attempts FROM cuzk_partitions WHERE job_id = '$j'")" -eq 2 ] || fail "expected 2 claims"
  start_node 2
  expect_exit 1 "the job of the dying node" -- "$CUZK" client await --addr "${ADDR[2]}" --timeout-ms 30000 "$j"
  grep -q '"status": "FAILED"' "$WORK/out" || { cat "$WORK/out"; fail "not FAILED after 2 attempts"; }
  grep -q 'claimed 2 times' "$WORK/out" || { cat "$WORK/out"; fail "the error does not give the reason"; }
  [ "$(sql "SELECT attempts FROM cuzk_partitions WHERE job_id = '$j'")" -eq 2 ] || fail "claimed again after max_attempts"
  alive 2
  echo "== finished jobs are pruned after cluster.retention"
  [ "$(sql "SELECT count(*) FROM cuzk_jobs")" -ge 2 ] || fail "expected the finished jobs in the database"
  kill_node 2
  sleep 1.2
  RETENTION=1s start_node 2
  for _ in $(seq 50); do [ "$(sql "SELECT count(*) FROM cuzk_jobs")" -eq 0 ] && break; sleep 0.1; done
  [ "$(sql "SELECT count(*) FROM cuzk_jobs")" -eq 0 ] || fail "finished jobs older than the retention were not pruned"
  [ "$(sql "SELECT count(*) FROM cuzk_partitions")" -eq 0 ] || fail "the pruned jobs' partitions are left"
  echo "== SIGTERM stops a farm node cleanly"
  kill -TERM ${NODE_PID[2]}
  rc=0
  wait ${NODE_PID[2]} || rc=$?
  NODE_PID[2]=
  [ $rc -eq 0 ] || fail "the node exited $rc after SIGTERM"
  grep -q "cuzk daemon stopped" "$WORK/node-2.log" || fail "no clean stop in the log"
  ;;
*) fail "unknown scenario $MODE" ;;
esac
echo "farm $MODE: all passed"
