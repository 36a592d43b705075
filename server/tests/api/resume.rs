//! The resume made from the published document: `/resume.pdf` (unless the owner chooses the PDF
//! they uploaded), `/resume.json` and `/resume.txt`, and each published language's under its
//! path; read back by the tools a recruiter's systems use: poppler's `pdftotext`, `pdfinfo`,
//! `pdffonts`, and `qpdf` (Debian's `poppler-utils` and `qpdf`: `make pdf-tools`).

use std::io::Write;
use std::process::Command;

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_with, TestApp};
use crate::languages::{default_document, language, save_draft};

/// What a tool prints for `pdf` (written to a temporary file), which must succeed.
fn tool(name: &str, args: &[&str], pdf: &[u8]) -> String {
    let mut file = tempfile::Builder::new()
        .suffix(".pdf")
        .tempfile()
        .expect("a temporary file");
    file.write_all(pdf).expect("the PDF in its file");
    let output = Command::new(name)
        .args(args)
        .arg(file.path())
        .args(if name == "pdftotext" {
            &["-"][..]
        } else {
            &[][..]
        })
        .output()
        .unwrap_or_else(|e| {
            panic!("{name} runs (Debian's poppler-utils and qpdf: make pdf-tools): {e}")
        });
    assert!(
        output.status.success(),
        "{name} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

async fn pdf_at(app: &TestApp, path: &str) -> Vec<u8> {
    let response = app.get(path).await;
    assert_eq!(response.status(), 200, "{path}");
    assert_eq!(
        response.headers()["content-type"],
        "application/pdf",
        "{path}"
    );
    response.bytes().await.unwrap().to_vec()
}

/// Asserts that `texts` appear in `text` in this order.
fn in_order(text: &str, texts: &[&str]) {
    let mut from = 0;
    for wanted in texts {
        match text[from..].find(wanted) {
            Some(at) => from += at + wanted.len(),
            None => panic!("{wanted:?} is not after what came before it in:\n{text}"),
        }
    }
}

/// A field of `pdfinfo`'s output (`Pages`, `Title`).
fn info(pdf: &[u8], field: &str) -> String {
    tool("pdfinfo", &[], pdf)
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{field}:")))
        .unwrap_or_else(|| panic!("pdfinfo gives no {field}"))
        .trim()
        .to_owned()
}

async fn publish(app: &TestApp, document: &Value) {
    assert_eq!(save_draft(app, document).await.status(), 200);
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
}

#[tokio::test]
async fn a_fresh_server_serves_the_placeholder_documents_resume_made_from_it() {
    let app = spawn_app().await;
    let pdf = pdf_at(&app, "/resume.pdf").await;
    assert!(pdf.len() < 150_000, "{} bytes", pdf.len());
    // Machines read it right: tagged, titled, its fonts embedded and subset, links live.
    assert_eq!(info(&pdf, "Tagged"), "yes");
    assert_eq!(info(&pdf, "Title"), "Alex Morgan – Full Stack Developer");
    assert_eq!(info(&pdf, "Author"), "Alex Morgan");
    assert_eq!(info(&pdf, "Pages"), "2");
    assert!(info(&pdf, "Page size").contains("(A4)"));
    let fonts = tool("pdffonts", &[], &pdf);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "{fonts}");
    for row in rows {
        let columns: Vec<&str> = row.split_whitespace().collect();
        let name = columns[0];
        assert!(
            name.len() > 7 && name.as_bytes()[6] == b'+',
            "a subset's name: {row}"
        );
        // emb, sub, uni: yes yes yes.
        let flags = &columns[columns.len() - 5..columns.len() - 2];
        assert_eq!(flags, ["yes", "yes", "yes"], "{row}");
    }
    assert!(tool("qpdf", &["--check"], &pdf).contains("No syntax or stream encoding errors"));
    // Every field, in the page's order.
    let text = tool("pdftotext", &[], &pdf);
    in_order(
        &text,
        &[
            "Alex Morgan",
            "Full Stack Developer",
            "alex.morgan@example.com",
            "+91 90000 00000",
            "AP, India",
            "github.com/your-handle",
            "About",
            "I build fast, accessible web applications",
            "Work Experience",
            "Analyst",
            "Global IT Services Company, Hyderabad · 2023 - Present",
            "Build and maintain customer-facing React",
            "Spot Award",
            "Programmer Analyst",
            "Projects",
            "Portfolio",
            "React, Tailwind CSS, Node.js",
            "portfolio.example.dev",
            "Skills",
            "HTML5",
            "AEM",
            "Education",
            "B.Tech in Electronics & Communication Engineering",
        ],
    );
    // Its addresses are links.
    let objects = tool("qpdf", &["--json=2", "--json-key=qpdf"], &pdf);
    assert!(objects.contains("mailto:alex.morgan@example.com"));
    assert!(objects.contains("https://github.com/your-handle/portfolio"));
    // The same version makes the same bytes: another server at the same address.
    let at_one_address = |settings: &mut portfolio::config::Settings| {
        settings.public_url = Some("https://alex.example/".parse().unwrap());
    };
    let one = spawn_app_with(at_one_address).await;
    let other = spawn_app_with(at_one_address).await;
    let first = pdf_at(&one, "/resume.pdf").await;
    assert!(
        first == pdf_at(&other, "/resume.pdf").await,
        "byte for byte the same"
    );
    assert!(
        tool("qpdf", &["--json=2", "--json-key=qpdf"], &first).contains("https://alex.example/")
    );

    // JSON Resume and plain text, from the same version.
    let resume: Value = app.get("/resume.json").await.json().await.unwrap();
    assert_eq!(resume["basics"]["name"], "Alex Morgan");
    assert_eq!(resume["work"][0]["position"], "Analyst");
    assert_eq!(resume["work"][0]["startDate"], "2023");
    let response = app.get("/resume.txt").await;
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    let plain = response.text().await.unwrap();
    in_order(
        &plain,
        &["Alex Morgan", "Work Experience", "Analyst", "Skills"],
    );
    // Revalidated by its ETag.
    let response = app.get("/resume.pdf").await;
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let cached = app
        .get_with("/resume.pdf", &[("If-None-Match", &etag)])
        .await;
    assert_eq!(cached.status(), 304);
}

#[tokio::test]
async fn the_owner_chooses_sections_projects_jobs_paper_and_pages() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut document = default_document();
    document["resume"] = json!({
        "path": "/resume.pdf",
        "paper": "letter",
        "pages": 1,
        "sections": ["projects", "experience"],
        "projects": ["food-recipes", "portfolio"],
        "jobs": [1],
    });
    publish(&app, &document).await;
    let pdf = pdf_at(&app, "/resume.pdf").await;
    assert!(info(&pdf, "Page size").contains("(letter)"));
    assert_eq!(info(&pdf, "Pages"), "1");
    let text = tool("pdftotext", &[], &pdf);
    in_order(
        &text,
        &[
            "Projects",
            "Food Recipes",
            "Portfolio",
            "Work Experience",
            "Programmer Analyst",
        ],
    );
    for gone in [
        "About",
        "Skills",
        "Education",
        "Elegant Context",
        "Spot Award",
    ] {
        assert!(!text.contains(gone), "{gone} is left out:\n{text}");
    }
    let resume: Value = app.get("/resume.json").await.json().await.unwrap();
    assert_eq!(resume["projects"].as_array().unwrap().len(), 2);
    assert_eq!(resume["work"][0]["position"], "Programmer Analyst");
    assert!(resume.get("skills").is_none() && resume.get("education").is_none());
}

