//! Start, poll and stop a keyword collection; its expected duration and the form defaults.
//!
//! Start checks the search payload (`searchdeck_common::suggester::SearchPayload::check`:
//! field errors in the error envelope), the campaign group (`orgId` of the queried
//! account, else its first one in use) and the app (one of the campaign group's synced
//! apps, else found by an App Store lookup in the country), then records the task with its
//! job in one transaction. A poll (`?id=` or the second form's `query`) answers the task,
//! and once finished its keywords, which are kept 24 h.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    FieldError, ids,
    jobs::CollectKeywords,
    queue::Job,
    store::{self, accounts::AccountRow},
    suggester::{
        COMPLETED, FAILED, Keyword, MAX_COMPETITORS, STOPPED, SearchBody, SuggestionType,
        TOTAL_STEPS,
    },
    tasks::{NewTask, TaskRecord},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    access::{EditRoles, InWorkspace, Member, QueriedAccount},
    domain::REQUIRED,
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery},
    provider::provider_error,
    state::AppState,
};

/// The running collection's answer message (the browser keeps polling,
/// docs/product.md#4-suggester).
pub const RUNNING: &str = "METHOD_IS_EXECUTED";

/// The query of the start route.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct CollectQuery {
    /// Account id (a connection of the caller's workspace).
    #[expect(
        dead_code,
        reason = "read by the InWorkspace guard; here for the OpenAPI parameters"
    )]
    account_id: Option<String>,
    /// Campaign group of the account; default: the account's first one in use.
    org_id: Option<i64>,
    /// A running collection (task id) to poll instead of starting one.
    #[param(max_length = 64)]
    id: Option<String>,
}

/// `{"id": "<task id>"}`: a started collection.
#[derive(Debug, Serialize, ToSchema)]
pub struct Started {
    pub id: String,
}

/// What the start route answers: a started collection's id, or a polled one.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum CollectAnswer {
    Started(Started),
    Polled(Box<Polled>),
}

/// A polled collection: its task and, once finished, its keywords.
#[derive(Debug, Serialize, ToSchema)]
pub struct Polled {
    pub task: TaskRecord,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<Keyword>>,
}

/// Starts a keyword collection for app `adamId` (the second form may instead carry a
/// task id to poll, as `?id=` does). Editors only. Answers the task id; a poll answers
/// `METHOD_IS_EXECUTED` while the collection runs, 'Keywords collecting completed!' with
/// the keywords when done, 'Something went wrong' when it failed (the task says why:
/// `Stopped` for a stopped one).
#[utoipa::path(post, path = "/api/phrase/getListByShuffleTitlesPopularities/{adamId}", tag = "suggester",
    params(("adamId" = String, Path, description = "The app (App Store adam id)"), CollectQuery),
    request_body = SearchBody,
    responses((status = 200, description = "The started collection's id, or the polled one", body = Envelope<CollectAnswer>),
              (status = 400, description = "Invalid payload, app or campaign group", body = ErrorBody),
              (status = 502, description = "The App Store could not be reached", body = ErrorBody)))]
pub async fn start(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount, EditRoles>,
    ApiPath(adam_id): ApiPath<String>,
    ApiQuery(query): ApiQuery<CollectQuery>,
    ApiJson(body): ApiJson<SearchBody>,
) -> ApiResult<impl IntoResponse> {
    let workspace_id = account.caller.workspace_id.clone();
    let adam_id = ids::string_id::parse_str(&adam_id)
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::field("adamId", "Must be an App Store app id"))?;
    if let Some(task_id) = query.id.as_deref().or(body.query.as_deref()) {
        return poll(&state, &workspace_id, task_id).await;
    }
    if body.adam_id.is_some_and(|a| a != adam_id) {
        return Err(ApiError::field("adamId", "Must be the app of the path"));
    }
    let mut search = body.payload().check().map_err(ApiError::validation)?;
    let row = account.item.0;
    let org_id = campaign_group(&state, &row, query.org_id).await?;
    app_exists(&state, &row, org_id, adam_id, &search.country).await?;
    // Exploring the app takes in its saved competitors when none are chosen (the competitor
    // store the suggester's picker and Settings share).
    if search.suggestion_type == SuggestionType::App && search.competitors.is_empty() {
        search.competitors = store::competitors::of_app(&state.db.pool, &workspace_id, adam_id)
            .await?
            .into_iter()
            .map(|c| c.competitor_id)
            .take(MAX_COMPETITORS)
            .collect();
    }
    let negatives = serde_json::to_string(&search.excluded_words)
        .map_err(|e| ApiError::from(anyhow::anyhow!(e)))?;
    store::suggester::set_defaults(
        &state.db.pool,
        &workspace_id,
        &account.caller.user_id,
        &negatives,
        ids::now_ms(),
    )
    .await?;
    let job = CollectKeywords {
        workspace_id: workspace_id.clone(),
        user_id: Some(account.caller.user_id.clone()),
        account_id: row.id.clone(),
        org_id,
        adam_id,
        search,
        queued_at: ids::now_ms(),
    };
    let id = state
        .start_task(
            NewTask {
                workspace_id: &workspace_id,
                user_id: Some(&account.caller.user_id),
                kind: "collect-keywords",
                message: searchdeck_common::suggester::Phase::AppStoreSuggestions.message(),
                total_steps: TOTAL_STEPS,
                account_id: Some(&row.id),
                org_id: Some(org_id),
            },
            &job,
        )
        .await
        .map_err(ApiError::from)?;
    Ok(envelope::ok(CollectAnswer::Started(Started { id })))
}

