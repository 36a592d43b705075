//! Operations: backups and restore, retention, `/readyz`, metrics and request logs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use portfolio::store::NewMessage;
use serde_json::{json, Value};

use crate::contact::{as_person_at, form_with, valid_form};
use crate::helpers::{
    binary, on_postgres, spawn_app, spawn_app_with, PgCluster, Serve, ServerProcess, Spawn,
    PATIENCE,
};
use crate::helpers::{EMAIL, PASSWORD};

const DAY_SECS: i64 = 24 * 60 * 60;

fn now_ms() -> i64 {
    portfolio::clock::now_ms()
}

/// Runs a `portfolio` command to its end; panics with its output unless it succeeds.
fn run_ok(args: &[&str]) -> String {
    let output = Command::new(binary()).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "portfolio {args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Opens an existing SQLite file for checks.
async fn open_sqlite(path: &Path) -> sqlx::SqlitePool {
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(path);
    sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .expect("the snapshot opens as a SQLite database")
}

async fn integrity(pool: &sqlx::SqlitePool) -> String {
    sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(pool)
        .await
        .unwrap()
}

// --- Backups ---

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_while_messages_arrive_holds_every_acknowledged_one_and_restores() {
    // The smallest proof of work, so that solving is not what paces the senders.
    let app = spawn_app_with(|s| {
        s.trust_proxy = true;
        s.spam.challenge_max = 1_000;
    })
    .await;
    app.create_owner(EMAIL, PASSWORD).await;

    let acknowledged = Arc::new(Mutex::new(BTreeSet::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut senders = Vec::new();
    for sender in 0..8u32 {
        let (client, base, url, acknowledged, stop) = (
            reqwest::Client::new(),
            app.address.clone(),
            app.url("/api/contact"),
            acknowledged.clone(),
            stop.clone(),
        );
        senders.push(tokio::spawn(async move {
            let mut n = 0u32;
            while !stop.load(Ordering::SeqCst) {
                n += 1;
                // A different client address per message keeps the rate limit out of the way.
                let response = client
                    .post(&url)
                    .header(
                        "X-Forwarded-For",
                        format!("10.{sender}.{}.{}", n / 250, n % 250),
                    )
                    .json(
                        &as_person_at(
                            &base,
                            &form_with("name", json!(format!("sender {sender} #{n}"))),
                        )
                        .await,
                    )
                    .send()
                    .await
                    .unwrap();
                assert_eq!(response.status(), 201);
                let body: Value = response.json().await.unwrap();
                acknowledged
                    .lock()
                    .unwrap()
                    .insert(body["id"].as_i64().unwrap());
            }
        }));
    }
    while acknowledged.lock().unwrap().len() < 40 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // Everything acknowledged before the backup begins must be in it; more arrives meanwhile.
    // Group commit acknowledges the senders in bursts, so a quick backup can fall between two:
    // it is taken again (into a new file) until one has seen messages arrive while it ran.
    let mut taken = None;
    for attempt in 0..20 {
        let before = acknowledged.lock().unwrap().clone();
        let snapshot = app.data_path().join(format!("snapshot-{attempt}.db"));
        let output = {
            let (url, path) = (app.database_url.clone(), snapshot.clone());
            tokio::task::spawn_blocking(move || {
                run_ok(&[
                    "backup",
                    "--output",
                    path.to_str().unwrap(),
                    "--database-url",
                    &url,
                ])
            })
            .await
            .unwrap()
        };
        assert!(output.contains("Backed up to"), "{output}");
        if acknowledged.lock().unwrap().len() > before.len() {
            taken = Some((before, snapshot));
            break;
        }
    }
    stop.store(true, Ordering::SeqCst);
    for sender in senders {
        sender.await.unwrap();
    }
    let (before, snapshot) = taken.expect("messages kept arriving during a backup");

    let pool = open_sqlite(&snapshot).await;
    assert_eq!(integrity(&pool).await, "ok");
    let stored: BTreeSet<i64> = sqlx::query_scalar("SELECT id FROM contact_messages")
        .fetch_all(&pool)
        .await
        .unwrap()
        .into_iter()
        .collect();
    let missing: Vec<_> = before.difference(&stored).collect();
    assert!(
        missing.is_empty(),
        "acknowledged but not in the backup: {missing:?}"
    );
    pool.close().await;
    // No temporary file is left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(app.data_path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A second backup to the same file is refused rather than overwriting it.
    let refused = Command::new(binary())
        .args([
            "backup",
            "--output",
            snapshot.to_str().unwrap(),
            "--database-url",
            &app.database_url,
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("output:"));

    // A database URL that points nowhere is named, and no empty database is made there.
    let nowhere = app.data_path().join("typo.db");
    let refused = Command::new(binary())
        .args([
            "backup",
            "--output",
            app.data_path().join("x.db").to_str().unwrap(),
        ])
        .args(["--database-url", &format!("sqlite://{}", nowhere.display())])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("database-url: there is no database"));
    assert!(!nowhere.exists());

    // Restore: a server started on the snapshot shows the messages to the owner.
    let restored = Spawn::new().restored_from(&snapshot).await;
    assert_eq!(restored.sign_in(EMAIL, PASSWORD).await.status(), 200);
    let page = restored.messages("").await;
    assert_eq!(page["unread"].as_u64().unwrap() as usize, stored.len());
    assert!(stored.len() >= before.len());
    restored.shutdown().await;
    app.shutdown().await;
}

fn backups_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    name.starts_with("portfolio-") && name.ends_with(".db")
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduled_backups_rotate_keeping_exactly_n() {
    let dir = tempfile::tempdir().unwrap();
    let backup_dir = dir.path().join("backups");
    let app = {
        let backup_dir = backup_dir.clone();
        spawn_app_with(move |s| {
            s.ops.backup_dir = Some(backup_dir);
            s.ops.backup_every = Duration::from_secs(1);
            s.ops.backup_keep = 2;
        })
        .await
    };
    app.insert_message("Grace Hopper", "Compilers", "Hello", now_ms())
        .await;
    let mut seen = BTreeSet::new();
    let deadline = std::time::Instant::now() + PATIENCE;
    while seen.len() < 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "only {} backups taken",
            seen.len()
        );
        let now = backups_in(&backup_dir);
        // The new backup lands before the oldest goes: one more for a moment at most.
        assert!(now.len() <= 3, "more than --backup-keep backups: {now:?}");
        seen.extend(now);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    app.shutdown().await;
    let kept = backups_in(&backup_dir);
    assert_eq!(kept.len(), 2, "{kept:?}");
    // The newest are kept (names sort by time), and each is a whole database with the message.
    for gone in seen.iter().filter(|s| !kept.contains(s)) {
        assert!(
            kept.iter().all(|k| k > gone),
            "{gone:?} deleted before {kept:?}"
        );
        assert!(!gone.exists());
    }
    let others: Vec<_> = std::fs::read_dir(&backup_dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .filter(|n| !n.to_string_lossy().starts_with("portfolio-"))
        .collect();
    assert!(others.is_empty(), "no temporary files left: {others:?}");
    for path in &kept {
        let pool = open_sqlite(path).await;
        assert_eq!(integrity(&pool).await, "ok");
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM contact_messages")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(n, 1);
        pool.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_database_take_each_scheduled_backup_once() {
    let dir = tempfile::tempdir().unwrap();
    let every = Duration::from_secs(2);
    let schedule = |name: &str| {
        let folder = dir.path().join(name);
        move |s: &mut portfolio::config::Settings| {
            s.ops.backup_dir = Some(folder);
            s.ops.backup_every = every;
            s.ops.backup_keep = 100;
        }
    };
    let started = std::time::Instant::now();
    let first = spawn_app_with(schedule("a")).await;
    let second = Spawn::new()
        .database(first.database_url.clone())
        .settings(schedule("b"))
        .await;
    tokio::time::sleep(Duration::from_millis(5500)).await;
    second.shutdown().await;
    first.shutdown().await;
    // At most one backup a period while the instances ran (longer than planned on a busy machine).
    let at_most = (started.elapsed().as_secs_f64() / every.as_secs_f64()).floor() as usize + 1;

    // The names hold the UTC time each backup began: sorted, no two closer than the period
    // allows (less the half-second of slack), whichever instance took them.
    let mut taken: Vec<String> = ["a", "b"]
        .iter()
        .flat_map(|d| backups_in(&dir.path().join(d)))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    taken.sort();
    assert!((2..=at_most).contains(&taken.len()), "{taken:?}");
    let times: Vec<chrono::NaiveDateTime> = taken
        .iter()
        .map(|name| {
            let stamp = &name["portfolio-".len()..name.len() - ".db".len()];
            chrono::NaiveDateTime::parse_from_str(stamp, "%Y%m%dT%H%M%S%.3fZ").unwrap()
        })
        .collect();
    for pair in times.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(gap >= chrono::TimeDelta::milliseconds(1400), "{taken:?}");
    }
}

#[tokio::test]
async fn one_instance_at_a_time_holds_the_backup_lease() {
    let app = spawn_app().await;
    let (db, now, hour) = (&app.db, now_ms(), 3_600_000);
    assert!(db
        .take_lease("job", "a", now, now + hour, now - hour)
        .await
        .unwrap());
    assert!(
        !db.take_lease("job", "b", now, now + hour, now - hour)
            .await
            .unwrap(),
        "held by a"
    );
    db.release_lease("job", "a", Some(now)).await.unwrap();
    assert_eq!(db.lease_done_at("job").await.unwrap(), Some(now));
    // Done at `now`: not due again for an instance that wants it done after `now - hour`...
    assert!(!db
        .take_lease("job", "b", now + 1, now + hour, now - hour)
        .await
        .unwrap());
    // ...but due once the period has passed.
    assert!(db
        .take_lease("job", "b", now + hour, now + 2 * hour, now)
        .await
        .unwrap());
    // A holder that died is taken over when its lease ends.
    assert!(db
        .take_lease("job", "c", now + 2 * hour, now + 3 * hour, now)
        .await
        .unwrap());
    app.shutdown().await;
}

// --- Retention ---

#[tokio::test]
async fn retention_deletes_exactly_what_is_past_its_time_and_dry_run_deletes_nothing() {
    let app = spawn_app().await;
    let now = now_ms();
    let form = portfolio::domain::ContactForm::parse(
        "Ada",
        "ada@example.com",
        "Hello",
        "A message long enough.",
        "contact",
    )
    .unwrap();
    let mut ids = std::collections::BTreeMap::new();
    let email = vec!["email".to_owned()];
    for (label, reason, notify) in [
        ("inbox", None, true),
        ("trashed", None, false),
        ("honeypot", Some("honeypot"), false),
        ("token-forged", Some("token-forged"), false),
        ("challenge-failed", Some("challenge-failed"), false),
        ("content", Some("content"), false),
        ("ceiling", Some("ceiling"), false),
        ("too-fast", Some("too-fast"), false),
        // An old free-text reason is not a code: it stays.
        (
            "old-text",
            Some("honeypot: the hidden field was filled"),
            false,
        ),
    ] {
        let id = app
            .db
            .insert_message(&NewMessage {
                form: &form,
                spam_reason: reason,
                user_agent: None,
                created_at: now,
                notify,
                channels: if notify { &email } else { &[] },
                proofs: Default::default(),
                link: None,
            })
            .await
            .unwrap()
            .id;
        ids.insert(label, id);
    }
    app.db
        .update_message(
            ids["trashed"],
            portfolio::store::MessageChange {
                deleted_at: Some(Some(now)),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let outbox_id: i64 = sqlx::query_scalar("SELECT id FROM notification_outbox")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    app.db.mark_delivery_sent(outbox_id, now).await.unwrap();
    // A session (24 hours idle at most) and two sign-in counters (the account's and the client's).
    app.signed_in().await;
    let stranger = crate::helpers::TestApp::other_client();
    let failed = app
        .send_with(
            &stranger,
            reqwest::Method::POST,
            "/api/session",
            Some(&json!({ "email": EMAIL, "password": "not the password" })),
        )
        .await;
    assert_eq!(failed.status(), 401);

    let purge = |offset_days: i64, extra: &[&str]| {
        let offset = (offset_days * DAY_SECS).to_string();
        let mut args = vec![
            "messages",
            "purge",
            "--database-url",
            &app.database_url,
            "--clock-offset",
            &offset,
        ];
        args.extend_from_slice(extra);
        run_ok(&args)
    };
    let remaining = || async {
        sqlx::query_scalar::<_, i64>("SELECT id FROM contact_messages ORDER BY id")
            .fetch_all(&app.sql)
            .await
            .unwrap()
    };
    let all: Vec<i64> = ids
        .values()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(remaining().await, all);

    // 29 days on: no message is old enough; the expired session and stale counters are.
    let said = purge(29, &["--dry-run"]);
    assert!(
        said.contains("Would delete 0 messages in Trash, 0 spam messages caught by a trap, 0 sent notifications, 1 expired session, 2 old sign-in counters."),
        "{said}"
    );
    // 31 days on, as a dry run: says what would go and deletes nothing.
    let said = purge(31, &["--dry-run"]);
    assert!(
        said.contains("Would delete 1 message in Trash, 3 spam messages caught by a trap, 1 sent notification, 1 expired session, 2 old sign-in counters. Nothing was deleted."),
        "{said}"
    );
    assert_eq!(remaining().await, all);
    assert_eq!(app.sessions_in_db().await, 1);
    // --retention-days 0 keeps messages forever.
    let said = purge(31, &["--dry-run", "--retention-days", "0"]);
    assert!(
        said.contains("Would delete 0 messages in Trash, 0 spam"),
        "{said}"
    );

    let said = purge(31, &[]);
    assert!(
        said.contains("Deleted 1 message in Trash, 3 spam messages"),
        "{said}"
    );
    let kept: Vec<i64> = ["inbox", "content", "ceiling", "too-fast", "old-text"]
        .iter()
        .map(|l| ids[l])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(remaining().await, kept);
    assert_eq!(
        crate::contact::count(&app.sql, "notification_outbox").await,
        0
    );
    assert_eq!(crate::contact::count(&app.sql, "sign_in_failures").await, 0);
    assert_eq!(app.sessions_in_db().await, 0);
    let said = purge(31, &["--dry-run"]);
    assert!(said.contains("Would delete 0 messages in Trash, 0 spam messages caught by a trap, 0 sent notifications, 0 expired sessions, 0 old sign-in counters"), "{said}");
    app.shutdown().await;
}

#[tokio::test]
async fn serve_purges_at_start_up_by_its_clock() {
    let app = spawn_app().await;
    let insert = |reason: &'static str| {
        let db = app.db.clone();
        async move {
            let form = portfolio::domain::ContactForm::parse(
                "Eve",
                "eve@example.com",
                "Hi",
                "Buy now, cheap.",
                "contact",
            )
            .unwrap();
            db.insert_message(&NewMessage {
                form: &form,
                spam_reason: Some(reason),
                user_agent: None,
                created_at: now_ms() - 40 * DAY_SECS * 1000,
                notify: false,
                channels: &[],
                proofs: Default::default(),
                link: None,
            })
            .await
            .unwrap()
            .id
        }
    };
    let trap = insert("token-missing").await;
    let content = insert("content").await;
    // Another instance on the same database, its retention clock 20 days ahead: 60 days after
    // the messages, past the 45-day setting.
    let other = Spawn::new()
        .database(app.database_url.clone())
        .settings(|s| {
            s.ops.retention.retention_days = 45;
            s.clock.clock_offset = 20 * DAY_SECS;
        })
        .await;
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM contact_messages ORDER BY id")
            .fetch_all(&app.sql)
            .await
            .unwrap();
        if ids == [content] {
            break;
        }
        assert!(ids.contains(&trap), "only the trap spam may go: {ids:?}");
        assert!(std::time::Instant::now() < deadline, "not purged: {ids:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    other.shutdown().await;
    app.shutdown().await;
}

// --- Readiness ---

async fn wait_for_status(app: &crate::helpers::TestApp, path: &str, status: u16) {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let now = app.get(path).await.status().as_u16();
        if now == status {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{path} stays {now}, not {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn readyz_turns_503_when_the_sqlite_file_goes_away_or_migrations_are_missing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("portfolio.db");
    let url = format!("sqlite://{}", file.display());
    let app = Spawn::new().data_dir(dir).database(url).await;
    assert_eq!(app.get("/readyz").await.status(), 200);
    assert_eq!(app.get("/healthz").await.status(), 200);

    // A folder where the file was: no process can open it, root included.
    let away = file.with_extension("away");
    std::fs::rename(&file, &away).unwrap();
    std::fs::create_dir(&file).unwrap();
    let response = app.get("/readyz").await;
    assert_eq!(response.status(), 503);
    assert_eq!(response.text().await.unwrap(), "not ready");
    std::fs::remove_dir(&file).unwrap();
    std::fs::rename(&away, &file).unwrap();
    assert_eq!(app.get("/readyz").await.status(), 200);

    // Migrations are checked by the cached probe, within seconds.
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = 20261123400001")
        .execute(&app.sql)
        .await
        .unwrap();
    wait_for_status(&app, "/readyz", 503).await;
    app.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_turns_503_while_postgresql_is_stopped() {
    if !on_postgres() {
        eprintln!("skipped: runs in the PostgreSQL pass");
        return;
    }
    let cluster = PgCluster::start();
    let url = crate::helpers::fresh_postgres_database(&cluster.url).await;
    let app = Spawn::new().database(url).await;
    assert_eq!(app.get("/readyz").await.status(), 200);
    cluster.stop();
    wait_for_status(&app, "/readyz", 503).await;
    cluster.restart();
    wait_for_status(&app, "/readyz", 200).await;
    app.shutdown().await;
}

// --- Metrics and logs (each in a process of its own, whose metrics are its own) ---

/// Starts `portfolio serve` with `args`, and collects its log lines.
fn serve(database_url: &str, args: &[&str]) -> ServerProcess {
    Serve::new()
        .database(database_url)
        .args(["--spam-min-fill-ms", "0"])
        .args(args)
        .test_key()
        .start()
}

/// The value of one sample in Prometheus text, 0 when absent.
pub(crate) fn sample(text: &str, name_and_labels: &str) -> f64 {
    text.lines()
        .find_map(|line| {
            line.strip_prefix(name_and_labels)
                .and_then(|rest| rest.strip_prefix(' '))
                .map(|value| value.trim().parse::<f64>().unwrap())
        })
        .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_on_their_own_address_move_after_a_message_a_failed_sign_in_and_a_retry() {
    let dir = tempfile::tempdir().unwrap();
    let database_url = crate::helpers::fresh_database_url(dir.path()).await;
    // An SMTP port where nothing listens: every notification attempt fails and is retried.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let smtp = crate::contact_smtp::smtp_url(closed.local_addr().unwrap().port());
    drop(closed);
    let backups = dir.path().join("backups");
    let served = serve(
        &database_url,
        &[
            "--backup-dir",
            backups.to_str().unwrap(),
            "--metrics-listen",
            "127.0.0.1:0",
            "--smtp-url",
            &smtp,
            "--notify-email",
            "owner@example.com",
        ],
    );
    let metrics_url = served.metrics.clone().unwrap();
    let client = reqwest::Client::new();
    let scrape = || async {
        let response = client.get(&metrics_url).send().await.unwrap();
        assert_eq!(response.status(), 200);
        response.text().await.unwrap()
    };
    let before = scrape().await;
    assert_eq!(
        sample(&before, "contact_messages_stored_total{kind=\"real\"}"),
        0.0
    );
    assert_eq!(sample(&before, "sign_in_failures_total"), 0.0);

    let origin = |request: reqwest::RequestBuilder| {
        request
            .header("Origin", &served.url)
            .header("Sec-Fetch-Site", "same-origin")
    };
    let sent = origin(client.post(format!("{}/api/contact", served.url)))
        .json(&as_person_at(&served.url, &valid_form()).await)
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 201);
    let failed = origin(client.post(format!("{}/api/session", served.url)))
        .json(&json!({ "email": "nobody@example.com", "password": "wrong password here" }))
        .send()
        .await
        .unwrap();
    assert_eq!(failed.status(), 401);

    let deadline = std::time::Instant::now() + PATIENCE;
    let text = loop {
        let text = scrape().await;
        if sample(&text, "notification_attempts_failed_total") >= 1.0
            && sample(&text, "backups_total{result=\"ok\"}") >= 1.0
        {
            break text;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no failed attempt or backup counted:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        sample(&text, "contact_messages_stored_total{kind=\"real\"}"),
        1.0,
        "{text}"
    );
    assert_eq!(sample(&text, "sign_in_failures_total"), 1.0, "{text}");
    assert_eq!(sample(&text, "outbox_pending"), 1.0, "{text}");
    assert!(sample(&text, "outbox_oldest_pending_age_seconds") >= 0.0);
    assert_eq!(
        sample(
            &text,
            "http_requests_total{route=\"/api/contact\",status=\"201\"}"
        ),
        1.0,
        "{text}"
    );
    assert_eq!(
        sample(
            &text,
            "http_requests_total{route=\"/api/session\",status=\"401\"}"
        ),
        1.0,
        "{text}"
    );
    assert!(
        text.contains("http_request_duration_seconds_bucket{route=\"/api/contact\""),
        "{text}"
    );
    assert!(
        text.contains("db_pool_connections{state=\"open\"}"),
        "{text}"
    );
    // The first scheduled backup is taken at start-up; the next is a day away.
    assert_eq!(sample(&text, "backups_total{result=\"ok\"}"), 1.0, "{text}");
    assert_eq!(backups_in(&backups).len(), 1);
    let age = sample(&text, "backup_age_seconds");
    assert!(
        text.contains("backup_age_seconds ") && (0.0..60.0).contains(&age),
        "{text}"
    );

    // Not on the public address.
    let public = client
        .get(format!("{}/metrics", served.url))
        .send()
        .await
        .unwrap();
    assert_ne!(public.status(), 200);
    assert!(!public.text().await.unwrap().contains("http_requests_total"));
}

/// The JSON log line of the request answered under `id`, once the server has written it (its
/// lines are written in batches).
async fn request_line(served: &ServerProcess, id: &str) -> Value {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let found = served
            .lines()
            .iter()
            .map(|line| {
                serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"))
            })
            .find(|v| v["message"] == "request" && v["request_id"] == id);
        if let Some(found) = found {
            return found;
        }
        assert!(std::time::Instant::now() < deadline, "no log line for {id}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_parse_line_by_line_and_carry_the_request_id_the_answer_echoes() {
    let dir = tempfile::tempdir().unwrap();
    let database_url = crate::helpers::fresh_database_url(dir.path()).await;
    let served = serve(&database_url, &["--log-format", "json"]);
    let client = reqwest::Client::new();
    // Without a trusted proxy, a request's own id is not taken: one is made.
    let response = client
        .get(format!(
            "{}/api/messages?search=very-private-words",
            served.url
        ))
        .header("X-Request-Id", "chosen-by-the-client")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    let id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_ne!(id, "chosen-by-the-client");
    assert_eq!(id.len(), 32, "{id}");

    let line = request_line(&served, &id).await;
    assert_eq!(line["route"], "/api/messages");
    assert_eq!(line["status"], 401);
    assert!(line["latency_ms"].as_f64().is_some(), "{line}");

    // The site's answers, given before the router (http/front.rs), are logged the same way.
    let page = client
        .get(format!("{}/?from=private-campaign", served.url))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let page_id = page.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(page_id.len(), 32, "{page_id}");
    let line = request_line(&served, &page_id).await;
    assert_eq!(line["route"], "fallback");
    assert_eq!(line["path"], "/");
    assert_eq!(line["method"], "GET");
    assert_eq!(line["status"], 200);
    assert!(line["latency_ms"].as_f64().is_some(), "{line}");
    let all = served.lines().join("\n");
    for private in ["very-private-words", "private-campaign"] {
        assert!(!all.contains(private), "the query string is never logged");
    }
    for line in served.lines().iter() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
}

#[tokio::test]
async fn the_request_id_comes_from_a_trusted_proxy_only() {
    let trusted = spawn_app_with(|s| s.trust_proxy = true).await;
    let response = trusted
        .get_with("/healthz", &[("X-Request-Id", "edge-4f2a.1")])
        .await;
    assert_eq!(response.headers()["x-request-id"], "edge-4f2a.1");
    // The site's answers (given before the router) take it too.
    for path in ["/", "/no/such/page", "/robots.txt"] {
        let response = trusted
            .get_with(path, &[("X-Request-Id", "edge-4f2a.2")])
            .await;
        assert_eq!(response.headers()["x-request-id"], "edge-4f2a.2", "{path}");
    }
    // A value no proxy would send is replaced.
    for odd in ["a b", &"x".repeat(129)] {
        let response = trusted.get_with("/healthz", &[("X-Request-Id", odd)]).await;
        assert_ne!(response.headers()["x-request-id"], odd);
    }
    trusted.shutdown().await;

    let direct = spawn_app().await;
    let response = direct
        .get_with("/healthz", &[("X-Request-Id", "edge-4f2a.1")])
        .await;
    let id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_ne!(id, "edge-4f2a.1");
    let again = direct.get("/").await.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_ne!(id, again, "each request gets its own");
    direct.shutdown().await;
}

// --- systemd ---

#[test]
fn the_systemd_unit_is_sandboxed_and_verifies() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/portfolio.service");
    let unit = std::fs::read_to_string(path).unwrap();
    for directive in [
        "User=portfolio",
        "StateDirectory=portfolio",
        "ProtectSystem=strict",
        "NoNewPrivileges=yes",
        "CapabilityBoundingSet=CAP_NET_BIND_SERVICE",
        "AmbientCapabilities=CAP_NET_BIND_SERVICE",
        "LimitNOFILE=65536",
        "ExecStart=/usr/local/bin/portfolio serve",
    ] {
        assert!(unit.lines().any(|l| l == directive), "missing {directive}");
    }
    let analyze = Path::new("/usr/bin/systemd-analyze");
    if !analyze.exists() {
        eprintln!("systemd-analyze is not installed: the unit was not verified");
        return;
    }
    // The same unit with this build's binary, so that verify finds the program it runs.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("portfolio.service");
    std::fs::write(&copy, unit.replace("/usr/local/bin/portfolio", binary())).unwrap();
    let output = Command::new(analyze)
        .arg("verify")
        .arg(&copy)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success() && said.trim().is_empty(),
        "systemd-analyze verify: {said}"
    );
}