#[tokio::test]
async fn the_uploaded_pdf_is_served_when_the_owner_chooses_it() {
    let app = spawn_app().await;
    app.signed_in().await;
    let upload = b"%PDF-1.4\n% the owner's own\n%%EOF\n".to_vec();
    let stored = app
        .upload("/api/media/resume", upload.clone(), "resume.pdf")
        .await;
    assert_eq!(stored.status(), 201);
    // A document stored before the choice existed: the upload, as before.
    assert_eq!(pdf_at(&app, "/resume.pdf").await, upload);
    let mut document = default_document();
    document["resume"]["source"] = json!("generated");
    publish(&app, &document).await;
    let made = pdf_at(&app, "/resume.pdf").await;
    assert_ne!(made, upload);
    assert!(tool("pdftotext", &[], &made).contains("Alex Morgan"));
    document["resume"]["source"] = json!("uploaded");
    publish(&app, &document).await;
    assert_eq!(pdf_at(&app, "/resume.pdf").await, upload);
}

/// The element types of the PDF's structure tree, depth first, from `qpdf --json`.
fn structure(pdf: &[u8]) -> Vec<String> {
    let json: Value =
        serde_json::from_str(&tool("qpdf", &["--json=2", "--json-key=qpdf"], pdf)).unwrap();
    let objects = &json["qpdf"][1];
    let object = |reference: &Value| -> Value {
        let key = format!("obj:{}", reference.as_str().unwrap_or_default());
        objects[&key]["value"].clone()
    };
    let trailer = &objects["trailer"]["value"];
    let catalog = object(&trailer["/Root"]);
    let root = object(&catalog["/StructTreeRoot"]);
    let mut out = Vec::new();
    fn walk(element: &Value, object: &dyn Fn(&Value) -> Value, out: &mut Vec<String>) {
        if let Some(kind) = element["/S"].as_str() {
            out.push(kind.trim_start_matches('/').to_owned());
        }
        let kids = match &element["/K"] {
            Value::Array(kids) => kids.clone(),
            Value::Null => Vec::new(),
            kid => vec![kid.clone()],
        };
        for kid in kids {
            if kid.is_string() {
                walk(&object(&kid), object, out);
            }
        }
    }
    walk(&root, &object, &mut out);
    out
}

