//! The OpenAPI document served at `/api/openapi.json`.
//!
//! Security requirements and the 401/403/404 answers of guarded routes are not written
//! here or in the path macros: [`crate::route!`] derives them from each handler's guard
//! type (see [`crate::access`]). This module declares the session-cookie scheme and the error body they name.

use utoipa::{
    Modify, OpenApi,
    openapi::security::{ApiKey, ApiKeyValue, SecurityScheme},
};

use searchdeck_common::tasks::TaskDetails;

use crate::{
    access::SECURITY_SCHEME,
    error::{ErrorBody, FieldError},
    session::COOKIE,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Searchdeck API", description = "The HTTP API of Searchdeck. Every answer uses one envelope: \
        `{status, message, result}` on success, `{status, message, errors, meta}` on failure. \
        Sessions are carried by the HttpOnly `sd_session` cookie."),
    components(schemas(ErrorBody, FieldError, TaskDetails)),
    modifiers(&SessionCookie),
    tags(
        (name = "auth", description = "Accounts, sessions and password recovery"),
        (name = "users", description = "The caller's own values"),
        (name = "options", description = "Options saved per user"),
        (name = "tasks", description = "Background tasks"),
        (name = "campaigns", description = "Campaigns, ad groups, change history, totals and forecasts of the report area"),
        (name = "edits", description = "Quick edits of campaigns, ad groups and keywords through Apple Ads"),
        (name = "creation", description = "Campaign creation and copies (jobs create-campaigns and copy-campaigns)"),
        (name = "activity", description = "The activity log: notifications of every change, read state and undo"),
        (name = "team", description = "Members, roles and invitations of the workspace (docs/api/team.md)"),
        (name = "billing", description = "Plans, trials and purchases (docs/api/plans.md)"),
        (name = "system", description = "Process health"),
    )
)]
struct ApiDoc;

/// Declares the `session` security scheme: the HttpOnly session cookie.
struct SessionCookie;

impl Modify for SessionCookie {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            SECURITY_SCHEME,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                COOKIE,
                "The session token set by login and register (HttpOnly, SameSite=Lax)",
            ))),
        );
    }
}

/// The document before routes add their paths.
pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// Completes the generated document with the answers every route shares, so each
/// operation lists every status it can give: 400 for a missing or malformed body or
/// parameter, 413 for a body over the limit, 403 for a cross-site write, 500.
pub fn complete(mut doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use crate::middleware::{CROSS_SITE_REFUSED, add_response, operations};
    for (path, item) in doc.paths.paths.iter_mut() {
        if !path.starts_with("/api") {
            continue;
        }
        for (method, op) in operations(item) {
            if let Some(body) = op.request_body.as_mut() {
                body.required = Some(utoipa::openapi::Required::True);
                add_response(op, 400, "Missing or invalid body");
                add_response(op, 413, crate::extract::BODY_TOO_LARGE);
            }
            if op.parameters.as_ref().is_some_and(|p| !p.is_empty()) {
                add_response(op, 400, "Invalid parameters");
            }
            if method != "get" {
                add_response(op, 403, CROSS_SITE_REFUSED);
            }
            add_response(op, 500, crate::error::INTERNAL_MESSAGE);
        }
    }
    aliases(&mut doc);
    text_rules(&mut doc);
    doc
}

/// Request members serde also takes under another name (`#[serde(alias)]`), which the schema
/// derive does not see: (schema, property, its other names). Each alias is documented as a
/// property of its own ("Same as …"), so the document lists every member a body may carry
/// and [`crate::body_rules`] refuses only what no route takes.
const ALIASES: &[(&str, &str, &[&str])] = &[
    (
        "BulkEditRequest",
        "ids",
        &["campaignIds", "adGroupIds", "keywordIds"],
    ),
    (
        "DeleteRequest",
        "ids",
        &["campaignIds", "adGroupIds", "keywordIds"],
    ),
    ("RenameRequest", "ids", &["campaignIds", "adGroupIds"]),
    ("CampaignEdit", "dailyBudgetAmount", &["dailyBudget"]),
    ("KeywordEdit", "cptBid", &["bidAmount"]),
];

fn aliases(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{RefOr, schema::Schema};
    let Some(schemas) = doc.components.as_mut().map(|c| &mut c.schemas) else {
        return;
    };
    for (name, property, others) in ALIASES {
        let Some(RefOr::T(Schema::Object(obj))) = schemas.get_mut(*name) else {
            panic!("the aliased schema {name} is not an object of the document");
        };
        let Some(original) = obj.properties.get(*property).cloned() else {
            panic!("{name} has no property {property}");
        };
        for other in *others {
            let mut alias = original.clone();
            if let RefOr::T(Schema::Object(a)) = &mut alias {
                a.description = Some(format!("Same as `{property}` (one of the two)."));
            }
            obj.properties.insert((*other).to_string(), alias);
        }
    }
}

