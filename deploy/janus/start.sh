#!/bin/sh
# Fills deploy/janus's templates from the environment and starts Janus on them (the container's
# entrypoint; on a Debian host the same two steps, with JANUS_CONFIG_DIR=/etc/janus).
set -eu
export JANUS_CONFIG_DIR="${JANUS_CONFIG_DIR:-/run/janus}"
for name in SFU_SECRET JANUS_ADMIN_SECRET JANUS_RTP_PORTS JANUS_BIND_IP JANUS_WS_PORT JANUS_HTTP_PORT JANUS_ADMIN_PORT; do
  eval "value=\${$name:-}"
  [ -n "$value" ] || { echo "janus: set $name" >&2; exit 1; }
done
mkdir -p "$JANUS_CONFIG_DIR"
for template in "${JANUS_TEMPLATES:-/etc/enclave-janus}"/*.jcfg; do
  envsubst '$SFU_SECRET $JANUS_ADMIN_SECRET $JANUS_RTP_PORTS $JANUS_BIND_IP $JANUS_WS_PORT $JANUS_HTTP_PORT $JANUS_ADMIN_PORT $JANUS_CONFIG_DIR' \
    < "$template" > "$JANUS_CONFIG_DIR/$(basename "$template")"
done
# Behind a 1:1 NAT (most clouds): JANUS_PUBLIC_IP, the address browsers send media to.
exec janus -F "$JANUS_CONFIG_DIR" -C "$JANUS_CONFIG_DIR/janus.jcfg" --disable-colors ${JANUS_PUBLIC_IP:+--nat-1-1=$JANUS_PUBLIC_IP} "$@"
