//! Resources of the caller's workspace, resolved from a path or query id.

use std::collections::HashMap;

use axum::{
    extract::{FromRequestParts, Path, Query},
    http::request::Parts,
};
use searchdeck_common::Db;

use super::{AnyRole, Caller, Policy};
use crate::{domain::REQUIRED, error::ApiError, state::AppState};

/// A thing that belongs to one workspace and is addressed by an id in the request.
///
/// `find` must look the id up *within* `workspace_id`, so that another workspace's id is
/// indistinguishable from a missing one.
pub trait WorkspaceResource: Sized + Send {
    /// The name in the 404 message (`"Task"` answers "Task not found").
    const NAME: &'static str;
    /// A stable kind name, written to the OpenAPI document as `x-resource.kind`.
    const KIND: &'static str;
    /// The path parameter (or, when the route has none of that name, the query parameter)
    /// carrying the id.
    const PARAM: &'static str = "id";
    /// Further path parameters that name things *inside* the resource (the ad group of a
    /// campaign in `/asa/groups/{a}/{b}`): the handler looks them up within the resolved
    /// resource, so they are scoped by it. Documented in `x-resource.children`.
    const CHILD_PARAMS: &'static [&'static str] = &[];

    /// The resource `id` of workspace `workspace_id`, if there is one.
    fn find(
        db: &Db,
        workspace_id: &str,
        id: &str,
    ) -> impl Future<Output = Result<Option<Self>, sqlx::Error>> + Send;
}

/// A resource `T` of the caller's workspace, for a caller admitted by policy `P`.
#[derive(Debug)]
pub struct InWorkspace<T, P: Policy = AnyRole> {
    /// The caller.
    pub caller: Caller<P>,
    /// The resource.
    pub item: T,
}

/// The id named `param` from the route's path, else from the query string.
async fn id_param<S: Send + Sync>(
    parts: &mut Parts,
    state: &S,
    param: &str,
) -> Result<String, ApiError> {
    let from_path = Path::<HashMap<String, String>>::from_request_parts(parts, state)
        .await
        .ok()
        .and_then(|Path(mut map)| map.remove(param));
    let id = match from_path {
        Some(id) => Some(id),
        None => Query::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .ok()
            .and_then(|Query(mut map)| map.remove(param)),
    };
    id.filter(|id| !id.trim().is_empty())
        .ok_or_else(|| ApiError::field(param, REQUIRED))
}

impl<T: WorkspaceResource, P: Policy> FromRequestParts<AppState> for InWorkspace<T, P> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let caller = Caller::<P>::from_request_parts(parts, state).await?;
        let id = id_param(parts, state, T::PARAM).await?;
        // An id holding a control character names nothing (and PostgreSQL cannot compare
        // text with U+0000): answered as any missing id.
        if crate::input::has_control(&id, false) {
            return Err(ApiError::not_found(T::NAME));
        }
        let item = T::find(&state.db, &caller.workspace_id, &id)
            .await?
            .ok_or_else(|| ApiError::not_found(T::NAME))?;
        Ok(InWorkspace { caller, item })
    }
}

#[cfg(test)]
mod tests {
    use axum::{
        Router,
        body::Body,
        extract::Request,
        http::{Method, StatusCode},
        routing::get,
    };
    use tower::ServiceExt;

    use super::*;

    /// Answers the resolved `accountId` (or the error's status) for `uri`.
    async fn resolve(uri: &str) -> (StatusCode, String) {
        async fn echo(req: Request) -> (StatusCode, String) {
            let (mut parts, _) = req.into_parts();
            match id_param(&mut parts, &(), "accountId").await {
                Ok(id) => (StatusCode::OK, id),
                Err(e) => match e {
                    ApiError::Status { status, .. } => (status, String::new()),
                    ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, String::new()),
                },
            }
        }
        let app: Router = Router::new()
            .route("/accounts/{accountId}/x", get(echo))
            .route("/x", get(echo));
        let req = Request::builder()
            .method(Method::GET)
            .uri(uri)
            .body(Body::empty())
            .unwrap();
        let res = app.oneshot(req).await.unwrap();
        let status = res.status();
        let body = axum::body::to_bytes(res.into_body(), 1024).await.unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn ids_come_from_the_path_else_the_query() {
        assert_eq!(
            resolve("/accounts/42/x?accountId=7").await,
            (StatusCode::OK, "42".into())
        );
        assert_eq!(
            resolve("/x?accountId=7&other=1").await,
            (StatusCode::OK, "7".into())
        );
        assert_eq!(resolve("/x?other=1").await.0, StatusCode::BAD_REQUEST);
        assert_eq!(resolve("/x?accountId=%20").await.0, StatusCode::BAD_REQUEST);
    }
}
