//! Group commit under load, on both engines: many messages sent at once are each stored once,
//! with their notification, in fewer transactions than messages; a message the database refuses
//! fails alone and the rest of its batch is stored; and a database that goes away mid-load is
//! answered 503 without losing any message that was answered 201.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::contact::{as_person_at, valid_form};
use crate::helpers::{
    hold_contact_inserts, on_postgres, refuse_subject, until_commit_waiting, PgCluster, Spawn,
    TestApp, PATIENCE,
};

/// Settings for load from many visitors: each is told apart by `X-Forwarded-For`, no limit or
/// ceiling stands in the way, and each real message queues a notification (to an SMTP port where
/// nothing listens, so its outbox row stays).
fn under_load(settings: &mut portfolio::config::Settings) {
    settings.trust_proxy = true;
    settings.limits.contact_per_minute = 10_000;
    settings.limits.contact_per_hour = 10_000;
    settings.spam.ceiling_per_hour = 100_000;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    settings.mail.smtp_url = Some(crate::contact_smtp::smtp_url(port).into());
    settings.mail.notify_email = Some("owner@example.com".to_owned());
    settings.mail.smtp_from = Some("Portfolio <portfolio@example.com>".to_owned());
}

async fn spawn_under_load() -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let url = crate::helpers::fresh_database_url(dir.path()).await;
    Spawn::new()
        .data_dir(dir)
        .database(url)
        .settings(under_load)
        .await
}

/// Message `n`'s form, as the page sends it (with its own token and solved challenge).
async fn form(base: &str, n: usize, subject: &str) -> Value {
    let mut form = valid_form();
    form["name"] = json!(format!("sender {n:03}"));
    form["subject"] = json!(subject);
    as_person_at(base, &form).await
}

async fn forms(app: &TestApp, subjects: &[&str]) -> Vec<Value> {
    let mut forms = Vec::new();
    for (n, subject) in subjects.iter().enumerate() {
        forms.push(form(&app.address, n, subject).await);
    }
    forms
}

/// Sends message `n` as visitor `n`; its status and body.
async fn send(client: &reqwest::Client, base: &str, n: usize, form: &Value) -> (u16, Value) {
    let response = client
        .post(format!("{base}/api/contact"))
        .header("Origin", base)
        .header("Sec-Fetch-Site", "same-origin")
        .header("X-Forwarded-For", format!("10.3.{}.{}", n / 250, n % 250))
        .json(form)
        .send()
        .await
        .expect("the request is sent");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn send_all(app: &TestApp, forms: &[Value]) -> Vec<(u16, Value)> {
    futures_util::future::join_all(
        forms
            .iter()
            .enumerate()
            .map(|(n, form)| send(&app.client, &app.address, n, form)),
    )
    .await
}

/// Sends the forms at once, held behind a lock until all of them wait for the writer, behind a
/// first message (named `first`, left out of [`stored_by_name`]) that the writer is already
/// trying to commit: so the forms are committed together, in the transaction after it.
async fn send_held(app: &TestApp, forms: &[Value]) -> Vec<(u16, Value)> {
    let mut first = valid_form();
    first["name"] = json!("first");
    let first = as_person_at(&app.address, &first).await;
    let mut lock = hold_contact_inserts(app).await;
    let first = tokio::spawn({
        let (client, base) = (app.client.clone(), app.address.clone());
        async move { send(&client, &base, 999, &first).await }
    });
    until_commit_waiting(app, 1).await;
    // Time for the writer to take it (and meet the lock) before the others come.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let release = async {
        until_commit_waiting(app, 1 + forms.len() as u64).await;
        sqlx::query("ROLLBACK").execute(&mut *lock).await.unwrap();
    };
    let (answers, ()) = tokio::join!(send_all(app, forms), release);
    let (status, body) = first.await.unwrap();
    assert_eq!(status, 201, "{body}");
    answers
}

/// How many times each sender's message is stored, and how many outbox rows each has.
async fn stored_by_name(app: &TestApp) -> BTreeMap<String, (i64, i64)> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT m.name, (SELECT COUNT(*) FROM notification_outbox o WHERE o.message_id = m.id) \
         FROM contact_messages m WHERE m.name <> 'first'",
    )
    .fetch_all(&app.sql)
    .await
    .unwrap();
    let mut stored = BTreeMap::new();
    for (name, outbox) in rows {
        let entry = stored.entry(name).or_insert((0, 0));
        entry.0 += 1;
        entry.1 += outbox;
    }
    stored
}

