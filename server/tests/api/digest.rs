//! The weekly digest: on the owner's weekday and hour (the server's clock moved past it, on the
//! same database), the week's figures beside the week before's, by e-mail (text and HTML parts)
//! and webhook (JSON), once; an empty week skipped; one digest from two instances on one
//! PostgreSQL; the owner's hour across a daylight-saving change.

use std::future::IntoFuture;

use chrono::{Datelike, Days, NaiveDate, TimeZone, Utc};
use serde_json::{json, Value};

use crate::contact::{form_with, post_contact, valid_form};
use crate::contact_smtp::{ReceivedMail, TestSmtp};
use crate::delivery::{mail_to, webhook_to, Receiver};
use crate::helpers::{eventually, postgres_only_database, Spawn, TestApp};

/// The server's clock offset (seconds) that puts it just past `target_ms`.
fn offset_to(target_ms: i64) -> i64 {
    (target_ms - portfolio::clock::now_ms()) / 1000 + 2
}

/// Two days from now, at 9:00 UTC: the digest's moment in these tests, and its date.
fn slot_in_two_days() -> (NaiveDate, i64) {
    let date = portfolio::clock::now()
        .date_naive()
        .checked_add_days(Days::new(2))
        .unwrap();
    let at = Utc
        .from_utc_datetime(&date.and_hms_opt(9, 0, 0).unwrap())
        .timestamp_millis();
    (date, at)
}

fn day(date: NaiveDate, back: u64) -> String {
    date.checked_sub_days(Days::new(back))
        .unwrap()
        .format("%Y-%m-%d")
        .to_string()
}

/// Sets the digest to `date`'s weekday at 9.
async fn digest_on(app: &TestApp, date: NaiveDate) -> Value {
    let weekday = date.weekday().number_from_monday();
    let response = app
        .send(
            reqwest::Method::PUT,
            "/api/digest",
            Some(&json!({ "enabled": true, "weekday": weekday, "hour": 9 })),
        )
        .await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

async fn seed(app: &TestApp, statement: &str, values: (&str, i64, i64)) {
    sqlx::query(statement)
        .bind(values.0)
        .bind(values.1)
        .bind(values.2)
        .execute(&app.sql)
        .await
        .unwrap();
}

/// The weekly digests written: (slot, its time, skipped).
async fn digests(app: &TestApp) -> Vec<(String, i64, bool)> {
    let rows: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT slot, slot_at, CASE WHEN skipped THEN 1 ELSE 0 END FROM weekly_digests \
         ORDER BY slot_at",
    )
    .fetch_all(&app.sql)
    .await
    .unwrap();
    rows.into_iter()
        .map(|(slot, at, skipped)| (slot, at, skipped != 0))
        .collect()
}

fn digest_mails(smtp: &TestSmtp) -> Vec<ReceivedMail> {
    smtp.received()
        .into_iter()
        .filter(|mail| {
            mail.header("Subject")
                .is_some_and(|subject| subject.starts_with("Your week:"))
        })
        .collect()
}

/// The same database, its clock `offset` seconds ahead, mailing through `smtp`.
async fn moved(
    app: TestApp,
    offset: i64,
    configure: impl Fn(&mut portfolio::config::Settings) + 'static,
) -> TestApp {
    let database_url = app.database_url.clone();
    let dir = app.shutdown_keeping_data().await;
    let next = Spawn::new()
        .data_dir(dir)
        .database(database_url)
        .settings(move |s| {
            configure(s);
            s.clock.clock_offset = offset;
        })
        .await;
    next.signed_in().await;
    next
}

