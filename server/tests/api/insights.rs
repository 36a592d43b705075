//! Visitor insights: the beacon `POST /api/insights/events`, `/resume.pdf` downloads, the owner's
//! figures and export, the day's salt and seen-hashes, and no client address anywhere.

use serde_json::{json, Value};

use crate::contact::{count, post_contact, valid_form};
use crate::helpers::{from, on_postgres, spawn_app, spawn_app_with, Spawn, DESKTOP_UA, PHONE_UA};

const DAY_SECS: i64 = 24 * 60 * 60;

fn view() -> Value {
    json!({ "kind": "view" })
}

fn today(figures: &Value) -> &Value {
    figures["days"].as_array().unwrap().last().unwrap()
}

fn keys(list: &Value) -> Vec<(String, i64)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["key"].as_str().unwrap().to_owned(),
                k["count"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn three_views_by_one_visitor_are_one_visitor_and_another_browser_is_another() {
    let app = spawn_app().await;
    app.signed_in().await;
    for _ in 0..3 {
        assert_eq!(app.beacon(&view()).await.status(), 204);
    }
    let figures = app.figures(7).await;
    assert_eq!(figures["days"].as_array().unwrap().len(), 7);
    assert_eq!(today(&figures)["pageViews"], 3);
    assert_eq!(today(&figures)["visitors"], 1);

    let phone = [("User-Agent", PHONE_UA)];
    assert_eq!(app.beacon_with(&view(), &phone).await.status(), 204);
    let figures = app.figures(7).await;
    assert_eq!(today(&figures)["pageViews"], 4);
    assert_eq!(today(&figures)["visitors"], 2);
    assert_eq!(
        keys(&figures["devices"]),
        [("desktop".to_owned(), 3), ("phone".to_owned(), 1)]
    );
    assert_eq!(
        keys(&figures["browsers"]),
        [("Chrome".to_owned(), 3), ("Safari".to_owned(), 1)]
    );
    app.shutdown().await;
}

#[tokio::test]
async fn referrers_campaigns_and_clicks_are_counted_by_host_and_content_id() {
    let app = spawn_app().await;
    app.signed_in().await;
    let from_linkedin = json!({
        "kind": "view",
        "referrer": "https://www.linkedin.com/in/someone?trk=secret-token",
        "utmSource": "LinkedIn",
        "utmMedium": "social",
        "utmCampaign": "x".repeat(500),
    });
    assert_eq!(app.beacon(&from_linkedin).await.status(), 204);
    // Our own pages are not a referrer.
    let own = json!({ "kind": "view", "referrer": format!("{}/#projects", app.address) });
    assert_eq!(app.beacon(&own).await.status(), 204);
    for target in ["project:shop:code", "project:shop:code", "social:github"] {
        let click = json!({ "kind": "click", "target": target });
        assert_eq!(app.beacon(&click).await.status(), 204);
    }
    let figures = app.figures(30).await;
    assert_eq!(
        keys(&figures["referrers"]),
        [("linkedin.com".to_owned(), 1)]
    );
    let campaign = format!("linkedin / social / {}", "x".repeat(100));
    assert_eq!(keys(&figures["campaigns"]), [(campaign, 1)]);
    assert_eq!(
        keys(&figures["clicks"]),
        [
            ("project:shop:code".to_owned(), 2),
            ("social:github".to_owned(), 1)
        ]
    );
    assert_eq!(today(&figures)["pageViews"], 2);
    app.shutdown().await;
}

#[tokio::test]
async fn a_day_keeps_at_most_100_referrers_and_counts_the_rest_as_other() {
    let app = spawn_app().await;
    app.signed_in().await;
    // Each view from a network of its own, so that the per-network limits stay out of the way.
    let view_from = |n: usize, host: String| {
        let body = json!({ "kind": "view", "referrer": format!("https://{host}/") });
        let app = &app;
        async move {
            let local = format!("127.0.1.{}", n + 1);
            let response = app.beacon_from(&local, &body, DESKTOP_UA).await;
            assert_eq!(response.status(), 204);
        }
    };
    for n in 0..105 {
        view_from(n, format!("site-{n}.example")).await;
    }
    // A host among the first hundred is still counted as itself after the day is full.
    for n in 105..110 {
        view_from(n, "site-0.example".to_owned()).await;
    }
    let figures = app.figures(7).await;
    let referrers = keys(&figures["referrers"]);
    assert_eq!(
        referrers[0],
        ("site-0.example".to_owned(), 6),
        "{referrers:?}"
    );
    // 105 hosts: 100 kept as themselves (which ones, when they arrive in one batch, is the
    // batch's order), the other 5 counted together.
    assert_eq!(referrers[1], ("(other)".to_owned(), 5), "{referrers:?}");
    assert_eq!(today(&figures)["pageViews"], 110);
    app.shutdown().await;
}

#[tokio::test]
async fn the_beacon_rejects_malformed_and_oversized_input_naming_the_field() {
    let app = spawn_app().await;
    for (body, field) in [
        (json!({ "kind": "hover" }), "kind"),
        (json!({}), "kind"),
        (json!({ "kind": "click" }), "target"),
        (
            json!({ "kind": "click", "target": "=HYPERLINK(\"x\")" }),
            "target",
        ),
        (
            json!({ "kind": "click", "target": "a".repeat(65) }),
            "target",
        ),
        (
            json!({ "kind": "view", "target": "social:github" }),
            "target",
        ),
        (json!({ "kind": "view", "referrer": 5 }), "referrer"),
        (json!({ "kind": "view", "ip": "203.0.113.9" }), "ip"),
    ] {
        let response = app.beacon(&body).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], "validation_failed");
        assert!(
            error["error"]["fields"][field].is_string(),
            "{body}: {error}"
        );
    }
    let huge = json!({ "kind": "view", "referrer": "x".repeat(3000) });
    let response = app.beacon(&huge).await;
    assert_eq!(response.status(), 413);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["error"]["code"], "payload_too_large");

    let broken = app
        .client
        .post(app.url("/api/insights/events"))
        .header("Sec-Fetch-Site", "same-origin")
        .header("Content-Type", "application/json")
        .body("{\"kind\":")
        .send()
        .await
        .unwrap();
    assert_eq!(broken.status(), 400);
    let cross_site = app
        .client
        .post(app.url("/api/insights/events"))
        .header("Sec-Fetch-Site", "cross-site")
        .json(&view())
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    app.shutdown().await;
}

