# Shared by the bench-*.sh scripts (sourced, not run): each defines say()
# before sourcing this.

# raise_fd_limit NEEDED WHAT: lifts the open-descriptor limit to the hard
# limit; exits with a sentence when the hard limit is below NEEDED.
raise_fd_limit() {
  local hard
  hard=$(ulimit -Hn)
  ulimit -n "$hard"
  if [ "$hard" != unlimited ] && [ "$hard" -lt "$1" ]; then
    say "the descriptor hard limit is $hard; $2 need $1 (raise it with ulimit -Hn, or ask for fewer)"
    exit 1
  fi
}

# wait_port PORT: returns once something listens on 127.0.0.1:PORT; exits
# after 10 s with a sentence.
wait_port() {
  for _ in $(seq 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.05
  done
  say "nothing listens on port $1"; exit 1
}

# The one server a run has up: start it with `... & server_pid=$!`;
# stop_server stops and reaps it (trap stop_server EXIT does it at the end).
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