#[tokio::test]
async fn the_digest_tells_a_seeded_week_beside_the_last_once_by_e_mail_and_webhook() {
    let smtp = TestSmtp::start().await;
    let receiver = Receiver::start().await;
    let (smtp_url, hook) = (smtp.url(), receiver.url.clone());
    let configure = move |s: &mut portfolio::config::Settings| {
        mail_to(s, smtp_url.clone());
        webhook_to(s, &hook);
    };
    let app = Spawn::new().settings(configure.clone()).await;
    app.signed_in().await;
    let (date, at) = slot_in_two_days();
    let settings = digest_on(&app, date).await;
    assert_eq!(settings["nextAt"], at);
    assert_eq!(settings["timeZone"], "UTC");
    assert_eq!(settings["canSend"], true);

    // The week: the seven days before the digest's date; the week before it; and the days
    // outside both, which count nowhere.
    let daily = "INSERT INTO insights_daily (day, page_views, visitors, resume_downloads) \
                 VALUES ($1, $2, $3, 0)";
    for (back, views, visitors) in [(1, 9, 5), (7, 3, 2), (8, 4, 3), (0, 100, 100), (15, 50, 50)] {
        seed(&app, daily, (&day(date, back), views, visitors)).await;
    }
    let counts = "INSERT INTO insights_counts (day, kind, key, count) VALUES ($1, 'referrer', \
                  CASE $2 WHEN 1 THEN 'www.linkedin.com' WHEN 2 THEN 'news.ycombinator.com' \
                  WHEN 3 THEN '(other)' ELSE 'old.example' END, $3)";
    for (back, which, count) in [(1, 1, 4), (2, 2, 2), (2, 1, 1), (1, 3, 9), (9, 4, 7)] {
        seed(&app, counts, (&day(date, back), which, count)).await;
    }
    // Two messages this week and one in Spam; two links opened, one of them engaged (a section
    // past the top), which has a recipient and is due for a follow-up when the digest is made.
    for form in [
        valid_form(),
        valid_form(),
        form_with("website", json!("a bot")),
    ] {
        assert_eq!(post_contact(&app, &form).await.status(), 201);
    }
    let due = app
        .create_link(&json!({ "company": "Acme", "role": "Dev", "recipientEmail": "jane@acme.example", "followUpDays": 1 }))
        .await;
    let quiet = app
        .create_link(&json!({ "company": "Quiet", "role": "Dev" }))
        .await;
    for (link, section) in [(&due, "projects"), (&quiet, "home")] {
        for visit in [
            json!({ "slug": link["slug"], "kind": "open" }),
            json!({ "slug": link["slug"], "kind": "section", "section": section }),
        ] {
            assert_eq!(app.link_visit(&visit).await.status(), 204);
        }
    }
    assert!(digests(&app).await.is_empty(), "nothing before its moment");

    // Just past the moment: the digest goes out once, by e-mail and webhook.
    let app = moved(app, offset_to(at), configure.clone()).await;
    let bodies = eventually("the digest's webhook", || async {
        let bodies: Vec<Value> = receiver
            .verified_bodies()
            .into_iter()
            .filter(|body| body["type"] == "weekly_digest")
            .collect();
        (!bodies.is_empty()).then_some(bodies)
    })
    .await;
    let figures = &bodies[0];
    assert_eq!(figures["from"], day(date, 7));
    assert_eq!(figures["to"], day(date, 1));
    assert_eq!(figures["timeZone"], "UTC");
    assert_eq!(figures["visitors"], json!({ "this": 7, "last": 3 }));
    assert_eq!(figures["pageViews"], json!({ "this": 12, "last": 4 }));
    assert_eq!(figures["messages"], json!({ "this": 2, "last": 0 }));
    assert_eq!(figures["linksOpened"], json!({ "this": 2, "last": 0 }));
    assert_eq!(figures["linksEngaged"], json!({ "this": 1, "last": 0 }));
    assert_eq!(figures["followUpsDue"], json!({ "this": 1, "last": 0 }));
    assert_eq!(
        figures["followUps"],
        json!([{ "company": "Acme", "role": "Dev" }])
    );
    assert_eq!(
        figures["topReferrers"],
        json!([
            { "host": "www.linkedin.com", "views": 5 },
            { "host": "news.ycombinator.com", "views": 2 },
        ])
    );

    let mail = eventually("the digest's e-mail", || async {
        digest_mails(&smtp).into_iter().next()
    })
    .await;
    let content_type = mail.header("Content-Type").unwrap();
    assert!(
        content_type.starts_with("multipart/alternative"),
        "{content_type}"
    );
    let body = mail.body();
    assert!(
        body.contains("Content-Type: text/plain; charset=utf-8"),
        "{body}"
    );
    assert!(
        body.contains("Content-Type: text/html; charset=utf-8"),
        "{body}"
    );
    assert!(
        body.contains("Visitors                 7          3"),
        "{body}"
    );
    assert!(body.contains("www.linkedin.com: 5 page views"), "{body}");
    assert!(body.contains("Follow-ups due\r\n  Acme, Dev"), "{body}");
    assert!(body.contains("<table"), "{body}");

    // Another start past the same moment sends no second one.
    let app = moved(app, offset_to(at) + 60, configure).await;
    let read = app.get("/api/digest").await.json::<Value>().await.unwrap();
    assert!(read["lastSentAt"].is_i64(), "{read}");
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert_eq!(digests(&app).await.len(), 1);
    assert_eq!(digest_mails(&smtp).len(), 1);
    app.shutdown().await;
}

