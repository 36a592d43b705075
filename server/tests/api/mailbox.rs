//! The reader of the site's mailbox against a real Dovecot, on both engines: answers come back
//! into their conversation by their references and sender alone; other mail stays in the mailbox
//! and is listed as unmatched; the mailbox down and back, and renumbered, loses nothing and files
//! nothing twice; two instances read it as one; the password is never in the log.

use std::time::Duration;

use portfolio::config::Settings;
use serde_json::Value;

use crate::contact::{post_contact, valid_form};
use crate::contact_smtp::TestSmtp;
use crate::delivery::mail_to;
use crate::helpers::dovecot::{TestDovecot, PASSWORD, PASSWORD_IN_URL};
use crate::helpers::{eventually, postgres_only_database, Serve, Spawn, TestApp};
use crate::replies::{conversation, mails_to, message_id_of, reply};

/// The site's reply address, where the mailbox's mail arrives.
const SITE: &str = "site@example.org";

/// The server's settings for e-mail through `smtp` and answers from `dovecot`, read often.
fn reading(smtp: &TestSmtp, dovecot: &TestDovecot) -> impl Fn(&mut Settings) {
    let (smtp, url, ca) = (smtp.url(), dovecot.url(), dovecot.ca_file());
    move |s: &mut Settings| {
        mail_to(s, smtp.clone());
        s.mail.reply_address = Some(SITE.to_owned());
        s.mail.imap_url = Some(url.clone().into());
        s.mail.imap_ca_file = Some(ca.clone());
        s.mail.imap_poll = Duration::from_millis(200);
    }
}

/// An answer as a mail client sends it: from `from`, in reply to `id`.
fn answer(number: u32, from: &str, in_reply_to: Option<&str>, text: &str) -> Vec<u8> {
    let threading = in_reply_to
        .map(|id| format!("In-Reply-To: {id}\r\nReferences: {id}\r\n"))
        .unwrap_or_default();
    format!(
        "From: Someone <{from}>\r\nTo: {SITE}\r\nSubject: Re: A project\r\n\
         Date: Sun, 6 Dec 2026 10:0{number} +0000\r\nMessage-ID: <answer-{number}@mail.example>\r\n\
         {threading}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         {text}\r\n\r\nOn Sun, 6 Dec 2026 at 09:00, Owner <{SITE}> wrote:\r\n> Shall we talk?\r\n"
    )
    .into_bytes()
}

/// A message from Ada and the owner's reply to it: the message's id and the reply's Message-ID.
async fn replied(app: &TestApp, smtp: &TestSmtp) -> (i64, String) {
    app.signed_in().await;
    let id = message_id_of(post_contact(app, &valid_form()).await).await;
    assert_eq!(reply(app, id, "Shall we talk?").await.status(), 201);
    let sent = mails_to(smtp, "ada@example.com", 1).await;
    (id, sent[0].header("Message-ID").unwrap())
}

/// The answers of a conversation, once there are `count`.
async fn answers(app: &TestApp, id: i64, count: usize) -> Vec<Value> {
    eventually(
        &format!("{count} answer(s) in the conversation"),
        || async {
            let items: Vec<Value> = conversation(app, id).await["items"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|item| item["kind"] == "answer")
                .cloned()
                .collect();
            (items.len() >= count).then_some(items)
        },
    )
    .await
}

async fn mailbox(app: &TestApp) -> Value {
    app.get("/api/mailbox").await.json().await.unwrap()
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.sql).await.unwrap()
}

#[tokio::test]
async fn answers_come_back_into_their_conversation_and_other_mail_stays_in_the_mailbox_unmatched() {
    let dovecot = TestDovecot::start();
    let smtp = TestSmtp::start().await;
    let app = Spawn::new().settings(reading(&smtp, &dovecot)).await;
    let (id, ours) = replied(&app, &smtp).await;
    let before = conversation(&app, id).await;
    assert_eq!(before["readsAnswers"], true);
    assert_eq!(before["replyAddress"], SITE);

    dovecot.deliver(&answer(
        1,
        "Ada@Example.com",
        Some(&ours),
        "Tuesday suits me.",
    ));
    let filed = answers(&app, id, 1).await;
    assert_eq!(filed[0]["from"], "ada@example.com");
    assert_eq!(filed[0]["parts"][0]["text"], "Tuesday suits me.");
    assert_eq!(filed[0]["parts"][1]["kind"], "quote");
    // The sign-in notice, the message's notification, then the answer's.
    let told = mails_to(&smtp, "owner@example.com", 3).await;
    let subjects: Vec<String> = told
        .iter()
        .filter_map(|mail| mail.header("Subject"))
        .collect();
    assert!(
        subjects
            .iter()
            .any(|subject| subject == "Answer from Ada Lovelace: A project"),
        "{subjects:?}"
    );

    // A forged subject with no reference, and the right reference from another address.
    dovecot.deliver(&answer(2, "ada@example.com", None, "I am Ada, honestly."));
    dovecot.deliver(&answer(3, "mallory@evil.example", Some(&ours), "Me too."));
    let listed = eventually("both are listed as unmatched", || async {
        let status = mailbox(&app).await;
        (status["unmatched"].as_array().unwrap().len() == 2).then_some(status)
    })
    .await;
    let reasons: Vec<&str> = listed["unmatched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mail| mail["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons, ["other-sender", "no-reference"]);
    assert_eq!(listed["configured"], true);
    assert!(listed["readAt"].is_i64());
    assert!(listed["lastError"].is_null());
    assert_eq!(
        answers(&app, id, 1).await.len(),
        1,
        "neither joined the conversation"
    );
}

