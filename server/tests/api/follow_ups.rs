//! Follow-ups: a link with its recipient's address, opened and then quiet for its days, comes up
//! once (the server's clock moved ahead on the same database) with a draft in its language; the
//! owner's follow-up reaches the recipient through the outbox with its own Message-ID and the
//! site's reply address; it never comes up after a message through the link, a mail from its
//! recipient, being sent or dismissed, and comes back after a snooze.

use portfolio::store::replies::{Filed, IncomingMail};
use serde_json::{json, Value};

use crate::contact::post_contact;
use crate::contact::valid_form;
use crate::contact_smtp::TestSmtp;
use crate::delivery::mail_to;
use crate::helpers::{eventually, spawn_app, Spawn, TestApp};
use crate::replies::{mails_to, REPLIES};

const DAY_SECS: i64 = 24 * 60 * 60;
const RECIPIENT: &str = "jane@acme.example";

fn link_for(company: &str, recipient: Option<&str>, days: i64) -> Value {
    let mut link =
        json!({ "company": company, "role": "Frontend Developer", "followUpDays": days });
    if let Some(recipient) = recipient {
        link["recipientEmail"] = json!(recipient);
    }
    link
}

async fn opened(app: &TestApp, link: &Value) {
    let visit = json!({ "slug": link["slug"], "kind": "open" });
    assert_eq!(app.link_visit(&visit).await.status(), 204);
}

