//! The store behind the URL: which engine a URL picks, what a bad one does, the schema's tables,
//! search that ignores case beyond ASCII, and `portfolio db copy` between engines.

use std::collections::BTreeSet;
use std::process::{Command, Output};

use portfolio::store::{Dump, COPIED_TABLES, UNCOPIED_TABLES};
use serde_json::{json, Value};

use crate::contact::{form_with, post_contact};
use crate::helpers::{binary, on_postgres, postgres_server, spawn_app, Serve, Spawn};
use crate::helpers::{EMAIL, PASSWORD};

fn serve_once(workdir: &std::path::Path, database_url: &str) -> Output {
    Serve::new()
        .current_dir(workdir)
        .database(database_url)
        .env_remove("PORTFOLIO_DATABASE_URL")
        // Past the key's check, which comes first with PostgreSQL: these fail at the database.
        .test_key()
        .refused()
}

/// A port on which nothing listens.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[test]
fn a_postgres_url_is_never_taken_for_a_file_and_an_unreachable_server_stops_start_up() {
    let workdir = tempfile::tempdir().unwrap();
    let port = closed_port();
    // Both at once: each start tries for the pool's 10 s acquire timeout before it gives up.
    let outputs = std::thread::scope(|scope| {
        let starts: Vec<_> = ["postgres", "postgresql"]
            .map(|scheme| {
                let url = format!("{scheme}://portfolio:hunter2@127.0.0.1:{port}/postgres");
                let workdir = workdir.path();
                scope.spawn(move || (serve_once(workdir, &url), url))
            })
            .into_iter()
            .collect();
        starts
            .into_iter()
            .map(|start| start.join().unwrap())
            .collect::<Vec<_>>()
    });
    for (output, url) in outputs {
        assert!(!output.status.success(), "{url} must not start");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("error: database-url: cannot connect to"),
            "{stderr}"
        );
        assert!(last.contains(&format!("127.0.0.1:{port}")), "{stderr}");
        assert!(!stderr.contains("hunter2"), "the password shows: {stderr}");
    }
    let left: Vec<_> = std::fs::read_dir(workdir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "nothing is created on disk: {left:?}");
}

