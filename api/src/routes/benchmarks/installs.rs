//! Cost-per-install targets (`benchmarks/installs`): per app and storefront, the most the
//! workspace wants to pay for an install, in the app's campaign group's currency; shown
//! beside SplitMetrics' published CPA of the app's category.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::{now_ms, string_id},
    store::{
        self,
        benchmarks::{Kind, Target},
    },
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Benchmarks, Checker, answer, check_len, country_out, decimal, reference, write};
use crate::{
    access::{AppStoreId, Editor, Member},
    envelope::{self, Envelope, Items},
    error::{ApiResult, ErrorBody},
    extract::ApiJson,
    state::AppState,
};

/// A cost-per-install target.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallTarget {
    #[serde(with = "string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    /// Storefront (ISO code); null: all countries.
    pub country: Option<String>,
    /// Exact decimal in `currency`.
    pub cost_per_install: String,
    pub currency: String,
    /// Unix ms of the last change.
    pub updated_at: i64,
}

impl From<Target> for InstallTarget {
    fn from(t: Target) -> InstallTarget {
        InstallTarget {
            adam_id: t.adam_id,
            country: country_out(t.country),
            cost_per_install: decimal(t.value_micros),
            currency: t.currency.unwrap_or_default(),
            updated_at: t.updated_at,
        }
    }
}

/// The app's cost-per-install targets, with the published CPA of its category beside them.
#[utoipa::path(get, path = "/api/benchmarks/installs/getAll/{adamId}", operation_id = "get_install_benchmarks", tag = "benchmarks",
    params(("adamId" = String, Path, description = "App Store app id (digits)")),
    responses((status = 200, description = "The targets", body = Envelope<Benchmarks<InstallTarget>>)))]
pub async fn get_all(
    State(state): State<AppState>,
    user: Member,
    app: AppStoreId,
) -> ApiResult<impl IntoResponse> {
    let items = store::benchmarks::targets(
        &state.db.pool,
        &user.workspace_id,
        Kind::Installs,
        app.id,
        None,
    )
    .await?
    .into_iter()
    .map(InstallTarget::from)
    .collect();
    let result = answer(
        &state,
        &user.workspace_id,
        app.id,
        items,
        reference::INSTALL_FIGURES,
    )
    .await?;
    Ok(envelope::ok(result))
}

/// One cost-per-install target to set or clear.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetInstall {
    /// An app of the workspace's campaign groups.
    #[schema(pattern = "^[1-9][0-9]{0,17}$")]
    pub adam_id: String,
    /// Storefront (ISO code); absent or null: all countries.
    #[serde(default)]
    #[schema(pattern = "^[A-Za-z]{2}$")]
    pub country: Option<String>,
    /// Exact decimal, at least 0, at most the currency's decimals; null clears the target.
    #[serde(default)]
    pub cost_per_install: Option<String>,
    /// The app's currency, when sent (another answers 400).
    #[serde(default)]
    pub currency: Option<String>,
}

/// `PATCH benchmarks/installs/many`'s body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetInstalls {
    /// 1 to 1000 targets.
    pub items: Vec<SetInstall>,
}

/// Sets or clears cost-per-install targets, all or none: one bad item answers 400 naming
/// `items.N.field` and stores nothing. Answers the stored targets of the apps named.
#[utoipa::path(patch, path = "/api/benchmarks/installs/many", operation_id = "set_install_benchmarks", tag = "benchmarks", request_body = SetInstalls,
    responses((status = 200, description = "The targets of the apps named", body = Envelope<Items<InstallTarget>>),
              (status = 400, description = "A bad item (nothing stored)", body = ErrorBody)))]
pub async fn set_many(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<SetInstalls>,
) -> ApiResult<impl IntoResponse> {
    check_len(&body.items)?;
    let ws = &caller.workspace_id;
    let mut check = Checker::of(&state, ws).await?;
    let now = now_ms();
    let (mut rows, mut seen) = (Vec::new(), Vec::new());
    for (i, item) in body.items.iter().enumerate() {
        let app = check.app(i, &item.adam_id);
        let country = check.country(i, item.country.as_deref());
        let (Some((adam_id, currency)), Some(country)) = (app, country) else {
            continue;
        };
        let value = check.money(
            i,
            "costPerInstall",
            "Cost per install",
            item.cost_per_install.as_deref(),
            item.currency.as_deref(),
            &currency,
        );
        check.once(i, &mut seen, format!("{adam_id}/{country}"));
        if let Some(value) = value {
            let target = Target {
                adam_id,
                event_name: String::new(),
                cohort: String::new(),
                country,
                value_micros: value.unwrap_or(0),
                currency: Some(currency),
                updated_at: now,
            };
            rows.push((target, value.is_some()));
        }
    }
    check.finish()?;
    let stored = write(&state, ws, &caller.user_id, Kind::Installs, &rows, None).await?;
    let items = stored.into_iter().map(InstallTarget::from).collect();
    Ok(envelope::items(items))
}
