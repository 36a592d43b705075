//! Spam protection as a script meets it: a faked start time, a skipped, wrong or replayed
//! challenge, a forged token, content signals and the site-wide ceiling. Every caught message
//! gets the same 201, is stored in Spam with a stable code and sends no e-mail.

use std::time::Duration;

use base64::Engine as _;
use serde_json::{json, Value};

use crate::contact::{
    as_person, count, form_with, post_contact, post_raw, proofs, stored, token_from, valid_form,
};
use crate::contact_smtp::TestSmtp;
use crate::helpers::{
    fresh_database_url, on_postgres, spawn_app_with, sql_pool, Spawn, TestApp, PATIENCE,
};

const OWNER: &str = "owner@example.com";

/// A server that mails the owner through `smtp`, with the real 3 s minimum unless `min_fill_ms`.
async fn app_with(smtp: Option<&TestSmtp>, min_fill_ms: u64, ceiling: u32) -> TestApp {
    spawn_app_with(|s| {
        if let Some(smtp) = smtp {
            s.mail.smtp_url = Some(smtp.url().into());
            s.mail.notify_email = Some(OWNER.to_owned());
        }
        s.spam.min_fill_ms = min_fill_ms;
        s.spam.ceiling_per_hour = ceiling;
        // Many messages from one test client: the per-client limit is tested elsewhere.
        s.trust_proxy = true;
    })
    .await
}

static NEXT_CLIENT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// Posts `body` exactly as given, from a client address of its own (the per-client limit stays
/// out of the way); returns the stored row's id and spam code.
async fn send(app: &TestApp, body: &Value) -> (i64, Option<String>) {
    let n = NEXT_CLIENT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let response = app
        .client
        .post(app.url("/api/contact"))
        .header("Sec-Fetch-Site", "same-origin")
        .header("X-Forwarded-For", format!("10.1.{}.{}", n / 250, n % 250))
        .json(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201, "the same 201 for every message");
    let id = response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    let row = stored(&app.sql, id).await;
    assert_eq!(row.is_spam, i64::from(row.spam_reason.is_some()));
    (id, row.spam_reason)
}

fn with(body: &Value, field: &str, value: Value) -> Value {
    let mut body = body.clone();
    body[field] = value;
    body
}

fn payload(json: &Value) -> String {
    base64::engine::general_purpose::STANDARD.encode(json.to_string())
}

fn decode(altcha: &str) -> Value {
    serde_json::from_slice(
        &base64::engine::general_purpose::STANDARD
            .decode(altcha)
            .unwrap(),
    )
    .unwrap()
}