fn ids_of(answers: &[(u16, Value)]) -> BTreeSet<i64> {
    answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, 201, "{body}");
            body["id"].as_i64().expect("an id")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_held_together_are_stored_once_each_with_their_notification_in_one_commit() {
    let app = spawn_under_load().await;
    let forms = forms(&app, &["Hello"; 30]).await;
    let before = app
        .db
        .group_commit_stats()
        .expect("group commit on both engines");

    let answers = send_held(&app, &forms).await;

    assert_eq!(
        ids_of(&answers).len(),
        30,
        "each message has an id of its own"
    );
    let stored = stored_by_name(&app).await;
    assert_eq!(stored.len(), 30, "{stored:?}");
    for (name, counts) in &stored {
        assert_eq!(
            *counts,
            (1, 1),
            "{name}: stored once, with one notification"
        );
    }
    let after = app.db.group_commit_stats().unwrap();
    assert_eq!(after.messages - before.messages, 31);
    let batches = after.batches - before.batches;
    assert!(batches <= 2, "31 messages in {batches} transactions");
    assert_eq!(after.waiting, 0);
    app.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_messages_at_once_are_stored_once_each_in_fewer_transactions_than_messages() {
    let app = spawn_under_load().await;
    let forms = forms(&app, &["Hello"; 80]).await;
    let before = app
        .db
        .group_commit_stats()
        .expect("group commit on both engines");

    let answers = send_all(&app, &forms).await;

    assert_eq!(
        ids_of(&answers).len(),
        80,
        "each message has an id of its own"
    );
    let stored = stored_by_name(&app).await;
    assert_eq!(stored.len(), 80, "{stored:?}");
    for (name, counts) in &stored {
        assert_eq!(
            *counts,
            (1, 1),
            "{name}: stored once, with one notification"
        );
    }
    let after = app.db.group_commit_stats().unwrap();
    let (batches, messages) = (
        after.batches - before.batches,
        after.messages - before.messages,
    );
    assert_eq!(messages, 80);
    assert!(
        batches < messages,
        "{messages} messages in {batches} transactions"
    );
    app.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_message_in_a_batch_fails_alone_and_the_others_are_stored_with_their_notification(
) {
    let app = spawn_under_load().await;
    // A rule of the test's own, which the server knows nothing of: one subject is refused.
    refuse_subject(&app, "Refuse me").await;
    let mut subjects = vec!["Hello"; 16];
    subjects[7] = "Refuse me";
    let forms = forms(&app, &subjects).await;
    let before = app
        .db
        .group_commit_stats()
        .expect("group commit on both engines");

    let answers = send_held(&app, &forms).await;

    for (n, (status, body)) in answers.iter().enumerate() {
        if n == 7 {
            assert_eq!(*status, 500, "{body}");
            assert_eq!(body["error"]["code"], "internal_error", "{body}");
        } else {
            assert_eq!(*status, 201, "message {n}: {body}");
        }
    }
    let stored = stored_by_name(&app).await;
    let expected: BTreeMap<String, (i64, i64)> = (0..16)
        .filter(|n| *n != 7)
        .map(|n| (format!("sender {n:03}"), (1, 1)))
        .collect();
    assert_eq!(
        stored, expected,
        "every other message stored once, with its notification"
    );
    let after = app.db.group_commit_stats().unwrap();
    assert!(
        after.retried_batches > before.retried_batches,
        "the refused message was in a batch with others: {after:?}"
    );

    // The writer goes on: the next message is stored as usual.
    let (status, body) = send(
        &app.client,
        &app.address,
        99,
        &form(&app.address, 99, "After").await,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    app.shutdown().await;
}

/// What the senders of [`load_until`] saw.
#[derive(Default)]
struct Seen {
    acknowledged: BTreeSet<i64>,
    statuses: Vec<u16>,
}

/// Sends the forms from 16 clients at once, as fast as they are answered, a form answered 503
/// going back in the queue; until `stop` is set or every form is stored.
fn load_until(
    base: &str,
    forms: Vec<Value>,
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<Seen>>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let forms = Arc::new(Mutex::new(
        forms.into_iter().enumerate().collect::<Vec<_>>(),
    ));
    (0..16)
        .map(|_| {
            let (forms, stop, seen, base) =
                (forms.clone(), stop.clone(), seen.clone(), base.to_owned());
            tokio::spawn(async move {
                let client = reqwest::Client::new();
                while !stop.load(Ordering::Relaxed) {
                    let Some((n, form)) = forms.lock().unwrap().pop() else {
                        break;
                    };
                    let (status, body) = send(&client, &base, n, &form).await;
                    let mut seen = seen.lock().unwrap();
                    seen.statuses.push(status);
                    match status {
                        201 => {
                            seen.acknowledged.insert(body["id"].as_i64().unwrap());
                        }
                        503 => {
                            drop(seen);
                            forms.lock().unwrap().insert(0, (n, form));
                        }
                        _ => {}
                    }
                }
            })
        })
        .collect()
}

async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The database goes away while messages stream in (PostgreSQL stopped; SQLite full, as on a
/// full disk): the messages then are answered 503, never 500, and every message answered 201
/// is stored, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_database_gone_mid_load_answers_503_and_loses_no_acknowledged_message() {
    let cluster = on_postgres().then(PgCluster::start);
    let dir = tempfile::tempdir().unwrap();
    let (url, pages) = match &cluster {
        Some(cluster) => (
            crate::helpers::fresh_postgres_database(&cluster.url).await,
            None,
        ),
        None => {
            let url = format!("sqlite://{}", dir.path().join("load.db").display());
            let first = Spawn::new().database(url.clone()).await;
            let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
                .fetch_one(&first.sql)
                .await
                .unwrap();
            first.shutdown().await;
            (url, Some(pages as u64))
        }
    };
    // On SQLite, room for a few dozen messages of about 4 KB each.
    let app = Spawn::new()
        .data_dir(dir)
        .database(url)
        .settings(|settings| {
            under_load(settings);
            settings.database.sqlite_max_page_count = pages.map(|pages| pages + 100);
        })
        .await;
    let long = "a long story ".repeat(300);
    let mut forms = Vec::new();
    for n in 0..300 {
        let mut message = form(&app.address, n, &format!("Load {n}")).await;
        message["message"] = json!(format!("Message {n}: {long}"));
        forms.push(message);
    }
    let before = app.db.group_commit_stats().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Seen::default()));
    let senders = load_until(&app.address, forms, stop.clone(), seen.clone());

    wait_until("messages stored before the fault", || {
        seen.lock().unwrap().acknowledged.len() >= 20
    })
    .await;
    if let Some(cluster) = &cluster {
        cluster.stop();
    }
    wait_until("503s while the database is gone", || {
        seen.lock()
            .unwrap()
            .statuses
            .iter()
            .filter(|s| **s == 503)
            .count()
            >= 5
    })
    .await;
    if let Some(cluster) = &cluster {
        // Back: the queue drains, the messages refused meanwhile are stored when sent again.
        cluster.restart();
        let after = seen.lock().unwrap().acknowledged.len();
        wait_until("a 201 after PostgreSQL is back", || {
            seen.lock().unwrap().acknowledged.len() > after + 5
        })
        .await;
    }
    stop.store(true, Ordering::Relaxed);
    for sender in senders {
        sender.await.unwrap();
    }

    let seen = std::mem::take(&mut *seen.lock().unwrap());
    assert!(
        seen.statuses.iter().all(|s| *s == 201 || *s == 503),
        "only 201 and 503: {:?}",
        seen.statuses
    );
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM contact_messages")
        .fetch_all(&app.sql)
        .await
        .unwrap();
    let stored: BTreeSet<i64> = ids.iter().copied().collect();
    let lost: Vec<_> = seen.acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
    for (name, (count, _)) in stored_by_name(&app).await {
        assert_eq!(count, 1, "{name} stored once");
    }
    let after = app.db.group_commit_stats().unwrap();
    assert!(
        after.batches - before.batches < after.messages - before.messages,
        "batched under load: {after:?}"
    );
    app.shutdown().await;
}
