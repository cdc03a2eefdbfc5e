//! App Store apps in paths: the keyword suggester's routes name apps by their App Store
//! (adam) id, which is public, not a record of ours.
//!
//! - [`AppStoreId<P>`]: path parameter `P::PARAM` is a public App Store id. It is no
//!   workspace resource (any workspace may look any app up), so it is documented as
//!   `x-public-id: {kind: "app-store-app", param}` instead of `x-resource`; what a route
//!   answers for it must still come from the caller's workspace only (the access suite
//!   checks that another workspace's saved data does not show). Not digits: 400 naming the
//!   parameter.
//! - [`CompetitorApp`]: an app *with competitors saved in the caller's workspace*
//!   (`store::competitors`), a workspace resource like any other: an app saved only by
//!   another workspace answers 404 exactly like one saved by nobody. Its child `b` (the
//!   competitor) is looked up within it by the handler.

use std::marker::PhantomData;

use axum::{
    extract::{FromRequestParts, RawPathParams},
    http::request::Parts,
};
use searchdeck_common::{Db, store};
use serde_json::json;
use utoipa::openapi::{
    ObjectBuilder,
    path::{Operation, ParameterIn},
    schema::Type,
};

use super::{WorkspaceResource, doc::Documented};
use crate::{error::ApiError, input};

/// Message of an id that is not an App Store id.
pub const NOT_AN_APP_STORE_ID: &str = "Not an App Store app id";

/// An App Store (adam) id as text: digits, at most 19 (it fits an i64), above 0.
pub fn parse_app_store_id(raw: &str) -> Option<i64> {
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > 19 || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    raw.parse().ok().filter(|&id| id > 0)
}

/// The name of the path parameter an [`AppStoreId`] reads.
pub trait AppStoreParam: Send + Sync + 'static {
    const PARAM: &'static str;
}

/// The `{adamId}` path parameter.
#[derive(Debug)]
pub struct AdamIdParam;
impl AppStoreParam for AdamIdParam {
    const PARAM: &'static str = "adamId";
}

/// The `{id}` path parameter.
#[derive(Debug)]
pub struct IdParam;
impl AppStoreParam for IdParam {
    const PARAM: &'static str = "id";
}

/// A public App Store app id from path parameter `P::PARAM`.
#[derive(Debug)]
pub struct AppStoreId<P: AppStoreParam = AdamIdParam> {
    pub id: i64,
    param: PhantomData<P>,
}

impl<P: AppStoreParam, S: Send + Sync> FromRequestParts<S> for AppStoreId<P> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let raw = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::field(P::PARAM, NOT_AN_APP_STORE_ID))?;
        let value = raw
            .iter()
            .find(|(name, _)| *name == P::PARAM)
            .map(|(_, v)| v)
            .filter(|v| !input::has_control(v, false))
            .and_then(parse_app_store_id)
            .ok_or_else(|| ApiError::field(P::PARAM, NOT_AN_APP_STORE_ID))?;
        Ok(AppStoreId {
            id: value,
            param: PhantomData,
        })
    }
}

/// Pattern of an App Store id in a path.
pub const APP_STORE_ID_PATTERN: &str = "^[1-9][0-9]{0,17}$";

impl<P: AppStoreParam> Documented for AppStoreId<P> {
    fn document(op: &mut Operation) {
        // The parameter's schema says what an App Store id is.
        for p in op.parameters.iter_mut().flatten() {
            if p.name == P::PARAM && p.parameter_in == ParameterIn::Path {
                p.schema = Some(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .pattern(Some(APP_STORE_ID_PATTERN))
                        .into(),
                );
            }
        }
        super::doc::extension(
            op,
            "x-public-id",
            json!({"kind": "app-store-app", "param": P::PARAM}),
        );
        op.responses
            .responses
            .entry("400".into())
            .or_insert_with(|| super::doc::error_body("Not an App Store app id"));
    }
}

/// An app (path parameter `a`, an App Store id) with competitors saved in the caller's
/// workspace; the competitor `b` is looked up within it.
#[derive(Debug)]
pub struct CompetitorApp {
    pub adam_id: i64,
}

impl WorkspaceResource for CompetitorApp {
    const NAME: &'static str = "Competitor";
    const KIND: &'static str = "competitor";
    const PARAM: &'static str = "a";
    const CHILD_PARAMS: &'static [&'static str] = &["b"];

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        let Some(adam_id) = parse_app_store_id(id) else {
            return Ok(None);
        };
        Ok(store::competitors::has_app(&db.pool, workspace_id, adam_id)
            .await?
            .then_some(CompetitorApp { adam_id }))
    }
}