#[tokio::test]
async fn scripts_are_stored_as_spam_with_a_code_and_only_the_person_is_notified() {
    let smtp = TestSmtp::start().await;
    let app = app_with(Some(&smtp), 3000, 100).await;
    let form = valid_form();
    // Tokens fetched together age together; each is good for one message.
    let mut tokens = Vec::new();
    for _ in 0..8 {
        tokens.push(token_from(&app.address).await);
    }
    let mut caught = Vec::new();

    // The old trap's number, faked: no token at all.
    let faked = with(&form, "elapsedMs", json!(5000));
    caught.push((send(&app, &faked).await, "token-missing"));

    // A token of its own making, a real one with an earlier time or another nonce written in,
    // or one in the shape of the tokens before they were single-use.
    let (payload_part, signature) = tokens[0].rsplit_once('.').unwrap();
    let (_, nonce) = payload_part.split_once('.').unwrap();
    let earlier_ms = portfolio::clock::now_ms() - 60_000;
    let earlier = format!("{earlier_ms}.{nonce}.{signature}");
    let renonced = format!("{earlier_ms}.{}.{signature}", "ab".repeat(12));
    let old_shape = format!("{earlier_ms}.{signature}");
    for forged in [
        "1700000000000.c2lnbmVk",
        earlier.as_str(),
        renonced.as_str(),
        old_shape.as_str(),
        "soon",
    ] {
        let (_, fresh) = proofs(&app).await;
        let body = with(&with(&form, "token", json!(forged)), "altcha", json!(fresh));
        caught.push((send(&app, &body).await, "token-forged"));
    }

    // A real token, sent at once: quicker than a person.
    let (quick_token, quick_altcha) = proofs(&app).await;
    let quick = with(
        &with(&form, "token", json!(quick_token)),
        "altcha",
        json!(quick_altcha),
    );
    caught.push((send(&app, &quick).await, "too-fast"));

    // From here on the first tokens are old enough.
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let mut tokens = tokens.into_iter().skip(1);
    let mut timed = || with(&form, "token", json!(tokens.next().unwrap()));

    // The challenge skipped, or answered wrongly.
    caught.push((send(&app, &timed()).await, "challenge-missing"));
    let (_, fresh) = proofs(&app).await;
    let mut wrong = decode(&fresh);
    wrong["number"] = json!(wrong["number"].as_u64().unwrap() + 1);
    for bad in [payload(&wrong), "bm90IGpzb24=".to_owned(), "!!".to_owned()] {
        let body = with(&timed(), "altcha", json!(bad));
        caught.push((send(&app, &body).await, "challenge-failed"));
    }
    // A challenge of the script's own making, with a signature the server never gave.
    let mut made_up = decode(&fresh);
    made_up["signature"] = json!("ab".repeat(32));
    let body = with(&timed(), "altcha", json!(payload(&made_up)));
    caught.push((send(&app, &body).await, "challenge-failed"));

    // A person: a token and a challenge of its own.
    let person = with(&timed(), "altcha", json!(fresh));
    let (real, reason) = send(&app, &person).await;
    assert_eq!(reason, None, "a person's message lands in the inbox");

    // The same solved challenge again, with a token of its own; the same token again, with a
    // challenge of its own.
    let replay = with(
        &with(&person, "name", json!("Replayer")),
        "token",
        timed()["token"].clone(),
    );
    caught.push((send(&app, &replay).await, "challenge-replayed"));
    let (_, another) = proofs(&app).await;
    let replay = with(
        &with(&person, "name", json!("Replayer")),
        "altcha",
        json!(another),
    );
    caught.push((send(&app, &replay).await, "token-replayed"));

    for ((id, reason), code) in &caught {
        assert_eq!(reason.as_deref(), Some(*code), "message {id}");
    }

    // Exactly one e-mail: the person's.
    let mails = smtp.wait_for(1, PATIENCE).await;
    assert!(mails[0].body().contains("I would like to talk"));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(smtp.received().len(), 1, "no e-mail for any spam");
    let queued: Vec<i64> = sqlx::query_scalar("SELECT message_id FROM notification_outbox")
        .fetch_all(&app.sql)
        .await
        .unwrap();
    assert_eq!(queued, [real]);
    assert_eq!(
        count(&app.sql, "contact_messages").await,
        caught.len() as i64 + 1,
        "every message is stored"
    );
}

#[tokio::test]
async fn a_challenge_expires_and_cannot_be_replayed_on_another_instance() {
    let data_dir = tempfile::tempdir().unwrap();
    let url = fresh_database_url(data_dir.path()).await;
    let a = Spawn::new().data_dir(data_dir).database(url.clone()).await;
    let b = Spawn::new().database(url).await;

    // Issued by one instance, accepted by the other (the keys live in the database) ...
    let person = as_person(&a, &valid_form()).await;
    let (_, reason) = send(&b, &person).await;
    assert_eq!(reason, None);
    // ... and remembered there as used, for both: the challenge with a new token, the token
    // with a new challenge.
    let again = with(&person, "token", json!(token_from(&a.address).await));
    let (_, reason) = send(&a, &with(&again, "name", json!("Again"))).await;
    assert_eq!(reason.as_deref(), Some("challenge-replayed"));
    let used: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM spam_used_challenges")
        .fetch_one(&a.sql)
        .await
        .unwrap();
    assert_eq!(used, 1);
    let (_, fresh) = proofs(&a).await;
    let (_, reason) = send(&a, &with(&person, "altcha", json!(fresh))).await;
    assert_eq!(reason.as_deref(), Some("token-replayed"));

    // A used proof is forgotten once expired; a challenge past its time is refused.
    for table in ["spam_used_challenges", "spam_used_tokens"] {
        sqlx::query(&format!("UPDATE {table} SET expires_at = 1"))
            .execute(&a.sql)
            .await
            .unwrap();
    }
    let (_, reason) = send(&a, &as_person(&a, &valid_form()).await).await;
    assert_eq!(reason, None);
    for table in ["spam_used_challenges", "spam_used_tokens"] {
        let used: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&a.sql)
            .await
            .unwrap();
        assert_eq!(used, 1, "the expired entries of {table} were forgotten");
    }

    // A restart keeps the keys: a token from before is still good. (`a` holds the SQLite file.)
    let (token, _) = proofs(&b).await;
    let url = b.database_url.clone();
    b.shutdown().await;
    let again = Spawn::new().database(url).await;
    let (_, altcha) = proofs(&again).await;
    let body = with(
        &with(&valid_form(), "token", json!(token)),
        "altcha",
        json!(altcha),
    );
    assert_eq!(send(&again, &body).await.1, None);
}

