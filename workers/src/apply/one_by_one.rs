//! Campaigns and ad groups, which have no bulk endpoints: one `PUT` (or `DELETE`) an item,
//! its synced row and change record written in one transaction from Apple's answer.

use searchdeck_common::{
    jobs::{DELETED, ItemResult, money_text},
    queue::JobError,
    store::{
        self,
        synced::edits::{AdGroupState, CampaignState},
    },
};
use searchdeck_provider::{AppleAds, AppleAdsExt, ProviderError};
use serde_json::Value;

use super::{Edit, Send, applied, refused, text};
use crate::JobRun;
use crate::wire::{job_error, micros};

impl Edit<'_> {
    /// A campaign or an ad group, one `PUT` (or `DELETE`).
    pub(crate) async fn send_one(
        &self,
        ctx: &JobRun,
        client: &dyn AppleAds,
        s: Send<'_>,
    ) -> Result<ItemResult, JobError> {
        let permanent = |e: ProviderError| match e {
            ProviderError::Permanent {
                status, message, ..
            } if status != 401 && status != 403 => Ok(message),
            e => Err(job_error(e)),
        };
        if self.field == DELETED {
            // An entity already deleted counts as deleted (`AppleAds::delete`).
            if let Err(e) = client.delete(self.org_id, self.entity(), s.row.id).await {
                return Ok(refused(&s, permanent(e)?));
            }
            let mut tx = ctx.runtime.db.pool.begin().await?;
            let r = self.write_deleted(&mut tx, &s).await?;
            tx.commit().await?;
            return Ok(r);
        }
        let after: Value = match client
            .update(
                self.org_id,
                self.entity(),
                s.row.id,
                &self.request(s.target),
            )
            .await
        {
            Ok(after) => after,
            Err(e) => return Ok(refused(&s, permanent(e)?)),
        };
        let mut tx = ctx.runtime.db.pool.begin().await?;
        let new = if self.level == "CAMPAIGN" {
            let budget = unwrapped(&after["dailyBudget"]);
            let now = CampaignState {
                status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                display_status: text(&after["displayStatus"]),
                daily_budget_micros: micros(budget),
                modification_time: text(&after["modificationTime"]),
                body: after.to_string(),
            };
            store::synced::edits::set_campaign(&mut tx, self.org_key, s.row.id, &now).await?;
            match self.field.as_str() {
                "status" => Some(now.status),
                "name" => None,
                _ => money_text(now.daily_budget_micros),
            }
        } else {
            let cpa = unwrapped(&after["cpaCap"]);
            let now = AdGroupState {
                status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                display_status: text(&after["displayStatus"]),
                default_bid_micros: micros(&after["bidStrategy"]["bid"])
                    .or_else(|| micros(&after["defaultBidAmount"])),
                cpa_goal_micros: micros(cpa),
                automated_keywords_opt_in: match after["automatedKeywordsOptIn"].as_bool() {
                    Some(on) => on,
                    // An answer without it keeps what we hold.
                    None => store::campaign_views::ad_group(
                        &mut *tx,
                        self.org_key,
                        s.row.campaign_id,
                        s.row.id,
                    )
                    .await?
                    .is_some_and(|g| g.automated_keywords_opt_in),
                },
                modification_time: text(&after["modificationTime"]),
                body: after.to_string(),
            };
            store::synced::edits::set_ad_group(&mut tx, self.org_key, s.row.id, &now).await?;
            match self.field.as_str() {
                "status" => Some(now.status),
                "cpaGoal" => money_text(now.cpa_goal_micros),
                "name" => None,
                _ => money_text(now.default_bid_micros),
            }
        };
        let new = match new {
            Some(v) => Some(v),
            // A rename: the name Apple answered (ours if it left it out).
            None => {
                let name = text(&after["name"]).unwrap_or_else(|| s.target.to_string());
                store::synced::edits::set_name(&mut tx, &self.level, self.org_key, s.row.id, &name)
                    .await?;
                Some(name)
            }
        };
        self.record(&mut tx, &s, new.clone()).await?;
        tx.commit().await?;
        Ok(applied(&s, new))
    }
}

/// A money field as Apple answers it: the amount itself, or wrapped as `{"value": …}`.
fn unwrapped(field: &Value) -> &Value {
    field.get("value").unwrap_or(field)
}
