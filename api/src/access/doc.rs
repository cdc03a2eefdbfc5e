//! The OpenAPI side of the guards: each extractor type documents what it enforces.
//!
//! [`Documented`] is implemented by every extractor a handler may take; the guards add the
//! cookie security requirement, 401, 403 (with `x-roles`, the admitted roles) and, for
//! workspace resources, 404 (with `x-resource`: kind and id parameter). [`HandlerDoc`]
//! collects it over a handler's argument types, and [`route!`](crate::route) applies it to
//! the operation the `#[utoipa::path]` macro wrote. A new extractor type must implement
//! [`Documented`] before a handler can use it, so no guard goes undocumented.

use axum::{
    extract::{Path, Query, State},
    http::HeaderMap,
};
use axum_extra::extract::CookieJar;
use serde_json::json;
use utoipa::openapi::{
    ContentBuilder, Ref, ResponseBuilder,
    extensions::Extensions,
    path::{Operation, Paths},
    security::SecurityRequirement,
};

use super::{Caller, InWorkspace, Policy, WorkspaceResource};
use crate::{
    error::UNAUTHORIZED_MESSAGE,
    extract::{ApiJson, ApiPath, ApiQuery, ClientIp, MultipartForm},
};

/// Name of the session-cookie security scheme in the document's components.
pub const SECURITY_SCHEME: &str = "session";

/// What an extractor type adds to the operation of a handler that takes it.
pub trait Documented {
    /// Adds this extractor's requirements and answers to `op`; most add nothing.
    fn document(_op: &mut Operation) {}
}

impl<S> Documented for State<S> {}
impl<T> Documented for Path<T> {}
impl<T> Documented for Query<T> {}
impl<T> Documented for ApiJson<T> {}
impl<T> Documented for ApiQuery<T> {}
impl<T> Documented for ApiPath<T> {}
impl Documented for HeaderMap {}
impl Documented for CookieJar {}
impl Documented for ClientIp {}
impl Documented for MultipartForm {}
impl Documented for axum::extract::RawQuery {}
impl Documented for axum::body::Bytes {}

impl Documented for super::PostbackIntegration {
    fn document(op: &mut Operation) {
        error_response(op, 404, super::UNKNOWN_POSTBACK_URL);
        extension(
            op,
            "x-postback-token",
            json!({"params": ["provider", "token"]}),
        );
    }
}

/// An answer in the error envelope (`ErrorBody`) with `description`.
pub(crate) fn error_body(description: &str) -> utoipa::openapi::RefOr<utoipa::openapi::Response> {
    let content = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name("ErrorBody")))
        .build();
    ResponseBuilder::new()
        .description(description)
        .content("application/json", content)
        .build()
        .into()
}

fn error_response(op: &mut Operation, status: u16, description: &str) {
    op.responses
        .responses
        .insert(status.to_string(), error_body(description));
}

/// Sets the vendor extension `key` of an operation.
pub fn extension(op: &mut Operation, key: &str, value: serde_json::Value) {
    op.extensions
        .get_or_insert_with(Extensions::default)
        .insert(key.to_string(), value);
}

impl<P: Policy> Documented for Caller<P> {
    fn document(op: &mut Operation) {
        op.security = Some(vec![SecurityRequirement::new(
            SECURITY_SCHEME,
            Vec::<String>::new(),
        )]);
        error_response(op, 401, UNAUTHORIZED_MESSAGE);
        if P::ROLES.len() < super::AnyRole::ROLES.len() {
            error_response(op, 403, "Access restricted (role)");
            let roles: Vec<&str> = P::ROLES.iter().map(|r| r.as_str()).collect();
            extension(op, "x-roles", json!(roles));
        }
    }
}

impl<T: WorkspaceResource, P: Policy> Documented for InWorkspace<T, P> {
    fn document(op: &mut Operation) {
        Caller::<P>::document(op);
        // The parameter naming the resource is required, as the guard requires it: a path
        // parameter is already; a query one (`accountId`) is marked so, or added.
        use utoipa::openapi::{
            Required,
            path::{ParameterBuilder, ParameterIn},
        };
        let params = op.parameters.get_or_insert_with(Vec::new);
        match params.iter_mut().find(|p| p.name == T::PARAM) {
            Some(p) => p.required = Required::True,
            None => params.push(
                ParameterBuilder::new()
                    .name(T::PARAM)
                    .parameter_in(ParameterIn::Query)
                    .required(Required::True)
                    .description(Some(format!(
                        "The {} the call is for",
                        T::NAME.to_lowercase()
                    )))
                    .schema(Some(
                        utoipa::openapi::ObjectBuilder::new()
                            .schema_type(utoipa::openapi::schema::Type::String),
                    ))
                    .build(),
            ),
        }
        error_response(op, 404, &format!("{} not found", T::NAME));
        extension(
            op,
            "x-resource",
            if T::CHILD_PARAMS.is_empty() {
                json!({"kind": T::KIND, "param": T::PARAM})
            } else {
                json!({"kind": T::KIND, "param": T::PARAM, "children": T::CHILD_PARAMS})
            },
        );
    }
}

