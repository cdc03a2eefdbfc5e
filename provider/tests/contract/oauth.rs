//! Popup connect through the sandbox's authorize page: allow gives a code that buys tokens
//! (and the refresh token works for API calls and refreshes); deny and a forged state fail.

use searchdeck_provider::oauth::PopupConnect;
use searchdeck_provider::{AppleAds, Client, ClientConfig, Credentials};
use secrecy::ExposeSecret;

use crate::support::{start, validate_all};

#[tokio::test]
async fn popup_connect_exchanges_the_code_and_refreshes() {
    let h = start().await;
    let popup = PopupConnect::sandbox(
        &h.base,
        "searchdeck-web",
        "https://searchdeck.test/connect/callback",
    );
    let page_url = popup.authorize_page("st-123");
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page = http.get(&page_url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"name="state" value="st-123""#), "{html}");

    let decide = |decision: &'static str, state: &'static str| {
        let (http, popup) = (http.clone(), popup.clone());
        async move {
            let form = [
                ("client_id", popup.client_id.as_str()),
                ("redirect_uri", popup.redirect_uri.as_str()),
                ("state", state),
                ("decision", decision),
            ];
            let answer = http
                .post(&popup.authorize_url)
                .form(&form)
                .send()
                .await
                .unwrap();
            assert!(answer.status().is_redirection(), "{}", answer.status());
            answer.headers()["location"].to_str().unwrap().to_string()
        }
    };
    let denied = decide("deny", "st-123").await;
    assert!(
        denied.starts_with(&popup.redirect_uri) && denied.contains("error=access_denied"),
        "{denied}"
    );
    assert!(popup.callback(&denied, "st-123").is_err());

    let allowed = decide("allow", "st-123").await;
    assert!(
        popup.callback(&allowed, "forged").is_err(),
        "a state we did not send is refused"
    );
    let code = popup.callback(&allowed, "st-123").unwrap();
    let tokens = popup.exchange_code(&http, &code).await.unwrap();
    assert!(
        popup.exchange_code(&http, &code).await.is_err(),
        "a code works once"
    );
    let refresh = tokens.refresh_token.clone().expect("a refresh token");
    let again = popup.refresh(&http, &refresh).await.unwrap();
    assert_ne!(
        again.access_token.expose_secret(),
        tokens.access_token.expose_secret()
    );

    let mut config = ClientConfig::sandbox(&h.base);
    let sink = h.seen.clone();
    config.observer = Some(std::sync::Arc::new(
        move |m: &str, p: &str, s: u16, b: &serde_json::Value| {
            sink.lock()
                .unwrap()
                .push((m.into(), p.into(), s, b.clone()))
        },
    ));
    let client = Client::new(
        config,
        Credentials::RefreshToken {
            client_id: popup.client_id.clone(),
            refresh_token: refresh,
            key: None,
        },
    )
    .unwrap();
    assert!(client.me().await.unwrap().org_id.is_some());
    assert_eq!(validate_all(&h.seen), 1);
}