async fn due(app: &TestApp) -> Value {
    let response = app.get("/api/follow-ups").await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

fn due_companies(list: &Value) -> Vec<String> {
    list["followUps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["company"].as_str().unwrap().to_owned())
        .collect()
}

fn id_of(link: &Value) -> i64 {
    link["id"].as_i64().unwrap()
}

/// The same database `seconds` later by the server's clock, mailing through `smtp` when given,
/// the owner signed in.
async fn later(app: TestApp, seconds: i64, smtp: Option<&TestSmtp>) -> TestApp {
    let database_url = app.database_url.clone();
    let dir = app.shutdown_keeping_data().await;
    let smtp_url = smtp.map(TestSmtp::url);
    let next = Spawn::new()
        .data_dir(dir)
        .database(database_url)
        .settings(move |s| {
            s.clock.clock_offset = seconds;
            if let Some(url) = smtp_url {
                mail_to(s, url);
                s.mail.reply_address = Some(REPLIES.to_owned());
            }
        })
        .await;
    next.signed_in().await;
    next
}

#[tokio::test]
async fn a_follow_up_comes_up_once_after_its_days_and_goes_to_the_recipient_threaded() {
    let smtp = TestSmtp::start().await;
    let app = Spawn::new()
        .settings(|s| {
            mail_to(s, smtp.url());
            s.mail.reply_address = Some(REPLIES.to_owned());
        })
        .await;
    app.signed_in().await;
    let link = app
        .create_link(&link_for("Acme & Co", Some(RECIPIENT), 2))
        .await;
    // Never opened, and opened without an address: never due.
    app.create_link(&link_for("Quiet", Some("q@quiet.example"), 1))
        .await;
    let nobody = app.create_link(&link_for("Nobody", None, 1)).await;
    opened(&app, &link).await;
    opened(&app, &nobody).await;
    let now = due(&app).await;
    assert_eq!(now["followUps"], json!([]));
    assert_eq!(now["canSend"], true);
    assert_eq!(now["replyAddress"], REPLIES);

    // A day later: not yet.
    let app = later(app, DAY_SECS, Some(&smtp)).await;
    assert_eq!(due(&app).await["followUps"], json!([]));

    // Two days and a minute after the first open: due, with its draft.
    let app = later(app, 2 * DAY_SECS + 60, Some(&smtp)).await;
    let list = due(&app).await;
    assert_eq!(due_companies(&list), ["Acme & Co"]);
    let item = &list["followUps"][0];
    assert_eq!(item["linkId"], link["id"]);
    assert_eq!(item["recipientEmail"], RECIPIENT);
    assert_eq!(item["path"], link["path"]);
    let first_open = app.link(id_of(&link)).await["link"]["firstOpenedAt"]
        .as_i64()
        .unwrap();
    assert_eq!(item["firstOpenedAt"], first_open);
    assert_eq!(item["dueAt"], first_open + 2 * DAY_SECS * 1000);
    assert_eq!(
        item["draft"]["subject"],
        "Following up: Frontend Developer at Acme & Co"
    );
    let drafted = item["draft"]["body"].as_str().unwrap();
    assert!(drafted.starts_with("Hello,\n\n"), "{drafted}");
    let address = format!("{}{}", app.address, link["path"].as_str().unwrap());
    assert!(drafted.contains(&address), "{drafted} has {address}");

    // The owner edits and sends it.
    let path = format!("/api/links/{}/follow-up", id_of(&link));
    let text = "Hello Jane,\n\nAny news on the role? Happy to talk.\n\nAlex";
    let response = app
        .post_json(&path, &json!({ "subject": "  Any news?  ", "body": text }))
        .await;
    assert_eq!(response.status(), 201);
    let sent: Value = response.json().await.unwrap();
    assert_eq!(sent["state"], "sent");
    assert_eq!(sent["sentTo"], RECIPIENT);
    assert_eq!(sent["subject"], "Any news?");
    assert_eq!(sent["body"], text);

    let mails = mails_to(&smtp, RECIPIENT, 1).await;
    let mail = &mails[0];
    assert_eq!(mail.header("Subject").as_deref(), Some("Any news?"));
    assert_eq!(mail.header("Reply-To").as_deref(), Some(REPLIES));
    let message_id = mail.header("Message-ID").unwrap();
    assert!(
        message_id.starts_with(&format!("<follow-up.{}.", id_of(&link)))
            && message_id.ends_with("@example.com>"),
        "{message_id}"
    );
    assert_eq!(mail.body().replace("\r\n", "\n").trim_end(), text);

    // The recipient answers (to the site's reply address, as the mailbox's reader files it):
    // the first answer is a message through the link, the next goes into its conversation;
    // the same mail again changes nothing, and another sender's is left unmatched.
    let ours = vec![message_id.trim_matches(['<', '>']).to_owned()];
    let answer = |mail_id: &'static str, uid: i64, from: &'static str| IncomingMail {
        mailbox: "INBOX",
        uid_validity: 1,
        uid,
        mail_id,
        references: &ours,
        from_address: Some(from),
        subject: "Re: Any news?",
        body: "Hi Alex, yes: shall we talk on Tuesday?",
        from_html: false,
        cut: false,
        mail_date: None,
        attachments: &[],
        now: portfolio::clock::now_ms(),
    };
    let channels = ["email".to_owned()];
    let first = app
        .db
        .file_mail(&answer("jane-1@acme.example", 1, RECIPIENT), &channels)
        .await
        .unwrap();
    let Filed::Message { message_id } = first else {
        panic!("filed as {first:?}");
    };
    let again = app
        .db
        .file_mail(&answer("jane-1@acme.example", 2, RECIPIENT), &channels)
        .await
        .unwrap();
    assert_eq!(again, Filed::Already);
    let second = app
        .db
        .file_mail(&answer("jane-2@acme.example", 3, RECIPIENT), &channels)
        .await
        .unwrap();
    assert!(
        matches!(second, Filed::Answer { message_id: into, .. } if into == message_id),
        "{second:?}"
    );
    let other = app
        .db
        .file_mail(
            &answer("someone@else.example", 4, "someone@else.example"),
            &channels,
        )
        .await
        .unwrap();
    assert_eq!(other, Filed::Unmatched("other-sender"));
    let conversation = crate::replies::conversation(&app, message_id).await;
    assert_eq!(conversation["message"]["email"], RECIPIENT);
    assert_eq!(conversation["message"]["subject"], "Re: Any news?");
    assert_eq!(
        conversation["message"]["message"],
        "Hi Alex, yes: shall we talk on Tuesday?"
    );
    assert_eq!(conversation["message"]["via"]["company"], "Acme & Co");
    assert_eq!(conversation["items"].as_array().unwrap().len(), 1);
    assert_eq!(conversation["items"][0]["kind"], "answer");
    // The owner replies from the inbox, as to any message.
    let replied = crate::replies::reply(&app, message_id, "Tuesday at 10, then.").await;
    assert_eq!(replied.status(), 201);
    mails_to(&smtp, RECIPIENT, 2).await;

    // It never comes up again: not now, not a month later; sending or dismissing again is refused.
    assert_eq!(due(&app).await["followUps"], json!([]));
    let shown = eventually("the follow-up shows delivered", || async {
        let detail = app.link(id_of(&link)).await;
        (detail["link"]["followUp"]["delivery"]["status"] == "sent").then_some(detail)
    })
    .await;
    assert_eq!(shown["link"]["followUp"]["state"], "sent");
    let again = app
        .post_json(&path, &json!({ "subject": "Again", "body": "Again" }))
        .await;
    assert_eq!(again.status(), 409);
    let dismissed = app.post_json(&format!("{path}/dismiss"), &json!({})).await;
    assert_eq!(dismissed.status(), 409);
    let app = later(app, 40 * DAY_SECS, Some(&smtp)).await;
    assert_eq!(due(&app).await["followUps"], json!([]));
    let to_recipient = smtp
        .received()
        .into_iter()
        .filter(|mail| mail.to.iter().any(|to| to == RECIPIENT))
        .count();
    assert_eq!(to_recipient, 2, "one follow-up and one reply in all");
    app.shutdown().await;
}

#[tokio::test]
async fn no_follow_up_after_a_message_a_mail_from_the_recipient_or_dismissing_and_a_snooze_brings_it_back(
) {
    let app = spawn_app().await;
    app.signed_in().await;
    let wrote = app
        .create_link(&link_for("Wrote", Some("w@wrote.example"), 1))
        .await;
    let mailed = app
        .create_link(&link_for("Mailed", Some("Mia@Mailed.example"), 1))
        .await;
    let dismissed = app
        .create_link(&link_for("Dismissed", Some("d@dismissed.example"), 1))
        .await;
    let snoozed = app
        .create_link(&link_for("Snoozed", Some("s@snoozed.example"), 1))
        .await;
    for link in [&wrote, &mailed, &dismissed, &snoozed] {
        opened(&app, link).await;
    }
    // A message through one link; a mail from another's recipient in the site's mailbox.
    let mut form = valid_form();
    form["link"] = wrote["slug"].clone();
    assert_eq!(post_contact(&app, &form).await.status(), 201);
    let filed = app
        .db
        .file_mail(
            &IncomingMail {
                mailbox: "INBOX",
                uid_validity: 1,
                uid: 1,
                mail_id: "thanks@mailed.example",
                references: &[],
                from_address: Some("mia@mailed.example"),
                subject: "Your application",
                body: "Thanks, we will be in touch.",
                from_html: false,
                cut: false,
                mail_date: None,
                attachments: &[],
                now: portfolio::clock::now_ms(),
            },
            &[],
        )
        .await
        .unwrap();
    assert!(matches!(filed, Filed::Unmatched(_)), "{filed:?}");

    let app = later(app, DAY_SECS + 60, None).await;
    let list = due(&app).await;
    assert_eq!(due_companies(&list), ["Dismissed", "Snoozed"]);
    assert_eq!(list["canSend"], false);

    // The server sends no e-mail: a follow-up cannot be sent, and nothing is stored.
    let send = format!("/api/links/{}/follow-up", id_of(&snoozed));
    let refused = app
        .post_json(&send, &json!({ "subject": "Hi", "body": "Hi" }))
        .await;
    assert_eq!(refused.status(), 409);
    let problem: Value = refused.json().await.unwrap();
    assert!(problem["error"]["message"]
        .as_str()
        .unwrap()
        .contains("--smtp-url"));

    let response = app
        .post_json(
            &format!("/api/links/{}/follow-up/dismiss", id_of(&dismissed)),
            &json!({}),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap()["state"],
        "dismissed"
    );
    let response = app
        .post_json(
            &format!("/api/links/{}/follow-up/snooze", id_of(&snoozed)),
            &json!({ "days": 3 }),
        )
        .await;
    assert_eq!(response.status(), 200);
    let state: Value = response.json().await.unwrap();
    assert_eq!(state["state"], "snoozed");
    let until = state["snoozedUntil"].as_i64().unwrap();
    assert_eq!(due(&app).await["followUps"], json!([]));
    let listed = app.get("/api/links").await.json::<Value>().await.unwrap();
    let follow_up_of = |company: &str| {
        listed["links"]
            .as_array()
            .unwrap()
            .iter()
            .find(|link| link["company"] == company)
            .unwrap()["followUp"]
            .clone()
    };
    assert_eq!(follow_up_of("Dismissed")["state"], "dismissed");
    assert_eq!(follow_up_of("Snoozed")["snoozedUntil"], until);
    assert_eq!(follow_up_of("Wrote"), Value::Null);

    // Two days on, still snoozed; four days on, back (once the snooze is over); the dismissed
    // one never.
    let app = later(app, 3 * DAY_SECS, None).await;
    assert_eq!(due(&app).await["followUps"], json!([]));
    let app = later(app, 5 * DAY_SECS, None).await;
    let list = due(&app).await;
    assert_eq!(due_companies(&list), ["Snoozed"]);
    assert_eq!(list["followUps"][0]["dueAt"], until);
    app.shutdown().await;
}

#[tokio::test]
async fn bad_follow_ups_are_refused_naming_the_field_or_the_reason() {
    let smtp = TestSmtp::start().await;
    let app = Spawn::new().settings(|s| mail_to(s, smtp.url())).await;
    app.signed_in().await;
    let with = app.create_link(&link_for("Acme", Some(RECIPIENT), 5)).await;
    let without = app.create_link(&link_for("Other", None, 5)).await;
    let send = format!("/api/links/{}/follow-up", id_of(&with));
    for (body, field) in [
        (json!({ "subject": " ", "body": "Hi" }), "subject"),
        (
            json!({ "subject": "a\nBcc: x@y.z", "body": "Hi" }),
            "subject",
        ),
        (
            json!({ "subject": "s".repeat(201), "body": "Hi" }),
            "subject",
        ),
        (json!({ "subject": "Hi", "body": "\n \n" }), "body"),
        (
            json!({ "subject": "Hi", "body": "é".repeat(10_001) }),
            "body",
        ),
        (json!({ "subject": "Hi" }), "body"),
        (json!({ "subject": 3, "body": "Hi" }), "subject"),
    ] {
        let response = app.post_json(&send, &body).await;
        assert_eq!(response.status(), 422, "{body}");
        let problem: Value = response.json().await.unwrap();
        assert!(
            problem["error"]["fields"][field].is_string(),
            "{body}: {problem}"
        );
    }
    let snooze = format!("/api/links/{}/follow-up/snooze", id_of(&with));
    for days in [json!(0), json!(31), json!(1.5), json!("2")] {
        let response = app.post_json(&snooze, &json!({ "days": days })).await;
        assert_eq!(response.status(), 422, "{days}");
        let problem: Value = response.json().await.unwrap();
        assert!(
            problem["error"]["fields"]["days"].is_string(),
            "{days}: {problem}"
        );
    }
    // No recipient's address, or no such link.
    let response = app
        .post_json(
            &format!("/api/links/{}/follow-up", id_of(&without)),
            &json!({ "subject": "Hi", "body": "Hi" }),
        )
        .await;
    assert_eq!(response.status(), 409);
    let response = app
        .post_json("/api/links/999999/follow-up/dismiss", &json!({}))
        .await;
    assert_eq!(response.status(), 404);
    let response = app
        .post_json(
            "/api/links/999999/follow-up",
            &json!({ "subject": "Hi", "body": "Hi" }),
        )
        .await;
    assert_eq!(response.status(), 404);
    assert!(smtp
        .received()
        .iter()
        .all(|mail| mail.to.iter().all(|to| to != RECIPIENT)));
    // Signed out: nothing.
    let stranger = spawn_app().await;
    assert_eq!(stranger.get("/api/follow-ups").await.status(), 401);
    stranger.shutdown().await;
    app.shutdown().await;
}