/// The poll answer of collection `task_id` of the workspace (404 for another's).
async fn poll(
    state: &AppState,
    workspace_id: &str,
    task_id: &str,
) -> ApiResult<axum::Json<Envelope<CollectAnswer>>> {
    let task = store::tasks::in_workspace(&state.db.pool, workspace_id, task_id)
        .await?
        .filter(|t| t.kind == <CollectKeywords as Job>::KIND)
        .ok_or_else(|| ApiError::not_found("Task"))?;
    if !task.finish {
        return Ok(envelope::ok_with(
            RUNNING,
            CollectAnswer::Polled(Box::new(Polled { task, items: None })),
        ));
    }
    if task.error.is_some() {
        return Ok(envelope::ok_with(
            FAILED,
            CollectAnswer::Polled(Box::new(Polled { task, items: None })),
        ));
    }
    let items = store::suggester::result(&state.db.pool, workspace_id, task_id, ids::now_ms())
        .await?
        .map(|raw| serde_json::from_str::<Vec<Keyword>>(&raw))
        .transpose()
        .map_err(|e| ApiError::from(anyhow::anyhow!(e)))?;
    match items {
        Some(items) => Ok(envelope::ok_with(
            COMPLETED,
            CollectAnswer::Polled(Box::new(Polled {
                task,
                items: Some(items),
            })),
        )),
        // Kept 24 h: an older collection's keywords are gone.
        None => Err(ApiError::not_found("Collection")),
    }
}

/// The campaign group `org_id` of the account, or its first one in use.
async fn campaign_group(state: &AppState, row: &AccountRow, org_id: Option<i64>) -> ApiResult<i64> {
    let orgs = store::accounts::orgs(&state.db.pool, &row.id).await?;
    let found = match org_id {
        Some(id) => orgs.into_iter().find(|o| o.org_id == id),
        None => orgs.into_iter().find(|o| o.selected),
    };
    found
        .map(|o| o.org_id)
        .ok_or_else(|| ApiError::field("orgId", REQUIRED))
}

/// The app must be one of the campaign group's apps or sold on the App Store in `country`.
async fn app_exists(
    state: &AppState,
    row: &AccountRow,
    org_id: i64,
    adam_id: i64,
    country: &str,
) -> ApiResult<()> {
    let own = store::catalog::apps(&state.db.pool, &row.id, Some(org_id)).await?;
    if own.iter().any(|a| a.adam_id == adam_id) {
        return Ok(());
    }
    let found = state
        .provider
        .app_store
        .lookup(&[adam_id], country)
        .await
        .map_err(provider_error)?;
    if found.iter().any(|a| a.track_id == adam_id) {
        Ok(())
    } else {
        Err(ApiError::validation(vec![FieldError::new(
            "adamId",
            "The app is not sold on the App Store in this country",
        )]))
    }
}

/// Stops a running collection (or any running task) of the workspace at once: the task
/// finishes with error `Stopped` and `details.stopped`, the job ends at its next check and
/// keeps nothing. Stopping a finished task changes nothing. Editors only.
#[utoipa::path(get, path = "/api/phrase/suggesterSearches/one/stop/{id}", tag = "suggester",
    params(("id" = String, Path, description = "Task id")),
    responses((status = 200, description = "The task", body = Envelope<Item<TaskRecord>>)))]
