//! Entities written singly and in bulk through the same planning (keywords, negative
//! keywords): the [`Writable`] trait, the generic create/update handlers over it (each
//! request one transaction, opened before anything is checked) and their route table.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::bulk::{self, BulkRequest};
use super::crud::{bulk_delete, delete_in_txn, get_one, query};
use super::entity::{self, Entity};
use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::parse_id;
use crate::state::Sandbox;
use crate::world::{Id, World};

/// An entity with single and bulk create/update: every item is planned (checked) against
/// the world first, then applied.
pub trait Writable: Entity {
    /// A create request item.
    type Create: DeserializeOwned + Send + 'static;
    /// An update request item.
    type Update: DeserializeOwned + Send + 'static;
    /// A checked update.
    type Change;
    /// What the creates of one request share (keys already taken, theirs included).
    type Taken;
    /// [`Self::Taken`] as the world stands.
    fn taken(w: &World, account: Id) -> Self::Taken;
    /// Checks a create; the new entity's id is assigned when it is written.
    fn plan_create(
        w: &World,
        account: Id,
        taken: &mut Self::Taken,
        b: &Self::Create,
    ) -> Result<Self, ApiError>;
    /// The id a bulk update item names.
    fn update_id(b: &Self::Update) -> Option<Id>;
    /// Checks an update of entity `id` (from the path, or the item's).
    fn plan_update(
        w: &World,
        account: Id,
        id: Option<Id>,
        b: &Self::Update,
    ) -> Result<Self::Change, ApiError>;
    /// Writes a checked update and records it; returns the new wire form.
    fn apply_update(w: &mut World, c: Self::Change) -> Value;
}

/// Writes a planned entity under a new id and records it.
fn create<E: Writable>(w: &mut World, mut e: E) -> Value {
    let id = w.next_id();
    e.set_id(id);
    entity::insert(w, id, e)
}

/// `POST {PATH}`.
async fn create_one<E: Writable>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<E::Create>,
) -> Result<Json<Value>, ApiError> {
    bulk::write_one(
        &s,
        |w| E::plan_create(w, ctx.0, &mut E::taken(w, ctx.0), &b),
        create::<E>,
    )
}

/// `PUT {PATH}/{id}`.
async fn update_one<E: Writable>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<E::Update>,
) -> Result<Json<Value>, ApiError> {
    bulk::write_one(
        &s,
        |w| E::plan_update(w, ctx.0, Some(parse_id(&id, E::KIND)?), &b),
        E::apply_update,
    )
}

/// `POST {PATH}/bulk-create`.
async fn bulk_create<E: Writable>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<E::Create>>,
) -> Result<Json<Value>, ApiError> {
    let mut taken = None;
    bulk::write(
        &s,
        b,
        "CREATE",
        |w, item| {
            let taken = taken.get_or_insert_with(|| E::taken(w, ctx.0));
            E::plan_create(w, ctx.0, taken, item)
        },
        create::<E>,
    )
}

/// `POST {PATH}/bulk-update`.
async fn bulk_update<E: Writable>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<E::Update>>,
) -> Result<Json<Value>, ApiError> {
    bulk::write(
        &s,
        b,
        "UPDATE",
        |w, item| E::plan_update(w, ctx.0, E::update_id(item), item),
        E::apply_update,
    )
}

/// `POST {PATH}`, `POST {PATH}/query`, `POST {PATH}/bulk-create|bulk-update|bulk-delete`,
/// `GET|PUT|DELETE {PATH}/{id}`.
pub fn routes<E: Writable>() -> Router<Arc<Sandbox>> {
    Router::new()
        .route(E::PATH, post(create_one::<E>))
        .route(&format!("{}/query", E::PATH), post(query::<E>))
        .route(&format!("{}/bulk-create", E::PATH), post(bulk_create::<E>))
        .route(&format!("{}/bulk-update", E::PATH), post(bulk_update::<E>))
        .route(&format!("{}/bulk-delete", E::PATH), post(bulk_delete::<E>))
        .route(
            &format!("{}/{{id}}", E::PATH),
            get(get_one::<E>)
                .put(update_one::<E>)
                .delete(delete_in_txn::<E>),
        )
}