#[tokio::test]
async fn an_arabic_resume_is_tagged_in_the_documents_order_and_complete() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut document = default_document();
    let role = "مطورة برمجيات متكاملة";
    document["languages"] = json!([language("ar", "نص", role, true)]);
    publish(&app, &document).await;
    let pdf = pdf_at(&app, "/ar/resume.pdf").await;
    assert_eq!(info(&pdf, "Tagged"), "yes");
    let all = structure(&pdf);
    // Each address a link, in its paragraph: the contact line's six, two for each project.
    assert_eq!(
        all.iter().filter(|k| *k == "Link").count(),
        6 + 4 * 2,
        "{all:?}"
    );
    let kinds: Vec<String> = all.into_iter().filter(|k| k != "Link").collect();
    // The header, then each section: its heading, then its items' headings and paragraphs.
    let expected_start = [
        "Document", "H1", "P", "P", "Sect", "H2", "P", "Sect", "H2", "H3", "P", "P",
    ];
    assert!(
        kinds.len() > expected_start.len()
            && kinds[..expected_start.len()] == expected_start.map(String::from),
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| *k == "Sect").count(),
        5,
        "{kinds:?}"
    );
    assert_eq!(kinds.iter().filter(|k| *k == "H2").count(), 5, "{kinds:?}");
    // Its text is complete: every word of its texts is there.
    let text = tool("pdftotext", &[], &pdf);
    for word in role.split_whitespace().chain(["نص"]) {
        assert!(text.contains(word), "{word} in:\n{text}");
    }
    let plain = app.get("/ar/resume.txt").await.text().await.unwrap();
    assert!(plain.contains(role));
    let resume: Value = app.get("/ar/resume.json").await.json().await.unwrap();
    assert_eq!(resume["basics"]["label"], role);
}

