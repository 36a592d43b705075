//! Replies from the inbox: the owner's reply goes to the visitor through the outbox, threaded
//! (Message-ID, In-Reply-To, References) and quoting what it answers; the visitor's answers are
//! filed into the conversation by their references to our replies and their sender alone, shown
//! with their quoted text folded and their attachments only ever as downloads. The reader of the
//! site's mailbox, against a real IMAP server, is in `mailbox.rs`.

use portfolio::store::replies::{Filed, IncomingMail, NewAttachment};
use serde_json::{json, Value};

use crate::contact::{form_with, post_contact, valid_form};
use crate::contact_smtp::{ReceivedMail, TestSmtp};
use crate::delivery::mail_to;
use crate::helpers::{eventually, spawn_app, spawn_app_with, TestApp};

/// The site's reply address in these tests: where answers go.
pub const REPLIES: &str = "replies@example.com";

pub async fn message_id_of(response: reqwest::Response) -> i64 {
    assert_eq!(response.status(), 201);
    response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap()
}

pub async fn conversation(app: &TestApp, id: i64) -> Value {
    let response = app.get(&format!("/api/messages/{id}/conversation")).await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

pub async fn reply(app: &TestApp, id: i64, body: &str) -> reqwest::Response {
    app.post_json(
        &format!("/api/messages/{id}/replies"),
        &json!({ "body": body }),
    )
    .await
}

/// The mails that reached `to`, waiting for at least `count`.
pub async fn mails_to(smtp: &TestSmtp, to: &str, count: usize) -> Vec<ReceivedMail> {
    eventually(&format!("{count} mail(s) to {to}"), || async {
        let mails: Vec<ReceivedMail> = smtp
            .received()
            .into_iter()
            .filter(|mail| mail.to.iter().any(|address| address == to))
            .collect();
        (mails.len() >= count).then_some(mails)
    })
    .await
}

/// A Message-ID header's id, without its brackets.
fn bare(id: &str) -> &str {
    id.trim().trim_start_matches('<').trim_end_matches('>')
}

/// A server that mails through a local SMTP server with the site's reply address, the owner
/// signed in.
async fn replying_app() -> (TestSmtp, TestApp) {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(|s| {
        mail_to(s, smtp.url());
        s.mail.reply_address = Some(REPLIES.to_owned());
    })
    .await;
    app.signed_in().await;
    (smtp, app)
}

#[tokio::test]
async fn a_reply_reaches_the_visitor_threaded_quoting_the_message_and_shows_sent() {
    let (smtp, app) = replying_app().await;
    let id = message_id_of(post_contact(&app, &valid_form()).await).await;

    let response = reply(&app, id, "Thank you, Ada.\nShall we talk on Tuesday?").await;
    assert_eq!(response.status(), 201);
    let item: Value = response.json().await.unwrap();
    assert_eq!(item["kind"], "reply");
    assert_eq!(item["text"], "Thank you, Ada.\nShall we talk on Tuesday?");

    let sent = mails_to(&smtp, "ada@example.com", 1).await;
    let mail = &sent[0];
    assert_eq!(mail.header("Subject").as_deref(), Some("Re: A project"));
    assert_eq!(mail.header("Reply-To").as_deref(), Some(REPLIES));
    let message_id = mail.header("Message-ID").unwrap();
    assert!(
        bare(&message_id).starts_with(&format!("reply.{id}."))
            && message_id.ends_with("@example.com>"),
        "{message_id}"
    );
    let first = mail.header("In-Reply-To").unwrap();
    assert!(
        bare(&first).starts_with(&format!("contact.{id}.")),
        "{first}"
    );
    assert_eq!(mail.header("References").as_deref(), Some(first.as_str()));
    let body = mail.body().replace("\r\n", "\n");
    assert!(
        body.starts_with("Thank you, Ada.\nShall we talk on Tuesday?\n"),
        "{body}"
    );
    assert!(
        body.contains("Ada Lovelace wrote:\n> Hello! I would like to talk about a project."),
        "{body}"
    );

    let shown = eventually("the reply shows sent", || async {
        let conversation = conversation(&app, id).await;
        (conversation["items"][0]["delivery"]["status"] == "sent").then_some(conversation)
    })
    .await;
    assert_eq!(shown["canReply"], true);
    assert_eq!(shown["replyAddress"], REPLIES);
    assert_eq!(shown["readsAnswers"], false);
    assert_eq!(shown["message"]["id"], id);

    // A second reply answers the first, and lists both before it.
    assert_eq!(
        reply(&app, id, "And Wednesday works too.").await.status(),
        201
    );
    let sent = mails_to(&smtp, "ada@example.com", 2).await;
    let second = sent
        .iter()
        .find(|mail| mail.body().starts_with("And Wednesday"))
        .unwrap();
    assert_eq!(
        second.header("In-Reply-To").as_deref(),
        Some(message_id.as_str())
    );
    assert_eq!(
        second.header("References").unwrap(),
        format!("{first} {message_id}")
    );
}

#[tokio::test]
async fn a_reply_is_checked_at_the_boundary_and_refused_in_words() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(|s| mail_to(s, smtp.url())).await;
    let id = message_id_of(post_contact(&app, &valid_form()).await).await;
    assert_eq!(
        reply(&app, id, "Hello").await.status(),
        401,
        "the owner's alone"
    );
    app.signed_in().await;

    for (body, problem) in [
        (json!({ "body": "  \n " }), "is required"),
        (
            json!({ "body": "x".repeat(10_001) }),
            "must be at most 10000 characters long",
        ),
        (json!({}), ""),
    ] {
        let response = app
            .post_json(&format!("/api/messages/{id}/replies"), &body)
            .await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        if !problem.is_empty() {
            assert_eq!(error["error"]["fields"]["body"], problem);
        }
    }
    let stray = app
        .post_json(
            &format!("/api/messages/{id}/replies"),
            &json!({ "body": "Hi", "to": "someone@else.example" }),
        )
        .await;
    assert_eq!(stray.status(), 422, "unknown fields are refused");
    assert_eq!(reply(&app, id + 1000, "Hello").await.status(), 404);

    let spam = message_id_of(post_contact(&app, &form_with("website", json!("x"))).await).await;
    let refused = reply(&app, spam, "Hello").await;
    assert_eq!(refused.status(), 409);
    let error: Value = refused.json().await.unwrap();
    assert!(error["error"]["message"].as_str().unwrap().contains("Spam"));
    assert_eq!(conversation(&app, spam).await["replyBlocked"], "spam");

    // Nothing was stored by any of them.
    assert_eq!(conversation(&app, id).await["items"], json!([]));
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM message_replies")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(rows, 0);
}