/// Pattern of text in a JSON body: no control character but tab, line feed and carriage
/// return, no bidirectional embedding, override or isolate control ([`crate::input`]).
pub const BODY_TEXT: &str =
    "^[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F\\u202A-\\u202E\\u2066-\\u2069]*$";
/// Pattern of JSON keys, query values and path segments: no control character at all.
pub const PLAIN_TEXT: &str = "^[^\\x00-\\x1F\\x7F\\u202A-\\u202E\\u2066-\\u2069]*$";
/// [`BODY_TEXT`] that is not blank (a required text of a body).
pub const BODY_WORDS: &str = "^[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F\\u202A-\\u202E\\u2066-\\u2069]*[^\\s\\x00-\\x1F\\x7F\\u202A-\\u202E\\u2066-\\u2069][^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F\\u202A-\\u202E\\u2066-\\u2069]*$";
/// [`PLAIN_TEXT`] that is not blank (a required query value).
pub const PLAIN_WORDS: &str = "^[^\\x00-\\x1F\\x7F\\u202A-\\u202E\\u2066-\\u2069]*[^\\s\\x00-\\x1F\\x7F\\u202A-\\u202E\\u2066-\\u2069][^\\x00-\\x1F\\x7F\\u202A-\\u202E\\u2066-\\u2069]*$";

