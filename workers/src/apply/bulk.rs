//! Keywords and negative keywords through Apple's bulk update and delete endpoints, one
//! call a chunk (up to 1,000 items, partial success allowed); the chunk's accepted items are
//! written in one transaction.

use searchdeck_common::{
    jobs::{BulkEditProgress, DELETED, money_text},
    queue::JobError,
    store::{
        self,
        synced::edits::{KeywordState, NegativeState},
    },
};
use searchdeck_provider::{AppleAds, AppleAdsExt, ProviderError, error::ApiErrorBody};
use serde_json::{Value, json};

use super::{Edit, Send, applied, message_of, refused, text};
use crate::JobRun;
use crate::wire::{job_error, micros};

/// Whether a refusal says the entity is already deleted.
fn already_deleted(e: &ApiErrorBody) -> bool {
    e.code == "ENTITY_DELETED"
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code == "ENTITY_DELETED")
}

impl Edit<'_> {
    /// Keywords or negative keywords through their bulk update or delete, one call for the
    /// chunk.
    pub(crate) async fn send_bulk(
        &self,
        ctx: &JobRun,
        client: &dyn AppleAds,
        items: Vec<Send<'_>>,
        progress: &mut BulkEditProgress,
    ) -> Result<(), JobError> {
        let deleting = self.field == DELETED;
        let data: Vec<Value> = items
            .iter()
            .map(|s| {
                let mut d = if deleting {
                    json!({})
                } else {
                    self.request(s.target)
                };
                d["id"] = json!(s.row.id);
                d
            })
            .collect();
        let op = if deleting { "delete" } else { "update" };
        let answers = match client
            .bulk::<Value>(self.org_id, self.entity(), op, &data)
            .await
        {
            Ok(a) => a,
            // The whole call refused: every item of it is, with the provider's message.
            Err(ProviderError::Permanent {
                status, message, ..
            }) if status != 401 && status != 403 => {
                for s in items {
                    progress.push(refused(&s, message.clone()));
                }
                return Ok(());
            }
            Err(e) => return Err(job_error(e)),
        };
        let mut by_index = super::by_item(answers);
        // The chunk's accepted items are written in one transaction: all or none, and a
        // retry sends the absolute targets of the unwritten ones again.
        let mut tx = ctx.runtime.db.pool.begin().await?;
        let mut results = Vec::with_capacity(items.len());
        for (i, s) in items.into_iter().enumerate() {
            let r = match by_index.remove(&i) {
                Some(Err(e)) if deleting && already_deleted(&e) => {
                    self.write_deleted(&mut tx, &s).await?
                }
                Some(Ok(_)) if deleting => self.write_deleted(&mut tx, &s).await?,
                Some(Ok(after)) => {
                    let new = if self.level == "NEGATIVE_KEYWORD" {
                        let now = NegativeState {
                            status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                            modification_time: text(&after["modificationTime"]),
                        };
                        store::synced::edits::set_negative(&mut *tx, self.org_key, s.row.id, &now)
                            .await?;
                        Some(now.status)
                    } else {
                        let now = KeywordState {
                            status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                            display_status: text(&after["displayStatus"]),
                            bid_micros: micros(&after["bid"]).or(s.row.money),
                            modification_time: text(&after["modificationTime"]),
                        };
                        store::synced::edits::set_keyword(&mut tx, self.org_key, s.row.id, &now)
                            .await?;
                        if self.is_money() {
                            money_text(now.bid_micros)
                        } else {
                            Some(now.status)
                        }
                    };
                    self.record(&mut tx, &s, new.clone()).await?;
                    applied(&s, new)
                }
                Some(Err(e)) => refused(&s, message_of(&e)),
                None => refused(&s, "Apple Ads did not answer for this item".into()),
            };
            results.push(r);
        }
        tx.commit().await?;
        for r in results {
            progress.push(r);
        }
        Ok(())
    }
}
