//! Options, per-user values, task records, roles and workspace scope, OpenAPI, the SPA.

use crate::common::{TestApp, TestBackend};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::{store, tasks::NewTask};
use serde_json::json;

async fn me(app: &TestApp, token: &str) -> serde_json::Value {
    app.get("/api/auth/me", Some(token)).await.json["result"]["item"].clone()
}

backend_tests! {
    async fn options_merge_in_order_and_null_removes(app: TestApp) {
        let t = app.register(&app.email(), "long password").await;
        let empty = app.get("/api/options/front", Some(&t)).await;
        assert_eq!(empty.json["result"]["item"], json!({}));
        let put = |body| app.request(Method::PUT, "/api/options/front", Some(body), Some(&t));
        put(json!({"onboarding-done": true, "optimization-filters-presets": [{"name": "Top", "filters": [], "type": "KEYWORDS"}]})).await;
        let res = put(json!({"onboarding-done": false, "suggester-entry": {"step": 2}})).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(res.json["result"]["item"]["onboarding-done"], false, "later PUT wins");
        assert_eq!(res.json["result"]["item"]["optimization-filters-presets"][0]["name"], "Top");
        let res = put(json!({"suggester-entry": null})).await;
        assert!(res.json["result"]["item"].get("suggester-entry").is_none());
        let other = app.register(&app.email(), "long password").await;
        assert_eq!(app.get("/api/options/front", Some(&other)).await.json["result"]["item"], json!({}), "options are per user");
    }

    async fn options_reject_bad_input_without_writing(app: TestApp) {
        let t = app.register(&app.email(), "long password").await;
        for body in [json!([1, 2]), json!({}), json!({"bad key!": 1, "ok": 2}), json!({"optimization-filters-presets": "x", "ok": 1})] {
            let res = app.request(Method::PUT, "/api/options/front", Some(body.clone()), Some(&t)).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}");
        }
        assert_eq!(app.get("/api/options/front", Some(&t)).await.json["result"]["item"], json!({}));
    }

    async fn suggester_options_expire_after_a_day(app: TestApp) {
        let t = app.register(&app.email(), "long password").await;
        app.request(Method::PUT, "/api/options/front", Some(json!({"suggester-entry": {"step": 3}, "suggester-last-item": 1, "onboarding": 1})), Some(&t)).await;
        sqlx::query("UPDATE member_options SET updated_at = updated_at - 86400001").execute(&app.state.db.pool).await.unwrap();
        let item = app.get("/api/options/front", Some(&t)).await.json["result"]["item"].clone();
        assert_eq!(item, json!({"onboarding": 1}));
    }

    async fn alternative_invoice_email_is_validated_and_clearable(app: TestApp) {
        let t = app.register(&app.email(), "long password").await;
        let bad = app.post("/api/users/changeValue", json!({"alternativeInvoiceEmail": "not-an-email"}), Some(&t)).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert_eq!(bad.json["errors"][0]["field"], "alternativeInvoiceEmail");
        let unknown = app.post("/api/users/changeValue", json!({"password": "x"}), Some(&t)).await;
        assert_eq!(unknown.status, StatusCode::BAD_REQUEST, "only known values can change");
        let ok = app.post("/api/users/changeValue", json!({"alternativeInvoiceEmail": " Billing@Example.com "}), Some(&t)).await;
        assert_eq!(ok.status, StatusCode::OK);
        assert_eq!(ok.json["result"]["item"]["alternativeInvoiceEmail"], "billing@example.com");
        let cleared = app.post("/api/users/changeValue", json!({"alternativeInvoiceEmail": ""}), Some(&t)).await;
        assert_eq!(cleared.json["result"]["item"]["alternativeInvoiceEmail"], serde_json::Value::Null);
    }

    async fn tasks_are_scoped_to_the_workspace(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let reader = app.member(&owner, Role::Reader).await;
        let stranger = app.register(&app.email(), "long password").await;
        let owner_item = me(&app, &owner).await;
        let task_id = store::tasks::create(&app.state.db.pool, NewTask {
            workspace_id: owner_item["workspaceId"].as_str().unwrap(),
            user_id: owner_item["id"].as_str(),
            kind: "sync-account",
            message: "Starting",
            total_steps: 4, account_id: None, org_id: None, }).await.unwrap();
        store::tasks::progress(&app.state.db.pool, &task_id, "Halfway", 2, 4, Some(&json!({"campaignsCreated": 2}))).await.unwrap();

        let res = app.get(&format!("/api/tasks/{task_id}"), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK);
        let item = &res.json["result"]["item"];
        assert_eq!((item["message"].as_str(), item["step"].as_i64(), item["totalSteps"].as_i64()), (Some("Halfway"), Some(2), Some(4)));
        assert_eq!(item["percent"], 40);
        assert_eq!(item["finish"], false);
        assert_eq!(item["details"]["campaignsCreated"], 2);
        assert_eq!(app.get(&format!("/api/tasks/{task_id}"), Some(&reader)).await.status, StatusCode::OK, "same workspace");
        let foreign = app.get(&format!("/api/tasks/{task_id}"), Some(&stranger)).await;
        assert_eq!(foreign.status, StatusCode::NOT_FOUND, "another workspace's task is not found");
        assert_eq!(foreign.message(), "Task not found");

        let list = app.get("/api/tasks", Some(&owner)).await;
        assert_eq!(list.json["result"]["items"].as_array().unwrap().len(), 1);
        assert_eq!(app.get("/api/tasks", Some(&stranger)).await.json["result"]["items"], json!([]));
        assert_eq!(app.get("/api/tasks", Some(&reader)).await.json["result"]["items"], json!([]), "the list is the caller's own tasks");

        assert!(store::tasks::finish(&app.state.db.pool, &task_id, "Done", None).await.unwrap());
        assert!(!store::tasks::finish(&app.state.db.pool, &task_id, "Again", Some("late failure")).await.unwrap(), "finished once");
        let done = app.get(&format!("/api/tasks/{task_id}"), Some(&owner)).await.json["result"]["item"].clone();
        assert_eq!((done["finish"].as_bool(), done["percent"].as_i64(), done["error"].is_null()), (Some(true), Some(100), true));
    }

    async fn members_see_their_role(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        for role in [Role::Admin, Role::Writer, Role::Reader] {
            let t = app.member(&owner, role).await;
            let item = me(&app, &t).await;
            assert_eq!(item["permission"], role.as_str());
            assert_eq!(item["workspaceId"], me(&app, &owner).await["workspaceId"]);
        }
    }

    async fn unknown_api_paths_answer_404_in_the_envelope(app: TestApp) {
        for path in ["/api/nope", "/api", "/api/auth/nothing/here"] {
            let res = app.get(path, None).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(res.json["status"], 404);
            assert_eq!(res.message(), "Not found");
        }
        let res = app.request(Method::DELETE, "/api/auth/login", None, None).await;
        assert_eq!(res.status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(res.json["status"], 405);
    }
}

