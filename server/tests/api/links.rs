//! Application links: the owner's links (`/api/links`), their addresses (`/a/<slug>`), the page's
//! beacon for them (`POST /api/links/visits`), resume downloads and messages through them, their
//! alerts through the outbox, and what is never counted or stored.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::contact::{count, post_contact, valid_form};
use crate::contact_smtp::TestSmtp;
use crate::delivery::{mail_to, webhook_to, Receiver};
use crate::helpers::{eventually, from, DESKTOP_UA, PHONE_UA};
use crate::helpers::{
    on_postgres, postgres_only_database, spawn_app, spawn_app_with, Spawn, TestApp,
};
use crate::languages::{default_document, language, save_draft};

const HEADLESS_UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.0.0 Safari/537.36";
const DAY_SECS: i64 = 24 * 60 * 60;

fn acme() -> Value {
    json!({ "company": "Acme", "role": "Frontend Developer" })
}

fn open(slug: &str) -> Value {
    json!({ "slug": slug, "kind": "open" })
}

fn slug_of(link: &Value) -> String {
    link["slug"].as_str().unwrap().to_owned()
}

fn id_of(link: &Value) -> i64 {
    link["id"].as_i64().unwrap()
}

/// The outbox rows of links' alerts: (event, channel).
async fn link_alerts(app: &TestApp) -> Vec<(String, String)> {
    sqlx::query_as(
        "SELECT link_event, channel FROM notification_outbox WHERE kind = 'link' ORDER BY id",
    )
    .fetch_all(&app.sql)
    .await
    .unwrap()
}

/// The e-mails of links' alerts (the owner's sign-in notices left out).
fn alert_mails(smtp: &TestSmtp) -> Vec<(String, String)> {
    smtp.received()
        .into_iter()
        .filter_map(|mail| Some((mail.header("Subject")?, mail.body())))
        .filter(|(subject, _)| !subject.starts_with("New sign-in"))
        .collect()
}

/// Waits for `n` e-mails of links' alerts.
async fn wait_for_alert_mails(smtp: &TestSmtp, n: usize) -> Vec<(String, String)> {
    eventually("the alert e-mails arrive", || async {
        let mails = alert_mails(smtp);
        (mails.len() >= n).then_some(mails)
    })
    .await
}

/// A page answer's parts that a visitor and a cache see.
async fn page(app: &TestApp, path: &str) -> (u16, Option<String>, Option<String>, String) {
    let response = app.get(path).await;
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let (etag, robots) = (header("etag"), header("x-robots-tag"));
    let status = response.status().as_u16();
    (status, etag, robots, response.text().await.unwrap())
}

#[tokio::test]
async fn links_are_made_listed_read_changed_and_deleted() {
    let app = spawn_app().await;
    assert_eq!(app.get("/api/links").await.status(), 401);
    assert_eq!(app.post_json("/api/links", &acme()).await.status(), 401);
    app.signed_in().await;

    let link = app
        .create_link(&json!({
            "company": "  Acme Corp.  ",
            "role": "Frontend Developer",
            "note": "Applied through their site",
            "alerts": { "resume": false },
        }))
        .await;
    let slug = slug_of(&link);
    assert!(slug.starts_with("acme-corp-"), "{slug}");
    assert_eq!(slug.len(), "acme-corp-".len() + 16);
    assert_eq!(link["path"], format!("/a/{slug}"));
    assert_eq!(link["company"], "Acme Corp.");
    assert_eq!(link["note"], "Applied through their site");
    assert_eq!(link["language"], "en");
    assert_eq!(link["state"], "sent");
    assert_eq!(link["expiresAt"], Value::Null);
    assert_eq!(link["revokedAt"], Value::Null);
    assert_eq!(link["firstOpenedAt"], Value::Null);
    assert_eq!(link["lastActivityAt"], Value::Null);
    assert!(link["createdAt"].as_i64().unwrap() > 0);
    assert_eq!(
        link["alerts"],
        json!({ "open": true, "resume": false, "message": true })
    );
    assert_eq!(
        link["totals"],
        json!({ "opens": 0, "visitors": 0, "resumeDownloads": 0, "projectClicks": 0,
                "messages": 0, "sections": {}, "caseStudies": [], "posts": [] })
    );
    let second = app.create_link(&acme()).await;
    assert_ne!(slug_of(&second), slug_of(&app.create_link(&acme()).await));

    let list: Value = app.get("/api/links").await.json().await.unwrap();
    let ids: Vec<i64> = list["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(id_of)
        .collect();
    assert_eq!(ids.len(), 3);
    assert_eq!(ids[1], id_of(&second), "newest first while none was opened");

    let detail = app.link(id_of(&link)).await;
    assert_eq!(detail["link"], link);
    assert_eq!(detail["days"], json!([]));

    let expires = portfolio::clock::now_ms() + 86_400_000;
    let changed = app
        .send(
            Method::PATCH,
            &format!("/api/links/{}", id_of(&link)),
            Some(
                &json!({ "note": "Call on Monday", "expiresAt": expires, "revoked": true,
                          "alerts": { "open": false } }),
            ),
        )
        .await;
    assert_eq!(changed.status(), 200);
    let changed: Value = changed.json().await.unwrap();
    assert_eq!(changed["note"], "Call on Monday");
    assert_eq!(changed["expiresAt"], expires);
    assert!(changed["revokedAt"].as_i64().is_some());
    assert_eq!(
        changed["alerts"],
        json!({ "open": false, "resume": false, "message": true })
    );
    let again = app
        .send(
            Method::PATCH,
            &format!("/api/links/{}", id_of(&link)),
            Some(&json!({ "expiresAt": null, "revoked": false })),
        )
        .await;
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["expiresAt"], Value::Null);
    assert_eq!(again["revokedAt"], Value::Null);
    assert_eq!(again["note"], "Call on Monday");

    let path = format!("/api/links/{}", id_of(&link));
    assert_eq!(app.send(Method::DELETE, &path, None).await.status(), 204);
    let gone = app.get(&path).await;
    assert_eq!(gone.status(), 404);
    let error: Value = gone.json().await.unwrap();
    assert_eq!(error["error"]["code"], "not_found");
    assert_eq!(app.send(Method::DELETE, &path, None).await.status(), 404);
    let patch = app.send(Method::PATCH, &path, Some(&json!({}))).await;
    assert_eq!(patch.status(), 404);
    // The owner's answers are never cached.
    let list = app.get("/api/links").await;
    assert_eq!(list.headers()["cache-control"], "no-store");
    app.shutdown().await;
}