/// Declares [`crate::input`]'s text rule in the document, once for every request: each
/// string of a request body, query or path without its own enum or pattern gets
/// the pattern of the text the extractors take (members a body's type does not know are
/// skipped unread, so their names and values are free; kept maps name their keys' rule
/// themselves, see [`crate::schemas::KeptJson`]). A field's own pattern already excludes control characters; a format (email,
/// date, password) keeps the pattern beside it.
///
/// The same walk closes the objects of request bodies (`additionalProperties: false`): a
/// member the body's type does not know is refused with a field error by the one JSON
/// extractor, which reads this document ([`crate::body_rules`]). Objects that are parts of
/// an `allOf` (a flattened type) stay open, as JSON Schema could not combine closed parts.
fn text_rules(doc: &mut utoipa::openapi::OpenApi) {
    use std::collections::BTreeSet;

    use utoipa::openapi::RefOr;

    // Components that are parts of an allOf anywhere: never closed.
    let mut parts = BTreeSet::new();
    if let Ok(whole) = serde_json::to_value(&*doc) {
        all_of_refs(&whole, &mut parts);
    }
    let mut components = BTreeSet::new();
    for item in doc.paths.paths.values_mut() {
        for (_, op) in crate::middleware::operations(item) {
            for param in op.parameters.iter_mut().flatten() {
                if let Some(schema) = param.schema.as_mut() {
                    constrain(schema, PLAIN_TEXT, &mut components);
                }
            }
            if let Some(body) = op.request_body.as_mut() {
                for content in body.content.values_mut() {
                    if let Some(schema) = content.schema.as_mut() {
                        constrain(schema, BODY_TEXT, &mut components);
                    }
                }
            }
        }
    }
    // Components named by request bodies, and those they name in turn.
    let Some(schemas) = doc.components.as_mut().map(|c| &mut c.schemas) else {
        return;
    };
    let mut done = BTreeSet::new();
    while let Some(name) = components.iter().find(|n| !done.contains(*n)).cloned() {
        done.insert(name.clone());
        if let Some(schema) = schemas.get_mut(&name) {
            if !parts.contains(&name) {
                close(schema);
            }
            constrain(schema, BODY_TEXT, &mut components);
        }
    }
    // Inline objects of request bodies (not parts of an allOf).
    for item in doc.paths.paths.values_mut() {
        for (_, op) in crate::middleware::operations(item) {
            for content in op
                .request_body
                .iter_mut()
                .flat_map(|b| b.content.values_mut())
            {
                if let Some(schema) = content.schema.as_mut() {
                    close(schema);
                }
            }
        }
    }

    /// The `$ref` names of the parts of every allOf of `v`.
    fn all_of_refs(v: &serde_json::Value, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::Array(items)) = map.get("allOf") {
                    for item in items {
                        if let Some(name) = item
                            .get("$ref")
                            .and_then(|r| r.as_str())
                            .and_then(|r| r.strip_prefix("#/components/schemas/"))
                        {
                            out.insert(name.to_string());
                        }
                    }
                }
                map.values().for_each(|v| all_of_refs(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| all_of_refs(v, out)),
            _ => {}
        }
    }

    /// `additionalProperties: false` on an object with properties that says nothing of its
    /// other members, and on the inline objects within it (its properties, array items and
    /// the branches of a oneOf or anyOf; not the parts of an allOf).
    fn close(schema: &mut RefOr<utoipa::openapi::schema::Schema>) {
        use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, Schema};
        let RefOr::T(schema) = schema else {
            return;
        };
        match schema {
            Schema::Object(obj) => {
                if !obj.properties.is_empty() && obj.additional_properties.is_none() {
                    obj.additional_properties =
                        Some(Box::new(AdditionalProperties::FreeForm(false)));
                }
                obj.properties.values_mut().for_each(close);
            }
            Schema::Array(array) => {
                if let ArrayItems::RefOrSchema(items) = &mut array.items {
                    close(items);
                }
            }
            Schema::OneOf(one) => one.items.iter_mut().for_each(close),
            Schema::AnyOf(any) => any.items.iter_mut().for_each(close),
            _ => {}
        }
    }

    fn constrain(
        schema: &mut RefOr<utoipa::openapi::schema::Schema>,
        text: &str,
        refs: &mut BTreeSet<String>,
    ) {
        use utoipa::openapi::schema::{ArrayItems, Schema, SchemaType, Type};
        let schema = match schema {
            RefOr::Ref(r) => {
                if let Some(name) = r.ref_location.strip_prefix("#/components/schemas/") {
                    refs.insert(name.to_string());
                }
                return;
            }
            RefOr::T(schema) => schema,
        };
        match schema {
            Schema::Object(obj) => {
                let is = |t: Type| match &obj.schema_type {
                    SchemaType::Type(one) => *one == t,
                    SchemaType::Array(many) => many.contains(&t),
                    SchemaType::AnyValue => false,
                };
                if is(Type::String) && obj.pattern.is_none() && obj.enum_values.is_none() {
                    // Text is trimmed before it is checked: a required text (`minLength`)
                    // needs a character that is not a space.
                    let blank_refused = obj.min_length.is_some_and(|n| n > 0);
                    obj.pattern = Some(
                        match (blank_refused, text == BODY_TEXT) {
                            (false, _) => text,
                            (true, true) => BODY_WORDS,
                            (true, false) => PLAIN_WORDS,
                        }
                        .to_string(),
                    );
                }
                for property in obj.properties.values_mut() {
                    constrain(property, text, refs);
                }
            }
            Schema::Array(array) => {
                if let ArrayItems::RefOrSchema(items) = &mut array.items {
                    constrain(items, text, refs);
                }
            }
            Schema::OneOf(one) => one.items.iter_mut().for_each(|s| constrain(s, text, refs)),
            Schema::AllOf(all) => all.items.iter_mut().for_each(|s| constrain(s, text, refs)),
            Schema::AnyOf(any) => any.items.iter_mut().for_each(|s| constrain(s, text, refs)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    /// Every operation has an id of its own: generated clients (the web app's, hey-api) name
    /// an operation's request and answer types after it, so two operations sharing one id
    /// get numbered names (`One2Data`) that change whenever a route is added.
    #[test]
    fn every_operation_has_a_unique_operation_id() {
        let doc: serde_json::Value =
            serde_json::from_str(&crate::openapi_text()).expect("the document is JSON");
        let mut seen = std::collections::BTreeMap::<String, String>::new();
        let mut repeated = Vec::new();
        let mut missing = Vec::new();
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, op) in item.as_object().expect("a path item") {
                if !["get", "put", "post", "delete", "patch", "head", "options"]
                    .contains(&method.as_str())
                {
                    continue;
                }
                let here = format!("{} {path}", method.to_uppercase());
                match op["operationId"].as_str() {
                    None => missing.push(here),
                    Some(id) => {
                        if let Some(first) = seen.insert(id.to_string(), here.clone()) {
                            repeated.push(format!("{id}: {first} and {here}"));
                        }
                    }
                }
            }
        }
        assert!(missing.is_empty(), "operations without an id: {missing:?}");
        assert!(
            repeated.is_empty(),
            "operation ids used twice (give each `operation_id = \"…\"` in its path macro): {repeated:#?}"
        );
    }

    /// The web app's client is generated from a committed copy of the document
    /// (`frontend/src/api/openapi.json`, `npm run gen:api`): a route or schema changed here
    /// without that copy fails this test, so the browser's types cannot drift from the server's.
    #[test]
    fn the_web_apps_copy_of_the_document_is_current() {
        let doc = crate::openapi_text();
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../frontend/src/api/openapi.json"
        );
        if std::env::var_os("SEARCHDECK_UPDATE_OPENAPI").is_some() {
            std::fs::write(path, &doc).expect("write the web app's copy");
            return;
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == doc,
            "frontend/src/api/openapi.json is not the server's document: run \
             `SEARCHDECK_UPDATE_OPENAPI=1 cargo nextest run -p searchdeck-api --lib openapi` \
             (or `searchdeck openapi > frontend/src/api/openapi.json`), then `npm run gen:api` in frontend/"
        );
    }
}
