# Redis for run-local.sh, which sources this file: one data node (redis-1),
# or with --sentinel a master (redis-1), its replica (redis-2) and three
# Sentinels (sentinel-1 to 3) watching it as neonsync1, each in its own
# directory under $dir on a free loopback port. Uses run-local.sh's say,
# running, $dir and $sentinel.

master_name=neonsync1
data_pids=() data_ports=() data_down=() data_args=()
sentinel_pids=() sentinel_ports=() sentinel_down=()

# Does the redis-server with pid $2 answer on port $1 (its INFO names its
# pid)? Waits up to 5 s; no as soon as it ends.
answers() {
  for _ in $(seq 100); do
    timeout 2 redis-cli -p "$1" info server 2>/dev/null | grep -q "^process_id:$2" && return 0
    running "$2" || return 1
    sleep 0.05
  done
  return 1
}

# Starts data node $1 on port $2 (its directory $dir/$1), with the
# settings after; its pid in $!.
launch_redis() {
  local name=$1 port=$2
  shift 2
  mkdir -p "$dir/$name"
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir/$name" --appendonly yes --appendfsync always \
    --save '' --logfile "$dir/$name/redis.log" "$@" &
}

# Starts Sentinel $1 on port $2 watching the master on port $3 (a majority
# of the three must find it down); its pid in $!. Sentinel rewrites its
# file with what it learns: started again, it reads that.
launch_sentinel() {
  local name=$1 port=$2 master=$3
  mkdir -p "$dir/$name"
  cat > "$dir/$name/sentinel.conf" <<CONF
port $port
bind 127.0.0.1
protected-mode no
dir $dir/$name
logfile $dir/$name/sentinel.log
sentinel resolve-hostnames no
sentinel monitor $master_name 127.0.0.1 $master 2
sentinel down-after-milliseconds $master_name 1000
sentinel failover-timeout $master_name 5000
sentinel parallel-syncs $master_name 1
CONF
  redis-server "$dir/$name/sentinel.conf" --sentinel &
}

# `launch_$1 $2 PORT ARGUMENTS…` on random ports until the process started
# answers on its own; sets started_port and started_pid. Out of the job
# table: bash would print a job's command line when one is killed.
start_on_free_port() {
  local kind=$1 name=$2 candidate pid
  shift 2
  started_port="" started_pid=""
  for _ in $(seq 20); do
    candidate=$(( 20000 + RANDOM % 40000 ))
    "launch_$kind" "$name" "$candidate" "$@"
    pid=$!
    disown "$pid"
    if answers "$candidate" "$pid"; then started_port=$candidate started_pid=$pid; return 0; fi
    kill -TERM "$pid" 2>/dev/null || true
  done
  return 1
}

# The port of the master as the first Sentinel that answers names it.
current_master() {
  local i port
  for i in "${!sentinel_ports[@]}"; do
    running "${sentinel_pids[i]}" || continue
    port=$(timeout 2 redis-cli -p "${sentinel_ports[i]}" sentinel get-master-addr-by-name "$master_name" 2>/dev/null | tail -1)
    [ -n "$port" ] && { echo "$port"; return 0; }
  done
  return 1
}

# A Sentinel's field of `SENTINEL master`: $1 its port, $2 the field.
sentinel_field() {
  timeout 2 redis-cli -p "$1" sentinel master "$master_name" 2>/dev/null | paste - - | awk -F'\t' -v k="$2" '$1 == k { print $2 }'
}

# What keeps the group from being ready, one phrase a line: every Sentinel
# knows the master, its replica and the other two; the replica is online.
sentinel_missing() {
  local i known
  for i in 1 2 3; do
    known=$(sentinel_field "${sentinel_ports[i]}" num-slaves)
    [ "$known" = 1 ] || echo "sentinel-$i knows ${known:-no} replica"
    known=$(sentinel_field "${sentinel_ports[i]}" num-other-sentinels)
    [ "$known" = 2 ] || echo "sentinel-$i knows ${known:-no} other Sentinels of 2"
  done
  timeout 2 redis-cli -p "${data_ports[1]}" info replication 2>/dev/null | grep -q '^min_slaves_good_slaves:1' ||
    echo "redis-1 does not count redis-2 as a replica in step"
}

# Starts Redis and sets redis_url, the address the nodes are given.
start_redis() {
  [ -n "$sentinel" ] && data_args=(--min-replicas-to-write 1 --min-replicas-max-lag 10)
  start_on_free_port redis redis-1 "${data_args[@]}" || { say "Redis did not start: $(tail -3 "$dir/redis-1/redis.log")"; return 1; }
  data_pids[1]=$started_pid data_ports[1]=$started_port
  if [ -z "$sentinel" ]; then redis_url="redis://127.0.0.1:${data_ports[1]}"; return 0; fi
  start_on_free_port redis redis-2 "${data_args[@]}" --replicaof 127.0.0.1 "${data_ports[1]}" ||
    { say "the replica did not start: $(tail -3 "$dir/redis-2/redis.log")"; return 1; }
  data_pids[2]=$started_pid data_ports[2]=$started_port
  local i missing
  for i in 1 2 3; do
    start_on_free_port sentinel "sentinel-$i" "${data_ports[1]}" ||
      { say "Sentinel $i did not start: $(tail -3 "$dir/sentinel-$i/sentinel.log")"; return 1; }
    sentinel_pids[i]=$started_pid sentinel_ports[i]=$started_port
  done
  for _ in $(seq 60); do
    missing=$(sentinel_missing)
    [ -z "$missing" ] && break
    sleep 0.5
  done
  [ -z "$missing" ] || { say "the Sentinels were not ready within 30 s: $(echo "$missing" | paste -sd';' | sed 's/;/; /g')"; return 1; }
  redis_url="sentinel://127.0.0.1:${sentinel_ports[1]},127.0.0.1:${sentinel_ports[2]},127.0.0.1:${sentinel_ports[3]}/$master_name"
}

