//! Each attribution provider's postback or webhook read into one event model
//! ([`searchdeck_model::attribution::AttributionEvent`]), and the postback URL each provider
//! is given to paste (docs/api/attribution.md). Free of I/O: the API's ingest route hands
//! the request's method, query, headers and body to [`parse`], and stores what it answers.
