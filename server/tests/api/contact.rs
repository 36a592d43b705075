//! `POST /api/contact`: storage, validation at every bound, bad bodies, spam traps, the rate limit
//! and the OpenAPI document.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_with, TestApp};

/// A message a person would write, the honeypot empty. [`post_contact`] adds what the page adds:
/// the signed form token and a solved proof-of-work challenge.
pub fn valid_form() -> Value {
    json!({
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "subject": "A project",
        "message": "Hello! I would like to talk about a project.",
        "form-name": "contact",
        "website": ""
    })
}

/// `valid_form()` with `field` set to `value`.
pub fn form_with(field: &str, value: Value) -> Value {
    let mut form = valid_form();
    form[field] = value;
    form
}

/// Sends `body` as the real page does: with a fresh form token and a solved challenge, except
/// where the body already has `token` or `altcha` (set either to `null` to leave it out).
pub async fn post_contact(app: &TestApp, body: &Value) -> reqwest::Response {
    app.post_json("/api/contact", &as_person(app, body).await)
        .await
}

/// Sends `body` exactly as given, as a script would.
pub async fn post_raw(app: &TestApp, body: &Value) -> reqwest::Response {
    app.post_json("/api/contact", body).await
}

/// What the page gets when the form is first used: a form token and a challenge, solved.
pub async fn proofs(app: &TestApp) -> (String, String) {
    proofs_from(&app.address).await
}

/// [`proofs`] from the server at `base` (for servers a test starts itself).
pub async fn proofs_from(base: &str) -> (String, String) {
    let response = reqwest::get(format!("{base}/api/contact/challenge"))
        .await
        .expect("the request is sent");
    assert_eq!(response.status(), 200);
    let issued: Value = response.json().await.unwrap();
    let challenge: portfolio::contact::spam::Challenge =
        serde_json::from_value(issued["challenge"].clone()).expect("a challenge");
    let altcha = portfolio::contact::spam::solve(&challenge).expect("a solution");
    (
        issued["token"].as_str().expect("a token").to_owned(),
        altcha,
    )
}

/// A fresh form token alone (its challenge left unsolved), from the server at `base`.
pub async fn token_from(base: &str) -> String {
    let issued: Value = reqwest::get(format!("{base}/api/contact/challenge"))
        .await
        .expect("the request is sent")
        .json()
        .await
        .unwrap();
    issued["token"].as_str().expect("a token").to_owned()
}

/// `body` with a fresh token and solved challenge added where it has none (see [`post_contact`]).
pub async fn as_person(app: &TestApp, body: &Value) -> Value {
    as_person_at(&app.address, body).await
}

/// [`as_person`] for the server at `base`.
pub async fn as_person_at(base: &str, body: &Value) -> Value {
    let mut body = body.clone();
    if let Some(fields) = body.as_object_mut() {
        let (token, altcha) = proofs_from(base).await;
        fields.entry("token").or_insert(json!(token));
        fields.entry("altcha").or_insert(json!(altcha));
    }
    body
}

/// The stored row of message `id`, every column.
#[derive(Debug)]
pub struct StoredMessage {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub form_name: String,
    pub created_at: i64,
    pub is_read: i64,
    pub is_spam: i64,
    pub spam_reason: Option<String>,
    pub deleted_at: Option<i64>,
    pub user_agent: Option<String>,
}

impl sqlx::FromRow<'_, sqlx::any::AnyRow> for StoredMessage {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            email: row.try_get("email")?,
            subject: row.try_get("subject")?,
            message: row.try_get("message")?,
            form_name: row.try_get("form_name")?,
            created_at: row.try_get("created_at")?,
            is_read: row.try_get("is_read")?,
            is_spam: row.try_get("is_spam")?,
            spam_reason: row.try_get("spam_reason")?,
            deleted_at: row.try_get("deleted_at")?,
            user_agent: row.try_get("user_agent")?,
        })
    }
}

