//! Search terms a run adds as keywords: `POST /keywords/bulk-create` per ad group, one
//! already there applied when this run's change record says it added it (else skipped), a
//! duplicate Apple reports for one we did not hold read back as an earlier attempt's lost
//! answer.

use super::*;

fn duplicate(e: &ApiErrorBody) -> bool {
    e.code.starts_with("DUPLICATE_")
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code.starts_with("DUPLICATE_"))
}

fn message_of(e: &ApiErrorBody) -> String {
    e.details
        .as_ref()
        .and_then(|d| d.iter().find_map(|d| d.message.clone()))
        .or_else(|| e.message.clone())
        .unwrap_or_else(|| e.code.clone())
}

/// Search terms added as keywords of ad group `ad_group_id` (items of `group`), recorded in
/// the run's notification.
pub(super) async fn add_keywords(
    ctx: &JobRun,
    client: &dyn AppleAds,
    (run, notification): (&RunRow, &NewNotification),
    org_key: i64,
    ad_group_id: i64,
    group: &[&ItemRow],
) -> Result<Vec<Written>, JobError> {
    let db = &ctx.runtime.db;
    let existing = rule_runs::keyword_ids_in(&db.pool, org_key, ad_group_id).await?;
    let recorded: Vec<i64> = changes::of_job(&db.pool, &run.id, "KEYWORD", "created")
        .await?
        .into_iter()
        .map(|(id, _, _)| id)
        .collect();
    let key = |i: &ItemRow| {
        let d = i.detail.clone().unwrap_or(Value::Null);
        (
            d["text"].as_str().unwrap_or(&i.name).to_lowercase(),
            d["matchType"].as_str().unwrap_or("EXACT").to_string(),
        )
    };
    let with_id = |i: &ItemRow, id: i64| {
        let mut d = i.detail.clone().unwrap_or(json!({}));
        d["id"] = json!(id.to_string());
        Some(d)
    };
    let mut out = Vec::new();
    let mut to_send: Vec<&ItemRow> = Vec::new();
    for &i in group {
        match existing.get(&key(i)) {
            Some(id) if recorded.contains(id) => {
                out.push((i.seq, rule_runs::ITEM_APPLIED, None, with_id(i, *id)))
            }
            Some(_) => out.push((
                i.seq,
                rule_runs::ITEM_SKIPPED,
                Some("Already a keyword there".into()),
                None,
            )),
            None => to_send.push(i),
        }
    }
    if to_send.is_empty() {
        return Ok(out);
    }
    let data: Vec<Value> = to_send
        .iter()
        .map(|i| {
            let (text, match_type) = key(i);
            let d = i.detail.clone().unwrap_or(Value::Null);
            let text = d["text"].as_str().map_or(text, str::to_string);
            let mut v = json!({ "adGroupId": ad_group_id, "text": text, "matchType": match_type });
            if let Some(bid) = d["bid"].as_str() {
                v["bid"] = json!({ "amount": bid, "currency": run.currency });
            }
            v
        })
        .collect();
    let answers = match client
        .bulk::<Value>(run.org_id, Entity::Keywords, "create", &data)
        .await
    {
        Ok(a) => a,
        Err(ProviderError::Permanent {
            status, message, ..
        }) if status != 401 && status != 403 => {
            for i in to_send {
                out.push((i.seq, rule_runs::ITEM_REFUSED, Some(message.clone()), None));
            }
            return Ok(out);
        }
        Err(e) => return Err(job_error(e)),
    };
    let mut by_index: HashMap<usize, Result<Value, ApiErrorBody>> = answers
        .into_iter()
        .enumerate()
        .map(|(n, a)| (a.correlation_id.map_or(n, |c| c as usize), a.outcome))
        .collect();
    let mut lost: Option<Vec<Value>> = None;
    let mut added: Vec<(&ItemRow, entities::Keyword)> = Vec::new();
    for (n, i) in to_send.iter().enumerate() {
        match by_index.remove(&n) {
            Some(Ok(v)) => added.push((i, keyword(&v)?)),
            Some(Err(e)) if duplicate(&e) => {
                // Added by an earlier attempt whose answer was lost: read it back.
                if lost.is_none() {
                    let query = json!({
                        "filters": [
                            { "field": "adGroupId", "operator": "EQUALS", "value": [ad_group_id] },
                            { "field": "deleted", "operator": "EQUALS", "value": [false] },
                        ],
                        "pagination": { "offset": 0, "pageSize": 1000 },
                    });
                    let page = client
                        .query::<Value>(run.org_id, Entity::Keywords, &query)
                        .await
                        .map_err(job_error)?;
                    lost = Some(page.items);
                }
                let found = lost.iter().flatten().find(|v| {
                    v["text"].as_str().map(str::to_lowercase).as_deref() == Some(key(i).0.as_str())
                        && v["matchType"].as_str() == Some(key(i).1.as_str())
                });
                match found {
                    Some(v) => added.push((i, keyword(v)?)),
                    None => out.push((i.seq, rule_runs::ITEM_REFUSED, Some(message_of(&e)), None)),
                }
            }
            Some(Err(e)) => out.push((i.seq, rule_runs::ITEM_REFUSED, Some(message_of(&e)), None)),
            None => out.push((
                i.seq,
                rule_runs::ITEM_REFUSED,
                Some("Apple Ads did not answer for this item".into()),
                None,
            )),
        }
    }
    if added.is_empty() {
        return Ok(out);
    }
    let mut conn = db.pool.acquire().await?;
    let campaign_ids: Vec<i64> = added.iter().map(|(_, k)| k.campaign_id).collect();
    let names: HashMap<i64, String> =
        bulk::rows(&mut conn, org_key, "CAMPAIGN", "name", None, &campaign_ids)
            .await?
            .into_iter()
            .map(|r| (r.id, r.name))
            .collect();
    drop(conn);
    let mut tx = db.pool.begin().await?;
    let rows: Vec<entities::Keyword> = added.iter().map(|(_, k)| k.clone()).collect();
    entities::upsert(&mut tx, org_key, &rows, ids::now_ms() / 1000).await?;
    let notification_id = notifications::record(&mut tx, notification).await?;
    for (i, k) in &added {
        changes::insert(
            &mut tx,
            &changes::NewChange {
                id: ids::new_id(),
                workspace_id: run.workspace_id.clone(),
                user_id: run.user_id.clone(),
                user_email: run.user_email.clone(),
                account_id: Some(run.account_id.clone()),
                org_id: run.org_id,
                level: "KEYWORD",
                entity_id: k.id,
                campaign_id: k.campaign_id,
                ad_group_id: Some(k.ad_group_id),
                entity_name: k.text.clone(),
                campaign_name: names.get(&k.campaign_id).cloned().unwrap_or_default(),
                field: "created".into(),
                old_value: None,
                new_value: Some(k.match_type.clone()),
                currency: None,
                source: source_of(run),
                job_id: Some(run.id.clone()),
                notification_id: Some(notification_id.clone()),
                created_at: ids::now_ms() / 1000,
            },
        )
        .await?;
        out.push((i.seq, rule_runs::ITEM_APPLIED, None, with_id(i, k.id)));
    }
    tx.commit().await?;
    Ok(out)
}
