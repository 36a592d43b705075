//! Case studies counted like the page: the insights' beacon counts a view of a case study's page
//! per project, and an application link's readers who open a case study count in its figures.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, PHONE_UA};

/// The placeholder's projects with a case study on a fresh server, and one without.
const PORTFOLIO: &str = "portfolio";
const FOOD: &str = "food-recipes";
const NO_CASE_STUDY: &str = "elegant-context";

fn case_study_view(project: &str) -> Value {
    json!({ "kind": "view", "caseStudy": project })
}

#[tokio::test]
async fn a_case_study_view_is_counted_as_a_page_view_and_listed_by_its_projects_title() {
    let app = spawn_app().await;
    app.signed_in().await;
    assert_eq!(app.figures(7).await["caseStudies"], json!([]));
    for body in [
        case_study_view(PORTFOLIO),
        case_study_view(PORTFOLIO),
        case_study_view(FOOD),
        // A project without a case study, and one not on the page: page views only.
        case_study_view(NO_CASE_STUDY),
        case_study_view("no-such-project"),
        json!({ "kind": "view" }),
    ] {
        assert_eq!(app.beacon(&body).await.status(), 204, "{body}");
    }
    let phone = [("User-Agent", PHONE_UA)];
    let response = app.beacon_with(&case_study_view(PORTFOLIO), &phone).await;
    assert_eq!(response.status(), 204);

    let figures = app.figures(7).await;
    assert_eq!(
        figures["caseStudies"],
        json!([
            { "project": PORTFOLIO, "title": "Portfolio", "count": 3 },
            { "project": FOOD, "title": "Food Recipes", "count": 1 },
        ])
    );
    let today = figures["days"].as_array().unwrap().last().unwrap();
    assert_eq!(today["pageViews"], 7);
    // The same visitor on the page and on a case study is one visitor.
    assert_eq!(today["visitors"], 2);
    app.shutdown().await;
}

#[tokio::test]
async fn a_malformed_case_study_is_refused_with_the_field_named() {
    let app = spawn_app().await;
    for body in [
        case_study_view("Portfolio"),
        case_study_view("project:portfolio"),
        case_study_view(&"a".repeat(42)),
        case_study_view(""),
        json!({ "kind": "view", "caseStudy": 7 }),
        json!({ "kind": "click", "target": "social:github", "caseStudy": PORTFOLIO }),
    ] {
        let response = app.beacon(&body).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], "validation_failed");
        assert!(
            error["error"]["fields"]["caseStudy"].is_string(),
            "{body}: {error}"
        );
    }
    for (body, field) in [
        (
            json!({ "slug": "acme-x", "kind": "caseStudy" }),
            "caseStudy",
        ),
        (
            json!({ "slug": "acme-x", "kind": "caseStudy", "caseStudy": "Not An Id" }),
            "caseStudy",
        ),
        (
            json!({ "slug": "acme-x", "kind": "open", "caseStudy": PORTFOLIO }),
            "caseStudy",
        ),
        (
            json!({ "slug": "acme-x", "kind": "caseStudy", "caseStudy": PORTFOLIO,
                    "section": "projects" }),
            "section",
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
    app.shutdown().await;
}

#[tokio::test]
async fn a_links_reader_who_opens_a_case_study_counts_in_its_figures_once_a_day() {
    let app = spawn_app().await;
    app.signed_in().await;
    let link = app
        .create_link(&json!({ "company": "Acme", "role": "Frontend Developer" }))
        .await;
    let (id, slug) = (
        link["id"].as_i64().unwrap(),
        link["slug"].as_str().unwrap().to_owned(),
    );
    let opened = |project: &str| json!({ "slug": slug, "kind": "caseStudy", "caseStudy": project });
    let open = json!({ "slug": slug, "kind": "open" });
    assert_eq!(app.link_visit(&open).await.status(), 204);
    assert_eq!(app.link(id).await["link"]["state"], "opened");
    // Read twice by one visitor, once by another; a case study that is not published counts
    // nothing.
    for body in [opened(FOOD), opened(FOOD), opened(NO_CASE_STUDY)] {
        assert_eq!(app.link_visit(&body).await.status(), 204, "{body}");
    }
    let phone = [("User-Agent", PHONE_UA)];
    assert_eq!(app.link_visit_with(&open, &phone).await.status(), 204);
    let response = app.link_visit_with(&opened(FOOD), &phone).await;
    assert_eq!(response.status(), 204);
    assert_eq!(app.link_visit(&opened(PORTFOLIO)).await.status(), 204);

    let detail = app.link(id).await;
    let expected = json!([
        { "project": FOOD, "title": "Food Recipes", "count": 2 },
        { "project": PORTFOLIO, "title": "Portfolio", "count": 1 },
    ]);
    assert_eq!(detail["link"]["totals"]["caseStudies"], expected);
    assert_eq!(detail["link"]["state"], "engaged");
    let days = detail["days"].as_array().unwrap();
    assert_eq!(days.len(), 1);
    assert_eq!(days[0]["caseStudies"], expected);
    // Opening a case study is no new open, and no section of the page.
    assert_eq!(days[0]["opens"], 2);
    assert_eq!(days[0]["sections"], json!({}));

    let list: Value = app.get("/api/links").await.json().await.unwrap();
    assert_eq!(list["links"][0]["totals"]["caseStudies"], expected);
    let csv = app.get("/api/links.csv").await.text().await.unwrap();
    assert!(csv.contains(",food-recipes: 2; portfolio: 1,"), "{csv}");
    app.shutdown().await;
}
