//! The real binary: messages answered 201 survive SIGKILL, and `portfolio messages export` writes them.

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use crate::contact::{form_with, post_contact, valid_form};
use crate::helpers::{binary, spawn_app, PgCluster, Serve, ServerProcess, PATIENCE};

/// Starts `portfolio serve` on a free port, behind a trusted proxy.
fn serve(database_url: &str) -> ServerProcess {
    Serve::new()
        .database(database_url)
        .arg("--trust-proxy")
        .test_key()
        .start()
}

fn export(database_url: &str, args: &[&str]) -> std::process::Output {
    Command::new(binary())
        .args(["messages", "export"])
        .args(args)
        .env("PORTFOLIO_DATABASE_URL", database_url)
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_message_answered_201_survives_a_sigkill_mid_flight() {
    let dir = tempfile::tempdir().unwrap();
    let database_url = crate::helpers::fresh_database_url(dir.path()).await;
    survives_a_crash(&database_url, || {}).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_postgresql_every_201_survives_a_sigkill_and_a_database_crash() {
    if !crate::helpers::on_postgres() {
        eprintln!("skipped: runs in the PostgreSQL pass");
        return;
    }
    // A cluster of its own, since the test crashes it.
    let cluster = PgCluster::start();
    let database_url = crate::helpers::fresh_postgres_database(&cluster.url).await;
    survives_a_crash(&database_url, || cluster.crash_and_restart()).await;
}

/// Sends messages from 32 clients at once (on SQLite, committed in shared transactions by group
/// commit), SIGKILLs the server while requests are in flight, runs `after_kill` (which may crash
/// the database too), restarts the server on the same database and finds every message that
/// was answered 201, each stored once.
async fn survives_a_crash(database_url: &str, after_kill: impl FnOnce()) {
    let database_url = database_url.to_owned();
    let mut server = serve(&database_url);
    let url = server.url.clone();

    let acknowledged = Arc::new(Mutex::new(BTreeSet::new()));
    let killed = Arc::new(AtomicBool::new(false));
    let in_flight = Arc::new(AtomicUsize::new(0));
    let client = reqwest::Client::new();
    let mut senders = Vec::new();
    for sender in 0..32u32 {
        let (client, url, acknowledged, killed, in_flight) = (
            client.clone(),
            url.clone(),
            acknowledged.clone(),
            killed.clone(),
            in_flight.clone(),
        );
        senders.push(tokio::spawn(async move {
            let mut n = 0u32;
            while !killed.load(Ordering::SeqCst) {
                n += 1;
                let name = format!("sender {sender} message {n}");
                // A different client address per message keeps the rate limit out of the way.
                let ip = format!("10.{}.{}.{}", sender, n / 250, n % 250);
                in_flight.fetch_add(1, Ordering::SeqCst);
                let answer = client
                    .post(format!("{url}/api/contact"))
                    .header("X-Forwarded-For", ip)
                    .json(&form_with("name", json!(name)))
                    .send()
                    .await;
                let answer = match answer {
                    Ok(response) if response.status() == 201 => response.json::<Value>().await,
                    Ok(response) => panic!("unexpected {}", response.status()),
                    Err(error) => Err(error),
                };
                in_flight.fetch_sub(1, Ordering::SeqCst);
                match answer {
                    // A 201 counts once the visitor could have read it.
                    Ok(body) => {
                        acknowledged
                            .lock()
                            .unwrap()
                            .insert((body["id"].as_i64().unwrap(), name));
                    }
                    Err(_) => break, // the server is gone
                }
            }
        }));
    }

    // Let a good number of messages through, then kill the process without warning.
    tokio::time::timeout(PATIENCE, async {
        while acknowledged.lock().unwrap().len() < 150 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("messages are being acknowledged");
    let in_flight_at_kill = in_flight.load(Ordering::SeqCst);
    server.child.kill().unwrap(); // SIGKILL
    killed.store(true, Ordering::SeqCst);
    server.child.wait().unwrap();
    for sender in senders {
        sender.await.unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        in_flight_at_kill > 0,
        "the kill landed while requests were in flight"
    );
    after_kill();

    // Restart on the same database: it starts, and every acknowledged message is there.
    let mut restarted = serve(&database_url);
    let url = restarted.url.clone();
    assert_eq!(
        reqwest::get(format!("{url}/healthz"))
            .await
            .unwrap()
            .status(),
        200
    );
    let db = crate::helpers::sql_pool(&database_url).await;
    let stored: BTreeSet<(i64, String)> =
        sqlx::query_as::<_, (i64, String)>("SELECT id, name FROM contact_messages")
            .fetch_all(&db)
            .await
            .unwrap()
            .into_iter()
            .collect();
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM contact_messages")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(
        usize::try_from(rows).unwrap(),
        stored.len(),
        "no message stored twice"
    );
    let names: BTreeSet<&String> = stored.iter().map(|(_, name)| name).collect();
    assert_eq!(names.len(), stored.len(), "no message stored twice");
    let missing: Vec<_> = acknowledged.difference(&stored).collect();
    assert!(
        missing.is_empty(),
        "lost {} of {} acknowledged messages: {missing:?}",
        missing.len(),
        acknowledged.len()
    );
    db.close().await;
    restarted.kill();
}

#[tokio::test]
async fn messages_export_writes_json_in_the_original_document_shape() {
    let app = spawn_app().await;
    let sent = form_with("message", json!("<b>Hello</b> 😀\nsecond line"));
    assert_eq!(post_contact(&app, &sent).await.status(), 201);
    assert_eq!(
        post_contact(&app, &form_with("website", json!("spam")))
            .await
            .status(),
        201
    );

    let output = export(&app.database_url, &["--format", "json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let documents: Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    let documents = documents.as_array().unwrap();
    assert_eq!(documents.len(), 1, "spam is left out: {documents:?}");
    let doc = documents[0].as_object().unwrap();
    let keys: BTreeSet<&str> = doc.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "name",
            "Email",
            "subject",
            "message",
            "form-name",
            "createdAt"
        ])
    );
    assert_eq!(doc["name"], "Ada Lovelace");
    assert_eq!(doc["Email"], "ada@example.com");
    assert_eq!(doc["message"], "<b>Hello</b> 😀\nsecond line");
    assert_eq!(doc["form-name"], "contact");
    let created = doc["createdAt"].as_str().unwrap();
    assert!(created.ends_with('Z'), "{created}");
    chrono::DateTime::parse_from_rfc3339(created).expect("RFC 3339");
    app.shutdown().await;
}

#[tokio::test]
async fn messages_export_writes_csv_safe_against_formula_injection_to_a_file() {
    let app = spawn_app().await;
    let mut evil = valid_form();
    evil["name"] = json!("=HYPERLINK(\"https://evil.example\",\"click\")");
    evil["subject"] = json!("+1 555, \"quoted\"");
    evil["message"] = json!("@SUM(A1:A2)\nline two");
    assert_eq!(post_contact(&app, &evil).await.status(), 201);
    assert_eq!(
        post_contact(&app, &form_with("subject", json!("-5")))
            .await
            .status(),
        201
    );

    let file = app.data_path().join("messages.csv");
    let output = export(
        &app.database_url,
        &["--format", "csv", "--output", file.to_str().unwrap()],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stdout.is_empty(), "written to the file, not stdout");
    let text = std::fs::read_to_string(&file).unwrap();

    let mut reader = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "name",
            "Email",
            "subject",
            "message",
            "form-name",
            "createdAt",
            "via"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        &rows[0][0],
        "'=HYPERLINK(\"https://evil.example\",\"click\")"
    );
    assert_eq!(&rows[0][1], "ada@example.com");
    assert_eq!(&rows[0][2], "'+1 555, \"quoted\"");
    assert_eq!(&rows[0][3], "'@SUM(A1:A2)\nline two");
    assert_eq!(&rows[1][2], "'-5");
    assert!(text.starts_with("name,Email,subject,message,form-name,createdAt,via\r\n"));
    app.shutdown().await;
}