/// What a handler's argument types document, together.
pub trait HandlerDoc<Args> {
    /// Applies every argument's [`Documented::document`] to `op`.
    fn document(op: &mut Operation);
}

macro_rules! handler_doc {
    ($($arg:ident),*) => {
        impl<F, Fut, $($arg,)*> HandlerDoc<($($arg,)*)> for F
        where
            F: FnOnce($($arg,)*) -> Fut,
            $($arg: Documented,)*
        {
            fn document(op: &mut Operation) {
                $(<$arg as Documented>::document(op);)*
                // A handler without arguments documents nothing.
                let _ = op;
            }
        }
    };
}

handler_doc!();
handler_doc!(A1);
handler_doc!(A1, A2);
handler_doc!(A1, A2, A3);
handler_doc!(A1, A2, A3, A4);
handler_doc!(A1, A2, A3, A4, A5);
handler_doc!(A1, A2, A3, A4, A5, A6);
handler_doc!(A1, A2, A3, A4, A5, A6, A7);
handler_doc!(A1, A2, A3, A4, A5, A6, A7, A8);

/// Applies handler `H`'s argument documentation to every operation in `paths`.
pub fn document_routes<H: HandlerDoc<Args>, Args>(_handler: &H, paths: &mut Paths) {
    for item in paths.paths.values_mut() {
        let ops = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
            &mut item.head,
            &mut item.options,
            &mut item.trace,
        ];
        for op in ops.into_iter().flatten() {
            H::document(op);
        }
    }
}

/// Registers one handler like `utoipa_axum::routes!`, and documents in its operation what
/// its argument types enforce (session, roles, workspace resource).
#[macro_export]
macro_rules! route {
    ($handler:path) => {{
        let mut routes = ::utoipa_axum::routes!($handler);
        $crate::access::document_routes(&$handler, &mut routes.1);
        routes
    }};
}

#[cfg(test)]
mod tests {
    use searchdeck_common::tasks::TaskRecord;

    use super::*;
    use crate::{
        access::{EditRoles, Editor, Manager, Member},
        state::AppState,
    };

    fn documented<H: HandlerDoc<Args>, Args>(_handler: H) -> serde_json::Value {
        let mut op = Operation::new();
        H::document(&mut op);
        serde_json::to_value(op).unwrap()
    }

    #[test]
    fn guards_write_their_rules_into_the_operation() {
        async fn public(_: State<AppState>, _: ApiJson<()>) {}
        async fn member(_: State<AppState>, _: Member, _: ApiJson<()>) {}
        async fn editor(_: Editor, _: Path<String>) {}
        async fn manager(_: Manager) {}
        async fn edit_task(_: InWorkspace<TaskRecord, EditRoles>, _: ApiJson<()>) {}

        let op = documented(public);
        assert!(op.get("security").is_none() && op["responses"].as_object().unwrap().is_empty());

        let op = documented(member);
        assert_eq!(op["security"], json!([{"session": []}]));
        assert!(
            op["responses"]["401"]["content"]["application/json"]["schema"]["$ref"]
                .as_str()
                .unwrap()
                .ends_with("/ErrorBody")
        );
        assert!(op["responses"].get("403").is_none() && op.get("x-roles").is_none());

        let op = documented(editor);
        assert_eq!(op["x-roles"], json!(["owner", "admin", "writer"]));
        assert!(op["responses"]["403"].is_object());
        assert_eq!(documented(manager)["x-roles"], json!(["owner", "admin"]));

        let op = documented(edit_task);
        assert_eq!(op["x-resource"], json!({"kind": "task", "param": "id"}));
        assert_eq!(op["responses"]["404"]["description"], "Task not found");
        assert_eq!(op["x-roles"], json!(["owner", "admin", "writer"]));
        assert!(op["responses"]["401"].is_object());
    }
}
