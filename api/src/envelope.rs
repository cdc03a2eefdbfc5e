//! The success envelope: `{"status":200,"message":"Request success","result":{…}}`.

use axum::{Json, response::IntoResponse};
use serde::Serialize;
use utoipa::ToSchema;

/// Default message of successful requests (docs/product.md#8-generic-mapping).
pub const SUCCESS_MESSAGE: &str = "Request success";

/// A successful answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Envelope<T> {
    pub status: u16,
    pub message: String,
    pub result: T,
}

/// `result: {"item": …}` — a single object.
#[derive(Debug, Serialize, ToSchema)]
pub struct Item<T> {
    pub item: T,
}

/// `result: {"items": […]}` — a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct Items<T> {
    pub items: Vec<T>,
}

/// Wraps `result` with the default success message.
pub fn ok<T: Serialize>(result: T) -> Json<Envelope<T>> {
    ok_with(SUCCESS_MESSAGE, result)
}

/// Wraps `result` with a specific success message (e.g. "Account was created").
pub fn ok_with<T: Serialize>(message: &str, result: T) -> Json<Envelope<T>> {
    Json(Envelope {
        status: 200,
        message: message.into(),
        result,
    })
}

/// `{"item": …}` in the envelope.
pub fn item<T: Serialize>(item: T) -> Json<Envelope<Item<T>>> {
    ok(Item { item })
}

/// `{"items": […]}` in the envelope.
pub fn items<T: Serialize>(items: Vec<T>) -> Json<Envelope<Items<T>>> {
    ok(Items { items })
}

/// An empty result object, `{}`.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct Empty {}

/// An empty `result: {}` in the envelope.
pub fn done() -> impl IntoResponse {
    ok(Empty {})
}