pub async fn stored(db: &sqlx::AnyPool, id: i64) -> StoredMessage {
    sqlx::query_as(
        "SELECT id, name, email, subject, message, form_name, created_at, \
                CASE WHEN is_read THEN 1 ELSE 0 END AS is_read, \
                CASE WHEN is_spam THEN 1 ELSE 0 END AS is_spam, \
                spam_reason, deleted_at, user_agent \
         FROM contact_messages WHERE id = $1",
    )
    .bind(id)
    .fetch_one(db)
    .await
    .expect("the message is stored")
}

pub async fn count(db: &sqlx::AnyPool, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(db)
        .await
        .unwrap()
}

/// Asserts a 422 whose `fields` name exactly `names`, and returns the field messages.
async fn assert_rejected(response: reqwest::Response, names: &[&str]) -> Value {
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "validation_failed", "{body}");
    let fields = body["error"]["fields"].as_object().expect("fields").clone();
    let mut got: Vec<&str> = fields.keys().map(String::as_str).collect();
    got.sort_unstable();
    let mut want = names.to_vec();
    want.sort_unstable();
    assert_eq!(got, want, "{body}");
    Value::Object(fields)
}

async fn assert_created(app: &TestApp, body: &Value) -> i64 {
    let response = post_contact(app, body).await;
    assert_eq!(response.status(), 201, "{:?}", response.text().await);
    let created: Value = response.json().await.unwrap();
    created["id"].as_i64().expect("an id")
}

#[tokio::test]
async fn a_valid_message_is_stored_with_every_field_and_a_server_set_time() {
    let app = spawn_app().await;
    let before = portfolio::clock::now_ms();
    let response = app
        .client
        .post(app.url("/api/contact"))
        .header("Sec-Fetch-Site", "same-origin")
        .header("User-Agent", "Mozilla/5.0 (test) Firefox/140.0")
        .json(&as_person(&app, &valid_form()).await)
        .send()
        .await
        .unwrap();
    let after = portfolio::clock::now_ms();
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    let id = body["id"].as_i64().unwrap();
    let created_at = chrono::DateTime::parse_from_rfc3339(body["createdAt"].as_str().unwrap())
        .expect("createdAt is RFC 3339");
    assert_eq!(created_at.offset().local_minus_utc(), 0, "createdAt is UTC");

    let row = stored(&app.sql, id).await;
    assert_eq!(row.id, id);
    assert_eq!(row.name, "Ada Lovelace");
    assert_eq!(row.email, "ada@example.com");
    assert_eq!(row.subject, "A project");
    assert_eq!(row.message, "Hello! I would like to talk about a project.");
    assert_eq!(row.form_name, "contact");
    assert!((before..=after).contains(&row.created_at), "server time");
    assert_eq!(row.created_at, created_at.timestamp_millis());
    assert_eq!(row.is_read, 0);
    assert_eq!(row.is_spam, 0);
    assert_eq!(row.spam_reason, None);
    assert_eq!(row.deleted_at, None);
    assert_eq!(
        row.user_agent.as_deref(),
        Some("Mozilla/5.0 (test) Firefox/140.0")
    );
    // Notifications are off without SMTP settings: nothing is queued.
    assert_eq!(count(&app.sql, "notification_outbox").await, 0);
    app.shutdown().await;
}

#[tokio::test]
async fn a_client_supplied_created_at_is_rejected_as_unknown() {
    let app = spawn_app().await;
    let response = post_contact(&app, &form_with("createdAt", json!("1999-01-01T00:00:00Z"))).await;
    assert_rejected(response, &["createdAt"]).await;
    assert_eq!(count(&app.sql, "contact_messages").await, 0);
}

#[tokio::test]
async fn a_very_long_user_agent_is_cut_to_512_characters() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/api/contact"))
        .header("User-Agent", "u".repeat(2000))
        .json(&as_person(&app, &valid_form()).await)
        .send()
        .await
        .unwrap();
    let id = response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    assert_eq!(stored(&app.sql, id).await.user_agent.unwrap().len(), 512);
}

