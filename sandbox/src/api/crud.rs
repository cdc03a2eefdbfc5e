//! The generic v1 handlers over an [`Entity`]: `GET {PATH}/{id}`, `POST {PATH}/query`,
//! single and bulk soft deletes, and the route tables that wire them up beside each
//! entity's own create and update handlers.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::handler::Handler;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::Value;

use super::bulk::{self, BulkRequest, IdOnly};
use super::entity::{Entity, deletable, find, mark_deleted};
use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::query::{self, QueryRequest};
use super::{ok, parse_id};
use crate::state::Sandbox;
use crate::world::{Id, World};

/// `GET /{entity}/{id}`.
pub async fn get_one<E: Entity>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let e = find::<E>(&w, ctx.0, parse_id(&id, E::KIND)?)?;
    Ok(ok(e.render(&w)))
}

/// `POST /{entity}/query`: the ad account's entities, deleted ones included.
pub async fn query<E: Entity>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<QueryRequest>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    off_thread(move || answer_query::<E>(&w, ctx.0, &q))
        .await
        .map(Json)
}

/// Long computations (reports, queries) running at once; more wait their turn, which also
/// bounds the memory they take together.
static HEAVY: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(4);

/// Runs a long computation on a thread of its own, off the async threads and at a lower CPU
/// priority, so light requests (`/me`, single gets) stay fast while it runs.
pub async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let failed = |e: &dyn std::fmt::Display| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            format!("the request failed: {e}"),
        )
    };
    let _turn = HEAVY.acquire().await.map_err(|e| failed(&e))?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("sandbox-heavy".into())
        .spawn(move || {
            lower_priority();
            let _ = tx.send(work());
        })
        .map_err(|e| failed(&e))?;
    rx.await.map_err(|e| failed(&e))?
}

/// Lowers the calling thread's CPU priority (nice 10) where the OS allows it per thread.
#[cfg_attr(
    target_os = "linux",
    expect(
        unsafe_code,
        reason = "libc::setpriority has no safe wrapper in our dependencies"
    )
)]
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; on Linux, PRIO_PROCESS with who = 0
    // names the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// A query over the ad account's entities: narrowed through the index by the parent ids
/// it filters on; when those are all its filters and it sorts by id at most, only the page
/// is rendered.
fn answer_query<E: Entity>(w: &World, account: Id, q: &QueryRequest) -> Result<Value, ApiError> {
    for (i, f) in q.filters.as_deref().unwrap_or_default().iter().enumerate() {
        if let Some(field) = f.field.as_deref()
            && query::INDEXED.contains(&field)
            && !E::FIELDS.contains(&field)
        {
            return Err(ApiError::invalid(
                "INVALID_FIELD",
                format!("filters[{i}].field"),
                format!(
                    "unknown field '{field}'; expected one of: {}",
                    E::FIELDS.join(", ")
                ),
            ));
        }
    }
    let (sets, only_parents) = query::parent_filters(q);
    let usable: Vec<&Vec<i64>> = sets.iter().collect();
    let all = E::all(w);
    let mut ids: Vec<Id> = match usable.first() {
        Some(first) => {
            let mut ids: Vec<Id> = first
                .iter()
                .flat_map(|p| w.index.children(E::TYPE, *p).iter().copied())
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        }
        None => w.index.children(E::TYPE, account).to_vec(),
    };
    ids.retain(|id| all.get(id).is_some_and(|e| e.account() == account));
    if sets.len() <= 1
        && only_parents
        && let Some(page) = query::run_page(q, &ids, |id| all[&id].render(w), E::FIELDS)?
    {
        return Ok(page);
    }
    let items = ids.iter().map(|id| all[id].render(w)).collect();
    query::run(q, items, E::FIELDS)
}

/// `DELETE /{entity}/{id}`: checks first, then opens the transaction and soft-deletes.
pub async fn delete_one<E: Entity>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, E::KIND)?;
    let mut w = s.world.write();
    deletable::<E>(&w, ctx.0, id)?;
    w.begin_txn();
    mark_deleted::<E>(&mut w, id);
    Ok(ok(Value::Null))
}

/// `DELETE /{entity}/{id}` of the entities with bulk writes: opens the transaction first,
/// then checks and soft-deletes.
pub async fn delete_in_txn<E: Entity>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    bulk::write_one(
        &s,
        |w| {
            let id = parse_id(&id, E::KIND)?;
            deletable::<E>(w, ctx.0, id).map(|_| id)
        },
        |w, id| {
            mark_deleted::<E>(w, id);
            Value::Null
        },
    )
}

/// `POST /{entity}/bulk-delete`: one transaction; items planned, then soft-deleted.
pub async fn bulk_delete<E: Entity>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<IdOnly>>,
) -> Result<Json<Value>, ApiError> {
    bulk::write(
        &s,
        b,
        "DELETE",
        |w, item| deletable::<E>(w, ctx.0, item.id).map(|_| item.id),
        mark_deleted::<E>,
    )
}

/// `POST {PATH}`, `POST {PATH}/query`, `GET|PUT|DELETE {PATH}/{id}`, with the entity's own
/// create and update handlers.
pub fn routes<E: Entity, C: 'static, U: 'static>(
    create: impl Handler<C, Arc<Sandbox>>,
    update: impl Handler<U, Arc<Sandbox>>,
) -> Router<Arc<Sandbox>> {
    Router::new()
        .route(E::PATH, post(create))
        .route(&format!("{}/query", E::PATH), post(query::<E>))
        .route(
            &format!("{}/{{id}}", E::PATH),
            get(get_one::<E>).put(update).delete(delete_one::<E>),
        )
}
