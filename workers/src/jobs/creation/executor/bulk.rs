//! The bulk steps of a plan: an ad group's keywords and negatives, a campaign's negatives.
//! What the ad group (or campaign) already holds is queried first and only the missing is
//! sent, 1,000 a call; items Apple refuses go to `rejected`, a lost answer is resolved by
//! querying again.

use super::*;

impl<J: Job<Progress = CreationProgress>> Executor<'_, J> {
    /// The keywords of ad group `id`: those Apple does not hold yet, in bulk.
    pub(super) async fn keywords(
        &mut self,
        campaign: &str,
        group: &str,
        id: i64,
        keywords: &[PlannedKeyword],
    ) -> Result<u64, JobError> {
        if keywords.is_empty() {
            return Ok(0);
        }
        let items: Vec<(String, String, Value)> = keywords
            .iter()
            .map(|k| {
                let mut d = json!({ "adGroupId": id, "text": k.text, "matchType": k.match_type });
                if let Some(b) = k.bid_micros {
                    d["bid"] = self.money(b);
                }
                if let Some(s) = &k.status {
                    d["status"] = json!(s);
                }
                (k.text.clone(), k.match_type.clone(), d)
            })
            .collect();
        let filter = json!({ "field": "adGroupId", "operator": "EQUALS", "value": [id] });
        self.bulk(
            format!("k:{id}"),
            Entity::Keywords,
            id,
            filter,
            None,
            items,
            (campaign, Some(group)),
            "createKeywords",
        )
        .await
    }

    /// Negatives of ad group `group` (or of the campaign when None).
    pub(super) async fn negatives(
        &mut self,
        campaign: &str,
        campaign_id: i64,
        group: Option<(i64, &str)>,
        negatives: &[PlannedNegative],
    ) -> Result<(), JobError> {
        if negatives.is_empty() {
            return Ok(());
        }
        let items: Vec<(String, String, Value)> = negatives
            .iter()
            .map(|n| {
                let mut d = json!({ "text": n.text, "matchType": n.match_type });
                match group {
                    Some((g, _)) => d["adGroupId"] = json!(g),
                    None => d["campaignId"] = json!(campaign_id),
                }
                (n.text.clone(), n.match_type.clone(), d)
            })
            .collect();
        let (key, filter, level) = match group {
            Some((g, _)) => (
                format!("ng:{g}"),
                json!({ "field": "adGroupId", "operator": "EQUALS", "value": [g] }),
                Some(g),
            ),
            None => (
                format!("nc:{campaign_id}"),
                json!({ "field": "campaignId", "operator": "EQUALS", "value": [campaign_id] }),
                None,
            ),
        };
        self.bulk(
            key,
            Entity::NegativeKeywords,
            group.map_or(campaign_id, |g| g.0),
            filter,
            Some(level),
            items,
            (campaign, group.map(|g| g.1)),
            "createNegatives",
        )
        .await?;
        Ok(())
    }

    /// What `entity` rows matching `filter` Apple holds (live ones; negatives of `level`).
    pub(super) async fn held(
        &self,
        entity: Entity,
        filter: &Value,
        level: Option<Option<i64>>,
    ) -> Result<Vec<Value>, ProviderError> {
        let mut out = Vec::new();
        let mut offset = 0;
        loop {
            let query = json!({
                "filters": [filter, { "field": "deleted", "operator": "EQUALS", "value": [false] }],
                "sorting": [{ "field": "id", "order": "ASC" }],
                "pagination": { "offset": offset, "pageSize": PAGE, "fetchTotalCount": true },
            });
            let page = self
                .client
                .query_json(self.scope.org_id, entity, &query)
                .await?;
            let n = page.items.len() as u64;
            out.extend(page.items);
            offset += n;
            if n < PAGE || page.total.is_some_and(|t| offset >= t) {
                break;
            }
        }
        if let Some(level) = level {
            out.retain(|v| v["adGroupId"].as_i64() == level);
        }
        Ok(out)
    }

    /// A bulk step: queries what is held, sends the missing (1,000 a call), resolves lost
    /// answers by querying again, records the step with its refusals; the plan's items in
    /// place at Apple.
    #[expect(
        clippy::too_many_arguments,
        reason = "one step's what, where and whose"
    )]
    pub(super) async fn bulk(
        &mut self,
        key: String,
        entity: Entity,
        parent: i64,
        filter: Value,
        level: Option<Option<i64>>,
        items: Vec<(String, String, Value)>,
        (campaign, group): (&str, Option<&str>),
        method: &str,
    ) -> Result<u64, JobError> {
        if let Some(r) = self.recorded.get(&key) {
            let rejected: Vec<RejectedItem> = r
                .detail
                .as_deref()
                .and_then(|d| serde_json::from_str(d).ok())
                .unwrap_or_default();
            let present = r.provider_id as u64;
            self.progress.rejected.extend(rejected);
            return Ok(present);
        }
        let name = group.unwrap_or(campaign).to_string();
        let mut rejected: HashMap<(String, String), String> = HashMap::new();
        // A parent this run created holds nothing yet: no need to ask.
        let mut known: Option<Vec<Value>> = self.fresh.contains(&parent).then(Vec::new);
        let mut tries = 0;
        let held = loop {
            tries += 1;
            let held = match known.take() {
                Some(h) => h,
                None => match self.held(entity, &filter, level).await {
                    Ok(h) => h,
                    Err(e) => return Err(self.failed(method, &name, e).await),
                },
            };
            let have: HashSet<(String, String)> = held.iter().map(key_of).collect();
            let missing: Vec<&(String, String, Value)> = items
                .iter()
                .filter(|(t, m, _)| {
                    let k = item_key(t, m);
                    !have.contains(&k) && !rejected.contains_key(&k)
                })
                .collect();
            if missing.is_empty() {
                break held;
            }
            if tries > BULK_TRIES {
                return Err(JobError::retryable(anyhow::anyhow!(
                    "{method} of {name}: Apple's answers did not settle"
                )));
            }
            let data: Vec<Value> = missing.iter().map(|(_, _, d)| d.clone()).collect();
            match self
                .client
                .bulk_json(self.scope.org_id, entity, "create", &data)
                .await
            {
                Ok(answers) => {
                    let mut accepted = held;
                    let mut duplicate = false;
                    for (i, a) in answers.into_iter().enumerate() {
                        let index = a.correlation_id.map_or(i, |c| c as usize);
                        let Some((text, match_type, _)) = missing.get(index) else {
                            continue;
                        };
                        match a.outcome {
                            Ok(v) => accepted.push(v),
                            // Made by an earlier call whose answer was lost: read back below.
                            Err(e) if is_duplicate(&e) => duplicate = true,
                            Err(e) => {
                                rejected.insert(item_key(text, match_type), message_of(&e));
                            }
                        }
                    }
                    if !duplicate {
                        break accepted;
                    }
                }
                Err(e @ ProviderError::Permanent { .. }) => {
                    return Err(self.fail(method, &name, e).await);
                }
                // The answer may be lost after Apple applied it: query again.
                Err(ProviderError::Retryable { .. }) => {}
                Err(e) => return Err(job_error(e)),
            }
        };
        let wanted: HashSet<(String, String)> =
            items.iter().map(|(t, m, _)| item_key(t, m)).collect();
        let present = held.iter().filter(|v| wanted.contains(&key_of(v))).count() as u64;
        let rejected: Vec<RejectedItem> = items
            .iter()
            .filter_map(|(t, m, _)| {
                rejected.get(&item_key(t, m)).map(|message| RejectedItem {
                    campaign: campaign.to_string(),
                    ad_group: group.map(str::to_string),
                    text: t.clone(),
                    match_type: m.clone(),
                    message: message.clone(),
                })
            })
            .collect();
        let detail =
            (!rejected.is_empty()).then(|| serde_json::to_string(&rejected).unwrap_or_default());
        match entity {
            Entity::Keywords => {
                let rows = held
                    .iter()
                    .map(wire::keyword)
                    .collect::<Result<Vec<_>, _>>()?;
                // The plan's keywords in place: made by this job.
                let made: Vec<Made> = held
                    .iter()
                    .filter(|v| wanted.contains(&key_of(v)))
                    .filter_map(|v| {
                        Some(Made {
                            level: "KEYWORD",
                            id: id_of(&v["id"])?,
                            campaign_id: id_of(&v["campaignId"]).unwrap_or_default(),
                            ad_group_id: Some(parent),
                            name: v["text"].as_str().unwrap_or_default().to_string(),
                            campaign_name: campaign.to_string(),
                            value: v["matchType"].as_str().unwrap_or_default().to_string(),
                        })
                    })
                    .collect();
                self.save(&key, present as i64, detail.as_deref(), &rows, &made)
                    .await?;
            }
            _ => {
                let rows = held
                    .iter()
                    .map(wire::negative)
                    .collect::<Result<Vec<_>, _>>()?;
                self.save(&key, present as i64, detail.as_deref(), &rows, &[])
                    .await?;
            }
        }
        self.progress.rejected.extend(rejected);
        Ok(present)
    }
}

/// What a keyword or negative is unique by in its ad group (or campaign).
fn item_key(text: &str, match_type: &str) -> (String, String) {
    (text.trim().to_lowercase(), match_type.to_string())
}

fn key_of(v: &Value) -> (String, String) {
    item_key(
        v["text"].as_str().unwrap_or_default(),
        v["matchType"].as_str().unwrap_or_default(),
    )
}

/// Whether a refused bulk item already exists.
fn is_duplicate(e: &ApiErrorBody) -> bool {
    e.code.starts_with("DUPLICATE_")
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code.starts_with("DUPLICATE_"))
}

/// Apple's message of a refused bulk item.
fn message_of(e: &ApiErrorBody) -> String {
    e.details
        .as_ref()
        .and_then(|d| d.iter().find_map(|d| d.message.clone()))
        .or_else(|| e.message.clone())
        .unwrap_or_else(|| e.code.clone())
}