#[tokio::test]
async fn html_unicode_and_emoji_are_stored_exactly_as_sent() {
    let app = spawn_app().await;
    let name = "<b>Zoë</b> 😀 & co";
    let subject = "<script>alert('x')</script> — ünïcödé";
    let message = "  <img src=x onerror=alert(1)>\n&amp; \"quotes\" 'single' 👩‍💻\r\n  ";
    let id = assert_created(
        &app,
        &json!({"name": name, "email": "zoe@example.com", "subject": subject, "message": message,
                "form-name": "contact", "website": ""}),
    )
    .await;
    let row = stored(&app.sql, id).await;
    assert_eq!(row.name, name);
    assert_eq!(row.subject, subject);
    assert_eq!(row.message, message);
}

// --- Validation: one test per rule, at the bound and one past it. ---

#[tokio::test]
async fn a_name_of_one_to_a_hundred_characters_is_accepted_and_a_hundred_and_one_rejected() {
    let app = spawn_app().await;
    assert_created(&app, &form_with("name", json!("A"))).await;
    assert_created(&app, &form_with("name", json!("é".repeat(100)))).await;
    // The bound applies after trimming, and the stored name is trimmed.
    let id = assert_created(
        &app,
        &form_with("name", json!(format!("  {}  ", "n".repeat(100)))),
    )
    .await;
    assert_eq!(stored(&app.sql, id).await.name, "n".repeat(100));
    let fields = assert_rejected(
        post_contact(&app, &form_with("name", json!("n".repeat(101)))).await,
        &["name"],
    )
    .await;
    assert_eq!(fields["name"], "must be at most 100 characters");
}

#[tokio::test]
async fn a_blank_or_missing_name_is_rejected() {
    let app = spawn_app().await;
    let fields = assert_rejected(
        post_contact(&app, &form_with("name", json!(""))).await,
        &["name"],
    )
    .await;
    assert_eq!(fields["name"], "is required");
    assert_rejected(
        post_contact(&app, &form_with("name", json!(" \t\n "))).await,
        &["name"],
    )
    .await;
    let mut missing = valid_form();
    missing.as_object_mut().unwrap().remove("name");
    let fields = assert_rejected(post_contact(&app, &missing).await, &["name"]).await;
    assert_eq!(fields["name"], "is required");
    assert_eq!(count(&app.sql, "contact_messages").await, 0);
}

#[tokio::test]
async fn an_email_of_254_characters_is_accepted_and_255_rejected() {
    let app = spawn_app().await;
    let local = "a".repeat(64);
    let domain = |last: usize| {
        format!(
            "{}.{}.{}.com",
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(last)
        )
    };
    let at_bound = format!("{local}@{}", domain(57));
    assert_eq!(at_bound.len(), 254);
    let id = assert_created(&app, &form_with("email", json!(at_bound))).await;
    assert_eq!(stored(&app.sql, id).await.email, at_bound);
    let past = format!("{local}@{}", domain(58));
    let fields = assert_rejected(
        post_contact(&app, &form_with("email", json!(past))).await,
        &["email"],
    )
    .await;
    assert_eq!(fields["email"], "must be at most 254 characters");
}

#[tokio::test]
async fn an_invalid_or_missing_email_is_rejected() {
    let app = spawn_app().await;
    for bad in [
        "ada",
        "ada@",
        "@example.com",
        "ada @example.com",
        "ada@exa mple.com",
    ] {
        let fields = assert_rejected(
            post_contact(&app, &form_with("email", json!(bad))).await,
            &["email"],
        )
        .await;
        assert!(
            fields["email"].as_str().unwrap().contains("valid e-mail"),
            "{bad}: {fields}"
        );
    }
    let fields = assert_rejected(
        post_contact(&app, &form_with("email", json!(""))).await,
        &["email"],
    )
    .await;
    assert_eq!(fields["email"], "is required");
    assert_eq!(count(&app.sql, "contact_messages").await, 0);
}