#[tokio::test]
async fn bad_input_is_a_422_naming_each_field() {
    let app = spawn_app().await;
    app.signed_in().await;
    let past = portfolio::clock::now_ms() - 1000;
    for (body, fields) in [
        (
            json!({ "company": " ", "role": "x".repeat(101) }),
            vec!["company", "role"],
        ),
        (json!({ "role": "Developer" }), vec!["company"]),
        (
            json!({ "company": "Acme", "role": "Dev", "language": "xx", "expiresAt": past,
                    "note": "n".repeat(1001) }),
            vec!["expiresAt", "language", "note"],
        ),
        (
            json!({ "company": "Ac\u{7}me", "role": "Dev" }),
            vec!["company"],
        ),
        (
            json!({ "company": "Acme", "role": "Dev", "slug": "mine" }),
            vec!["slug"],
        ),
        (
            json!({ "company": "Acme", "role": "Dev", "alerts": { "open": "yes" } }),
            vec!["alerts.open"],
        ),
        (
            json!({ "company": "Acme", "role": "Dev", "expiresAt": -5 }),
            vec!["expiresAt"],
        ),
        (
            json!({ "company": "Acme", "role": "Dev", "recipientEmail": "jane@",
                    "followUpDays": 0 }),
            vec!["followUpDays", "recipientEmail"],
        ),
        (
            json!({ "company": "Acme", "role": "Dev", "followUpDays": 61 }),
            vec!["followUpDays"],
        ),
    ] {
        let response = app.post_json("/api/links", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], "validation_failed");
        let named: Vec<&str> = error["error"]["fields"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(named, fields, "{body}: {error}");
    }
    let link = app.create_link(&acme()).await;
    let path = format!("/api/links/{}", id_of(&link));
    for (body, field) in [
        (json!({ "expiresAt": -1 }), "expiresAt"),
        (json!({ "note": "n".repeat(1001) }), "note"),
        (json!({ "revoked": "yes" }), "revoked"),
        (json!({ "company": "Other" }), "company"),
        (json!([null, null]), "body"),
        (json!({ "alerts": [null, true] }), "alerts"),
        (json!({ "alerts": { "open": 1 } }), "alerts.open"),
        (json!({ "alerts": { "sms": true } }), "sms"),
        (
            json!({ "recipientEmail": "not an address" }),
            "recipientEmail",
        ),
        (json!({ "followUpDays": 365 }), "followUpDays"),
        (json!({ "followUpDays": 2.5 }), "followUpDays"),
    ] {
        let response = app.send(Method::PATCH, &path, Some(&body)).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        assert!(error["error"]["fields"][field].is_string(), "{error}");
    }
    let bad_id = app.get("/api/links/abc").await;
    assert_eq!(bad_id.status(), 422);
    let error: Value = bad_id.json().await.unwrap();
    assert!(error["error"]["fields"]["id"].is_string());
    let huge = json!({ "company": "Acme", "role": "Dev", "note": "n".repeat(20_000) });
    assert_eq!(app.post_json("/api/links", &huge).await.status(), 413);
    app.shutdown().await;
}

#[tokio::test]
async fn a_link_keeps_its_recipient_and_follow_up_days_until_changed_or_forgotten() {
    let app = spawn_app().await;
    app.signed_in().await;
    let plain = app.create_link(&acme()).await;
    assert_eq!(plain["recipientEmail"], Value::Null);
    assert_eq!(
        plain["followUpDays"], 5,
        "five days unless the owner says otherwise"
    );
    let link = app
        .create_link(&json!({ "company": "Initech", "role": "Engineer",
            "recipientEmail": " hiring@initech.example ", "followUpDays": 10 }))
        .await;
    assert_eq!(link["recipientEmail"], "hiring@initech.example");
    assert_eq!(link["followUpDays"], 10);
    let path = format!("/api/links/{}", id_of(&link));
    let changed = app
        .send(Method::PATCH, &path, Some(&json!({ "followUpDays": 3 })))
        .await;
    assert_eq!(changed.status(), 200);
    let read = app.get(&path).await.json::<Value>().await.unwrap()["link"].take();
    assert_eq!(
        (&read["recipientEmail"], &read["followUpDays"]),
        (&json!("hiring@initech.example"), &json!(3)),
        "a change of the days leaves the address"
    );
    for forget in [
        json!({ "recipientEmail": null }),
        json!({ "recipientEmail": "" }),
    ] {
        app.send(
            Method::PATCH,
            &path,
            Some(&json!({ "recipientEmail": "a@b.example" })),
        )
        .await;
        let response = app.send(Method::PATCH, &path, Some(&forget)).await;
        assert_eq!(response.status(), 200, "{forget}");
        let read = app.get(&path).await.json::<Value>().await.unwrap()["link"].take();
        assert_eq!(read["recipientEmail"], Value::Null, "{forget}");
        assert_eq!(read["followUpDays"], 3);
    }
    app.shutdown().await;
}

