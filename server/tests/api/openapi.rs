//! The API's description against the server it describes: `/api/openapi.json` names every
//! operation once (a lowerCamelCase operationId), sums each up, and gives the session's security
//! requirement to exactly the operations that answer 401 without a session.

use std::collections::BTreeMap;

use reqwest::header::{CONTENT_TYPE, COOKIE};
use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::{set_cookies, spawn_app, spawn_app_with, TestApp};

/// The name the description gives the session's security scheme.
const SESSION_SCHEME: &str = "session";

/// Every method an OpenAPI path item may describe.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// One operation of the description.
struct Operation<'a> {
    method: &'a str,
    path: &'a str,
    value: &'a Value,
}

impl Operation<'_> {
    fn name(&self) -> String {
        format!("{} {}", self.method.to_uppercase(), self.path)
    }

    /// Whether the operation carries the session's security requirement.
    fn secured(&self) -> bool {
        self.value["security"]
            .as_array()
            .is_some_and(|all| all.iter().any(|each| each.get(SESSION_SCHEME).is_some()))
    }

    /// Sends the operation as the site's pages would, with `client`'s cookies (if any): its path
    /// parameters 1, no query, and a minimal body of the first type it takes (`{}` for JSON).
    async fn call(&self, app: &TestApp, client: &reqwest::Client) -> StatusCode {
        let path: Vec<&str> = self
            .path
            .split('/')
            .map(|segment| {
                if segment.starts_with('{') && segment.ends_with('}') {
                    "1"
                } else {
                    segment
                }
            })
            .collect();
        let method = Method::from_bytes(self.method.to_uppercase().as_bytes()).unwrap();
        let mut request = client
            .request(method, app.url(&path.join("/")))
            .header("Origin", &app.address)
            .header("Sec-Fetch-Site", "same-origin");
        if let Some(content) = self.value["requestBody"]["content"].as_object() {
            let kind = content.keys().next().expect("a request body has a type");
            let body = if kind == "application/json" { "{}" } else { "" };
            request = request.header(CONTENT_TYPE, kind).body(body);
        }
        request.send().await.expect("the request is sent").status()
    }
}

async fn description(app: &TestApp) -> Value {
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

fn operations(document: &Value) -> Vec<Operation<'_>> {
    let paths = document["paths"]
        .as_object()
        .expect("the description has paths");
    let all: Vec<Operation> = paths
        .iter()
        .flat_map(|(path, item)| {
            METHODS.iter().filter_map(move |method| {
                item.get(*method).map(|value| Operation {
                    method,
                    path,
                    value,
                })
            })
        })
        .collect();
    // Enough to be sure the walk found them: the API has over fifty.
    assert!(all.len() > 50, "only {} operations found", all.len());
    all
}

fn is_lower_camel_case(id: &str) -> bool {
    id.starts_with(|c: char| c.is_ascii_lowercase())
        && id.chars().all(|c| c.is_ascii_alphanumeric())
}

#[tokio::test]
async fn every_operation_has_a_unique_lower_camel_case_id_and_a_summary() {
    let app = spawn_app().await;
    let document = description(&app).await;
    let mut problems = Vec::new();
    let mut ids: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for operation in operations(&document) {
        match operation.value["operationId"].as_str() {
            None => problems.push(format!("{}: no operationId", operation.name())),
            Some(id) => {
                if !is_lower_camel_case(id) {
                    problems.push(format!(
                        "{}: operationId {id:?} is not lowerCamelCase",
                        operation.name()
                    ));
                }
                ids.entry(id).or_default().push(operation.name());
            }
        }
        let summary = operation.value["summary"].as_str().unwrap_or_default();
        if summary.trim().is_empty() {
            problems.push(format!("{}: no summary", operation.name()));
        }
    }
    for (id, users) in ids.iter().filter(|(_, users)| users.len() > 1) {
        problems.push(format!(
            "operationId {id:?} is used by {}",
            users.join(", ")
        ));
    }
    assert!(
        problems.is_empty(),
        "the API's description:\n  {}",
        problems.join("\n  ")
    );
    app.shutdown().await;
}

