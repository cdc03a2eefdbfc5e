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
    extract::{ApiJson, ApiPath, ApiQuery, ClientIp},
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

fn error_response(op: &mut Operation, status: u16, description: &str) {
    let content = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name("ErrorBody")))
        .build();
    let response = ResponseBuilder::new()
        .description(description)
        .content("application/json", content)
        .build();
    op.responses
        .responses
        .insert(status.to_string(), response.into());
}

fn extension(op: &mut Operation, key: &str, value: serde_json::Value) {
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
        error_response(op, 404, &format!("{} not found", T::NAME));
        extension(
            op,
            "x-resource",
            json!({"kind": T::KIND, "param": T::PARAM}),
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
            #[allow(unused_variables)]
            fn document(op: &mut Operation) {
                $(<$arg as Documented>::document(op);)*
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