#[tokio::test]
async fn bots_headless_browsers_and_visitors_who_opt_out_are_not_counted() {
    let app = spawn_app().await;
    app.signed_in().await;
    for headers in [
        vec![(
            "User-Agent",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        )],
        vec![("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.0.0 Safari/537.36")],
        vec![("User-Agent", "curl/8.5.0")],
        vec![("User-Agent", DESKTOP_UA), ("DNT", "1")],
        vec![("User-Agent", DESKTOP_UA), ("Sec-GPC", "1")],
    ] {
        let response = app.beacon_with(&view(), &headers).await;
        assert_eq!(response.status(), 204, "{headers:?}");
        let download = app.get_with("/resume.pdf", &headers).await;
        assert_eq!(download.status(), 200);
    }
    let figures = app.figures(7).await;
    assert_eq!(figures["totals"]["pageViews"], 0);
    assert_eq!(figures["totals"]["visitors"], 0);
    assert_eq!(figures["totals"]["resumeDownloads"], 0);
    assert_eq!(count(&app.sql, "insights_seen").await, 0);
    app.shutdown().await;
}

#[tokio::test]
async fn a_resume_download_is_counted_when_the_server_sends_it() {
    let app = spawn_app().await;
    app.signed_in().await;
    let ua = [("User-Agent", DESKTOP_UA)];
    let response = app.get_with("/resume.pdf", &ua).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "application/pdf"
    );
    assert!(response.bytes().await.unwrap().starts_with(b"%PDF"));
    // A HEAD request sends no file.
    let head = app
        .client
        .head(app.url("/resume.pdf"))
        .header("User-Agent", DESKTOP_UA)
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    let figures = app.figures(7).await;
    assert_eq!(today(&figures)["resumeDownloads"], 1);
    assert_eq!(figures["totals"]["resumeDownloads"], 1);
    app.shutdown().await;
}

