//! Postbacks configured with macros: the user pastes a URL whose query binds *our* parameter
//! names to *the provider's* macros (`campaign={iad_campaign_id}`), the provider fills them
//! and calls it. [`url`] writes that URL, [`parse`] reads our names back. A macro the
//! provider could not fill arrives empty or literally, and is absent
//! ([`crate::fields::present`]). Field errors name the provider's macro (`iad_campaign_id`),
//! the word the user sees in the provider's dashboard.

use std::collections::HashMap;

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};

use crate::{
    draft::Draft,
    fields::{Errors, present},
    postback::{Parsed, Postback},
};

/// Our query parameters, each bound to one provider macro.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Param {
    /// The provider's id of the event.
    Id,
    /// The activity (install, reinstall, event…), where the provider has one.
    Activity,
    /// The event name.
    Event,
    /// The media source or network name.
    Source,
    App,
    Org,
    Campaign,
    AdGroup,
    Keyword,
    Ad,
    Claim,
    Conversion,
    Placement,
    Country,
    Revenue,
    Currency,
    Time,
    Installed,
    Device,
}

impl Param {
    /// Our name in the query string.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Param::Id => "event_id",
            Param::Activity => "activity",
            Param::Event => "event",
            Param::Source => "source",
            Param::App => "app_id",
            Param::Org => "org_id",
            Param::Campaign => "campaign_id",
            Param::AdGroup => "ad_group_id",
            Param::Keyword => "keyword_id",
            Param::Ad => "ad_id",
            Param::Claim => "claim_type",
            Param::Conversion => "conversion_type",
            Param::Placement => "placement",
            Param::Country => "country",
            Param::Revenue => "revenue",
            Param::Currency => "currency",
            Param::Time => "event_time",
            Param::Installed => "install_time",
            Param::Device => "device_id",
        }
    }
}

/// How a provider's activity and event name become the event's kind and name: `None` for an
/// activity the report does not count (a session, a click).
pub(crate) type Classify =
    fn(activity: Option<&str>, event: Option<&str>) -> Option<(EventKind, String)>;

/// A macro provider: its bindings, how it tells installs from events, and its setup steps.
pub(crate) struct MacroProvider {
    pub provider: Provider,
    /// (our parameter, the provider's macro as pasted, braces included).
    pub bindings: &'static [(Param, &'static str)],
    pub classify: Classify,
    pub steps: &'static [&'static str],
}

/// The macro's name without its delimiters (`{iad_campaign_id}` → `iad_campaign_id`).
fn label(macro_text: &str) -> &str {
    macro_text.trim_matches(|c| matches!(c, '{' | '}' | '$' | '(' | ')' | '!' | '%'))
}

/// `ingest_url` with our parameters bound to the provider's macros.
pub(crate) fn url(ingest_url: &str, bindings: &[(Param, &str)]) -> String {
    let query: Vec<String> = bindings
        .iter()
        .map(|(param, macro_text)| format!("{}={macro_text}", param.name()))
        .collect();
    let sep = if ingest_url.contains('?') { '&' } else { '?' };
    format!("{ingest_url}{sep}{}", query.join("&"))
}

/// The query's parameters (and a form body's, for a provider that posts one); the first
/// value of a repeated name wins.
fn params(postback: &Postback<'_>) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let form = postback
        .content_type
        .is_some_and(|c| c.contains("application/x-www-form-urlencoded"));
    let body: &[u8] = if form { postback.body } else { b"" };
    for (k, v) in
        form_urlencoded::parse(postback.query.as_bytes()).chain(form_urlencoded::parse(body))
    {
        out.entry(k.into_owned()).or_insert_with(|| v.into_owned());
    }
    out
}

/// The event a macro provider's postback carries.
pub(crate) fn parse(
    mp: &MacroProvider,
    postback: &Postback<'_>,
) -> Result<Parsed, Vec<FieldError>> {
    let query = params(postback);
    let field = |p: Param| -> (&'static str, Option<&str>) {
        let bound = mp.bindings.iter().find(|(param, _)| *param == p);
        let name = bound.map_or(p.name(), |(_, m)| label(m));
        (name, query.get(p.name()).map(String::as_str))
    };
    let Some((kind, name)) = (mp.classify)(
        present(field(Param::Activity).1),
        present(field(Param::Event).1),
    ) else {
        return Ok(Parsed::skipped());
    };
    let mut e = Errors::default();
    let mut d = Draft::new(mp.provider, kind, name);
    d.event_id = present(field(Param::Id).1).map(str::to_string);
    d.source = present(field(Param::Source).1).map(str::to_string);
    let (f, v) = field(Param::App);
    d.adam_id = e.adam_id(f, v);
    let (f, v) = field(Param::Org);
    d.org_id = e.id(f, v);
    let (f, v) = field(Param::Campaign);
    d.campaign_id = e.id(f, v);
    let (f, v) = field(Param::AdGroup);
    d.ad_group_id = e.id(f, v);
    let (f, v) = field(Param::Keyword);
    d.keyword_id = e.id(f, v);
    let (f, v) = field(Param::Ad);
    d.ad_id = e.id(f, v);
    let (f, v) = field(Param::Claim);
    d.claim_type = e.claim_type(f, v);
    let (f, v) = field(Param::Conversion);
    d.conversion_type = e.conversion_type(f, v);
    d.placement = present(field(Param::Placement).1).map(str::to_string);
    let (f, v) = field(Param::Country);
    d.country = e.country(f, v);
    d.revenue = e.revenue(field(Param::Revenue), field(Param::Currency));
    let (f, v) = field(Param::Time);
    d.event_time = e.time(f, v);
    let (f, v) = field(Param::Installed);
    d.install_time = e.time(f, v);
    d.device_id = present(field(Param::Device).1).map(str::to_string);
    Parsed::one(d, e, field(Param::Time).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_binds_our_names_to_the_macros() {
        let bindings = [
            (Param::Campaign, "{iad_campaign_id}"),
            (Param::Time, "{created_at}"),
        ];
        assert_eq!(
            url("https://x.test/p/adjust/t0k", &bindings),
            "https://x.test/p/adjust/t0k?campaign_id={iad_campaign_id}&event_time={created_at}"
        );
        assert_eq!(
            url("https://x.test/p?a=1", &bindings[..1]),
            "https://x.test/p?a=1&campaign_id={iad_campaign_id}"
        );
        assert_eq!(label("${(name)!}"), "name");
        assert_eq!(label("%event_name%"), "event_name");
    }
}