#[tokio::test]
async fn the_csv_lists_every_link_with_its_state_and_defuses_formulas() {
    let app = spawn_app().await;
    assert_eq!(app.get("/api/links.csv").await.status(), 401);
    app.signed_in().await;
    let evil = app
        .create_link(&json!({ "company": "=HYPERLINK(\"https://evil.example\")",
                              "role": "@SUM(A1)", "note": "+1, \"quoted\"" }))
        .await;
    app.create_link(&acme()).await;
    assert_eq!(app.link_visit(&open(&slug_of(&evil))).await.status(), 204);

    let response = app.get("/api/links.csv").await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/csv; charset=utf-8"
    );
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"links-"));
    let text = response.text().await.unwrap();
    assert!(text.starts_with(
        "company,role,state,path,language,created_at,first_opened_at,last_activity_at,\
         expires_at,revoked_at,opens,visitors,resume_downloads,project_clicks,messages,\
         sections,case_studies,posts,alerts,note\r\n"
    ));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    let opened = &rows[0];
    assert_eq!(&opened[0], "'=HYPERLINK(\"https://evil.example\")");
    assert_eq!(&opened[1], "'@SUM(A1)");
    assert_eq!(&opened[2], "opened");
    assert_eq!(&opened[3], format!("/a/{}", slug_of(&evil)));
    assert_eq!(&opened[10], "1");
    assert_eq!(&opened[16], "");
    assert_eq!(&opened[17], "");
    assert_eq!(&opened[18], "open resume message");
    assert_eq!(&opened[19], "'+1, \"quoted\"");
    assert_eq!(&rows[1][0], "Acme");
    assert_eq!(&rows[1][2], "sent");
    assert_eq!(&rows[1][6], "");
    app.shutdown().await;
}

#[tokio::test]
async fn a_link_serves_its_languages_page_never_indexed_with_that_pages_canonical() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut document = default_document();
    document["languages"] = json!([language("de", "DE", "Entwicklerin", true)]);
    assert_eq!(save_draft(&app, &document).await.status(), 200);
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);

    let german = app
        .create_link(&json!({ "company": "Acme", "role": "Dev", "language": "DE" }))
        .await;
    assert_eq!(german["language"], "de");
    let english = app.create_link(&acme()).await;
    let base = app.address.clone();

    let (status, etag, robots, html) = page(&app, &format!("/a/{}", slug_of(&german))).await;
    let (_, de_etag, de_robots, de_html) = page(&app, "/de/").await;
    assert_eq!(status, 200);
    assert_eq!(robots.as_deref(), Some("noindex"));
    assert_eq!(de_robots, None);
    assert_eq!(html, de_html, "the German page's bytes");
    assert_eq!(etag, de_etag);
    assert!(html.contains(&format!(
        "<link rel=\"canonical\" href=\"{base}/de/\" class=\"u-url\" />"
    )));
    // The page's own policy, its compression and its conditional answer, as at /de/.
    let policy = |response: &reqwest::Response| {
        response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned()
    };
    let at_link = app.get(&format!("/a/{}", slug_of(&german))).await;
    let at_de = app.get("/de/").await;
    assert_eq!(policy(&at_link), policy(&at_de));
    let brotli = app
        .get_with(
            &format!("/a/{}", slug_of(&german)),
            &[("accept-encoding", "br")],
        )
        .await;
    assert_eq!(brotli.headers()["content-encoding"], "br");
    let fresh = app
        .get_with(
            &format!("/a/{}", slug_of(&german)),
            &[("if-none-match", etag.as_deref().unwrap())],
        )
        .await;
    assert_eq!(fresh.status(), 304);
    let head = app
        .client
        .head(app.url(&format!("/a/{}", slug_of(&german))))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["x-robots-tag"], "noindex");

    let (_, etag, robots, html) = page(&app, &format!("/a/{}", slug_of(&english))).await;
    let (_, home_etag, _, home) = page(&app, "/").await;
    assert_eq!(robots.as_deref(), Some("noindex"));
    assert_eq!(html, home);
    assert_eq!(etag, home_etag);
    assert!(html.contains(&format!(
        "<link rel=\"canonical\" href=\"{base}/\" class=\"u-url\" />"
    )));

    // German no longer published: its link serves `/`.
    document["languages"] = json!([]);
    assert_eq!(save_draft(&app, &document).await.status(), 200);
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    let (_, _, robots, html) = page(&app, &format!("/a/{}", slug_of(&german))).await;
    assert_eq!(robots.as_deref(), Some("noindex"));
    assert_eq!(html, page(&app, "/").await.3);
    // Nor can a new link name it.
    let response = app
        .post_json(
            "/api/links",
            &json!({ "company": "Acme", "role": "Dev", "language": "de" }),
        )
        .await;
    assert_eq!(response.status(), 422);

    // Without a slug, or with more after it: the ordinary 404.
    for path in ["/a", "/a/", &format!("/a/{}/more", slug_of(&english))] {
        let (status, _, robots, _) = page(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(robots.as_deref(), Some("noindex"), "{path}");
    }
    app.shutdown().await;
}