#[tokio::test]
async fn many_links_or_only_a_link_is_spam() {
    let app = app_with(None, 0, 100).await;
    let links = (1..=6)
        .map(|n| format!("https://shop{n}.example/deal"))
        .collect::<Vec<_>>()
        .join(" and ");
    let flagged = [
        form_with("message", json!(format!("Great offers: {links}"))),
        form_with("message", json!("  https://cheap-pills.example/buy?now=1 ")),
        form_with("message", json!("www.cheap-pills.example")),
    ];
    for body in &flagged {
        let (_, reason) = send(&app, &as_person(&app, body).await).await;
        assert_eq!(reason.as_deref(), Some("content"), "{body}");
    }
    let five = (1..=5)
        .map(|n| format!("https://work{n}.example"))
        .collect::<Vec<_>>()
        .join(", ");
    let fine = [
        form_with("message", json!(format!("My projects: {five}"))),
        form_with("message", json!("See https://example.com for my work.")),
    ];
    for body in &fine {
        let (_, reason) = send(&app, &as_person(&app, body).await).await;
        assert_eq!(reason, None, "{body}");
    }
}

#[tokio::test]
async fn beyond_the_ceiling_messages_are_kept_in_spam_and_the_owner_is_told_once_an_hour() {
    let smtp = TestSmtp::start().await;
    let app = app_with(Some(&smtp), 0, 3).await;
    // Spam does not count towards the ceiling.
    let (_, reason) = send(&app, &form_with("website", json!("x"))).await;
    assert_eq!(reason.as_deref(), Some("honeypot"));
    for n in 0..3 {
        let body = as_person(&app, &form_with("name", json!(format!("Person {n}")))).await;
        assert_eq!(send(&app, &body).await.1, None, "message {n}");
    }
    for n in 3..6 {
        let body = as_person(&app, &form_with("name", json!(format!("Person {n}")))).await;
        assert_eq!(
            send(&app, &body).await.1.as_deref(),
            Some("ceiling"),
            "message {n}"
        );
    }
    // Three e-mails about messages, and one notice for the three held: none about them.
    let mails = smtp.wait_for(4, PATIENCE).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mails = if mails.len() < smtp.received().len() {
        smtp.received()
    } else {
        mails
    };
    let notices: Vec<_> = mails
        .iter()
        .filter(|mail| {
            mail.header("Subject").as_deref()
                == Some("Contact form: messages held in Spam this hour")
        })
        .collect();
    assert_eq!(mails.len(), 4, "no e-mail about a held message");
    assert_eq!(notices.len(), 1, "one notice");
    // Quoted-printable: its soft line breaks undone.
    let text = notices[0].body().replace("=\r\n", "").replace("=\n", "");
    assert!(
        text.contains("held in Spam so far") && text.contains("--spam-ceiling-per-hour"),
        "{text}"
    );
    assert!(
        ["1 message was", "2 messages were", "3 messages were"]
            .iter()
            .any(|count| text.contains(count)),
        "the count held so far: {text}"
    );
    assert_eq!(count(&app.sql, "contact_messages").await, 7, "all stored");

    // A new hour (the notice's hour moved back, as if it had passed): held again, told again.
    sqlx::query("UPDATE spam_ceiling_hours SET hour = hour - 1")
        .execute(&app.sql)
        .await
        .unwrap();
    let body = as_person(&app, &form_with("name", json!("Next hour"))).await;
    assert_eq!(send(&app, &body).await.1.as_deref(), Some("ceiling"));
    smtp.wait_for(5, PATIENCE).await;
    let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM notification_outbox ORDER BY id")
        .fetch_all(&app.sql)
        .await
        .unwrap();
    assert_eq!(
        kinds,
        ["message", "message", "message", "ceiling", "ceiling"]
    );

    // The ceiling counts the last hour: once the earlier messages are older, mail flows again.
    sqlx::query("UPDATE contact_messages SET created_at = created_at - 3600001")
        .execute(&app.sql)
        .await
        .unwrap();
    let body = as_person(&app, &form_with("name", json!("Later"))).await;
    assert_eq!(send(&app, &body).await.1, None);
}

#[tokio::test]
async fn the_challenge_endpoint_and_the_optional_fields_are_documented() {
    let app = app_with(None, 0, 100).await;
    let response = app.get("/api/contact/challenge").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let issued: Value = response.json().await.unwrap();
    assert_eq!(issued["challenge"]["algorithm"], "SHA-256");
    assert!(issued["challenge"]["salt"]
        .as_str()
        .unwrap()
        .contains("?expires="));

    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    assert!(doc["paths"]["/api/contact/challenge"]["get"].is_object());
    let schema = &doc["components"]["schemas"]["ContactRequest"];
    let required = schema["required"].as_array().unwrap();
    for optional in ["token", "altcha", "website"] {
        assert!(schema["properties"][optional].is_object(), "{optional}");
        assert!(
            !required.contains(&json!(optional)),
            "{optional} is optional"
        );
    }

    // Without them: the same 201, as spam.
    let response = post_raw(&app, &valid_form()).await;
    assert_eq!(response.status(), 201);
    let response = post_contact(&app, &form_with("altcha", json!(null))).await;
    assert_eq!(response.status(), 201);
}

