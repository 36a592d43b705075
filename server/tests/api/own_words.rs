//! Every word on the page is the owner's (issue 46): the hero's paragraph, each section's heading
//! and lead and the footer are fields of the document, translated like the others, and the
//! copyright runs from its first year to the year of the publish. A document from before (those
//! texts then fixed texts of the page, changed only through `strings`) keeps its page: stored,
//! sent or imported, it is read with the owner's wording, or the built-in one, in each language.

use chrono::Datelike;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{content_command, spawn_app, sql_pool, TestApp, PATIENCE};
use crate::languages::{default_document, language, save_draft};

/// The German table's texts as they were before they moved (web/src/i18n/de.json then).
const GERMAN_SKILLS_LEAD: &str =
    "Die Werkzeuge, zu denen ich jeden Tag greife, vom Markup bis zum Deployment.";

/// The default document as a release before issue 46 stored it, with the owner's own wording of
/// the hero's paragraph and copyright, and German published (every text it then had translated;
/// the moved ones came from the built-in German table).
fn older_document() -> Value {
    let mut document = default_document();
    let root = document.as_object_mut().unwrap();
    root.remove("sections");
    root.remove("footer");
    root["profile"].as_object_mut().unwrap().remove("intro");
    root.insert(
        "strings".into(),
        json!({ "hero.lead": "I draw maps that load fast.", "footer.copyright": "© 2025 {name}, who draws maps." }),
    );
    let mut german = language("de", "DE", "Kartografin", true);
    let texts = german["texts"].as_object_mut().unwrap();
    texts.retain(|path, _| {
        !path.starts_with("sections.") && !path.starts_with("footer.") && path != "profile.intro"
    });
    root.insert("languages".into(), json!([german]));
    document
}

async fn text(app: &TestApp, path: &str) -> String {
    let response = app.get(path).await;
    assert_eq!(response.status(), 200, "{path}");
    response.text().await.unwrap()
}

async fn publish(app: &TestApp) -> reqwest::Response {
    app.send(Method::POST, "/api/content/publish", None).await
}

fn this_year() -> i32 {
    portfolio::clock::now().year()
}