#[test]
fn a_url_of_no_known_engine_stops_start_up_naming_the_setting() {
    let workdir = tempfile::tempdir().unwrap();
    for url in [
        "data/portfolio.db",
        "mysql://me:hunter2@db/portfolio",
        "postgres:",
    ] {
        let output = serve_once(workdir.path(), url);
        assert!(!output.status.success(), "{url} must not start");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("error: database-url: "), "{url}: {stderr}");
        assert!(!stderr.contains("hunter2"), "{stderr}");
    }
    assert_eq!(std::fs::read_dir(workdir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn every_table_of_the_schema_is_copied_or_left_out_on_purpose() {
    let app = spawn_app().await;
    let tables: BTreeSet<String> = app.db.tables().await.unwrap().into_iter().collect();
    let known: BTreeSet<String> = COPIED_TABLES
        .iter()
        .copied()
        .chain(UNCOPIED_TABLES.iter().map(|(table, _)| *table))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        tables, known,
        "a table is missing from store::COPIED_TABLES (db copy) or UNCOPIED_TABLES"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn search_ignores_case_for_every_letter() {
    let app = spawn_app().await;
    app.signed_in().await;
    for (name, subject) in [
        ("Åsa Öberg", "ÇA VA"),
        ("Ivan", "ДОБРЫЙ ДЕНЬ"),
        ("Ada", "plain"),
    ] {
        let mut form = form_with("name", json!(name));
        form["subject"] = json!(subject);
        assert_eq!(post_contact(&app, &form).await.status(), 201);
    }
    for (query, expected) in [
        ("åsa", "Åsa Öberg"),
        ("öBERG", "Åsa Öberg"),
        ("ça va", "Åsa Öberg"),
        ("добрый", "Ivan"),
    ] {
        let page = app.messages(&format!("?q={}", urlencode(query))).await;
        let names: Vec<&str> = page["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, [expected], "{query}");
    }
    app.shutdown().await;
}

#[tokio::test]
async fn idle_reading_connections_close_when_asked_and_reads_go_on() {
    let app = spawn_app().await;
    app.signed_in().await;
    assert_eq!(
        post_contact(&app, &form_with("name", json!("Ada")))
            .await
            .status(),
        201
    );
    assert_eq!(
        app.messages("").await["messages"].as_array().unwrap().len(),
        1
    );
    if on_postgres() {
        assert_eq!(
            app.db.close_idle_readers().await,
            0,
            "PostgreSQL keeps its connections"
        );
    } else {
        // A connection goes back to the pool just after the answer that used it.
        let mut closed = 0;
        for _ in 0..40 {
            closed += app.db.close_idle_readers().await;
            if closed > 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(closed > 0, "the SQLite readers used above were idle");
    }
    // The next read opens a connection again.
    assert_eq!(
        app.messages("").await["messages"].as_array().unwrap().len(),
        1
    );
    app.shutdown().await;
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn db_copy(args: &[&str]) -> Output {
    Command::new(binary())
        .args(["db", "copy"])
        .args(args)
        .output()
        .unwrap()
}

async fn dump_of(url: &str) -> Dump {
    let db = portfolio::store::connect(url).await.unwrap();
    let dump = db.dump().await.unwrap();
    db.close().await;
    dump
}

#[tokio::test]
async fn db_copy_moves_everything_from_sqlite_to_postgresql_and_back_with_every_field_equal() {
    let Some(server) = postgres_server() else {
        eprintln!("skipped: runs in the PostgreSQL pass");
        return;
    };
    // A SQLite store with a row in every copied table: the owner, a session, sign-in failures,
    // a passkey, the second factor, real, spam and deleted messages, outbox rows (SMTP is down,
    // so they carry errors).
    let dir = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite://{}", dir.path().join("source.db").display());
    let smtp_port = closed_port();
    let app = Spawn::new()
        .database(sqlite.clone())
        .settings(|s| {
            s.mail.smtp_url = Some(format!("smtp://127.0.0.1:{smtp_port}?tls=none").into());
            s.mail.notify_email = Some("owner@example.com".into());
        })
        .await;
    app.signed_in().await;
    assert_eq!(
        app.sign_in(EMAIL, "wrong password here").await.status(),
        401
    );
    // The owner's other ways in: a passkey, and the second factor with its recovery codes.
    let mut key = crate::authenticator::SoftAuthenticator::new(&app.localhost());
    assert_eq!(
        app.add_passkey(&app.client, &mut key, "Laptop")
            .await
            .status(),
        201
    );
    let (otpauth, _) = app.turn_second_factor_on(&app.client).await;
    // An application link, opened (its counts, its first-open alert) and written through, and
    // followed up.
    let link = app
        .create_link(&json!({"company": "Acme", "role": "Dev", "note": "n",
            "recipientEmail": "jane@acme.example"}))
        .await;
    let slug = link["slug"].as_str().unwrap().to_owned();
    // Its follow-up, sent (its outbox row fails too).
    let followed = app
        .post_json(
            &format!("/api/links/{}/follow-up", link["id"]),
            &json!({"subject": "Any news? 😀", "body": "Hello Jane,\nany news?"}),
        )
        .await;
    assert_eq!(followed.status(), 201);
    let opened = app.link_visit(&json!({"slug": slug, "kind": "open"})).await;
    assert_eq!(opened.status(), 204);
    // A post, read through the link (a count of the kind `post`; viewed below).
    let begun = app
        .post_json("/api/content/posts", &json!({"title": "Hello"}))
        .await;
    assert_eq!(begun.status(), 201);
    let post = app
        .post_json("/api/content/posts/hello/publish", &json!({}))
        .await;
    assert_eq!(post.status(), 200);
    let read = app
        .link_visit(&json!({"slug": slug, "kind": "post", "post": "hello"}))
        .await;
    assert_eq!(read.status(), 204);
    let mut ids = Vec::new();
    for (field, value) in [
        ("link", json!(slug)),
        ("message", json!("Hello 😀 <b>html</b>\nsecond line")),
        ("website", json!("i am a bot")),
        ("name", json!("Zoë")),
    ] {
        let response = post_contact(&app, &form_with(field, value)).await;
        assert_eq!(response.status(), 201);
        ids.push(
            response.json::<Value>().await.unwrap()["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let trashed = app
        .send(
            reqwest::Method::PATCH,
            &format!("/api/messages/{}", ids[3]),
            Some(&json!({"deleted": true})),
        )
        .await;
    assert_eq!(trashed.status(), 200);
    // Content: a draft and a published version (revert makes both).
    let published = app
        .send(reqwest::Method::POST, "/api/content/publish", None)
        .await;
    assert_eq!(published.status(), 200);
    let reverted = app
        .send(
            reqwest::Method::POST,
            "/api/content/versions/1/revert",
            None,
        )
        .await;
    assert_eq!(reverted.status(), 200);
    // Uploads: an image with its files, and the resume.
    let png = crate::media::small_png();
    assert_eq!(app.upload("/api/media", png, "a.png").await.status(), 201);
    let pdf = crate::media::TINY_PDF.to_vec();
    assert_eq!(
        app.upload("/api/media/resume", pdf, "cv.pdf")
            .await
            .status(),
        201
    );
    // Insights: a day's figures and counts (written at shutdown).
    for event in [
        json!({"kind": "view", "referrer": "https://example.org/"}),
        json!({"kind": "view", "post": "hello"}),
        json!({"kind": "click", "target": "social:github"}),
    ] {
        assert_eq!(app.beacon(&event).await.status(), 204);
    }
    // A reply (its outbox row fails: SMTP is down), the visitor's answer with an attachment, a
    // mail left unmatched, and where the mailbox's reader is.
    let replied = app
        .post_json(
            &format!("/api/messages/{}/replies", ids[1]),
            &json!({"body": "Thank you 😀"}),
        )
        .await;
    assert_eq!(replied.status(), 201);
    let ours: String = sqlx::query_scalar("SELECT mail_id FROM message_replies")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    app.db.mailbox_cursor("INBOX", 42).await.unwrap();
    let references = [ours];
    let bytes = b"%PDF-1.4 a tiny attachment".as_slice();
    let attachments = [portfolio::store::replies::NewAttachment {
        name: "notes.pdf",
        content_type: "application/pdf",
        size: bytes.len() as i64,
        bytes: Some(bytes),
    }];
    for (uid, mail_id, from) in [
        (1, "answer@mail.example", "ada@example.com"),
        (2, "stranger@mail.example", "someone@else.example"),
    ] {
        app.db
            .file_mail(
                &portfolio::store::replies::IncomingMail {
                    mailbox: "INBOX",
                    uid_validity: 42,
                    uid,
                    mail_id,
                    references: &references,
                    from_address: Some(from),
                    subject: "Re: A project",
                    body: "Tuesday suits me.\n> Thank you",
                    from_html: true,
                    cut: false,
                    mail_date: Some(1_765_000_000_000),
                    attachments: &attachments,
                    now: portfolio::clock::now_ms(),
                },
                &["email".to_owned()],
            )
            .await
            .unwrap();
    }
    // The digest's settings (written when first read) and a week's digest, written as skipped.
    assert_eq!(app.get("/api/digest").await.status(), 200);
    let digest = portfolio::store::digest::WeeklyDigestRow {
        slot: "2026-11-30T09:00".to_owned(),
        slot_at: 1_764_493_200_000,
        figures: "{\"from\":\"2026-11-23\"}".to_owned(),
        skipped: true,
        created_at: 1_764_493_200_500,
    };
    assert!(app
        .db
        .store_digest(&digest, "Your week", &[], portfolio::clock::now_ms())
        .await
        .unwrap());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await; // the outbox tries once
    app.shutdown().await;
    let original = dump_of(&sqlite).await;
    for (table, rows) in original.counts() {
        assert!(rows > 0, "the source has no row in {table}");
    }
    // The post read through the link and viewed, each a count of its own kind.
    let post = |kind: &str, key: &str| kind == "post" && key == "hello";
    assert!(original
        .application_link_counts
        .iter()
        .any(|c| post(&c.kind, &c.key)));
    assert!(original
        .insights_counts
        .iter()
        .any(|c| post(&c.kind, &c.key)));

    // SQLite to PostgreSQL.
    let postgres = crate::helpers::fresh_postgres_database(&server).await;
    let output = db_copy(&["--from", &sqlite, "--to", &postgres]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("contact_messages: 4"), "{said}");
    // The secrets move sealed, with the key's id: the target opens them with the source's key.
    assert!(said.contains("secret_key: 1"), "{said}");
    assert!(said.contains("sealed with the key"), "{said}");
    assert_eq!(dump_of(&postgres).await, original);

    // A target with data is refused without --replace, and taken with it.
    let again = db_copy(&["--from", &sqlite, "--to", &postgres]);
    assert!(!again.status.success());
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stderr.contains("to: ") && stderr.contains("--replace"),
        "{stderr}"
    );
    let replaced = db_copy(&["--from", &sqlite, "--to", &postgres, "--replace"]);
    assert!(
        replaced.status.success(),
        "{}",
        String::from_utf8_lossy(&replaced.stderr)
    );
    assert_eq!(dump_of(&postgres).await, original);

    // And back to a new SQLite file.
    let back = format!("sqlite://{}", dir.path().join("back.db").display());
    let output = db_copy(&["--from", &postgres, "--to", &back]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(dump_of(&back).await, original);

    // On PostgreSQL the owner signs in as before (with the second factor, its key opened with the
    // key file the SQLite server sealed it with: every test server's) and new ids continue after
    // the copied ones.
    let moved = Spawn::new().database(postgres.clone()).await;
    assert_eq!(moved.sign_in(EMAIL, PASSWORD).await.status(), 202);
    // The second factor came along: the app's next code (the first one's step is used up).
    moved.advance(30);
    let code = moved.code_now(&otpauth);
    assert_eq!(moved.send_code(&moved.client, &code).await.status(), 200);
    let page = moved.messages("").await;
    assert_eq!(page["messages"].as_array().unwrap().len(), 2, "{page}");
    assert_eq!(page["messages"][1]["via"]["company"], "Acme", "{page}");
    let next_link = moved
        .create_link(&json!({"company": "Next", "role": "Dev"}))
        .await;
    assert_eq!(next_link["id"], link["id"].as_i64().unwrap() + 1);
    let response = post_contact(&moved, &form_with("name", json!("After the move"))).await;
    assert_eq!(response.status(), 201);
    let new_id = response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    assert_eq!(new_id, ids.iter().max().unwrap() + 1);
    moved.shutdown().await;
}

#[test]
fn db_copy_refuses_the_same_database_and_names_the_bad_flag() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("a.db").display());
    let same = db_copy(&["--from", &url, "--to", &url]);
    assert!(!same.status.success());
    assert!(String::from_utf8_lossy(&same.stderr).contains("to: it is the same database"));
    let bad = db_copy(&["--from", "nonsense", "--to", &url]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("from: "));
}
