//! Reference lists the web app filters and targets with: the App Store countries and regions
//! Apple Ads serves (`country/*`, one data file: [`searchdeck_common::countries`]) and the
//! developers of the workspace's synced apps (`developer/all`).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{countries, store};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::Member,
    envelope::{self, Envelope, Items},
    error::ApiResult,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(all_with_codes))
        .routes(route!(all_with_locales))
        .routes(route!(all_with_language))
        .routes(route!(developers))
}

/// A served country or region: its code and English name.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountryCode {
    /// ISO 3166-1 alpha-2 code, as Apple Ads' `countriesOrRegions` takes it.
    pub code: &'static str,
    pub name: &'static str,
}

/// A served country or region with its App Store locales.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountryLocales {
    pub code: &'static str,
    pub name: &'static str,
    /// Locales (`language_REGION`), the storefront's main one first.
    pub locales: &'static [String],
}

/// A language of a storefront.
#[derive(Debug, Serialize, ToSchema)]
pub struct Language {
    /// ISO 639 code.
    pub code: &'static str,
    /// English name.
    pub name: &'static str,
}

/// A served country or region with its App Store languages.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountryLanguages {
    pub code: &'static str,
    pub name: &'static str,
    /// The storefront's languages, the main one first.
    pub languages: Vec<Language>,
}

/// The countries and regions Apple Ads serves, by code.
#[utoipa::path(get, path = "/api/country/allWithCodes", tag = "catalog",
    responses((status = 200, description = "Countries and regions", body = Envelope<Items<CountryCode>>)))]
pub async fn all_with_codes(_user: Member) -> impl IntoResponse {
    envelope::items(
        countries::all()
            .iter()
            .map(|c| CountryCode {
                code: &c.code,
                name: &c.name,
            })
            .collect(),
    )
}

/// The countries and regions Apple Ads serves with their App Store locales.
#[utoipa::path(get, path = "/api/country/allWithLocales", tag = "catalog",
    responses((status = 200, description = "Countries and regions with locales", body = Envelope<Items<CountryLocales>>)))]
pub async fn all_with_locales(_user: Member) -> impl IntoResponse {
    envelope::items(
        countries::all()
            .iter()
            .map(|c| CountryLocales {
                code: &c.code,
                name: &c.name,
                locales: &c.locales,
            })
            .collect(),
    )
}

/// The countries and regions Apple Ads serves with their App Store languages.
#[utoipa::path(get, path = "/api/country/allWithLanguage", tag = "catalog",
    responses((status = 200, description = "Countries and regions with languages", body = Envelope<Items<CountryLanguages>>)))]
pub async fn all_with_language(_user: Member) -> impl IntoResponse {
    envelope::items(
        countries::all()
            .iter()
            .map(|c| CountryLanguages {
                code: &c.code,
                name: &c.name,
                languages: c
                    .languages
                    .iter()
                    .map(|l| Language {
                        code: l,
                        name: countries::language_name(l).unwrap_or(l),
                    })
                    .collect(),
            })
            .collect(),
    )
}

/// A developer of the workspace's apps.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Developer {
    /// The developer name as the App Store shows it.
    pub developer_name: String,
    /// Their synced apps.
    pub adam_ids: Vec<i64>,
}

/// The developers of the apps synced for the workspace's accounts, by name (spec §2 filter
/// scope "Dev accounts"); empty until a sync has stored apps.
#[utoipa::path(get, path = "/api/developer/all", tag = "catalog",
    responses((status = 200, description = "Developers", body = Envelope<Items<Developer>>)))]
pub async fn developers(
    State(state): State<AppState>,
    user: Member,
) -> ApiResult<impl IntoResponse> {
    let rows = store::catalog::developers(&state.db.pool, &user.workspace_id).await?;
    let mut items: Vec<Developer> = Vec::new();
    for (name, adam_id) in rows {
        match items.last_mut() {
            Some(last) if last.developer_name == name => last.adam_ids.push(adam_id),
            _ => items.push(Developer {
                developer_name: name,
                adam_ids: vec![adam_id],
            }),
        }
    }
    Ok(envelope::items(items))
}