#[tokio::test]
async fn an_older_document_in_the_database_is_served_with_its_words_in_each_language() {
    let app = spawn_app().await;
    app.signed_in().await;
    // Stored by the older release: a published version and the draft, behind the server's back.
    let older = older_document().to_string();
    let pool = sql_pool(&app.database_url).await;
    sqlx::query(
        "INSERT INTO content_entry_versions (kind, entry, version, document, published_at, seq) \
         VALUES ('page', '', 1, $1, $2, 1)",
    )
    .bind(&older)
    .bind(1_767_225_600_000_i64) // 2026-01-01
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO content_entry_drafts (kind, entry, document, revision, updated_at) \
         VALUES ('page', '', $1, 1, 0)",
    )
    .bind(&older)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;

    // The server follows the new version (it looks every 2 s): the owner's paragraph, the
    // German page with German headings, as before.
    let started = std::time::Instant::now();
    let page = loop {
        let page = text(&app, "/").await;
        if page.contains("I draw maps that load fast.") {
            break page;
        }
        assert!(started.elapsed() < PATIENCE, "version 1 not served");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert!(page.contains("The tools I reach for every day"));
    assert!(
        page.contains("2025–2026"),
        "the copyright runs to the year of the publish, 2026"
    );
    assert!(page.contains("who draws maps."));
    let german = text(&app, "/de/").await;
    assert!(
        german.contains(GERMAN_SKILLS_LEAD),
        "the built-in German lead"
    );
    assert!(german.contains("Kartografin"));

    // The editor gets the draft in today's shape, and it publishes as it is: German has every
    // text, the moved ones from its table.
    let draft: Value = app.get("/api/content/draft").await.json().await.unwrap();
    let document = &draft["document"];
    assert_eq!(document["profile"]["intro"], "I draw maps that load fast.");
    assert_eq!(document["sections"]["projects"]["title"], "My Projects");
    assert_eq!(
        document["footer"],
        json!({ "title": "Portfolio", "line": default_document()["footer"]["line"], "since": 2025 })
    );
    assert_eq!(
        document["strings"],
        json!({ "footer.copyright": "© {years} {name}, who draws maps." })
    );
    assert_eq!(
        document["languages"][0]["texts"]["sections.skills.lead"],
        GERMAN_SKILLS_LEAD
    );
    let published = publish(&app).await;
    assert_eq!(
        published.status(),
        200,
        "{}",
        published.text().await.unwrap()
    );
    let year = this_year();
    let page = text(&app, "/").await;
    assert!(
        page.contains(&format!("2025–{year}")) || year == 2025,
        "the copyright runs to this year's publish"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn an_older_document_sent_or_imported_is_read_in_todays_shape() {
    let app = spawn_app().await;
    app.signed_in().await;
    // A tab opened before the upgrade saves the older shape: kept, in today's.
    let saved = save_draft(&app, &older_document()).await;
    assert_eq!(saved.status(), 200, "{}", saved.text().await.unwrap());
    let saved: Value = saved.json().await.unwrap();
    assert_eq!(
        saved["document"]["profile"]["intro"],
        "I draw maps that load fast."
    );

    // Content as code: a file exported by the older release imports and publishes.
    let path = app.data_path().join("older.json");
    std::fs::write(&path, older_document().to_string()).unwrap();
    let output = content_command(&app, &["import", path.to_str().unwrap(), "--publish"]);
    assert!(output.status.success(), "{output:?}");
    // The running server follows the version the command published (it looks every 2 s).
    let started = std::time::Instant::now();
    let live = loop {
        let live: Value = app.get("/api/content").await.json().await.unwrap();
        if live["version"] == 1 {
            break live;
        }
        assert!(started.elapsed() < PATIENCE, "the import was never served");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(
        live["document"]["sections"]["contact"]["title"],
        "Get in Touch"
    );
    assert_eq!(
        live["document"]["languages"][0]["texts"]["profile.intro"],
        json!(portfolio_german("hero.lead"))
    );
    app.shutdown().await;
}

/// The German text a moved key had, from the table kept for older documents.
fn portfolio_german(key: &str) -> String {
    let moved: Value =
        serde_json::from_str(include_str!("../../../content/src/moved-texts.json")).unwrap();
    moved["de"][key].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_words_are_the_owners_and_the_copyright_runs_to_the_publish() {
    let app = spawn_app().await;
    app.signed_in().await;
    // Nothing published: the placeholder's year alone, as the spec has it.
    let page = text(&app, "/").await;
    assert!(page.contains("2025"));
    assert!(!page.contains("2025–"), "no range before a publish");

    let mut document = default_document();
    document["profile"]["intro"] = json!("I build Django sites for small museums.");
    document["sections"]["skills"] = json!({ "title": "Toolbox", "lead": "" });
    document["sections"]["about"]["lead"] = json!("A short story.");
    document["footer"] = json!({ "title": "Sam's workshop", "line": "", "since": 2019 });
    let saved = save_draft(&app, &document).await;
    assert_eq!(saved.status(), 200);
    assert_eq!(publish(&app).await.status(), 200);
    let page = text(&app, "/").await;
    for words in [
        "I build Django sites for small museums.",
        ">Toolbox</h2>",
        "A short story.",
        "Sam&#x27;s workshop",
        &format!("2019–{}", this_year()),
    ] {
        assert!(page.contains(words), "{words}");
    }
    assert!(
        !page.contains("The tools I reach for every day"),
        "an empty lead shows nothing"
    );
    assert!(!page.contains("MERN"), "no placeholder words are left");

    // Each is bounded and named when it is not.
    document["sections"]["projects"]["title"] = json!("");
    document["footer"]["since"] = json!(1900);
    let refused = save_draft(&app, &document).await;
    assert_eq!(refused.status(), 422);
    let body: Value = refused.json().await.unwrap();
    let fields = body["error"]["fields"].as_object().unwrap();
    assert!(fields.contains_key("sections.projects.title"), "{fields:?}");
    assert!(fields.contains_key("footer.since"), "{fields:?}");
    // The year of the publish is the server's to write, never the document's.
    document["sections"]["projects"]["title"] = json!("Work");
    document["footer"]["since"] = json!(2019);
    document["footer"]["until"] = json!(1999);
    let refused = save_draft(&app, &document).await;
    assert_eq!(refused.status(), 422, "until is not a field one sends");
    app.shutdown().await;
}
