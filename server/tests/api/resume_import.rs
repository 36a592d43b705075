//! Moving in: a JSON Resume or a LinkedIn export's ZIP fills the draft (through the API and the
//! command line), lists what it could not place and publishes nothing; a file that cannot be
//! read (malformed, no resume, a ZIP bomb, too many entries, another type) is refused with what
//! is wrong with `file`, and the draft stays as it was.

use std::io::{Read, Write};

use reqwest::Method;
use serde_json::Value;

use crate::helpers::{content_command, spawn_app, TestApp};

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/resume/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn default_document() -> Value {
    serde_json::from_str(portfolio::content::DEFAULT_DOCUMENT_JSON).expect("the default document")
}

impl TestApp {
    /// Sends a file to the import as the editor would: same-origin, with its type and If-Match.
    async fn import_resume(
        &self,
        content_type: &str,
        file: Vec<u8>,
        if_match: &str,
    ) -> reqwest::Response {
        self.client
            .post(self.url("/api/content/draft/import"))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .header("Content-Type", content_type)
            .header("If-Match", if_match)
            .body(file)
            .send()
            .await
            .expect("the request is sent")
    }

    async fn draft(&self) -> Value {
        let response = self.get("/api/content/draft").await;
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    async fn published(&self) -> Value {
        self.get("/api/content").await.json().await.unwrap()
    }
}

/// `unplaced` has a line starting with each of `expected`.
fn lists(unplaced: &Value, expected: &[&str]) {
    let lines: Vec<&str> = unplaced
        .as_array()
        .expect("a list")
        .iter()
        .map(|line| line.as_str().expect("a line"))
        .collect();
    for wanted in expected {
        assert!(
            lines.iter().any(|line| line.starts_with(wanted)),
            "{wanted:?} in\n{}",
            lines.join("\n")
        );
    }
}

#[tokio::test]
async fn a_json_resume_fills_the_draft_lists_what_it_could_not_place_and_publishes_nothing() {
    let app = spawn_app().await;
    app.signed_in().await;
    let file = std::fs::read(fixture("json-resume.json")).unwrap();
    let response = app.import_resume("application/json", file, "\"0\"").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["etag"], "\"1\"");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["revision"], 1);

    let draft = app.draft().await;
    assert_eq!(draft["revision"], 1);
    let document = &draft["document"];
    assert_eq!(document, &body["document"]);
    assert_eq!(document["profile"]["name"], "Priya Raman");
    assert_eq!(document["profile"]["role"], "Backend Engineer");
    assert_eq!(
        document["profile"]["location"]["display"],
        "San Francisco, California, US"
    );
    assert_eq!(document["contact"]["email"], "priya.raman@example.com");
    assert_eq!(document["contact"]["phone"]["dial"], "+15550100199");
    assert_eq!(document["contact"]["phone"]["display"], "+1 (555) 010-0199");
    let about = document["about"]["paragraphs"].as_array().unwrap();
    assert_eq!(about.len(), 2);
    assert!(about[1].as_str().unwrap().starts_with("Lately I have been"));
    assert!(
        document["profile"]["summary"]
            .as_str()
            .unwrap()
            .chars()
            .count()
            <= 300
    );
    assert!(
        document["profile"]["intro"]
            .as_str()
            .unwrap()
            .chars()
            .count()
            <= 600
    );

    let jobs = document["experience"].as_array().unwrap();
    assert_eq!(jobs.len(), 3);
    assert_eq!(jobs[0]["title"], "Senior Backend Engineer");
    assert_eq!(jobs[0]["place"], "Streamline Inc., San Francisco");
    assert_eq!(jobs[0]["date"], "Mar 2021 - Present");
    assert_eq!(
        jobs[0]["description"],
        "Lead the platform team that runs the event pipeline and the public API. Cut the API's \
         p99 latency from 900 ms to 120 ms. Moved 40 nightly jobs to event streams."
    );
    assert_eq!(jobs[1]["date"], "Jun 2018 - Feb 2021");
    assert_eq!(jobs[2]["date"], "2016 - 2018");
    let long = jobs[2]["description"].as_str().unwrap();
    assert!(
        long.chars().count() <= 1000 && long.ends_with(['.', '…']),
        "{long}"
    );

    let school = &document["education"][0];
    assert_eq!(school["title"], "Bachelor in Computer Science");
    assert_eq!(school["place"], "University of Illinois");
    assert_eq!(school["date"], "Aug 2012 - May 2016");
    assert_eq!(
        school["description"],
        "Score: 3.8. Courses: Distributed Systems, Databases."
    );
    assert_eq!(school["awards"][0]["title"], "Dean's List");
    // No certificate of its own: it opens the placeholder's first one, which exists.
    assert_eq!(school["awards"][0]["certificate"], "spot-award");

    let skills: Vec<&str> = document["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(skills, ["Go", "PostgreSQL", "Kafka", "Node.js", "Docker"]);
    assert_eq!(document["skills"][3]["logo"], "logo-nodedotjs");
    assert_eq!(document["skills"][0]["logo"], "logo-git");

    let projects = document["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 2, "Notebook has no link");
    assert_eq!(projects[0]["id"], "queue-lens");
    assert_eq!(
        projects[0]["codeUrl"],
        "https://github.com/priya-r/queue-lens"
    );
    assert_eq!(projects[0]["stack"], "backend");
    assert_eq!(projects[0]["image"], "project-portfolio");
    assert_eq!(projects[1]["id"], "trip-splitter");
    assert_eq!(projects[1]["demoUrl"], "https://trips.example.com");
    assert_eq!(projects[1]["stack"], "fullstack");

    let social = document["social"].as_array().unwrap();
    let url_of = |id: &str| {
        social
            .iter()
            .find(|s| s["id"] == id)
            .map(|s| s["url"].as_str().unwrap().to_owned())
    };
    assert_eq!(url_of("github").unwrap(), "https://github.com/priya-r");
    assert_eq!(
        url_of("linkedin").unwrap(),
        "https://www.linkedin.com/in/priya-raman"
    );
    assert_eq!(url_of("mastodon"), None);

    lists(
        &body["unplaced"],
        &[
            "volunteer[0] (Code Club): the page has no volunteering",
            "certificates[0] (Certified Kubernetes Administrator): the page has no certificates",
            "publications[0] (Queues Are Not Databases): the page has no publications",
            "languages[0] (English): the page has no spoken languages",
            "interests[0] (Climbing): the page has no interests",
            "references[0] (Dana Lee): the page has no references",
            "basics.image: not placed",
            "basics.url (https://priya.example.com): not placed",
            "basics.location: address, postalCode: not placed",
            "basics.profiles[1] (Mastodon): no address: not placed",
            "work[0] (Streamline Inc.): url: not placed",
            "work[2].summary: cut to 1000 characters",
            "education[0] (University of Illinois): url: not placed",
            "awards[0] (Dean's List): date, summary: not placed",
            "awards[0] (Dean's List): no certificate of its own",
            "awards[1] (Hackathon Winner): its awarder (City Tech Week) is none of the schools or jobs",
            "skills: levels (Master): not placed",
            "skills[0] (Backend): a group",
            "projects[0] (queue-lens): roles, startDate: not placed",
            "projects[2] (Notebook): no link: not placed",
            "projects: 2 new projects have no screenshot of their own",
        ],
    );

    // Nothing is published until the owner publishes.
    let published = app.published().await;
    assert_eq!(published["version"], 0);
    assert_eq!(published["document"], default_document());
    let page = app.get("/").await.text().await.unwrap();
    assert!(!page.contains("Priya Raman"));
    let publish = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(publish.status(), 200);
    let published = app.published().await;
    assert_eq!(published["document"]["profile"]["name"], "Priya Raman");
    app.shutdown().await;
}

/// The entries of a ZIP as Python's `zipfile` writes it (sizes in each local header), by name.
fn entries_of(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut entries = Vec::new();
    let mut at = 0;
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([zip[at], zip[at + 1]]));
    let u32_at = |at: usize| u32::from_le_bytes(zip[at..at + 4].try_into().unwrap()) as usize;
    while zip[at..].starts_with(b"PK\x03\x04") {
        let (method, compressed) = (u16_at(at + 8), u32_at(at + 18));
        let (name_length, extra) = (u16_at(at + 26), u16_at(at + 28));
        let name = String::from_utf8(zip[at + 30..at + 30 + name_length].to_vec()).unwrap();
        let start = at + 30 + name_length + extra;
        let raw = &zip[start..start + compressed];
        let mut data = Vec::new();
        match method {
            8 => {
                flate2::read::DeflateDecoder::new(raw)
                    .read_to_end(&mut data)
                    .unwrap();
            }
            _ => data.extend_from_slice(raw),
        }
        entries.push((name, data));
        at = start + compressed;
    }
    entries
}