#[tokio::test]
async fn a_subject_of_200_characters_is_accepted_and_201_rejected() {
    let app = spawn_app().await;
    assert_created(&app, &form_with("subject", json!("s".repeat(200)))).await;
    assert_created(&app, &form_with("subject", json!("😀".repeat(200)))).await;
    let fields = assert_rejected(
        post_contact(&app, &form_with("subject", json!("s".repeat(201)))).await,
        &["subject"],
    )
    .await;
    assert_eq!(fields["subject"], "must be at most 200 characters");
}

#[tokio::test]
async fn a_blank_subject_is_rejected() {
    let app = spawn_app().await;
    assert_created(&app, &form_with("subject", json!("?"))).await;
    let fields = assert_rejected(
        post_contact(&app, &form_with("subject", json!("   "))).await,
        &["subject"],
    )
    .await;
    assert_eq!(fields["subject"], "is required");
}

#[tokio::test]
async fn a_message_of_5000_characters_is_accepted_and_5001_rejected() {
    let app = spawn_app().await;
    let id = assert_created(&app, &form_with("message", json!("m".repeat(5000)))).await;
    assert_eq!(stored(&app.sql, id).await.message.len(), 5000);
    let fields = assert_rejected(
        post_contact(&app, &form_with("message", json!("m".repeat(5001)))).await,
        &["message"],
    )
    .await;
    assert_eq!(fields["message"], "must be at most 5000 characters");
}

#[tokio::test]
async fn a_blank_message_is_rejected() {
    let app = spawn_app().await;
    assert_created(&app, &form_with("message", json!("."))).await;
    let fields = assert_rejected(
        post_contact(&app, &form_with("message", json!("\n\n"))).await,
        &["message"],
    )
    .await;
    assert_eq!(fields["message"], "is required");
}

#[tokio::test]
async fn a_form_name_other_than_contact_is_rejected() {
    let app = spawn_app().await;
    assert_rejected(
        post_contact(&app, &form_with("form-name", json!("newsletter"))).await,
        &["form-name"],
    )
    .await;
}

#[tokio::test]
async fn every_failing_field_is_named_in_one_answer() {
    let app = spawn_app().await;
    let body = json!({"name": "", "email": "nope", "subject": "", "message": "m".repeat(5001),
                      "form-name": "contact", "website": ""});
    let fields = assert_rejected(
        post_contact(&app, &body).await,
        &["email", "message", "name", "subject"],
    )
    .await;
    assert_eq!(fields["name"], "is required");
}

// --- Bodies that are not a contact form: always 4xx with the error shape, never 5xx. ---

async fn assert_error_shape(response: reqwest::Response, status: u16, code: &str) -> Value {
    assert_eq!(response.status(), status);
    let body: Value = response.json().await.expect("a JSON error body");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
    body
}

fn raw_post(app: &TestApp) -> reqwest::RequestBuilder {
    app.client
        .post(app.url("/api/contact"))
        .header("Sec-Fetch-Site", "same-origin")
}

