//! Helpers for the test suites of every crate (cargo feature `test-support`): backend URLs
//! from the environment, and a PostgreSQL database created for one test and dropped with it.

/// The URL in `var`, or `None` outside CI when it is unset. Under `CI=true` a missing URL
/// fails the test: the PostgreSQL and Redis variants must run in CI, never silently skip.
pub fn backend_url(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(v) if !v.trim().is_empty() => Some(v),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but {var} is not set: this backend's tests must run in CI")
        }
        _ => {
            eprintln!("{var} not set: this backend's variant is not run");
            None
        }
    }
}

/// `postgres://host/db?opts` with the database name replaced by `name`.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map(|(b, q)| (b, Some(q)))
        .unwrap_or((url, None));
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let server = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    match query {
        Some(q) => format!("{server}/{name}?{q}"),
        None => format!("{server}/{name}"),
    }
}

/// A fresh PostgreSQL database on the server of an admin URL; dropped (with its open
/// connections) when this value is dropped.
#[derive(Debug)]
pub struct TestDatabase {
    /// URL of the new database.
    pub url: String,
    admin_url: String,
    name: String,
}

impl TestDatabase {
    /// Creates `<prefix>_<pid>_<random>` on the server of `admin_url`.
    pub async fn create(admin_url: &str, prefix: &str) -> TestDatabase {
        let name = format!("{prefix}_{}_{}", std::process::id(), crate::ids::new_id());
        let admin = sqlx::PgPool::connect(admin_url)
            .await
            .expect("connect to the PostgreSQL test server");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&admin)
            .await
            .expect("create the test database");
        admin.close().await;
        TestDatabase {
            url: with_database(admin_url, &name),
            admin_url: admin_url.to_string(),
            name,
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop cannot await: a helper thread with its own runtime drops the database; FORCE
        // ends the connections the test still holds.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                if let Ok(admin) = sqlx::PgPool::connect(&admin_url).await {
                    let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                    let _ = sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&admin).await;
                }
            });
        })
        .join();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_name_is_replaced_keeping_options() {
        assert_eq!(
            super::with_database("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://h/test?sslmode=disable", "x"),
            "postgres://h/x?sslmode=disable"
        );
    }
}
