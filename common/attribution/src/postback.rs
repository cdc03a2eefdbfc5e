//! What the ingest route hands an adapter (the request's query and body) and what the
//! adapter answers: the Apple Ads events to store, and how many others it read and left.

use searchdeck_model::{FieldError, attribution::AttributionEvent};

use crate::{
    draft::{Draft, Outcome},
    fields::Errors,
};

/// What the ingest route received.
#[derive(Debug, Clone, Copy)]
pub struct Postback<'a> {
    /// The raw query string, without the `?` (may be empty).
    pub query: &'a str,
    /// The request's `Content-Type`, if any.
    pub content_type: Option<&'a str>,
    /// The raw body (empty for a GET).
    pub body: &'a [u8],
}

/// The events read from one postback.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    /// The Apple Ads events, to store (idempotent on `provider` and `dedupe_id`).
    pub events: Vec<AttributionEvent>,
    /// Events received that are not Apple Ads' (another media source, no campaign, or an
    /// activity the report does not count such as a session or a test event): counted, not
    /// stored.
    pub skipped: usize,
}

impl Parsed {
    /// One skipped event.
    pub(crate) fn skipped() -> Parsed {
        Parsed {
            events: Vec::new(),
            skipped: 1,
        }
    }

    /// The answer for a postback that carries one event.
    pub(crate) fn one(
        draft: Draft,
        mut errors: Errors,
        time_field: &str,
    ) -> Result<Parsed, Vec<FieldError>> {
        match draft.finish(&mut errors, time_field) {
            Outcome::Keep(event) => Ok(Parsed {
                events: vec![*event],
                skipped: 0,
            }),
            Outcome::Skip => Ok(Parsed::skipped()),
            Outcome::Refused => Err(errors.0),
        }
    }
}

/// The JSON body of a JSON provider's postback, or a [`FieldError`] on `body`.
pub(crate) fn json_body(postback: &Postback<'_>) -> Result<serde_json::Value, Vec<FieldError>> {
    match serde_json::from_slice::<serde_json::Value>(postback.body) {
        Ok(v @ serde_json::Value::Object(_)) => Ok(v),
        Ok(_) => Err(vec![FieldError::new("body", "must be a JSON object")]),
        Err(e) => Err(vec![FieldError::new("body", format!("must be JSON ({e})"))]),
    }
}