#[tokio::test]
async fn malformed_json_is_a_400() {
    let app = spawn_app().await;
    for body in [r#"{"name": "#, "not json", "", r#"{"name":"a",}"#] {
        let response = raw_post(&app)
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_error_shape(response, 400, "malformed_json").await;
    }
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_415() {
    let app = spawn_app().await;
    let form = raw_post(&app)
        .form(&[("name", "Ada"), ("email", "ada@example.com")])
        .send()
        .await
        .unwrap();
    assert_error_shape(form, 415, "unsupported_media_type").await;
    let none = raw_post(&app)
        .body(valid_form().to_string())
        .send()
        .await
        .unwrap();
    assert_error_shape(none, 415, "unsupported_media_type").await;
}

#[tokio::test]
async fn a_body_over_16_kb_is_a_413() {
    let app = spawn_app().await;
    let response = post_contact(&app, &form_with("message", json!("m".repeat(17 * 1024)))).await;
    assert_error_shape(response, 413, "payload_too_large").await;
    assert_eq!(count(&app.sql, "contact_messages").await, 0);
}

#[tokio::test]
async fn an_unknown_field_is_a_422_naming_it() {
    let app = spawn_app().await;
    let response = post_contact(&app, &form_with("isAdmin", json!(true))).await;
    let body = assert_error_shape(response, 422, "validation_failed").await;
    assert_eq!(body["error"]["fields"]["isAdmin"], "is not a known field");
}

#[tokio::test]
async fn a_field_of_the_wrong_type_is_a_422_naming_it() {
    let app = spawn_app().await;
    for (field, value) in [
        ("name", json!(42)),
        ("message", json!(null)),
        ("elapsedMs", json!("soon")),
        ("website", json!(["x"])),
    ] {
        let response = post_contact(&app, &form_with(field, value)).await;
        let body = assert_error_shape(response, 422, "validation_failed").await;
        assert!(
            body["error"]["fields"].get(field).is_some(),
            "{field}: {body}"
        );
    }
    let response = post_contact(&app, &json!(["an", "array"])).await;
    assert_error_shape(response, 422, "validation_failed").await;
}

#[tokio::test]
async fn a_cross_site_post_is_forbidden() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/api/contact"))
        .header("Sec-Fetch-Site", "cross-site")
        .header("Origin", "https://evil.example")
        .json(&valid_form())
        .send()
        .await
        .unwrap();
    assert_error_shape(response, 403, "forbidden").await;
    assert_eq!(count(&app.sql, "contact_messages").await, 0);
}

// --- Spam: the same 201, stored flagged (every check is in `spam.rs`). ---

#[tokio::test]
async fn a_filled_honeypot_gets_a_201_and_is_stored_as_spam() {
    let app = spawn_app().await;
    let id = assert_created(
        &app,
        &form_with("website", json!("https://cheap-pills.example")),
    )
    .await;
    let row = stored(&app.sql, id).await;
    assert_eq!(row.is_spam, 1);
    assert_eq!(row.spam_reason.as_deref(), Some("honeypot"));
}

// --- Rate limit ---

#[tokio::test]
async fn the_sixth_message_in_a_minute_from_one_client_is_a_429_with_retry_after() {
    let app = spawn_app_with(|s| s.trust_proxy = true).await;
    let from = |ip: &'static str| {
        let app = &app;
        move || {
            app.client
                .post(app.url("/api/contact"))
                .header("Sec-Fetch-Site", "same-origin")
                .header("X-Forwarded-For", ip)
        }
    };
    let me = from("203.0.113.7");
    // The messages are prepared first, so the posts fall within one minute's window.
    let mut people = Vec::new();
    for _ in 0..6 {
        people.push(as_person(&app, &valid_form()).await);
    }
    for person in &people[..5] {
        assert_eq!(me().json(person).send().await.unwrap().status(), 201);
    }
    let response = me().json(&people[5]).send().await.unwrap();
    assert_eq!(response.status(), 429);
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (1..=60).contains(&retry_after),
        "Retry-After: {retry_after}"
    );
    let body = assert_error_shape(response, 429, "too_many_requests").await;
    assert!(body["error"]["message"].as_str().unwrap().contains("wait"));
    assert_eq!(
        count(&app.sql, "contact_messages").await,
        5,
        "the refused message is not stored"
    );

    // Another client is not affected.
    let person = as_person(&app, &valid_form()).await;
    let other = from("198.51.100.1")().json(&person).send().await.unwrap();
    assert_eq!(other.status(), 201);
}