#[tokio::test]
async fn openapi_documents_every_route() {
    let app = TestApp::new(TestBackend::Sqlite).await;
    let res = app.get("/api/openapi.json", None).await;
    assert_eq!(res.status, StatusCode::OK);
    let paths = res.json["paths"].as_object().unwrap();
    let expected = [
        ("post", "/api/auth/register"),
        ("post", "/api/auth/login"),
        ("get", "/api/auth/relogin"),
        ("get", "/api/auth/logout"),
        ("get", "/api/auth/recoveryPassword"),
        ("post", "/api/auth/checkCode"),
        ("post", "/api/auth/changePassword"),
        ("post", "/api/auth/changePasswordByCode"),
        ("get", "/api/auth/me"),
        ("post", "/api/users/changeValue"),
        ("get", "/api/tasks"),
        ("get", "/api/tasks/{id}"),
        ("get", "/api/options/front"),
        ("put", "/api/options/front"),
    ];
    for (method, path) in expected {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} missing from OpenAPI"
        );
    }
    // Every foundation route of shared/api-calls.tsv is documented.
    let tsv = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/api-calls.tsv"
    ));
    if tsv.is_err() && std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("../shared/api-calls.tsv must be beside the checkout in CI");
    }
    if let Ok(tsv) = tsv {
        for line in tsv.lines().filter(|l| l.ends_with("\tfoundation")) {
            let mut cols = line.split('\t');
            let (method, path) = (cols.next().unwrap().to_lowercase(), cols.next().unwrap());
            assert!(
                paths.get(path).and_then(|p| p.get(&method)).is_some(),
                "{method} {path} (api-calls.tsv) missing"
            );
        }
    }
}

#[tokio::test]
async fn health_answers_and_the_web_app_falls_back_to_index() {
    let app = TestApp::new(TestBackend::Sqlite).await;
    let health = app.get("/health", None).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.json["status"], "ok");
    let web = app.state.config.static_dir.clone();
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><div id=root></div>").unwrap();
    std::fs::write(web.join("assets/app.js"), "console.log(1)").unwrap();
    for path in ["/", "/login", "/settings/general", "/optimization/123/456"] {
        let req = axum::http::Request::get(path)
            .body(axum::body::Body::empty())
            .unwrap();
        let res = app.send(req).await;
        assert_eq!(res.status, StatusCode::OK, "{path} serves the app");
        assert_eq!(res.headers["content-type"], "text/html", "{path}");
    }
    let req = axum::http::Request::get("/assets/app.js")
        .body(axum::body::Body::empty())
        .unwrap();
    assert!(
        app.send(req).await.headers["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript")
    );
}

/// The OpenAPI document names a schema after its Rust type, and two types of one name (an
/// `AppItem` of the accounts' apps and another of the competitor pickers) become one schema:
/// the second silently replaces the first wherever either is used. Every type deriving
/// `ToSchema` in the crates the API documents has a name of its own (or an `as = …` rename).
#[test]
fn every_documented_type_has_its_own_schema_name() {
    fn walk(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in ["api/src", "common/src", "provider/src"] {
        walk(&root.join(krate), &mut files);
    }
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut clashes = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !(line.trim_start().starts_with("#[derive(") && line.contains("ToSchema")) {
                continue;
            }
            let mut renamed = false;
            for next in lines.iter().skip(i + 1).take(12) {
                let t = next.trim_start();
                if t.starts_with("#[schema(") && t.contains("as = ") {
                    renamed = true;
                }
                let decl = t.strip_prefix("pub ").or(Some(t)).and_then(|t| {
                    t.strip_prefix("struct ")
                        .or_else(|| t.strip_prefix("enum "))
                });
                if let Some(decl) = decl {
                    let name: String = decl
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    let place = format!("{}:{}", file.display(), i + 1);
                    if !renamed && let Some(first) = seen.insert(name.clone(), place.clone()) {
                        clashes.push(format!("{name}: {first} and {place}"));
                    }
                    break;
                }
            }
        }
    }
    assert!(clashes.is_empty(), "schema names used twice: {clashes:#?}");
}
