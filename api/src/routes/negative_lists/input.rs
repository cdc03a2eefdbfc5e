//! The checks and steps the list routes share: a list's name and terms parsed as
//! docs/product.md#5-keyword-lists, its places resolved among the workspace's synced campaigns and
//! ad groups, the `dryRun` conflicts with the keywords those places bid on, and the
//! `apply-negative-lists` task recorded with its job in the saving transaction.

use std::collections::HashSet;

use searchdeck_common::{
    Db,
    ids::string_id,
    jobs::{ApplyNegativeLists, PlaceRef, blocks},
    queue::{
        Job,
        outbox::{self, OutboxOptions},
    },
    store::{
        self,
        negative_lists::{ListKeyword, Place},
        tasks::NewTask,
    },
    suggester::text::parse_list,
};
use serde_json::Value;

use super::{
    Conflict, ConflictKeyword, KEYWORDS_MAX, ListKeywordItem, NAME_MAX, NAME_TAKEN, PLACES_MAX,
    PlaceItem,
};
use crate::{
    access::{Editor, ScopeQuery, pick},
    domain::REQUIRED,
    error::{ApiError, ApiResult, FieldError},
    state::AppState,
};

/// The checked name, or a field error.
pub(super) fn checked_name(raw: &str, errors: &mut Vec<FieldError>) -> Option<String> {
    let name = raw.trim();
    if name.is_empty() {
        errors.push(FieldError::new("name", REQUIRED));
    } else if name.chars().count() > NAME_MAX {
        errors.push(FieldError::new(
            "name",
            format!("At most {NAME_MAX} characters"),
        ));
    } else if crate::input::has_control(name, false) {
        errors.push(FieldError::new(
            "name",
            "The name contains invisible characters",
        ));
    } else {
        return Some(name.to_string());
    }
    None
}

/// The terms of `items` parsed as docs/product.md#5-keyword-lists (a text of several lines is
/// several terms), deduplicated per match type, or field errors.
pub(super) fn checked_keywords(
    items: &[ListKeywordItem],
    errors: &mut Vec<FieldError>,
) -> Vec<ListKeyword> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let match_type = match item
            .match_type
            .as_deref()
            .map(|m| m.trim().to_ascii_uppercase())
            .as_deref()
        {
            None | Some("" | "EXACT") => "EXACT",
            Some("BROAD") => "BROAD",
            Some(_) => {
                errors.push(FieldError::new(
                    format!("keywords.{i}.matchType"),
                    "Match type must be EXACT or BROAD",
                ));
                continue;
            }
        };
        for text in parse_list(&[&item.text]) {
            if let Some(message) = crate::domain::keyword_too_long(&text) {
                errors.push(FieldError::new(format!("keywords.{i}.text"), message));
                continue;
            }
            let term = ListKeyword {
                text,
                match_type: match_type.to_string(),
            };
            if seen.insert(term.clone()) {
                out.push(term);
            }
        }
    }
    if out.is_empty() && !errors.iter().any(|e| e.field.starts_with("keywords")) {
        errors.push(FieldError::new("keywords", REQUIRED));
    }
    if out.len() > KEYWORDS_MAX {
        errors.push(FieldError::new(
            "keywords",
            format!("At most {KEYWORDS_MAX} keywords per list"),
        ));
    }
    out
}

/// A 404 naming the place field that names nothing of the workspace.
fn place_not_found(field: String, what: &str) -> ApiError {
    ApiError::Status {
        status: axum::http::StatusCode::NOT_FOUND,
        message: format!("{what} not found"),
        errors: vec![FieldError::new(field, format!("{what} not found"))],
        meta: None,
        retry_after: None,
    }
}