#[tokio::test]
async fn the_limits_are_settings() {
    let app = spawn_app_with(|s| {
        s.trust_proxy = true;
        s.limits.contact_per_minute = 2;
    })
    .await;
    let mut people = Vec::new();
    for _ in 0..3 {
        people.push(as_person(&app, &valid_form()).await);
    }
    let send = |person: &Value| {
        app.client
            .post(app.url("/api/contact"))
            .header("Sec-Fetch-Site", "same-origin")
            .header("X-Forwarded-For", "203.0.113.9")
            .json(person)
            .send()
    };
    assert_eq!(send(&people[0]).await.unwrap().status(), 201);
    assert_eq!(send(&people[1]).await.unwrap().status(), 201);
    assert_eq!(send(&people[2]).await.unwrap().status(), 429);
}

#[tokio::test]
async fn a_message_the_hourly_limit_refuses_spends_none_of_the_minutes() {
    let app = spawn_app_with(|s| {
        s.trust_proxy = true;
        s.limits.contact_per_minute = 5;
        s.limits.contact_per_hour = 2;
    })
    .await;
    let mut people = Vec::new();
    for _ in 0..4 {
        people.push(as_person(&app, &valid_form()).await);
    }
    let send = |person: &Value| {
        app.client
            .post(app.url("/api/contact"))
            .header("Sec-Fetch-Site", "same-origin")
            .header("X-Forwarded-For", "203.0.113.10")
            .json(person)
            .send()
    };
    assert_eq!(send(&people[0]).await.unwrap().status(), 201);
    assert_eq!(send(&people[1]).await.unwrap().status(), 201);
    for person in &people[2..] {
        let refused = send(person).await.unwrap();
        assert_eq!(refused.status(), 429);
        // The hour's limit is the one that refused: on PostgreSQL a fixed window on the clock's
        // hours, in one instance's memory an allowance that comes back evenly (one each 30 min).
        let retry_after: u64 = refused.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let hours_wait = if app.database_url.starts_with("postgres") {
            3600 - now % 3600
        } else {
            1800
        };
        assert!(
            retry_after.abs_diff(hours_wait) <= 2,
            "Retry-After {retry_after}, the hour's limit allows one more in {hours_wait} s"
        );
    }
    // Where the counts are shared (PostgreSQL), the minute's window counted the two stored only.
    if app.database_url.starts_with("postgres") {
        let minute: i64 = sqlx::query_scalar(
            "SELECT CAST(hits AS BIGINT) FROM contact_rate_limits WHERE window_ms = 60000",
        )
        .fetch_one(&app.sql)
        .await
        .unwrap();
        assert_eq!(minute, 2);
        let hour: i64 = sqlx::query_scalar(
            "SELECT CAST(hits AS BIGINT) FROM contact_rate_limits WHERE window_ms = 3600000",
        )
        .fetch_one(&app.sql)
        .await
        .unwrap();
        assert_eq!(hour, 4, "each refused message still counts in the hour");
    }
}

#[tokio::test]
async fn invalid_submissions_do_not_use_up_the_rate_limit() {
    let app = spawn_app().await;
    for _ in 0..10 {
        assert_eq!(
            post_contact(&app, &form_with("email", json!("nope")))
                .await
                .status(),
            422
        );
    }
    assert_eq!(post_contact(&app, &valid_form()).await.status(), 201);
}

// --- The contract ---

#[tokio::test]
async fn the_openapi_document_describes_the_contact_endpoint() {
    let app = spawn_app().await;
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status(), 200);
    let doc: Value = response.json().await.unwrap();
    let post = &doc["paths"]["/api/contact"]["post"];
    assert!(post.is_object(), "{doc}");
    for status in ["201", "413", "415", "422", "429"] {
        assert!(post["responses"][status].is_object(), "{status}");
    }
    let schema = &doc["components"]["schemas"]["ContactRequest"];
    for field in ["name", "email", "subject", "message", "form-name"] {
        assert!(
            schema["required"]
                .as_array()
                .unwrap()
                .contains(&json!(field)),
            "{field}"
        );
    }
}