pub async fn stop(
    State(state): State<AppState>,
    task: InWorkspace<TaskRecord, EditRoles>,
) -> ApiResult<impl IntoResponse> {
    let workspace_id = &task.caller.workspace_id;
    // The collection's details as the document describes them (CollectProgress): the
    // candidates found so far (none before its first progress), stopped.
    let mut details: searchdeck_common::suggester::keyword::CollectProgress =
        serde_json::from_value(task.item.details.clone()).unwrap_or_default();
    details.stopped = true;
    let details = serde_json::to_value(&details).map_err(anyhow::Error::from)?;
    store::tasks::stop(
        &state.db.pool,
        workspace_id,
        &task.item.id,
        STOPPED,
        &details,
    )
    .await?;
    let after = store::tasks::in_workspace(&state.db.pool, workspace_id, &task.item.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Task"))?;
    Ok(envelope::item(after))
}

/// `{"duration": ms, "estimated": bool, "calls": n | null}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Timing {
    /// Median wall time (ms) of the last 10 finished collections of this type and country;
    /// without any, a first estimate (`estimated`). Null only when neither is known (the
    /// screen then shows '5-20 min').
    pub duration: Option<i64>,
    /// Whether `duration` is a first estimate: the provider calls a typical collection of
    /// this type plans (`calls`) at the installation's measured time per call, or at the
    /// rate limiter's starting pace before any collection has finished here.
    pub estimated: bool,
    /// The planned provider calls a first estimate rests on; null for a measured duration.
    pub calls: Option<u64>,
}

/// The expected duration of a collection of suggestion type `type` in `countryCode`.
#[utoipa::path(get, path = "/api/timings/{type}/{countryCode}", tag = "suggester",
    params(("type" = String, Path, description = "Suggestion type: app, keywords or competitors"),
           ("countryCode" = String, Path, description = "Country or region code")),
    responses((status = 200, description = "The expected duration", body = Envelope<Timing>),
              (status = 400, description = "Unknown type or country", body = ErrorBody)))]
pub async fn timing(
    State(state): State<AppState>,
    _user: Member,
    ApiPath((kind, country)): ApiPath<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let kind = SuggestionType::parse(&kind).ok_or_else(|| {
        ApiError::field(
            "type",
            &format!("Must be one of: {}", SuggestionType::ALL.join(", ")),
        )
    })?;
    let country = searchdeck_common::countries::find(&country).ok_or_else(|| {
        ApiError::field(
            "countryCode",
            "Must be a country or region Apple Ads serves",
        )
    })?;
    let measured =
        store::suggester::median_duration(&state.db.pool, kind.as_str(), &country.code).await?;
    if let Some(duration) = measured {
        return Ok(envelope::ok(Timing {
            duration: Some(duration),
            estimated: false,
            calls: None,
        }));
    }
    let per_call = store::suggester::median_ms_per_call(&state.db.pool).await?;
    let estimate = searchdeck_common::suggester::plan::first_estimate(kind, per_call);
    Ok(envelope::ok(Timing {
        duration: Some(estimate.duration_ms),
        estimated: true,
        calls: Some(estimate.calls),
    }))
}

/// The step-1 form's defaults.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Defaults {
    pub suggestion_type: SuggestionType,
    pub excluded_words_by_popularities: u8,
    pub with_aggregation: bool,
    pub without_description: bool,
    pub without_apps: bool,
    pub without_shuffle: bool,
    /// The negative keywords the caller sent with their last collection here.
    pub negative_keywords: Vec<String>,
}

/// The step-1 form's defaults for the caller.
#[utoipa::path(get, path = "/api/keyword/default", tag = "suggester",
    responses((status = 200, description = "The defaults", body = Envelope<Item<Defaults>>)))]
pub async fn defaults(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let negative_keywords =
        store::suggester::defaults(&state.db.pool, &user.workspace_id, &user.user_id)
            .await?
            .and_then(|raw| serde_json::from_str(&raw).ok())
            .unwrap_or_default();
    Ok(envelope::item(Defaults {
        suggestion_type: SuggestionType::App,
        excluded_words_by_popularities:
            searchdeck_common::suggester::payload::DEFAULT_MIN_POPULARITY,
        with_aggregation: true,
        without_description: false,
        without_apps: false,
        without_shuffle: false,
        negative_keywords,
    }))
}