#[tokio::test]
async fn a_migration_turns_old_spam_reasons_into_codes() {
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_database_url(dir.path()).await;
    // The schema as it was before this change: every earlier migration of this engine.
    let engine = if on_postgres() { "postgres" } else { "sqlite" };
    let earlier = tempfile::tempdir().unwrap();
    let folder = format!("{}/migrations/{engine}", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(folder).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        if name.as_str() < "20261123200001" {
            std::fs::copy(entry.path(), earlier.path().join(&name)).unwrap();
        }
    }
    let create = if on_postgres() { "" } else { "?mode=rwc" };
    let pool = sql_pool(&format!("{url}{create}")).await;
    sqlx::migrate::Migrator::new(earlier.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    for (subject, reason) in [
        ("a", Some("honeypot: the hidden field was filled in")),
        (
            "b",
            Some("time trap: sent less than 3 seconds after the form appeared"),
        ),
        ("c", Some("time trap: the form's display time was not sent")),
        ("d", None),
    ] {
        sqlx::query(
            "INSERT INTO contact_messages (name, email, subject, message, created_at, is_spam, spam_reason) \
             VALUES ('N', 'n@example.com', $1, 'm', 1, $2, $3)",
        )
        .bind(subject)
        .bind(reason.is_some())
        .bind(reason)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;

    let store = portfolio::store::connect(&url).await.expect("migrates");
    store.close().await;
    let pool = sql_pool(&url).await;
    let rows: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT subject, spam_reason FROM contact_messages ORDER BY subject")
            .fetch_all(&pool)
            .await
            .unwrap();
    let codes: Vec<(&str, Option<&str>)> = rows
        .iter()
        .map(|(s, r)| (s.as_str(), r.as_deref()))
        .collect();
    assert_eq!(
        codes,
        [
            ("a", Some("honeypot")),
            ("b", Some("too-fast")),
            ("c", Some("too-fast")),
            ("d", None)
        ]
    );
}

#[tokio::test]
async fn the_challenge_is_as_large_as_the_setting_says() {
    let challenge = |app: TestApp| async move {
        let issued: Value = app
            .get("/api/contact/challenge")
            .await
            .json()
            .await
            .unwrap();
        app.shutdown().await;
        issued["challenge"]["maxnumber"].as_u64().unwrap()
    };
    assert_eq!(challenge(spawn_app_with(|_| {}).await).await, 30_000);
    let smaller = spawn_app_with(|s| s.spam.challenge_max = 2_000).await;
    assert_eq!(challenge(smaller).await, 2_000);
}

#[tokio::test]
async fn the_challenge_for_a_busy_network_is_harder() {
    let app = spawn_app_with(|s| {
        s.spam.challenge_free_per_hour = 3;
        s.spam.challenge_max = 1_000;
    })
    .await;
    let from = |local: &str| {
        reqwest::Client::builder()
            .local_address(local.parse::<std::net::IpAddr>().unwrap())
            .build()
            .unwrap()
    };
    let (busy, quiet) = (from("127.0.0.2"), from("127.0.0.3"));
    let issue = |client: reqwest::Client| {
        let url = app.url("/api/contact/challenge");
        async move {
            let issued: Value = client.get(url).send().await.unwrap().json().await.unwrap();
            issued
        }
    };
    let mut sizes = Vec::new();
    for _ in 0..6 {
        sizes.push(
            issue(busy.clone()).await["challenge"]["maxnumber"]
                .as_u64()
                .unwrap(),
        );
    }
    assert_eq!(sizes, [1_000, 1_000, 1_000, 2_000, 4_000, 8_000]);
    // Another network is not slowed by it.
    assert_eq!(
        issue(quiet.clone()).await["challenge"]["maxnumber"],
        json!(1_000)
    );

    // The larger challenge is solved like any other, and its message reaches the Inbox.
    let issued = issue(busy.clone()).await;
    let challenge: portfolio::contact::spam::Challenge =
        serde_json::from_value(issued["challenge"].clone()).unwrap();
    assert_eq!(challenge.maxnumber, 16_000);
    let altcha = portfolio::contact::spam::solve(&challenge).expect("a solution");
    let body = with(
        &with(&valid_form(), "token", issued["token"].clone()),
        "altcha",
        json!(altcha),
    );
    let response = busy
        .post(app.url("/api/contact"))
        .header("Sec-Fetch-Site", "same-origin")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let id = response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    assert_eq!(stored(&app.sql, id).await.spam_reason, None);
}