#[tokio::test]
async fn an_empty_week_is_skipped_and_a_digest_turned_off_is_not_made() {
    let smtp = TestSmtp::start().await;
    let smtp_url = smtp.url();
    let configure = move |s: &mut portfolio::config::Settings| mail_to(s, smtp_url.clone());
    let app = Spawn::new().settings(configure.clone()).await;
    app.signed_in().await;
    let (date, at) = slot_in_two_days();
    digest_on(&app, date).await;
    let app = moved(app, offset_to(at), configure.clone()).await;
    let written = eventually("the week's digest is written", || async {
        let rows = digests(&app).await;
        (!rows.is_empty()).then_some(rows)
    })
    .await;
    assert_eq!(written.len(), 1);
    assert!(written[0].2, "skipped as an empty week");
    let queued: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM notification_outbox WHERE kind = 'digest'")
            .fetch_one(&app.sql)
            .await
            .unwrap();
    assert_eq!(queued, 0);
    assert!(digest_mails(&smtp).is_empty());

    // Turned off, the next week's is not made, however busy the week.
    let next = date.checked_add_days(Days::new(7)).unwrap();
    let response = app
        .send(
            reqwest::Method::PUT,
            "/api/digest",
            Some(&json!({ "enabled": false, "weekday": next.weekday().number_from_monday(), "hour": 9 })),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap()["nextAt"],
        Value::Null
    );
    assert_eq!(post_contact(&app, &valid_form()).await.status(), 201);
    let app = moved(app, offset_to(at + 7 * 86_400_000), configure).await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert_eq!(digests(&app).await.len(), 1);
    for (body, field) in [
        (
            json!({ "enabled": true, "weekday": 0, "hour": 9 }),
            "weekday",
        ),
        (
            json!({ "enabled": true, "weekday": 8, "hour": 9 }),
            "weekday",
        ),
        (json!({ "enabled": true, "weekday": 1, "hour": 24 }), "hour"),
        (json!({ "enabled": true, "weekday": 1, "hour": -1 }), "hour"),
        (json!({ "enabled": true, "weekday": 1 }), "hour"),
        (
            json!({ "enabled": "yes", "weekday": 1, "hour": 9 }),
            "enabled",
        ),
    ] {
        let response = app
            .send(reqwest::Method::PUT, "/api/digest", Some(&body))
            .await;
        assert_eq!(response.status(), 422, "{body}");
        let problem: Value = response.json().await.unwrap();
        assert!(
            problem["error"]["fields"][field].is_string(),
            "{body}: {problem}"
        );
    }
    app.shutdown().await;
}