/// Every place resolved among the workspace's synced campaigns and ad groups (live ones),
/// each once, with the names as synced; 400 on a malformed one, 404 naming the first that
/// is not the workspace's.
pub(super) async fn resolved_places(
    state: &AppState,
    workspace_id: &str,
    items: &[PlaceItem],
) -> ApiResult<Vec<(Place, i64)>> {
    if items.len() > PLACES_MAX {
        return Err(ApiError::field(
            "places",
            &format!("At most {PLACES_MAX} places per list"),
        ));
    }
    let mut errors = Vec::new();
    let mut parsed = Vec::new();
    for (i, p) in items.iter().enumerate() {
        let campaign = p.campaign_id.as_ref().and_then(string_id::parse);
        let group = match &p.ad_group_id {
            None | Some(Value::Null) => Some(None),
            Some(v) => string_id::parse(v).map(Some),
        };
        let org = match &p.org_id {
            None | Some(Value::Null) => Some(None),
            Some(v) => string_id::parse(v).map(|o| Some(o.to_string())),
        };
        match (campaign, group, org) {
            (Some(c), Some(g), Some(o)) => parsed.push((i, c, g, o, p.account_id.clone())),
            (None, ..) => errors.push(FieldError::new(format!("places.{i}.campaignId"), REQUIRED)),
            (_, None, _) => errors.push(FieldError::new(
                format!("places.{i}.adGroupId"),
                "adGroupId must be an ad group id or null",
            )),
            (.., None) => errors.push(FieldError::new(
                format!("places.{i}.orgId"),
                "orgId must be a campaign group id",
            )),
        }
    }
    crate::domain::Fields { errors }.finish()?;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, campaign_id, group, org_id, account_id) in parsed {
        let copies =
            store::campaign_views::campaign_in_workspace(&state.db.pool, workspace_id, campaign_id)
                .await?;
        let query = ScopeQuery { account_id, org_id };
        let c = match pick(copies, &query) {
            Ok(c) if !c.deleted => c,
            Ok(_) => {
                return Err(place_not_found(
                    format!("places.{i}.campaignId"),
                    "Campaign",
                ));
            }
            Err(ApiError::Status { status, .. }) if status == axum::http::StatusCode::NOT_FOUND => {
                return Err(place_not_found(
                    format!("places.{i}.campaignId"),
                    "Campaign",
                ));
            }
            Err(ApiError::Status { message, .. }) => {
                return Err(ApiError::field(&format!("places.{i}.accountId"), &message));
            }
            Err(e) => return Err(e),
        };
        let group_name = match group {
            None => None,
            Some(g) => {
                match store::campaign_views::ad_group(&state.db.pool, c.org_key, c.id, g).await? {
                    Some(row) if !row.deleted => Some(row.name),
                    _ => return Err(place_not_found(format!("places.{i}.adGroupId"), "Ad group")),
                }
            }
        };
        let place = Place {
            account_id: c.account_id.clone(),
            org_id: c.org_id,
            campaign_id: c.id,
            ad_group_id: group,
            campaign_name: c.name.clone(),
            ad_group_name: group_name,
        };
        if seen.insert(place.key()) {
            out.push((place, c.org_key));
        }
    }
    Ok(out)
}

/// The terms of `terms` that would block a keyword a place bids on (synced keywords).
pub(super) async fn conflicts(
    state: &AppState,
    terms: &[ListKeyword],
    places: &[(Place, i64)],
) -> ApiResult<Vec<Conflict>> {
    let mut out = Vec::new();
    for (place, org_key) in places {
        let keywords = store::negative_lists::bid_keywords(
            &state.db.pool,
            *org_key,
            place.campaign_id,
            place.ad_group_id,
        )
        .await?;
        for k in &keywords {
            for t in terms
                .iter()
                .filter(|t| blocks(&t.text, &t.match_type, &k.text))
            {
                out.push(Conflict {
                    text: t.text.clone(),
                    match_type: t.match_type.clone(),
                    campaign_id: place.campaign_id,
                    ad_group_id: place.ad_group_id,
                    keyword: ConflictKeyword {
                        keyword_id: k.id,
                        ad_group_id: k.ad_group_id,
                        text: k.text.clone(),
                        match_type: k.match_type.clone(),
                    },
                });
            }
        }
    }
    Ok(out)
}

pub(super) fn place_ref(p: &Place) -> PlaceRef {
    PlaceRef {
        account_id: p.account_id.clone(),
        org_id: p.org_id,
        campaign_id: p.campaign_id,
        ad_group_id: p.ad_group_id,
    }
}

/// Records the `apply-negative-lists` task over `places` and its job in `tx`; the task id.
pub(super) async fn start_apply(
    tx: &mut sqlx::AnyConnection,
    caller: &Editor,
    list_id: Option<&str>,
    places: Vec<PlaceRef>,
) -> ApiResult<String> {
    let total = places.len() as i64;
    let job = ApplyNegativeLists {
        workspace_id: caller.workspace_id.clone(),
        user_id: Some(caller.user_id.clone()),
        list_id: list_id.map(str::to_string),
        places,
    };
    let task_id = store::tasks::create(
        &mut *tx,
        NewTask {
            workspace_id: &caller.workspace_id,
            user_id: Some(&caller.user_id),
            kind: ApplyNegativeLists::KIND,
            message: "Applying negative keyword lists",
            total_steps: total,
            account_id: None,
            org_id: None,
        },
    )
    .await?;
    outbox::push(
        &mut *tx,
        &job,
        OutboxOptions {
            task_id: Some(task_id.clone()),
            ..Default::default()
        },
    )
    .await?;
    Ok(task_id)
}

pub(super) async fn relay(state: &AppState) {
    crate::recovery::relay_outbox(&state.db, &state.queue).await;
}

/// A unique violation on the list's name as the field error the form shows.
pub(super) fn name_taken(e: sqlx::Error) -> ApiError {
    if Db::is_unique_violation(&e) {
        ApiError::field("name", NAME_TAKEN)
    } else {
        e.into()
    }
}
