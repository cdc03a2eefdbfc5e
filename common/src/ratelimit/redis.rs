//! Rate-limit state in Redis: a hash per key (`tat`, `paused`, `interval`, microseconds),
//! changed only by Lua scripts, which Redis runs atomically. The scripts read the clock with
//! `TIME` on the Redis server, so every process shares one clock whatever its host's, and
//! keep `tat` from ever moving backwards. Keys expire a day after their last use (longer
//! when a backlog reaches further).

use redis::{Script, aio::ConnectionManager};

use super::{RateLimitError, Reservation};

const RESERVE: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local s = redis.call('HMGET', KEYS[1], 'tat', 'paused', 'interval')
local tat = tonumber(s[1]) or 0
local paused = tonumber(s[2]) or 0
local interval = tonumber(s[3]) or tonumber(ARGV[1])
local base = math.max(now, paused)
local start = math.max(tat, base)
local slot = math.max(start - tonumber(ARGV[2]), base)
local new_tat = start + interval
redis.call('HSET', KEYS[1], 'tat', string.format('%.0f', new_tat))
redis.call('PEXPIRE', KEYS[1], math.floor(math.max(tonumber(ARGV[3]), (new_tat - now) / 1000 + 60000)))
return {string.format('%.0f', slot), string.format('%.0f', slot - now), tonumber(s[3]) and string.format('%.0f', interval) or '-1'}
";

const PAUSE: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local till = now + tonumber(ARGV[1])
local paused = tonumber(redis.call('HGET', KEYS[1], 'paused')) or 0
if till > paused then
  redis.call('HSET', KEYS[1], 'paused', string.format('%.0f', till))
end
local ttl = redis.call('PTTL', KEYS[1])
local need = math.floor(math.max(tonumber(ARGV[2]), (till - now) / 1000 + 60000))
if ttl < need then redis.call('PEXPIRE', KEYS[1], need) end
return 1
";

const SET_INTERVAL: &str = r"
redis.call('HSET', KEYS[1], 'interval', ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
";

/// How long an idle key's state is kept, in milliseconds.
const IDLE_TTL_MS: i64 = 24 * 60 * 60 * 1000;

/// A [`super::SharedStore`] over Redis.
#[derive(Clone)]
pub struct RedisStore {
    conn: ConnectionManager,
    prefix: String,
    reserve: Script,
    pause: Script,
    set_interval: Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Default prefix of every key this store writes.
    pub const DEFAULT_PREFIX: &'static str = "searchdeck:ratelimit:";

    /// Connects to `url` (`redis://…`); keys are written under `prefix`.
    pub async fn connect(url: &str, prefix: &str) -> Result<RedisStore, RateLimitError> {
        let conn = redis::Client::open(url)?.get_connection_manager().await?;
        Ok(RedisStore::new(conn, prefix))
    }

    /// A store over an existing connection.
    pub fn new(conn: ConnectionManager, prefix: &str) -> RedisStore {
        RedisStore {
            conn,
            prefix: prefix.to_string(),
            reserve: Script::new(RESERVE),
            pause: Script::new(PAUSE),
            set_interval: Script::new(SET_INTERVAL),
        }
    }

    /// The Redis key holding the state of `key`.
    pub fn redis_key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }

    pub(crate) async fn reserve(
        &self,
        key: &str,
        default_interval_us: i64,
        tolerance_us: i64,
    ) -> Result<Reservation, RateLimitError> {
        let sent = std::time::Instant::now();
        let (slot, wait, interval): (i64, i64, i64) = self
            .reserve
            .key(self.redis_key(key))
            .arg(default_interval_us)
            .arg(tolerance_us)
            .arg(IDLE_TTL_MS)
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(Reservation::new(slot, wait, Some(interval)).answered_after(sent.elapsed()))
    }

    pub(crate) async fn pause(&self, key: &str, duration_us: i64) -> Result<(), RateLimitError> {
        let _: i64 = self
            .pause
            .key(self.redis_key(key))
            .arg(duration_us)
            .arg(IDLE_TTL_MS)
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(())
    }

    pub(crate) async fn set_interval(
        &self,
        key: &str,
        interval_us: i64,
    ) -> Result<(), RateLimitError> {
        let _: i64 = self
            .set_interval
            .key(self.redis_key(key))
            .arg(interval_us)
            .arg(IDLE_TTL_MS)
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(())
    }
}