#[tokio::test]
async fn each_language_links_its_own_resume_and_an_application_link_serves_its_languages() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut document = default_document();
    let role = "Full-Stack-Entwicklerin";
    document["languages"] = json!([language("de", "Deutsch", role, true)]);
    publish(&app, &document).await;
    // The German page's Download Resume is the German resume.
    let data: Value = app.get("/de/page-data.json").await.json().await.unwrap();
    assert_eq!(data["document"]["resume"]["path"], "/de/resume.pdf");
    let german = pdf_at(&app, "/de/resume.pdf").await;
    assert!(tool("pdftotext", &[], &german).contains(role));
    assert_eq!(app.get("/fr/resume.pdf").await.status(), 404);
    // A German application link's resume, at the link's address, counted for the link.
    let created = app
        .create_link(&json!({ "company": "Acme", "role": "Engineer", "language": "de" }))
        .await;
    let slug = created["slug"].as_str().unwrap().to_owned();
    let id = created["id"].as_i64().unwrap();
    let through_link = app
        .get_with(
            &format!("/a/{slug}/resume.pdf"),
            &[("User-Agent", crate::helpers::DESKTOP_UA)],
        )
        .await;
    assert_eq!(through_link.status(), 200);
    assert!(through_link.bytes().await.unwrap() == german);
    crate::helpers::eventually("the download is counted for the link", || async {
        let link = app.link(id).await;
        (link["link"]["totals"]["resumeDownloads"] == 1).then_some(())
    })
    .await;
}

#[tokio::test]
async fn choosing_the_resume_made_from_the_page_ticks_the_first_days_resume() {
    let app = spawn_app().await;
    app.signed_in().await;
    let resume_done = || async {
        let checklist: Value = app.get("/api/checklist").await.json().await.unwrap();
        checklist["resume"].clone()
    };
    assert_eq!(resume_done().await, false);
    let mut document = default_document();
    document["resume"]["source"] = json!("generated");
    assert_eq!(save_draft(&app, &document).await.status(), 200);
    assert_eq!(resume_done().await, true);
}

#[tokio::test]
async fn an_application_links_own_resume_leaves_out_exactly_what_it_says() {
    let app = spawn_app().await;
    app.signed_in().await;
    let body = |resume: Value| json!({ "company": "Acme", "role": "Engineer", "resume": resume });
    // What the published page does not have is named.
    let refused = app
        .post_json(
            "/api/links",
            &body(json!({ "projects": ["nope"], "jobs": [7], "sections": ["skills", "skills"] })),
        )
        .await;
    assert_eq!(refused.status(), 422);
    let fields = refused.json::<Value>().await.unwrap()["error"]["fields"].clone();
    assert_eq!(
        fields["resume.projects[0]"],
        "is not a project of the published page"
    );
    assert_eq!(
        fields["resume.jobs[0]"],
        "is not a job of the published page"
    );
    assert_eq!(fields["resume.sections[1]"], "is named twice");

    let link = app
        .create_link(&body(json!({
            "sections": ["projects", "experience"],
            "projects": ["elegant-context", "food-recipes"],
            "jobs": [1],
        })))
        .await;
    assert_eq!(
        link["resume"]["projects"],
        json!(["elegant-context", "food-recipes"])
    );
    let slug = link["slug"].as_str().unwrap();
    let pdf = pdf_at(&app, &format!("/a/{slug}/resume.pdf")).await;
    let text = tool("pdftotext", &[], &pdf);
    in_order(
        &text,
        &[
            "Projects",
            "Elegant Context",
            "Food Recipes",
            "Work Experience",
            "Programmer Analyst",
        ],
    );
    for gone in [
        "Tuk-Tuk Cambodia",
        "Skills",
        "Education",
        "Spot Award",
        "About",
    ] {
        assert!(!text.contains(gone), "{gone} is left out:\n{text}");
    }
    // The page's own resume is as it was; the link's back to the page's once it names none.
    let page = tool("pdftotext", &[], &pdf_at(&app, "/resume.pdf").await);
    assert!(page.contains("Tuk-Tuk Cambodia") && page.contains("Skills"));
    let id = link["id"].as_i64().unwrap();
    let changed = app
        .send(
            Method::PATCH,
            &format!("/api/links/{id}"),
            Some(&json!({ "resume": null })),
        )
        .await;
    assert_eq!(changed.status(), 200);
    assert_eq!(
        changed.json::<Value>().await.unwrap()["resume"],
        Value::Null
    );
    let again = pdf_at(&app, &format!("/a/{slug}/resume.pdf")).await;
    assert!(tool("pdftotext", &[], &again).contains("Skills"));
}