# Says how Redis runs, and how to watch a failover.
describe_redis() {
  if [ -z "$sentinel" ]; then return 0; fi
  say "Redis: master redis-1 on port ${data_ports[1]} (pid ${data_pids[1]}), its replica redis-2 on port ${data_ports[2]} (pid ${data_pids[2]}), Sentinels on ports ${sentinel_ports[*]} watching it as $master_name"
  say "to watch a failover: kill -9 ${data_pids[1]} (the master), then type 'status': redis-2 is master within seconds; 'restart redis-1' brings the old one back as its replica"
}

# One line per Redis process with its role.
redis_status() {
  local i role port
  if [ -z "$sentinel" ]; then say "Redis on port ${data_ports[1]} (pid ${data_pids[1]})"; return 0; fi
  for i in "${!data_ports[@]}"; do
    if ! running "${data_pids[i]}"; then say "redis-$i on port ${data_ports[i]}: stopped"; continue; fi
    role=$(timeout 2 redis-cli -p "${data_ports[i]}" role 2>/dev/null | head -3 | paste -sd' ' || true)
    case "$role" in
      master*) role=master ;;
      slave*) role="replica of port ${role##* }" ;;
      *) role="not answering" ;;
    esac
    say "redis-$i on port ${data_ports[i]} (pid ${data_pids[i]}): $role"
  done
  for i in "${!sentinel_ports[@]}"; do
    if ! running "${sentinel_pids[i]}"; then say "sentinel-$i on port ${sentinel_ports[i]}: stopped"; continue; fi
    port=$(timeout 2 redis-cli -p "${sentinel_ports[i]}" sentinel get-master-addr-by-name "$master_name" 2>/dev/null | tail -1 || true)
    say "sentinel-$i on port ${sentinel_ports[i]} (pid ${sentinel_pids[i]}): names port ${port:-(no answer)} master"
  done
}

# Notes each Redis process that ended. Without Sentinels Redis is the
# store of record: its end ends the cluster.
watch_redis() {
  local i
  if [ -z "$sentinel" ]; then
    running "${data_pids[1]}" || { say "Redis stopped by itself; stopping the rest"; exit 1; }
    return 0
  fi
  for i in "${!data_ports[@]}"; do
    if [ -z "${data_down[i]:-}" ] && ! running "${data_pids[i]}"; then
      data_down[i]=1
      say "redis-$i (port ${data_ports[i]}) stopped; if it was the master the Sentinels promote its replica within seconds: type 'status' to see the roles, 'restart redis-$i' to start it again as a replica"
    fi
  done
  for i in "${!sentinel_ports[@]}"; do
    if [ -z "${sentinel_down[i]:-}" ] && ! running "${sentinel_pids[i]}"; then
      sentinel_down[i]=1
      say "sentinel-$i (port ${sentinel_ports[i]}) stopped; the other Sentinels carry on; type 'restart sentinel-$i' to start it again"
    fi
  done
}

# `restart redis-N` or `restart sentinel-N`: starts a stopped one again on
# its port; a data node as a replica of the master the Sentinels name.
restart_redis() {
  local kind=${1%-*} i=${1##*-} master pid args of=""
  local -n pids="${kind/redis/data}_pids" ports="${kind/redis/data}_ports" down="${kind/redis/data}_down"
  if [ -z "$sentinel" ] || ! [[ "$i" =~ ^[0-9]+$ ]] || [ -z "${ports[i]:-}" ]; then
    say "there is no $1: restart takes redis-1, redis-2 or sentinel-1 to sentinel-3 (with --sentinel)"
    return 1
  fi
  if running "${pids[i]}"; then say "$1 is running (pid ${pids[i]}); stop it first (kill ${pids[i]})"; return 1; fi
  if [ "$kind" = sentinel ]; then
    redis-server "$dir/$1/sentinel.conf" --sentinel &
  else
    # The Sentinels name a stopped master until their failover ends (a
    # second or two after the replica answers as master): wait for it.
    for _ in $(seq 20); do
      master=$(current_master) || { say "no Sentinel answers to name the master; restart a Sentinel first"; return 1; }
      [ "$master" != "${ports[i]}" ] && break
      sleep 0.5
    done
    args=("${data_args[@]}")
    if [ "$master" = "${ports[i]}" ]; then
      of="; the Sentinels still name it master (no replica took over within 10 s)"
    else
      args+=(--replicaof 127.0.0.1 "$master")
      of=" as a replica of port $master"
    fi
    launch_redis "$1" "${ports[i]}" "${args[@]}"
  fi
  pid=$!
  disown "$pid"
  answers "${ports[i]}" "$pid" || { say "$1 did not start on port ${ports[i]}: $(tail -2 "$dir/$1/"*.log)"; return 1; }
  pids[i]=$pid down[i]=""
  say "$1 started again on port ${ports[i]} (pid $pid)$of"
}