#[tokio::test]
async fn messages_per_100_visitors_come_from_the_real_messages() {
    let app = spawn_app().await;
    app.signed_in().await;
    assert_eq!(
        app.figures(7).await["totals"]["messagesPer100Visitors"],
        Value::Null
    );
    for ua in [DESKTOP_UA, PHONE_UA] {
        assert_eq!(
            app.beacon_with(&view(), &[("User-Agent", ua)])
                .await
                .status(),
            204
        );
    }
    assert_eq!(post_contact(&app, &valid_form()).await.status(), 201);
    let figures = app.figures(7).await;
    assert_eq!(today(&figures)["messages"], 1);
    assert_eq!(figures["totals"]["messages"], 1);
    assert_eq!(figures["totals"]["messagesPer100Visitors"], 50.0);
    app.shutdown().await;
}

#[tokio::test]
async fn the_beacon_is_rate_limited_per_network() {
    let app = spawn_app().await;
    let mut limited = None;
    for _ in 0..40 {
        let response = app.beacon(&view()).await;
        if response.status() == 429 {
            limited = Some(response);
            break;
        }
        assert_eq!(response.status(), 204);
    }
    let limited = limited.expect("the beacon is limited within 40 events");
    assert!(limited.headers().contains_key("retry-after"));
    let error: Value = limited.json().await.unwrap();
    assert_eq!(error["error"]["code"], "too_many_requests");
    // Another browser on the same network is held up too; another network is not.
    let phone = [("User-Agent", PHONE_UA)];
    assert_eq!(app.beacon_with(&view(), &phone).await.status(), 429);
    let other = app.beacon_from("127.0.0.2", &view(), PHONE_UA).await;
    assert_eq!(other.status(), 204);
    app.shutdown().await;
}

#[tokio::test]
async fn beacons_with_a_new_user_agent_each_from_one_network_count_at_most_its_visitors() {
    let app = spawn_app().await;
    app.signed_in().await;
    let (mut accepted, mut refused) = (0, 0);
    for n in 0..100 {
        let ua = [("User-Agent", format!("{DESKTOP_UA} build/{n}"))];
        let ua = [(ua[0].0, ua[0].1.as_str())];
        match app.beacon_with(&view(), &ua).await.status().as_u16() {
            204 => accepted += 1,
            429 => refused += 1,
            other => panic!("answered {other}"),
        }
    }
    assert_eq!((accepted, refused), (30, 70), "a burst of 30 a network");
    let figures = app.figures(7).await;
    // Every accepted beacon is a page view; only the network's first 20 browsers are visitors.
    assert_eq!(today(&figures)["pageViews"], 30);
    assert_eq!(today(&figures)["visitors"], 20);
    // A visitor already counted is still counted as itself; another network is counted.
    let first = format!("{DESKTOP_UA} build/0");
    let again = app.beacon_from("127.0.0.2", &view(), &first).await;
    assert_eq!(again.status(), 204);
    let figures = app.figures(7).await;
    assert_eq!(today(&figures)["visitors"], 21);
    assert_eq!(count(&app.sql, "insights_seen").await, 21);
    app.shutdown().await;
}