#[test]
fn the_committed_linkedin_export_is_made_of_its_csvs() {
    let zip = std::fs::read(fixture("linkedin-export.zip")).unwrap();
    let entries = entries_of(&zip);
    let mut names: Vec<String> = std::fs::read_dir(fixture("linkedin"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        entries
            .iter()
            .map(|(name, _)| name.clone())
            .collect::<Vec<_>>(),
        names,
        "run server/tests/fixtures/resume/make-linkedin-export.py"
    );
    for (name, data) in entries {
        let csv = std::fs::read(fixture(&format!("linkedin/{name}"))).unwrap();
        assert!(
            csv == data,
            "{name} differs: run server/tests/fixtures/resume/make-linkedin-export.py"
        );
    }
}

#[tokio::test]
async fn a_linkedin_export_fills_the_draft_and_lists_what_it_could_not_place() {
    let app = spawn_app().await;
    app.signed_in().await;
    let file = std::fs::read(fixture("linkedin-export.zip")).unwrap();
    let response = app.import_resume("application/zip", file, "0").await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let draft = app.draft().await;
    assert_eq!(draft["revision"], 1);
    let document = &draft["document"];
    assert_eq!(document, &body["document"]);
    assert_eq!(document["profile"]["name"], "Jonas Weber");
    let role = document["profile"]["role"].as_str().unwrap();
    assert!(role.starts_with("Frontend Engineer building accessible interfaces"));
    assert!(role.ends_with('…') && role.chars().count() <= 100, "{role}");
    assert_eq!(
        document["profile"]["location"]["display"],
        "Berlin, Germany"
    );
    assert_eq!(document["about"]["paragraphs"].as_array().unwrap().len(), 2);
    assert_eq!(document["contact"]["email"], "jonas@example.de");
    assert_eq!(document["contact"]["phone"]["dial"], "+49301234567");

    let jobs = document["experience"].as_array().unwrap();
    assert_eq!(jobs.len(), 3);
    assert_eq!(jobs[0]["title"], "Lead Frontend Engineer");
    assert_eq!(jobs[0]["place"], "Bürgerportal GmbH, Berlin, Germany");
    assert_eq!(jobs[0]["date"], "Mar 2021 - Present");
    assert_eq!(jobs[1]["date"], "Sep 2017 - Feb 2021");
    assert_eq!(jobs[2]["date"], "2016 - 2017");
    assert_eq!(jobs[2]["description"], "Intern at Pixelwerk, Hamburg.");

    let schools = document["education"].as_array().unwrap();
    assert_eq!(schools[0]["title"], "B.Sc. Informatik");
    assert_eq!(schools[0]["place"], "Technische Universität Berlin");
    assert_eq!(schools[0]["date"], "2012 - 2016");
    assert_eq!(
        schools[0]["description"],
        "Thesis on accessible data tables. Activities: Student council."
    );
    assert_eq!(schools[1]["title"], "Studies");

    let skills: Vec<&str> = document["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        skills,
        ["React", "TypeScript", "Accessibility", "CSS", "Figma"]
    );
    assert_eq!(document["skills"][0]["logo"], "logo-react");
    assert_eq!(document["skills"][3]["logo"], "logo-css3");

    let projects = document["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 1);
    assert_eq!(projects[0]["id"], "a11y-checker");
    let social = document["social"].as_array().unwrap();
    let twitter = social.iter().find(|s| s["id"] == "twitter").unwrap();
    assert_eq!(twitter["url"], "https://x.com/jonasweb");
    let blog = social.iter().find(|s| s["id"] == "blog").unwrap();
    assert_eq!(blog["url"], "https://blog.jonas.example.de");
    assert!(social.iter().any(|s| s["id"] == "website"));

    lists(
        &body["unplaced"],
        &[
            "Recommendations_Received.csv: 3 recommendations: the page has no recommendations",
            "Profile.csv: Address, Birth Date, Industry, Zip Code: not placed",
            "Profile.csv, Headline: cut to 100 characters",
            "Email Addresses.csv: 1 other address: not placed",
            "1 other file of the export (Connections.csv): not read",
            "Positions.csv row 3 (Pixelwerk): no description",
            "Education.csv row 2 (Goethe-Gymnasium): no degree",
            "Projects.csv row 1 (A11y Checker): Started On, Finished On: not placed",
            "Projects.csv row 2 (Kiez Map): no link: not placed",
        ],
    );
    assert_eq!(app.published().await["document"], default_document());
    app.shutdown().await;
}

/// A ZIP of `files` (name, bytes, the size its header declares), each deflated.
fn zip(files: &[(&str, &[u8], Option<u32>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut directory = Vec::new();
    for (name, data, declared) in files {
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let mut encoder =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(data).unwrap();
        let body = encoder.finish().unwrap();
        let size = declared.unwrap_or(data.len() as u32);
        let mut common = Vec::new();
        for half in [20u16, 0, 8, 0, 0] {
            common.extend_from_slice(&half.to_le_bytes()); // version, flags, method, time, date
        }
        for word in [crc.sum(), body.len() as u32, size] {
            common.extend_from_slice(&word.to_le_bytes());
        }
        common.extend_from_slice(&(name.len() as u16).to_le_bytes());
        common.extend_from_slice(&0u16.to_le_bytes());
        let offset = out.len() as u32;
        out.extend_from_slice(b"PK\x03\x04");
        out.extend_from_slice(&common);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&body);
        directory.extend_from_slice(b"PK\x01\x02\x14\x00");
        directory.extend_from_slice(&common);
        directory.extend_from_slice(&[0; 10]); // comment, disk, attributes
        directory.extend_from_slice(&offset.to_le_bytes());
        directory.extend_from_slice(name.as_bytes());
    }
    let offset = out.len() as u32;
    out.extend_from_slice(&directory);
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(directory.len() as u32).to_le_bytes());
    out.extend_from_slice(&offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

#[tokio::test]
async fn a_file_that_cannot_be_read_is_refused_with_what_is_wrong_and_the_draft_is_unchanged() {
    let app = spawn_app().await;
    app.signed_in().await;
    // A draft of the owner's own, at revision 1.
    let mut document = default_document();
    document["profile"]["name"] = "Kept As It Was".into();
    let saved = app
        .client
        .put(app.url("/api/content/draft"))
        .header("Origin", &app.address)
        .header("Sec-Fetch-Site", "same-origin")
        .header("If-Match", "\"0\"")
        .json(&document)
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), 200);

    let zeros = vec![0u8; 50 * 1024 * 1024];
    let bomb = zip(&[("Profile.csv", &zeros, None)]);
    let lying_bomb = zip(&[("Profile.csv", &zeros, Some(1000))]);
    assert!(bomb.len() < 200 * 1024 && lying_bomb.len() < 200 * 1024);
    let names: Vec<String> = (0..101).map(|i| format!("Skills-{i}.csv")).collect();
    let many: Vec<(&str, &[u8], Option<u32>)> = names
        .iter()
        .map(|name| (name.as_str(), b"Name\nRust\n".as_slice(), None))
        .collect();
    let cases: [(&str, &str, Vec<u8>, u16, &str); 8] = [
        ("malformed JSON", "application/json", b"{\"basics\": {".to_vec(), 422, "file: is not valid JSON"),
        ("JSON that is no resume", "application/json", b"{\"hello\": \"world\"}".to_vec(), 422, "file: is JSON but not a JSON Resume"),
        ("a ZIP bomb", "application/zip", bomb, 422, "file: is a ZIP whose entry Profile.csv would inflate to 50 MB; at most 5 MB"),
        ("a ZIP bomb whose header lies", "application/zip", lying_bomb, 422, "file: is a ZIP whose entry Profile.csv inflates past the 1000 bytes its header declares"),
        ("a ZIP of 101 entries", "application/zip", zip(&many), 422, "file: is a ZIP of 101 entries; at most 100"),
        ("a ZIP of no export", "application/zip", zip(&[("notes.txt", b"hi", None)]), 422, "file: is a ZIP but not a LinkedIn data export"),
        ("not a ZIP", "application/zip", b"PK? no".to_vec(), 422, "file: is sent as application/zip but is not a ZIP"),
        ("another type", "text/plain", b"Priya Raman, Backend Engineer".to_vec(), 415, "file: send a JSON Resume as application/json"),
    ];
    for (what, content_type, file, status, message) in cases {
        let response = app.import_resume(content_type, file, "\"1\"").await;
        assert_eq!(response.status(), status, "{what}");
        let body: Value = response.json().await.unwrap();
        let said = body["error"]["message"].as_str().unwrap();
        assert!(said.starts_with(message), "{what}: {said}");
        if status == 422 {
            assert_eq!(body["error"]["code"], "validation_failed", "{what}");
            assert!(body["error"]["fields"]["file"].is_string(), "{what}");
        } else {
            assert_eq!(body["error"]["code"], "unsupported_media_type");
        }
        let draft = app.draft().await;
        assert_eq!(draft["revision"], 1, "{what}: nothing was saved");
        assert_eq!(draft["document"], document, "{what}: nothing changed");
    }

    // Over 10 MB: 413. A stale revision: 409. No revision: 428. Nothing saved.
    let large = app
        .import_resume(
            "application/json",
            vec![b' '; 10 * 1024 * 1024 + 1],
            "\"1\"",
        )
        .await;
    assert_eq!(large.status(), 413);
    let file = std::fs::read(fixture("json-resume.json")).unwrap();
    let stale = app
        .import_resume("application/json", file.clone(), "\"0\"")
        .await;
    assert_eq!(stale.status(), 409);
    let unconditional = app
        .client
        .post(app.url("/api/content/draft/import"))
        .header("Origin", &app.address)
        .header("Sec-Fetch-Site", "same-origin")
        .header("Content-Type", "application/json")
        .body(file)
        .send()
        .await
        .unwrap();
    assert_eq!(unconditional.status(), 428);
    let draft = app.draft().await;
    assert_eq!(draft["revision"], 1);
    assert_eq!(draft["document"], document);
    app.shutdown().await;
}

#[tokio::test]
async fn the_command_line_fills_the_draft_and_refuses_a_bad_file_changing_nothing() {
    let app = spawn_app().await;
    let output = content_command(&app, &["import-resume", &fixture("linkedin-export.zip")]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("filled the draft (revision 1); nothing is published until you publish it"),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|line| line.trim()
            == "Recommendations_Received.csv: 3 recommendations: the page has no recommendations"),
        "{stdout}"
    );
    app.signed_in().await;
    let draft = app.draft().await;
    assert_eq!(draft["revision"], 1);
    assert_eq!(draft["document"]["profile"]["name"], "Jonas Weber");
    assert_eq!(app.published().await["version"], 0);

    let bad = app.data_path().join("bad.json");
    std::fs::write(&bad, "{\"basics\": [").unwrap();
    let output = content_command(&app, &["import-resume", bad.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("file: "), "{stderr}");
    assert!(stderr.contains("is not valid JSON"), "{stderr}");
    assert!(stderr.contains("nothing was imported"), "{stderr}");
    let after = app.draft().await;
    assert_eq!(after, draft, "nothing changed");
    app.shutdown().await;
}