#[tokio::test]
async fn without_e_mail_the_conversation_says_why_no_reply_can_go() {
    let app = spawn_app().await;
    app.signed_in().await;
    let id = message_id_of(post_contact(&app, &valid_form()).await).await;
    let shown = conversation(&app, id).await;
    assert_eq!(shown["canReply"], false);
    assert_eq!(shown["replyBlocked"], "mail_off");
    let refused = reply(&app, id, "Hello").await;
    assert_eq!(refused.status(), 409);
    let error: Value = refused.json().await.unwrap();
    assert!(error["error"]["message"]
        .as_str()
        .unwrap()
        .contains("--smtp-url"));
}

/// An answer as the mailbox's reader files it: from `from`, referencing `references`.
fn answer<'a>(
    mail_id: &'a str,
    uid: i64,
    references: &'a [String],
    from: &'a str,
    body: &'a str,
    attachments: &'a [NewAttachment<'a>],
) -> IncomingMail<'a> {
    IncomingMail {
        mailbox: "INBOX",
        uid_validity: 7,
        uid,
        mail_id,
        references,
        from_address: Some(from),
        subject: "Re: A project",
        body,
        from_html: false,
        cut: false,
        mail_date: Some(1_700_000_000_000),
        attachments,
        now: portfolio::clock::now_ms(),
    }
}