#[tokio::test]
async fn two_instances_on_one_postgres_send_one_digest() {
    let Some(url) = postgres_only_database().await else {
        return;
    };
    let smtp = TestSmtp::start().await;
    let smtp_url = smtp.url();
    let configure = move |s: &mut portfolio::config::Settings| mail_to(s, smtp_url.clone());
    let first = Spawn::new()
        .database(url.clone())
        .settings(configure.clone())
        .await;
    first.signed_in().await;
    let (date, at) = slot_in_two_days();
    digest_on(&first, date).await;
    seed(
        &first,
        "INSERT INTO insights_daily (day, page_views, visitors, resume_downloads) \
         VALUES ($1, $2, $3, 0)",
        (&day(date, 1), 4, 2),
    )
    .await;
    first.shutdown().await;
    let offset = offset_to(at);
    let (a, b) = tokio::join!(
        Spawn::new()
            .database(url.clone())
            .settings({
                let configure = configure.clone();
                move |s| {
                    configure(s);
                    s.clock.clock_offset = offset;
                }
            })
            .into_future(),
        Spawn::new()
            .database(url.clone())
            .settings(move |s| {
                configure(s);
                s.clock.clock_offset = offset;
            })
            .into_future(),
    );
    eventually("the digest's e-mail", || async {
        (!digest_mails(&smtp).is_empty()).then_some(())
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert_eq!(digest_mails(&smtp).len(), 1);
    assert_eq!(digests(&a).await.len(), 1);
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test]
async fn the_owners_hour_holds_across_a_daylight_saving_change() {
    let smtp = TestSmtp::start().await;
    let smtp_url = smtp.url();
    let configure = move |s: &mut portfolio::config::Settings| {
        mail_to(s, smtp_url.clone());
        s.insights.time_zone = "Europe/Berlin".parse().unwrap();
    };
    let at = |text: &str| {
        chrono::DateTime::parse_from_rfc3339(text)
            .unwrap()
            .timestamp_millis()
    };
    // Sunday 21 March 2027: the owner turns the digest on, Mondays at 9, from here.
    let app = Spawn::new()
        .settings({
            let configure = configure.clone();
            move |s| {
                configure(s);
                s.clock.clock_offset = offset_to(at("2027-03-21T12:00:00Z"));
            }
        })
        .await;
    app.signed_in().await;
    let settings = app.get("/api/digest").await.json::<Value>().await.unwrap();
    assert_eq!(
        settings["enabled"], false,
        "off until the owner turns it on"
    );
    assert_eq!(settings["nextAt"], Value::Null);
    let response = app
        .send(
            reqwest::Method::PUT,
            "/api/digest",
            Some(&json!({ "enabled": true, "weekday": 1, "hour": 9 })),
        )
        .await;
    assert_eq!(response.status(), 200);
    let settings: Value = response.json().await.unwrap();
    assert_eq!(settings["timeZone"], "Europe/Berlin");
    assert_eq!(settings["nextAt"], at("2027-03-22T08:00:00Z"), "9:00 CET");
    // Monday 22 March, 9:30 in Berlin (CET): that week's digest, due at 8:00 UTC.
    let app = moved(
        app,
        offset_to(at("2027-03-22T08:30:00Z")),
        configure.clone(),
    )
    .await;
    eventually("the first digest is written", || async {
        (digests(&app).await.len() == 1).then_some(())
    })
    .await;
    // Monday 29 March, 9:30 in Berlin (CEST since Sunday): due at 7:00 UTC.
    let app = moved(app, offset_to(at("2027-03-29T07:30:00Z")), configure).await;
    let rows = eventually("the second digest is written", || async {
        let rows = digests(&app).await;
        (rows.len() == 2).then_some(rows)
    })
    .await;
    assert_eq!(
        rows.iter()
            .map(|(slot, at, _)| (slot.as_str(), *at))
            .collect::<Vec<_>>(),
        [
            ("2027-03-22T09:00", at("2027-03-22T08:00:00Z")),
            ("2027-03-29T09:00", at("2027-03-29T07:00:00Z")),
        ]
    );
    app.shutdown().await;
}