#[tokio::test]
async fn unknown_revoked_and_expired_links_serve_the_home_page_alike_and_count_nothing() {
    let app = spawn_app().await;
    app.signed_in().await;
    let revoked = app.create_link(&acme()).await;
    let expired = app.create_link(&acme()).await;
    for (link, change) in [
        (&revoked, json!({ "revoked": true })),
        (
            &expired,
            json!({ "expiresAt": portfolio::clock::now_ms() - 1000 }),
        ),
    ] {
        let path = format!("/api/links/{}", id_of(link));
        let response = app.send(Method::PATCH, &path, Some(&change)).await;
        assert_eq!(response.status(), 200);
    }
    let (_, home_etag, _, home) = page(&app, "/").await;
    let slugs = [
        slug_of(&revoked),
        slug_of(&expired),
        "acme-AAAAAAAAAAAAAAAA".to_owned(),
        "not-a-slug.png".to_owned(),
    ];
    for slug in &slugs {
        let (status, etag, robots, html) = page(&app, &format!("/a/{slug}")).await;
        assert_eq!(status, 200, "{slug}");
        assert_eq!(robots.as_deref(), Some("noindex"), "{slug}");
        assert_eq!(etag, home_etag, "{slug}");
        assert_eq!(html, home, "{slug}");
    }
    for slug in &slugs[..3] {
        for body in [
            open(slug),
            json!({ "slug": slug, "kind": "section", "section": "projects" }),
            json!({ "slug": slug, "kind": "click", "target": "project:shop:demo" }),
        ] {
            assert_eq!(app.link_visit(&body).await.status(), 204, "{body}");
        }
        let download = app
            .get_with(
                &format!("/resume.pdf?via={slug}"),
                &[("User-Agent", DESKTOP_UA)],
            )
            .await;
        assert_eq!(download.status(), 200);
    }
    assert_eq!(count(&app.sql, "application_link_counts").await, 0);
    assert_eq!(count(&app.sql, "application_link_seen").await, 0);
    for link in [&revoked, &expired] {
        let detail = app.link(id_of(link)).await;
        assert_eq!(detail["link"]["firstOpenedAt"], Value::Null);
        assert_eq!(detail["link"]["state"], "sent");
    }
    app.shutdown().await;
}

#[tokio::test]
async fn a_revoked_or_expired_link_answers_exactly_as_a_live_one_in_its_language() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut document = default_document();
    document["languages"] = json!([language("de", "DE", "Entwicklerin", true)]);
    assert_eq!(save_draft(&app, &document).await.status(), 200);
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    let german = || json!({ "company": "Acme", "role": "Dev", "language": "de" });
    let live = app.create_link(&german()).await;
    let revoked = app.create_link(&german()).await;
    let expired = app.create_link(&german()).await;
    for (link, change) in [
        (&revoked, json!({ "revoked": true })),
        (
            &expired,
            json!({ "expiresAt": portfolio::clock::now_ms() - 1000 }),
        ),
    ] {
        let path = format!("/api/links/{}", id_of(link));
        assert_eq!(
            app.send(Method::PATCH, &path, Some(&change)).await.status(),
            200
        );
    }

    let (status, etag, robots, html) = page(&app, &format!("/a/{}", slug_of(&live))).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("lang=\"de\""),
        "the live link's page is German"
    );
    for link in [&revoked, &expired] {
        let slug = slug_of(link);
        let answer = page(&app, &format!("/a/{slug}")).await;
        assert_eq!(
            answer,
            (status, etag.clone(), robots.clone(), html.clone()),
            "{slug}"
        );
        // Its beacons answer as a live link's do, and count nothing.
        for body in [
            open(&slug),
            json!({ "slug": slug, "kind": "section", "section": "projects" }),
        ] {
            assert_eq!(app.link_visit(&body).await.status(), 204, "{body}");
        }
    }
    assert_eq!(count(&app.sql, "application_link_counts").await, 0);
    for link in [&revoked, &expired] {
        let detail = app.link(id_of(link)).await;
        assert_eq!(detail["link"]["firstOpenedAt"], Value::Null);
    }
    app.shutdown().await;
}