#[tokio::test]
async fn answers_are_filed_by_reference_and_sender_alone_once_and_attachments_only_download() {
    let (smtp, app) = replying_app().await;
    let id = message_id_of(post_contact(&app, &valid_form()).await).await;
    assert_eq!(reply(&app, id, "Shall we talk?").await.status(), 201);
    let sent = mails_to(&smtp, "ada@example.com", 1).await;
    let ours = bare(&sent[0].header("Message-ID").unwrap()).to_owned();
    assert_eq!(app.db.mailbox_cursor("INBOX", 7).await.unwrap(), 0);
    // Read, so that the answer's coming back marks it unread again.
    conversation(&app, id).await;

    let references = vec!["elsewhere@example.org".to_owned(), ours.clone()];
    let text = "Tuesday suits me.\n\nOn Sun, 6 Dec 2026 at 10:00, Owner <owner@example.com> wrote:\n> Shall we talk?\n";
    let page = b"<html><script>alert(1)</script></html>";
    let attachments = [
        NewAttachment {
            name: "page.html",
            content_type: "text/html",
            size: page.len() as i64,
            bytes: Some(page),
        },
        NewAttachment {
            name: "huge.zip",
            content_type: "application/zip",
            size: 50_000_000,
            bytes: None,
        },
    ];
    let filed = app
        .db
        .file_mail(
            &answer(
                "answer-1@mail.example",
                3,
                &references,
                "ada@example.com",
                text,
                &attachments,
            ),
            &["email".to_owned()],
        )
        .await
        .unwrap();
    let Filed::Answer { message_id, .. } = filed else {
        panic!("filed as {filed:?}");
    };
    assert_eq!(message_id, id);
    assert_eq!(
        app.db.mailbox_cursor("INBOX", 7).await.unwrap(),
        3,
        "the reader's step, with it"
    );

    // The same mail again (another instance, a renumbered mailbox): nothing twice.
    let again = app
        .db
        .file_mail(
            &answer(
                "answer-1@mail.example",
                9,
                &references,
                "ada@example.com",
                text,
                &[],
            ),
            &["email".to_owned()],
        )
        .await
        .unwrap();
    assert_eq!(again, Filed::Already);

    // A forged subject with no reference, and the right reference from another address: neither.
    let none: Vec<String> = vec![];
    let forged = app
        .db
        .file_mail(
            &answer(
                "forged@evil.example",
                10,
                &none,
                "ada@example.com",
                "Re: A project",
                &[],
            ),
            &["email".to_owned()],
        )
        .await
        .unwrap();
    assert_eq!(forged, Filed::Unmatched("no-reference"));
    let other = app
        .db
        .file_mail(
            &answer(
                "other@evil.example",
                11,
                &references,
                "mallory@evil.example",
                "Hi",
                &[],
            ),
            &["email".to_owned()],
        )
        .await
        .unwrap();
    assert_eq!(other, Filed::Unmatched("other-sender"));

    let summary = app
        .get("/api/messages")
        .await
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(
        summary["unread"], 1,
        "the answer brought the message back unread"
    );
    let shown = conversation(&app, id).await;
    let items = shown["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{shown}");
    let filed = &items[1];
    assert_eq!(filed["kind"], "answer");
    assert_eq!(filed["from"], "ada@example.com");
    assert_eq!(filed["text"], text, "the whole text is kept");
    let parts = filed["parts"].as_array().unwrap();
    assert_eq!(
        parts[0],
        json!({ "kind": "text", "text": "Tuesday suits me." })
    );
    assert_eq!(parts[1]["kind"], "quote");
    let joined: String = parts.iter().map(|p| p["text"].as_str().unwrap()).collect();
    assert_eq!(joined, text);
    let listed = filed["attachments"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["name"], "page.html");
    assert_eq!(listed[0]["contentType"], "text/html");
    assert_eq!(listed[0]["stored"], true);
    assert_eq!(listed[1]["stored"], false);
    assert_eq!(listed[1]["size"], 50_000_000);

    // The HTML attachment is only ever a download, never a page of the site.
    let html = app
        .get(&format!(
            "/api/messages/{id}/attachments/{}",
            listed[0]["id"]
        ))
        .await;
    assert_eq!(html.status(), 200);
    let headers = html.headers().clone();
    assert_eq!(headers["content-type"], "application/octet-stream");
    assert_eq!(
        headers["content-disposition"],
        "attachment; filename=\"page.html\"; filename*=UTF-8''page%2Ehtml"
    );
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(
        headers["content-security-policy"],
        "sandbox; default-src 'none'"
    );
    assert_eq!(html.bytes().await.unwrap().as_ref(), page);
    let kept_out = app
        .get(&format!(
            "/api/messages/{id}/attachments/{}",
            listed[1]["id"]
        ))
        .await;
    assert_eq!(kept_out.status(), 404, "over the limit: listed, not stored");
    let other_message = message_id_of(post_contact(&app, &valid_form()).await).await;
    let elsewhere = app
        .get(&format!(
            "/api/messages/{other_message}/attachments/{}",
            listed[0]["id"]
        ))
        .await;
    assert_eq!(elsewhere.status(), 404, "only through its own conversation");

    // The owner hears of the answer as of a new message.
    let notice = mails_to(&smtp, "owner@example.com", 3).await;
    let told = notice
        .iter()
        .find(|mail| {
            mail.header("Subject")
                .is_some_and(|s| s.starts_with("Answer from"))
        })
        .expect("the notice of the answer");
    assert_eq!(
        told.header("Subject").as_deref(),
        Some("Answer from Ada Lovelace: A project")
    );
    assert!(told.body().contains("Tuesday suits me."));

    let mailbox = app.get("/api/mailbox").await.json::<Value>().await.unwrap();
    let unmatched = mailbox["unmatched"].as_array().unwrap();
    assert_eq!(unmatched.len(), 2);
    assert_eq!(unmatched[0]["reason"], "other-sender");
    assert_eq!(unmatched[0]["from"], "mallory@evil.example");
    assert_eq!(unmatched[1]["reason"], "no-reference");
    assert_eq!(mailbox["configured"], false);
    assert_eq!(mailbox["replyAddress"], REPLIES);
}

