#!/usr/bin/env bash
# Makes sure the local PostgreSQL and Redis answer, starting them when they are down.
# Sourced by scripts/test.sh; exports TEST_DATABASE_URL and TEST_REDIS_URL when they do.
pg_up() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

if ! pg_up && command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
if ! redis_up && command -v redis-server >/dev/null; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
  for _ in $(seq 1 30); do redis_up && break; sleep 1; done
fi

# The Rust suite runs up to 12 tests at once and every PostgreSQL test opens its own app, with
# pools of up to 32 connections (common/db/src/db.rs 16 + 8, the queue's 4, the rate limiter's
# 4). PostgreSQL's default of 100 connections then runs out when the sync-heavy tests start
# together ("sorry, too many clients already" in its log; the app's requests time out waiting
# for a connection, measured 2026-11-28 at 8): a local server managed here is given 400 (a
# restart; the setting is kept in its postgresql.auto.conf).
pg_local_url=postgres://root@127.0.0.1:5432/test
pg_min_connections=400
if pg_up && [ -z "${TEST_DATABASE_URL:-}" ] && command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
  pg_have="$(psql "$pg_local_url" -Atc 'SHOW max_connections' 2>/dev/null || echo unknown)"
  if [ "$pg_have" != unknown ] && [ "$pg_have" -lt "$pg_min_connections" ]; then
    echo "PostgreSQL: max_connections $pg_have -> $pg_min_connections (restarting it)"
    psql "$pg_local_url" -qc "ALTER SYSTEM SET max_connections = $pg_min_connections"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main restart
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  fi
fi

if pg_up; then
  export TEST_DATABASE_URL="${TEST_DATABASE_URL:-$pg_local_url}"
fi
if redis_up; then
  export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"
fi
if [ "${CI:-}" = "true" ]; then
  [ -n "${TEST_DATABASE_URL:-}" ] || { echo "CI: PostgreSQL is not reachable and could not be started" >&2; exit 1; }
  [ -n "${TEST_REDIS_URL:-}" ] || { echo "CI: Redis is not reachable and could not be started" >&2; exit 1; }
fi
