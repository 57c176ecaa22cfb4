#!/usr/bin/env bash
# Writes deploy/nginx/neonsync.conf with your listen addresses, server name,
# certificate, log directory and nodes to standard output, e.g.
#
#   deploy/nginx/render.sh --listen 443 --listen '[::]:443' \
#     --server-name sync.example.com \
#     --cert /etc/letsencrypt/live/sync.example.com/fullchain.pem \
#     --key /etc/letsencrypt/live/sync.example.com/privkey.pem \
#     --node 10.0.0.2:7681 --node 10.0.0.3:7681 > /etc/nginx/conf.d/neonsync.conf
#   nginx -t && systemctl reload nginx
#
# Flags left out keep the file's example values. deploy/cluster/run-local.sh
# and the tests make their configurations with it.
set -euo pipefail

usage() {
  cat >&2 <<'USAGE'
usage: render.sh --cert FILE --key FILE --node HOST:PORT [--node HOST:PORT …]
                 [--listen ADDR:PORT …] [--server-name NAME] [--logs DIR] [CONF]
  --listen ADDR   an nginx listen address (443, 127.0.0.1:8443, [::1]:8443); repeatable
  --server-name   the host name clients connect to
  --cert, --key   the TLS certificate chain and its private key (PEM)
  --node          a neonsyncd node, HOST:PORT; repeatable
  --logs DIR      where nginx writes neonsync.access.log and neonsync.error.log
  CONF            the template (default: neonsync.conf beside this script)
USAGE
  exit 2
}

listens=() nodes=() name="" cert="" key="" logs=""
conf="$(dirname "$0")/neonsync.conf"
while [ $# -gt 0 ]; do
  case "$1" in
    --listen) [ $# -ge 2 ] || usage; listens+=("$2"); shift 2 ;;
    --node) [ $# -ge 2 ] || usage; nodes+=("$2"); shift 2 ;;
    --server-name) [ $# -ge 2 ] || usage; name="$2"; shift 2 ;;
    --cert) [ $# -ge 2 ] || usage; cert="$2"; shift 2 ;;
    --key) [ $# -ge 2 ] || usage; key="$2"; shift 2 ;;
    --logs) [ $# -ge 2 ] || usage; logs="${2%/}"; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "render.sh: unknown option $1" >&2; usage ;;
    *) conf="$1"; shift ;;
  esac
done
[ -n "$cert" ] && [ -n "$key" ] && [ ${#nodes[@]} -gt 0 ] || usage
for value in "${listens[@]}" "${nodes[@]}" "$name" "$cert" "$key" "$logs"; do
  case "$value" in
    *[[:space:]\;\{\}\"\'\|]*) echo "render.sh: \"$value\" holds a space, quote, brace, bar or semicolon, which this script does not write into nginx's syntax" >&2; exit 2 ;;
  esac
done
for node in "${nodes[@]}"; do
  [[ "$node" =~ ^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]+$ ]] || { echo "render.sh: --node $node is not HOST:PORT" >&2; exit 2; }
done

join() { local IFS='|'; echo "$*"; }
awk -v listens="$(join "${listens[@]}")" -v nodes="$(join "${nodes[@]}")" \
    -v name="$name" -v cert="$cert" -v key="$key" -v logs="$logs" '
  function indent(line) { match(line, /^[ \t]*/); return substr(line, 1, RLENGTH) }
  BEGIN { nl = split(listens, L, "|"); nn = split(nodes, N, "|") }
  /^[ \t]*listen / {
    seen["listen"]++
    if (nl == 0) { print; next }
    if (!listened) { for (i = 1; i <= nl; i++) print indent($0) "listen " L[i] " ssl;"; listened = 1 }
    next
  }
  /^[ \t]*upstream / { noded = 0 }
  /^[ \t]*server [^ ]+ max_fails=/ {
    seen["node"]++
    if (!noded) { for (i = 1; i <= nn; i++) print indent($0) "server " N[i] " " $3 " " $4; noded = 1 }
    next
  }
  /^[ \t]*server_name / { seen["name"]++; if (name != "") { print indent($0) "server_name " name ";"; next } }
  /^[ \t]*ssl_certificate / { seen["cert"]++; print indent($0) "ssl_certificate     " cert ";"; next }
  /^[ \t]*ssl_certificate_key / { seen["key"]++; print indent($0) "ssl_certificate_key " key ";"; next }
  /^[ \t]*(access|error)_log / {
    seen["logs"]++
    if (logs != "") { file = $2; sub(/.*\//, "", file); sub(/;.*/, "", file); print indent($0) $1 " " logs "/" file ";"; next }
  }
  { print }
  END {
    split("listen node name cert key logs", want, " ")
    for (i in want) if (!seen[want[i]]) { print "render.sh: the template has no " want[i] " line to fill" > "/dev/stderr"; failed = 1 }
    exit failed
  }
' "$conf"