#[tokio::test]
async fn fake_referrers_from_one_network_do_not_push_real_ones_out_of_the_top() {
    let app = spawn_app().await;
    app.signed_in().await;
    for n in 0..100 {
        let fake = json!({ "kind": "view", "referrer": format!("https://fake-{n}.example/") });
        let ua = format!("{DESKTOP_UA} build/{n}");
        let status = app
            .beacon_with(&fake, &[("User-Agent", ua.as_str())])
            .await
            .status();
        assert!(status == 204 || status == 429, "{status}");
    }
    // Three real visitors, each from a network of its own, after the flood.
    let real = json!({ "kind": "view", "referrer": "https://www.linkedin.com/feed/" });
    for local in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
        let response = app.beacon_from(local, &real, DESKTOP_UA).await;
        assert_eq!(response.status(), 204);
    }
    let referrers = keys(&app.figures(7).await["referrers"]);
    assert_eq!(
        referrers[0],
        ("linkedin.com".to_owned(), 3),
        "{referrers:?}"
    );
    let fakes = referrers
        .iter()
        .filter(|(key, _)| key.starts_with("fake-"))
        .count();
    assert_eq!(
        fakes, 19,
        "20 hosts of one network, the top 20 shown: {referrers:?}"
    );
    let stored: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM insights_counts WHERE kind = 'referrer' AND key LIKE 'fake-%'",
    )
    .fetch_one(&app.sql)
    .await
    .unwrap();
    assert_eq!(stored, 20, "one network adds at most 20 referrers a day");
    assert!(
        !referrers.iter().any(|(key, _)| key == "(other)"),
        "{referrers:?}"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn resume_downloads_from_one_network_are_counted_at_most_its_allowance() {
    let app = spawn_app_with(|s| s.insights.downloads_per_network = 3).await;
    app.signed_in().await;
    let ua = [("User-Agent", DESKTOP_UA)];
    for _ in 0..6 {
        assert_eq!(app.get_with("/resume.pdf", &ua).await.status(), 200);
    }
    assert_eq!(today(&app.figures(7).await)["resumeDownloads"], 3);
    let other = from("127.0.0.2")
        .get(app.url("/resume.pdf"))
        .header("User-Agent", DESKTOP_UA)
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 200);
    assert_eq!(today(&app.figures(7).await)["resumeDownloads"], 4);
    app.shutdown().await;
}

#[tokio::test]
async fn the_owners_figures_and_export_need_a_session_and_a_known_range() {
    let app = spawn_app().await;
    assert_eq!(app.get("/api/insights").await.status(), 401);
    assert_eq!(app.get("/api/insights/export?days=7").await.status(), 401);
    app.signed_in().await;
    for query in ["days=8", "days=week", "range=7"] {
        let response = app.get(&format!("/api/insights?{query}")).await;
        assert_eq!(response.status(), 422, "{query}");
        let error: Value = response.json().await.unwrap();
        let field = query.split('=').next().unwrap();
        assert!(error["error"]["fields"][field].is_string(), "{error}");
    }
    assert_eq!(app.beacon(&view()).await.status(), 204);
    let response = app.get("/api/insights/export?days=30").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"insights-"));
    let csv = response.text().await.unwrap();
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines[0],
        "day,visitors,page_views,resume_downloads,messages"
    );
    assert_eq!(lines.len(), 31);
    assert!(lines[30].ends_with(",1,1,0,0"), "{}", lines[30]);
    app.shutdown().await;
}

#[tokio::test]
async fn with_insights_off_nothing_is_counted() {
    let app = spawn_app_with(|s| s.insights.enabled = false).await;
    app.signed_in().await;
    assert_eq!(app.beacon(&view()).await.status(), 204);
    let ua = [("User-Agent", DESKTOP_UA)];
    assert_eq!(app.get_with("/resume.pdf", &ua).await.status(), 200);
    let figures = app.figures(7).await;
    assert_eq!(figures["enabled"], false);
    assert_eq!(figures["totals"]["pageViews"], 0);
    assert_eq!(figures["totals"]["resumeDownloads"], 0);
    assert_eq!(count(&app.sql, "insights_salts").await, 0);
    app.shutdown().await;
}