#[tokio::test]
async fn preview_fetchers_headless_browsers_and_visitors_who_opt_out_count_nothing() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(|s| mail_to(s, smtp.url())).await;
    app.signed_in().await;
    let link = app.create_link(&acme()).await;
    let slug = slug_of(&link);
    for headers in [
        vec![(
            "User-Agent",
            "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        )],
        vec![(
            "User-Agent",
            "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
        )],
        vec![(
            "User-Agent",
            "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com",
        )],
        vec![("User-Agent", HEADLESS_UA)],
        vec![("User-Agent", DESKTOP_UA), ("DNT", "1")],
        vec![("User-Agent", DESKTOP_UA), ("Sec-GPC", "1")],
    ] {
        // The fetch of the page itself counts nothing, whoever makes it.
        let page = app.get_with(&format!("/a/{slug}"), &headers).await;
        assert_eq!(page.status(), 200);
        for body in [
            open(&slug),
            json!({ "slug": slug, "kind": "section", "section": "projects" }),
            json!({ "slug": slug, "kind": "click", "target": "project:shop:demo" }),
        ] {
            let response = app.link_visit_with(&body, &headers).await;
            assert_eq!(response.status(), 204, "{headers:?}");
        }
        let download = app
            .get_with(&format!("/resume.pdf?via={slug}"), &headers)
            .await;
        assert_eq!(download.status(), 200);
    }
    // A person's fetch of the page, without the page's beacon, counts nothing either.
    let person = app
        .get_with(&format!("/a/{slug}"), &[("User-Agent", DESKTOP_UA)])
        .await;
    assert_eq!(person.status(), 200);

    let detail = app.link(id_of(&link)).await;
    assert_eq!(detail["link"]["state"], "sent");
    assert_eq!(detail["link"]["firstOpenedAt"], Value::Null);
    assert_eq!(detail["link"]["lastActivityAt"], Value::Null);
    assert_eq!(detail["link"]["totals"]["opens"], 0);
    assert_eq!(detail["days"], json!([]));
    assert_eq!(count(&app.sql, "application_link_counts").await, 0);
    assert_eq!(count(&app.sql, "application_link_seen").await, 0);
    assert!(link_alerts(&app).await.is_empty());
    app.shutdown().await;
}

#[tokio::test]
async fn each_open_counts_and_a_visitor_sections_once_a_day() {
    let app = spawn_app().await;
    app.signed_in().await;
    let link = app.create_link(&acme()).await;
    let slug = slug_of(&link);
    for _ in 0..3 {
        assert_eq!(app.link_visit(&open(&slug)).await.status(), 204);
    }
    let phone = [("User-Agent", PHONE_UA)];
    assert_eq!(
        app.link_visit_with(&open(&slug), &phone).await.status(),
        204
    );
    let detail = app.link(id_of(&link)).await;
    assert_eq!(detail["link"]["totals"]["opens"], 4);
    assert_eq!(detail["link"]["totals"]["visitors"], 2);
    assert_eq!(detail["link"]["state"], "opened");
    assert!(detail["link"]["firstOpenedAt"].as_i64().is_some());
    // The first section says nothing more than the open.
    let section = |name: &str| json!({ "slug": slug, "kind": "section", "section": name });
    assert_eq!(app.link_visit(&section("home")).await.status(), 204);
    assert_eq!(app.link(id_of(&link)).await["link"]["state"], "opened");
    for _ in 0..2 {
        assert_eq!(app.link_visit(&section("projects")).await.status(), 204);
    }
    assert_eq!(
        app.link_visit_with(&section("projects"), &phone)
            .await
            .status(),
        204
    );
    for target in ["project:shop:demo", "project:shop:demo", "social:github"] {
        let click = json!({ "slug": slug, "kind": "click", "target": target });
        assert_eq!(app.link_visit(&click).await.status(), 204);
    }
    let detail = app.link(id_of(&link)).await;
    let totals = &detail["link"]["totals"];
    assert_eq!(totals["sections"], json!({ "home": 1, "projects": 2 }));
    assert_eq!(totals["projectClicks"], 2);
    assert_eq!(detail["link"]["state"], "engaged");
    let days = detail["days"].as_array().unwrap();
    assert_eq!(days.len(), 1);
    let today = &days[0];
    assert_eq!(today["opens"], 4);
    assert_eq!(today["visitors"], 2);
    assert_eq!(today["projectClicks"], 2);
    assert_eq!(
        today["clicks"],
        json!({ "project:shop:demo": 2, "social:github": 1 })
    );
    assert_eq!(today["sections"], json!({ "home": 1, "projects": 2 }));
    assert_eq!(today["day"].as_str().unwrap().len(), 10);
    assert!(
        detail["link"]["lastActivityAt"].as_i64().unwrap()
            >= detail["link"]["firstOpenedAt"].as_i64().unwrap()
    );

    // The most recently active first.
    let other = app.create_link(&acme()).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let list: Value = app.get("/api/links").await.json().await.unwrap();
    assert_eq!(
        id_of(&list["links"][0]),
        id_of(&other),
        "made after the activity"
    );
    assert_eq!(app.link_visit(&open(&slug)).await.status(), 204);
    let list: Value = app.get("/api/links").await.json().await.unwrap();
    assert_eq!(id_of(&list["links"][0]), id_of(&link));
    app.shutdown().await;
}

#[tokio::test]
async fn the_beacon_rejects_malformed_input_naming_the_field_and_is_rate_limited() {
    let app = spawn_app().await;
    for (body, field) in [
        (json!({ "kind": "open" }), "slug"),
        (json!({ "slug": "acme-x" }), "kind"),
        (json!({ "slug": "a b", "kind": "open" }), "slug"),
        (json!({ "slug": "a".repeat(65), "kind": "open" }), "slug"),
        (json!({ "slug": "acme-x", "kind": "hover" }), "kind"),
        (json!({ "slug": "acme-x", "kind": "click" }), "target"),
        (
            json!({ "slug": "acme-x", "kind": "click", "target": "=cmd()" }),
            "target",
        ),
        (json!({ "slug": "acme-x", "kind": "section" }), "section"),
        (
            json!({ "slug": "acme-x", "kind": "section", "section": "A B" }),
            "section",
        ),
        (
            json!({ "slug": "acme-x", "kind": "open", "target": "x" }),
            "target",
        ),
        (
            json!({ "slug": "acme-x", "kind": "open", "ip": "203.0.113.9" }),
            "ip",
        ),
    ] {
        let response = app.link_visit(&body).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        assert!(
            error["error"]["fields"][field].is_string(),
            "{body}: {error}"
        );
    }
    let huge = json!({ "slug": "acme-x", "kind": "open", "pad": "x".repeat(3000) });
    assert_eq!(app.link_visit(&huge).await.status(), 413);
    let cross_site = reqwest::Client::new()
        .post(app.url("/api/links/visits"))
        .header("Sec-Fetch-Site", "cross-site")
        .json(&open("acme-x"))
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    // The network's beacons are limited, together with the insights' beacon.
    let mut limited = None;
    for _ in 0..40 {
        let response = app.link_visit(&open("acme-x")).await;
        if response.status() == 429 {
            limited = Some(response);
            break;
        }
        assert_eq!(response.status(), 204);
    }
    let limited = limited.expect("limited within 40 events");
    assert!(limited.headers().contains_key("retry-after"));
    let insights = app.beacon(&json!({ "kind": "view" })).await;
    assert_eq!(insights.status(), 429);
    app.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_first_open_is_alerted_once_by_e_mail_and_webhook_even_when_opens_race() {
    let smtp = TestSmtp::start().await;
    let receiver = Receiver::start().await;
    let app = spawn_app_with(|s| {
        mail_to(s, smtp.url());
        webhook_to(s, &receiver.url);
    })
    .await;
    app.signed_in().await;
    let link = app.create_link(&acme()).await;
    let quiet = app
        .create_link(&json!({ "company": "Quiet", "role": "Dev", "alerts": { "open": false } }))
        .await;
    let slug = slug_of(&link);
    let opens = (0..10).map(|n| {
        let (slug, url, address) = (
            slug.clone(),
            app.url("/api/links/visits"),
            app.address.clone(),
        );
        async move {
            from(&format!("127.0.0.{}", n + 2))
                .post(url)
                .header("Origin", address)
                .header("Sec-Fetch-Site", "same-origin")
                .header("User-Agent", DESKTOP_UA)
                .json(&open(&slug))
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    for status in futures_util::future::join_all(opens).await {
        assert_eq!(status, 204);
    }
    assert_eq!(app.link_visit(&open(&slug_of(&quiet))).await.status(), 204);
    let detail = app.link(id_of(&link)).await;
    assert_eq!(detail["link"]["totals"]["opens"], 10);
    assert_eq!(detail["link"]["totals"]["visitors"], 10);

    let mut alerts = link_alerts(&app).await;
    alerts.sort();
    assert_eq!(alerts.len(), 2, "one per channel: {alerts:?}");
    assert!(alerts.iter().all(|(event, _)| event == "open"));

    wait_for_alert_mails(&smtp, 1).await;
    eventually("the webhook gets the alert", || async {
        (!receiver.posts().is_empty()).then_some(())
    })
    .await;
    // The workers keep running a while: a second alert would show up now.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mails = alert_mails(&smtp);
    assert_eq!(mails.len(), 1, "one e-mail: {mails:?}");
    let (subject, body) = mails[0].clone();
    assert_eq!(subject, "Application link opened: Acme, Frontend Developer");
    assert!(body.contains(&format!("/a/{slug}")), "{body}");
    let bodies = receiver.verified_bodies();
    assert_eq!(bodies.len(), 1, "{bodies:?}");
    assert_eq!(bodies[0]["type"], "application_link");
    assert_eq!(bodies[0]["event"], "open");
    assert_eq!(bodies[0]["link"]["company"], "Acme");
    assert_eq!(bodies[0]["link"]["role"], "Frontend Developer");
    assert_eq!(bodies[0]["link"]["path"], format!("/a/{slug}"));
    assert!(bodies[0]["at"].as_str().unwrap().ends_with('Z'));
    // Nothing about the visitor.
    let text = bodies[0].to_string();
    for visitor in ["127.0.0", "Chrome", "Linux"] {
        assert!(!text.contains(visitor), "{text}");
        assert!(!body.contains(visitor), "{body}");
    }
    app.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_second_instance_on_the_same_postgres_sees_the_same_counts_and_sends_no_second_alert() {
    let Some(url) = postgres_only_database().await else {
        return;
    };
    let smtp = TestSmtp::start().await;
    let configure = |s: &mut portfolio::config::Settings| mail_to(s, smtp.url());
    let a = Spawn::new().database(url.clone()).settings(configure).await;
    let b = Spawn::new().database(url.clone()).settings(configure).await;
    a.signed_in().await;
    let mut document = default_document();
    document["languages"] = json!([language("de", "DE", "Entwicklerin", true)]);
    assert_eq!(save_draft(&a, &document).await.status(), 200);
    assert_eq!(
        a.send(Method::POST, "/api/content/publish", None)
            .await
            .status(),
        200
    );
    let link = a
        .create_link(&json!({ "company": "Acme", "role": "Dev", "language": "de" }))
        .await;
    let slug = slug_of(&link);
    // The other instance serves the link's page within a few seconds.
    eventually("the second instance serves the link", || async {
        let html = b.get(&format!("/a/{slug}")).await.text().await.unwrap();
        html.contains("<html lang=\"de\"").then_some(())
    })
    .await;

    let opens = (0..8).map(|n| {
        let app = if n % 2 == 0 { &a } else { &b };
        let (url, address, slug) = (
            app.url("/api/links/visits"),
            app.address.clone(),
            slug.clone(),
        );
        async move {
            from(&format!("127.0.0.{}", n + 2))
                .post(url)
                .header("Origin", address)
                .header("Sec-Fetch-Site", "same-origin")
                .header("User-Agent", DESKTOP_UA)
                .json(&open(&slug))
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    for status in futures_util::future::join_all(opens).await {
        assert_eq!(status, 204);
    }
    assert_eq!(
        b.sign_in(crate::helpers::EMAIL, crate::helpers::PASSWORD)
            .await
            .status(),
        200
    );
    let on_a = a.link(id_of(&link)).await;
    let on_b = b.link(id_of(&link)).await;
    assert_eq!(on_a, on_b);
    assert_eq!(on_a["link"]["totals"]["opens"], 8);
    assert_eq!(on_a["link"]["totals"]["visitors"], 8);
    assert_eq!(
        link_alerts(&a).await,
        [("open".to_owned(), "email".to_owned())]
    );
    wait_for_alert_mails(&smtp, 1).await;
    // Both outbox workers keep running a while: a second e-mail would show up now.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(alert_mails(&smtp).len(), 1);
    // A link revoked on one instance counts nothing on the other.
    let revoked = a
        .send(
            Method::PATCH,
            &format!("/api/links/{}", id_of(&link)),
            Some(&json!({ "revoked": true })),
        )
        .await;
    assert_eq!(revoked.status(), 200);
    assert_eq!(b.link_visit(&open(&slug)).await.status(), 204);
    assert_eq!(b.link(id_of(&link)).await["link"]["totals"]["opens"], 8);
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test]
async fn a_resume_download_through_a_link_is_counted_and_alerted_once_a_day() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(|s| mail_to(s, smtp.url())).await;
    app.signed_in().await;
    let link = app.create_link(&acme()).await;
    let slug = slug_of(&link);
    let plain = app
        .get_with("/resume.pdf", &[("User-Agent", DESKTOP_UA)])
        .await
        .bytes()
        .await
        .unwrap();
    for _ in 0..2 {
        let response = app
            .get_with(
                &format!("/resume.pdf?via={slug}"),
                &[("User-Agent", DESKTOP_UA)],
            )
            .await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "application/pdf");
        assert_eq!(response.bytes().await.unwrap(), plain, "the file as ever");
    }
    // A HEAD request sends no file, and a made-up link changes nothing of the answer.
    let head = app
        .client
        .head(app.url(&format!("/resume.pdf?via={slug}")))
        .header("User-Agent", DESKTOP_UA)
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    for via in ["nope", "a%20b", &"x".repeat(200)] {
        let response = app
            .get_with(
                &format!("/resume.pdf?via={via}"),
                &[("User-Agent", DESKTOP_UA)],
            )
            .await;
        assert_eq!(response.status(), 200, "{via}");
    }
    let detail = app.link(id_of(&link)).await;
    assert_eq!(detail["link"]["totals"]["resumeDownloads"], 2);
    assert_eq!(detail["link"]["state"], "engaged");
    assert!(detail["link"]["lastActivityAt"].as_i64().is_some());
    assert_eq!(detail["link"]["firstOpenedAt"], Value::Null);
    assert_eq!(
        link_alerts(&app).await,
        [("resume".to_owned(), "email".to_owned())]
    );
    let mails = wait_for_alert_mails(&smtp, 1).await;
    assert_eq!(
        mails[0].0,
        "Resume downloaded through your link: Acme, Frontend Developer"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn a_message_through_a_link_is_stored_with_it_and_the_inbox_shows_it() {
    let app = spawn_app().await;
    app.signed_in().await;
    let link = app.create_link(&acme()).await;
    let slug = slug_of(&link);
    let mut form = valid_form();
    form["link"] = json!(slug);
    let response = post_contact(&app, &form).await;
    assert_eq!(response.status(), 201);
    let id = response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    let stored: Option<i64> =
        sqlx::query_scalar("SELECT link_id FROM contact_messages WHERE id = $1")
            .bind(id)
            .fetch_one(&app.sql)
            .await
            .unwrap();
    assert_eq!(stored, Some(id_of(&link)));

    let via = json!({ "id": id_of(&link), "company": "Acme", "role": "Frontend Developer" });
    let page = app.messages("").await;
    assert_eq!(page["messages"][0]["via"], via);
    let message: Value = app
        .get(&format!("/api/messages/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(message["via"], via);
    let detail = app.link(id_of(&link)).await;
    assert_eq!(detail["link"]["totals"]["messages"], 1);
    assert_eq!(detail["link"]["state"], "wrote");
    assert_eq!(detail["days"][0]["messages"], 1);

    // The export names the link in a column of its own.
    let csv = app
        .get("/api/messages/export?format=csv")
        .await
        .text()
        .await
        .unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(reader.headers().unwrap().iter().next_back(), Some("via"));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(&rows[0][6], "Acme, Frontend Developer");

    // A message without a link has none; a deleted link leaves its messages.
    let plain = post_contact(&app, &valid_form()).await;
    assert_eq!(plain.status(), 201);
    assert_eq!(app.messages("").await["messages"][0]["via"], Value::Null);
    let path = format!("/api/links/{}", id_of(&link));
    assert_eq!(app.send(Method::DELETE, &path, None).await.status(), 204);
    let message: Value = app
        .get(&format!("/api/messages/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(message["via"], Value::Null);
    assert_eq!(message["name"], "Ada Lovelace");
    assert_eq!(count(&app.sql, "application_link_counts").await, 0);
    app.shutdown().await;
}

#[tokio::test]
async fn a_message_is_stored_without_its_link_for_dnt_gpc_and_any_link_that_is_not_live() {
    let app = spawn_app_with(|s| {
        s.limits.contact_per_minute = 100;
        s.limits.contact_per_hour = 100;
    })
    .await;
    app.signed_in().await;
    let link = app.create_link(&acme()).await;
    let slug = slug_of(&link);
    let with_link = |value: Value| {
        let mut form = valid_form();
        form["link"] = value;
        form
    };
    for (headers, value) in [
        (vec![("DNT", "1")], json!(slug)),
        (vec![("Sec-GPC", "1")], json!(slug)),
        (vec![], json!("acme-AAAAAAAAAAAAAAAA")),
        (vec![], json!("not a slug")),
        (vec![], json!("x".repeat(300))),
        (vec![], Value::Null),
    ] {
        let body = crate::contact::as_person(&app, &with_link(value.clone())).await;
        let mut request = app
            .client
            .post(app.url("/api/contact"))
            .header("Origin", &app.address)
            .header("Sec-Fetch-Site", "same-origin")
            .json(&body);
        for (name, value) in &headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 201, "{headers:?} {value}");
    }
    let linked: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM contact_messages WHERE link_id IS NOT NULL")
            .fetch_one(&app.sql)
            .await
            .unwrap();
    assert_eq!(linked, 0);
    assert_eq!(count(&app.sql, "contact_messages").await, 6);
    assert_eq!(
        app.link(id_of(&link)).await["link"]["totals"]["messages"],
        0
    );
    // Nor through a revoked link.
    let path = format!("/api/links/{}", id_of(&link));
    let revoked = app
        .send(Method::PATCH, &path, Some(&json!({ "revoked": true })))
        .await;
    assert_eq!(revoked.status(), 200);
    assert_eq!(
        post_contact(&app, &with_link(json!(slug))).await.status(),
        201
    );
    assert_eq!(app.messages("").await["messages"][0]["via"], Value::Null);
    app.shutdown().await;
}

#[tokio::test]
async fn no_address_or_user_agent_is_stored_after_visits_through_a_link() {
    const ADDRESS: &str = "203.0.113.77";
    const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 UniqueBrowserMark/7";
    let app = spawn_app_with(|s| s.trust_proxy = true).await;
    app.signed_in().await;
    let link = app.create_link(&acme()).await;
    let slug = slug_of(&link);
    let headers = [("User-Agent", BROWSER), ("X-Forwarded-For", ADDRESS)];
    assert_eq!(
        app.get_with(&format!("/a/{slug}"), &headers).await.status(),
        200
    );
    for body in [
        open(&slug),
        json!({ "slug": slug, "kind": "section", "section": "projects" }),
        json!({ "slug": slug, "kind": "click", "target": "project:shop:demo" }),
    ] {
        assert_eq!(app.link_visit_with(&body, &headers).await.status(), 204);
    }
    let download = app
        .get_with(&format!("/resume.pdf?via={slug}"), &headers)
        .await;
    assert_eq!(download.status(), 200);
    let detail = app.link(id_of(&link)).await;
    assert_eq!(detail["link"]["totals"]["visitors"], 1);
    assert_eq!(detail["link"]["totals"]["resumeDownloads"], 1);
    assert_eq!(count(&app.sql, "application_link_seen").await, 2);

    // A backup holds the counts but not the day's seen-hashes; nor does db copy's dump.
    let backup = app.data_path().join("backup.db");
    app.db.snapshot_into(&backup).await.unwrap();
    let snapshot = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&backup))
        .await
        .unwrap();
    for (table, expected) in [
        ("application_links", 1),
        ("application_link_counts", 5),
        ("application_link_seen", 0),
    ] {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&snapshot)
            .await
            .unwrap();
        assert_eq!(n, expected, "{table} in the backup");
    }
    snapshot.close().await;
    let dump = app.db.dump().await.unwrap();
    assert_eq!(dump.application_links.len(), 1);
    assert_eq!(dump.application_link_counts.len(), 5);

    let database_url = app.database_url.clone();
    let sql = app.sql.clone();
    let dir = app.shutdown_keeping_data().await;
    if on_postgres() {
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'",
        )
        .fetch_all(&sql)
        .await
        .unwrap();
        for table in tables {
            let rows: Vec<String> =
                sqlx::query_scalar(&format!("SELECT CAST(t AS TEXT) FROM \"{table}\" t"))
                    .fetch_all(&sql)
                    .await
                    .unwrap();
            for row in rows {
                assert!(!row.contains(ADDRESS), "{table}: {row}");
                assert!(!row.contains("UniqueBrowserMark"), "{table}: {row}");
            }
        }
    } else {
        let path = database_url.trim_start_matches("sqlite://");
        let mut searched = 0;
        for suffix in ["", "-wal", "-shm"] {
            if let Ok(bytes) = std::fs::read(format!("{path}{suffix}")) {
                searched += bytes.len();
                let text = String::from_utf8_lossy(&bytes);
                assert!(!text.contains(ADDRESS), "the address is in {path}{suffix}");
                assert!(
                    !text.contains("UniqueBrowserMark"),
                    "the User-Agent is in {path}{suffix}"
                );
            }
        }
        assert!(searched > 0);
    }
    drop(dir);
}

#[tokio::test]
async fn the_days_seen_hashes_go_with_the_day_and_the_counts_stay() {
    let app = spawn_app().await;
    app.signed_in().await;
    let link = app.create_link(&acme()).await;
    let slug = slug_of(&link);
    assert_eq!(app.link_visit(&open(&slug)).await.status(), 204);
    let section = json!({ "slug": slug, "kind": "section", "section": "projects" });
    assert_eq!(app.link_visit(&section).await.status(), 204);
    assert_eq!(count(&app.sql, "application_link_seen").await, 2);
    let database_url = app.database_url.clone();
    let sql = app.sql.clone();
    let dir = app.shutdown_keeping_data().await;

    // Tomorrow, on another instance of the same database.
    let tomorrow = Spawn::new()
        .data_dir(dir)
        .database(database_url)
        .settings(|s| s.clock.clock_offset = DAY_SECS)
        .await;
    tomorrow.signed_in().await;
    eventually("yesterday's seen-hashes are deleted", || async {
        (count(&sql, "application_link_seen").await == 0).then_some(())
    })
    .await;
    let detail = tomorrow.link(id_of(&link)).await;
    assert_eq!(detail["link"]["totals"]["visitors"], 1);
    assert_eq!(detail["days"].as_array().unwrap().len(), 1);
    // The same visitor is a visitor again today, and sees the section again.
    assert_eq!(tomorrow.link_visit(&open(&slug)).await.status(), 204);
    assert_eq!(tomorrow.link_visit(&section).await.status(), 204);
    let detail = tomorrow.link(id_of(&link)).await;
    assert_eq!(detail["link"]["totals"]["visitors"], 2);
    assert_eq!(detail["link"]["totals"]["sections"]["projects"], 2);
    assert_eq!(detail["days"].as_array().unwrap().len(), 2);
    tomorrow.shutdown().await;
}

#[tokio::test]
async fn the_openapi_document_describes_the_links() {
    let app = spawn_app().await;
    let document: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let paths = &document["paths"];
    for (path, method) in [
        ("/api/links", "get"),
        ("/api/links", "post"),
        ("/api/links/{id}", "get"),
        ("/api/links/{id}", "patch"),
        ("/api/links/{id}", "delete"),
        ("/api/links.csv", "get"),
        ("/api/links/visits", "post"),
    ] {
        assert!(paths[path][method].is_object(), "{method} {path}");
    }
    let contact = &document["components"]["schemas"]["ContactRequest"]["properties"];
    assert!(contact["link"].is_object());
    let message = &document["components"]["schemas"]["Message"]["properties"];
    assert!(message["via"].is_object());
    app.shutdown().await;
}