#[tokio::test]
async fn a_reply_written_while_the_mail_server_is_down_is_kept_retried_and_sent_once_it_is_back() {
    // The SMTP server's port, closed for now.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = spawn_app_with(|s| {
        mail_to(s, crate::contact_smtp::smtp_url(port));
        s.delivery.notify_retry_base = std::time::Duration::from_millis(200);
    })
    .await;
    app.signed_in().await;
    let id = message_id_of(post_contact(&app, &valid_form()).await).await;
    assert_eq!(reply(&app, id, "Are you there?").await.status(), 201);
    let retrying = eventually("the reply fails and waits", || async {
        let delivery = conversation(&app, id).await["items"][0]["delivery"].clone();
        (delivery["status"] == "retrying").then_some(delivery)
    })
    .await;
    assert!(retrying["lastError"]
        .as_str()
        .unwrap()
        .starts_with("the mail server could not be reached"));

    // The mail server comes back: the reply goes, once, with nothing asked of the owner.
    let smtp = TestSmtp::start_on(port).await;
    let sent = mails_to(&smtp, "ada@example.com", 1).await;
    assert!(sent[0].body().starts_with("Are you there?"));
    eventually("the reply shows sent", || async {
        (conversation(&app, id).await["items"][0]["delivery"]["status"] == "sent").then_some(())
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let to_ada = smtp
        .received()
        .iter()
        .filter(|mail| mail.to.iter().any(|to| to == "ada@example.com"))
        .count();
    assert_eq!(to_ada, 1, "sent once");
}
