//! What a sync would have stored for a connected account, written directly so the catalog
//! and tag routes can be tested without running a sync: a synced campaign group
//! (`sync_orgs`) and its apps and entities.

use crate::harness::Connected;
use axum::http::StatusCode;
use searchdeck_common::store;

impl Connected {
    /// A key-pair connection of `owner`'s workspace: (account id, its first campaign group),
    /// with nothing synced. The sync the connection queued is stopped (as a member would
    /// stop it) and whatever it stored before stopping removed, so the test's own synced
    /// rows are the only ones and no sync writes beside them.
    pub async fn connected(&self, owner: &str) -> (String, i64) {
        let ids = self.registered_key(owner).await;
        let res = self.create(owner, "Main", &ids).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let item = &res.json["result"]["item"];
        let account = item["_id"].as_str().unwrap().to_string();
        let pool = &self.app.state.db.pool;
        let workspace: String =
            sqlx::query_scalar("SELECT workspace_id FROM accounts WHERE id = $1")
                .bind(&account)
                .fetch_one(pool)
                .await
                .unwrap();
        for _ in 0..600 {
            let running: Vec<String> =
                sqlx::query_scalar("SELECT id FROM tasks WHERE workspace_id = $1 AND finish = 0")
                    .bind(&workspace)
                    .fetch_all(pool)
                    .await
                    .unwrap();
            if running.is_empty() {
                break;
            }
            for id in running {
                store::tasks::request_cancel(pool, &workspace, &id)
                    .await
                    .unwrap();
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        sqlx::query("DELETE FROM sync_orgs WHERE account_id = $1")
            .bind(&account)
            .execute(pool)
            .await
            .unwrap();
        (
            account,
            item["acls"][0]["orgId"]
                .as_str()
                .unwrap()
                .parse::<i64>()
                .unwrap(),
        )
    }

    /// The `org_key` of a synced campaign group, created on first use.
    pub async fn synced_org(&self, account: &str, org_id: i64) -> i64 {
        let pool = &self.app.state.db.pool;
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT org_key FROM sync_orgs WHERE account_id = $1 AND org_id = $2",
        )
        .bind(account)
        .bind(org_id)
        .fetch_optional(pool)
        .await
        .unwrap();
        if let Some(key) = found {
            return key;
        }
        sqlx::query_scalar(
            "INSERT INTO sync_orgs (account_id, org_id) VALUES ($1, $2) RETURNING org_key",
        )
        .bind(account)
        .bind(org_id)
        .fetch_one(pool)
        .await
        .unwrap()
    }

    /// A synced app of campaign group `org_key`.
    pub async fn synced_app(
        &self,
        org_key: i64,
        adam_id: i64,
        name: &str,
        developer: Option<&str>,
    ) {
        sqlx::query(
            "INSERT INTO asa_apps (org_key, adam_id, app_name, developer_name, synced_at) VALUES ($1, $2, $3, $4, 1)",
        )
        .bind(org_key)
        .bind(adam_id)
        .bind(name)
        .bind(developer)
        .execute(&self.app.state.db.pool)
        .await
        .unwrap();
    }

    /// A synced entity of `table` (asa_campaigns, asa_ad_groups, asa_keywords or
    /// asa_search_terms) with id `id`.
    pub async fn synced_entity(&self, table: &str, org_key: i64, id: i64) {
        let sql = match table {
            "asa_campaigns" => {
                "INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) VALUES ($1, $2, 'C', 'ENABLED', 1)"
            }
            "asa_ad_groups" => {
                "INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, $2, 1, 'G', 'ENABLED', 1)"
            }
            "asa_keywords" => {
                "INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, $2, 1, 2, 'k', 'EXACT', 'ACTIVE', 1)"
            }
            _ => {
                "INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, text, source) VALUES ($1, $2, 1, 2, 't', 'AUTO')"
            }
        };
        sqlx::query(sql)
            .bind(org_key)
            .bind(id)
            .execute(&self.app.state.db.pool)
            .await
            .unwrap();
    }
}