#[tokio::test]
async fn an_operation_carries_the_session_requirement_if_and_only_if_it_answers_401_without_one() {
    let app = spawn_app().await;
    let document = description(&app).await;
    // No requirement for the whole document: an operation without its own would inherit it.
    assert_eq!(document.get("security"), None);
    let operations = operations(&document);
    // The owner exists, as on any server in use; this client never signs in and keeps no cookie.
    app.signed_in().await;
    let anonymous = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();

    let mut problems = Vec::new();
    let mut secured = 0;
    for operation in &operations {
        let status = operation.call(&app, &anonymous).await;
        let unauthorized = status == StatusCode::UNAUTHORIZED;
        match (unauthorized, operation.secured()) {
            (true, false) => problems.push(format!(
                "{}: answers 401 without a session but has no session requirement",
                operation.name()
            )),
            (false, true) => problems.push(format!(
                "{}: has the session requirement but answers {status} without a session",
                operation.name()
            )),
            _ => {}
        }
        if !unauthorized {
            continue;
        }
        secured += 1;
        if operation.value["responses"].get("401").is_none() {
            problems.push(format!(
                "{}: answers 401 but does not list it",
                operation.name()
            ));
        }
        // The same request with the session is let through: it was the session that was missing.
        if app.get("/api/session").await.status() != StatusCode::OK {
            app.signed_in_again().await; // `DELETE /api/sessions` ended it
        }
        let status = operation.call(&app, &app.client).await;
        if status == StatusCode::UNAUTHORIZED {
            problems.push(format!(
                "{}: answers 401 with the owner's session too",
                operation.name()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "the session requirement and the answers without a session differ:\n  {}",
        problems.join("\n  ")
    );
    // Most of the API is the owner's; some of it is anyone's.
    assert!(secured > operations.len() / 2 && secured < operations.len());
    println!(
        "{secured} of {} operations need the session",
        operations.len()
    );
    app.shutdown().await;
}

/// The scheme names the cookie the server really sets, `__Host-` prefixed over HTTPS.
#[tokio::test]
async fn the_session_scheme_is_the_cookie_that_signing_in_sets() {
    let app = spawn_app().await;
    let document = description(&app).await;
    let scheme = &document["components"]["securitySchemes"][SESSION_SCHEME];
    assert_eq!(scheme["type"], "apiKey", "{scheme}");
    assert_eq!(scheme["in"], "cookie", "{scheme}");
    let name = scheme["name"]
        .as_str()
        .expect("the scheme names its cookie");
    assert_eq!(name, "portfolio_session");

    app.create_owner(crate::helpers::EMAIL, crate::helpers::PASSWORD)
        .await;
    let response = app
        .sign_in(crate::helpers::EMAIL, crate::helpers::PASSWORD)
        .await;
    assert_eq!(response.status(), 200);
    let cookie = set_cookies(&response)
        .into_iter()
        .find(|cookie| cookie.starts_with(&format!("{name}=")))
        .unwrap_or_else(|| panic!("signing in sets {name}"));
    let pair = cookie.split(';').next().unwrap();
    // That cookie alone is the session: a client without a cookie store sends it by hand.
    let bare = reqwest::Client::new();
    let with = bare
        .get(app.url("/api/session"))
        .header(COOKIE, pair)
        .send()
        .await
        .unwrap();
    assert_eq!(with.status(), 200);
    app.shutdown().await;

    let app =
        spawn_app_with(|s| s.public_url = Some("https://portfolio.example/".parse().unwrap()))
            .await;
    let document = description(&app).await;
    assert_eq!(
        document["components"]["securitySchemes"][SESSION_SCHEME]["name"],
        "__Host-portfolio_session"
    );
    app.shutdown().await;
}