#[tokio::test]
async fn after_the_day_rolls_over_the_salt_and_seen_hashes_are_gone_and_the_aggregates_remain() {
    let app = spawn_app().await;
    app.signed_in().await;
    assert_eq!(app.beacon(&view()).await.status(), 204);
    assert_eq!(today(&app.figures(7).await)["visitors"], 1);
    assert_eq!(count(&app.sql, "insights_salts").await, 1);
    assert_eq!(count(&app.sql, "insights_seen").await, 1);
    // The last counts are written at shutdown.
    assert_eq!(app.beacon(&view()).await.status(), 204);
    let database_url = app.database_url.clone();
    let sql = app.sql.clone();
    let old_dir = app.shutdown_keeping_data().await;

    // Tomorrow, on another instance of the same database.
    let tomorrow = Spawn::new()
        .data_dir(old_dir)
        .database(database_url)
        .settings(|s| {
            s.clock.clock_offset = DAY_SECS;
        })
        .await;
    tomorrow.signed_in().await;
    let figures = tomorrow.figures(7).await;
    let days = figures["days"].as_array().unwrap();
    assert_eq!(days[5]["pageViews"], 2, "{figures}");
    assert_eq!(days[5]["visitors"], 1);
    assert_eq!(days[6]["pageViews"], 0);
    let yesterday = days[5]["day"].as_str().unwrap().to_owned();
    for table in ["insights_salts", "insights_seen"] {
        let left: i64 =
            sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE day <= $1"))
                .bind(&yesterday)
                .fetch_one(&sql)
                .await
                .unwrap();
        assert_eq!(left, 0, "{table} still holds yesterday");
    }
    assert_eq!(count(&sql, "insights_seen").await, 0);
    // A visit today is a new visitor, under today's salt.
    assert_eq!(tomorrow.beacon(&view()).await.status(), 204);
    assert_eq!(today(&tomorrow.figures(7).await)["visitors"], 1);
    assert_eq!(count(&sql, "insights_salts").await, 1);
    assert_eq!(count(&sql, "insights_seen").await, 1);
    tomorrow.shutdown().await;
}

#[tokio::test]
async fn no_client_address_is_stored_and_backups_hold_no_salt() {
    const ADDRESS: &str = "203.0.113.77";
    let app = spawn_app_with(|s| s.trust_proxy = true).await;
    app.signed_in().await;
    let headers = [("User-Agent", DESKTOP_UA), ("X-Forwarded-For", ADDRESS)];
    assert_eq!(app.beacon_with(&view(), &headers).await.status(), 204);
    assert_eq!(app.get_with("/resume.pdf", &headers).await.status(), 200);
    let click = json!({ "kind": "click", "target": "social:github" });
    assert_eq!(app.beacon_with(&click, &headers).await.status(), 204);
    assert_eq!(today(&app.figures(7).await)["visitors"], 1);

    // A backup holds the aggregates but not the day's salt and seen-hashes.
    let backup = app.data_path().join("backup.db");
    app.db.snapshot_into(&backup).await.unwrap();
    let snapshot = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&backup))
        .await
        .unwrap();
    for (table, expected) in [
        ("insights_daily", 1),
        ("insights_salts", 0),
        ("insights_seen", 0),
    ] {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&snapshot)
            .await
            .unwrap();
        assert_eq!(n, expected, "{table} in the backup");
    }
    snapshot.close().await;
    // So does db copy's dump.
    let dump = app.db.dump().await.unwrap();
    assert_eq!(dump.insights_daily.len(), 1);
    assert!(!dump.insights_counts.is_empty());

    let database_url = app.database_url.clone();
    let sql = app.sql.clone();
    let dir = app.shutdown_keeping_data().await;
    if on_postgres() {
        // Every row of every table, as text.
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
            }
        }
        assert!(searched > 0);
    }
    drop(dir);
}
