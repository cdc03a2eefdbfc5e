//! One adapter per provider, each reading the provider's own postback or webhook into
//! [`AttributionEvent`](searchdeck_model::attribution::AttributionEvent)s and writing the
//! setup the integration screen shows. Adapters do not know each other: what they share is
//! below them (the crate's private `fields`, `draft` and `macros` modules).
//!
//! | Provider | How it reaches us | Read from |
//! | --- | --- | --- |
//! | AppsFlyer | Push API V2.0, POST (JSON) or GET | the body, else the query |
//! | Adjust | callback URL with placeholders, GET | the query |
//! | Branch | webhook, POST (JSON, Event Ontology) | the body |
//! | Singular | postback URL with macros, GET | the query |
//! | Kochava | custom postback with macros, GET | the query |
//! | Tenjin | S2S callback with macros, GET | the query |
//! | RevenueCat | webhook, POST (JSON) | the body |
//! | Custom tracking server | our contract ([`crate::custom`]), POST (JSON, signed) | the body |

pub mod adjust;
pub mod appsflyer;
pub mod branch;
pub mod kochava;
pub mod revenuecat;
pub mod singular;
pub mod tenjin;

/// What the integration screen shows the user to paste into the provider's dashboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// `GET` or `POST`: the method to choose in the provider's dashboard.
    pub method: &'static str,
    /// The exact URL to paste: for a macro provider, with our parameters bound to its
    /// macros.
    pub url: String,
    /// Short steps in the provider's own UI words.
    pub steps: Vec<&'static str>,
}