#[tokio::test]
async fn the_mailbox_down_and_back_then_renumbered_loses_nothing_and_files_nothing_twice() {
    let dovecot = TestDovecot::start();
    let smtp = TestSmtp::start().await;
    let app = Spawn::new().settings(reading(&smtp, &dovecot)).await;
    let (id, ours) = replied(&app, &smtp).await;
    dovecot.deliver(&answer(1, "ada@example.com", Some(&ours), "First."));
    answers(&app, id, 1).await;

    // The mailbox's server goes away: the reader says so, and keeps trying.
    dovecot.stop();
    let down = eventually("the failed read is shown", || async {
        let status = mailbox(&app).await;
        status["lastError"].is_string().then_some(status)
    })
    .await;
    let error = down["lastError"].as_str().unwrap();
    assert!(error.starts_with("imap: "), "{error}");
    assert!(
        !error.contains(PASSWORD) && !error.contains(PASSWORD_IN_URL),
        "{error}"
    );
    dovecot.restart();
    dovecot.deliver(&answer(2, "ada@example.com", Some(&ours), "Second."));
    answers(&app, id, 2).await;
    eventually("the error is gone once a read works", || async {
        mailbox(&app).await["lastError"].is_null().then_some(())
    })
    .await;

    // Renumbered (a new UIDVALIDITY, as after a server's move): read again from its start, and
    // every mail known by its Message-ID.
    let validity = count(&app, "SELECT uid_validity FROM mailbox_state").await;
    dovecot.reset_uidvalidity();
    dovecot.stop();
    dovecot.restart();
    dovecot.deliver(&answer(3, "ada@example.com", Some(&ours), "Third."));
    let all = answers(&app, id, 3).await;
    let texts: Vec<&str> = all
        .iter()
        .map(|item| item["parts"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["First.", "Second.", "Third."]);
    eventually("the new UIDVALIDITY is kept", || async {
        (count(&app, "SELECT uid_validity FROM mailbox_state").await != validity).then_some(())
    })
    .await;
    // Give a second filing every chance to happen, then count.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM message_replies WHERE direction = 'answer'"
        )
        .await,
        3
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM notification_outbox WHERE kind = 'answer'"
        )
        .await,
        3,
        "the owner is told of each answer once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_read_the_mailbox_as_one() {
    let Some(url) = postgres_only_database().await else {
        return;
    };
    let dovecot = TestDovecot::start();
    let smtp = TestSmtp::start().await;
    let a = Spawn::new()
        .database(url.clone())
        .settings(reading(&smtp, &dovecot))
        .await;
    let b = Spawn::new()
        .database(url.clone())
        .settings(reading(&smtp, &dovecot))
        .await;
    let (id, ours) = replied(&a, &smtp).await;
    for number in 1..=5 {
        dovecot.deliver(&answer(
            number,
            "ada@example.com",
            Some(&ours),
            &format!("Answer {number}."),
        ));
    }
    // Read through the other instance: its own session, one database.
    b.signed_in_again().await;
    answers(&b, id, 5).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        count(
            &a,
            "SELECT COUNT(*) FROM message_replies WHERE direction = 'answer'"
        )
        .await,
        5
    );
    assert_eq!(
        count(
            &a,
            "SELECT COUNT(*) FROM notification_outbox WHERE kind = 'answer'"
        )
        .await,
        5
    );
    assert_eq!(
        count(
            &a,
            "SELECT COUNT(*) FROM ops_leases WHERE name = 'mailbox-reader'"
        )
        .await,
        1,
        "one reader's lease"
    );
}

#[test]
fn the_mailbox_password_never_reaches_the_log_even_at_trace() {
    let dovecot = TestDovecot::start();
    let data = tempfile::tempdir().unwrap();
    let server = Serve::new()
        .database(&format!("sqlite://{}/portfolio.db", data.path().display()))
        .env("RUST_LOG", "trace")
        .args([
            "--smtp-url",
            "smtp://127.0.0.1:9?tls=none",
            "--notify-email",
            "owner@example.com",
        ])
        .args(["--imap-url", &dovecot.url(), "--imap-poll", "200ms"])
        .arg("--imap-ca-file")
        .arg(dovecot.ca_file())
        .start();
    // The reader has logged in, selected the mailbox and read it, with everything at trace level.
    server.wait_for_line("a read of the mailbox", |line| {
        line.contains("the site's mailbox was read")
    });
    let lines = server.lines();
    assert!(lines.len() > 10, "the trace is on: {lines:?}");
    for line in &lines {
        assert!(
            !line.contains(PASSWORD) && !line.contains(PASSWORD_IN_URL),
            "{line}"
        );
    }
}
