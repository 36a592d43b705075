//! The resume as plain UTF-8 text, for applicant-tracking systems and for pasting into forms,
//! written from a [`Sheet`] so that it says what the PDF and the JSON Resume say, in the same
//! order. Paragraphs are not wrapped; every word in it comes from the sheet, so it is all in the
//! sheet's language.

use super::sheet::{Body, Entry, ProjectItem, Section, Sheet};

/// The resume `sheet` as plain text: the name and role, the contact lines, then each section
/// under its heading (underlined with `=`), in the sheet's order. Blank lines part the blocks;
/// empty fields are left out; every line ends in `\n`.
pub fn plain_text(sheet: &Sheet) -> String {
    let mut blocks = vec![
        present(&[sheet.name.as_str(), sheet.role.as_str()]),
        contact(sheet),
    ];
    blocks.extend(sheet.sections.iter().map(section));
    let text = blocks
        .iter()
        .filter(|block| !block.is_empty())
        .map(|block| block.join("\n"))
        .collect::<Vec<_>>()
        .join("\n\n");
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    format!("{}\n", text.trim_end())
}

/// The contact lines: email, phone, location, the site, then the profiles.
fn contact(sheet: &Sheet) -> Vec<String> {
    let labels = &sheet.labels;
    let mut lines: Vec<String> = [
        labelled(&labels.email, &sheet.email),
        labelled(&labels.phone, &sheet.phone),
        labelled(&labels.location, &sheet.location),
        labelled("", &sheet.site),
    ]
    .into_iter()
    .flatten()
    .collect();
    lines.extend(
        sheet
            .links
            .iter()
            .filter_map(|link| labelled(&link.label, &link.url)),
    );
    lines
}

/// `label: value`, or `value` alone without a label; `None` for an empty value.
fn labelled(label: &str, value: &str) -> Option<String> {
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    let label = label.trim().trim_end_matches([':', '：']).trim_end();
    if label.is_empty() {
        Some(value.to_owned())
    } else {
        Some(format!("{label}: {value}"))
    }
}

/// A section: its heading, underlined, then its body's blocks with a blank line between two.
/// Nothing for a section with nothing to say.
fn section(section: &Section) -> Vec<String> {
    let blocks: Vec<Vec<String>> = match &section.body {
        Body::Text(paragraphs) => paragraphs.iter().map(|p| present(&[p.as_str()])).collect(),
        Body::Entries(entries) => entries.iter().map(entry).collect(),
        Body::Projects(projects) => projects.iter().map(project).collect(),
        Body::Names(names) => vec![present(&[joined(names).as_str()])],
    };
    let mut body = Vec::new();
    for block in blocks.into_iter().filter(|block| !block.is_empty()) {
        if !body.is_empty() {
            body.push(String::new());
        }
        body.extend(block);
    }
    if body.is_empty() {
        return Vec::new();
    }
    let title = section.title.trim();
    let mut lines = Vec::new();
    if !title.is_empty() {
        lines.push(title.to_owned());
        lines.push("=".repeat(title.chars().count()));
    }
    lines.extend(body);
    lines
}

/// A job or a school: `title, place`, the dates, the description, then a line for each award.
fn entry(entry: &Entry) -> Vec<String> {
    let heading = joined(&[entry.title.clone(), entry.place.clone()]);
    let mut lines = present(&[
        heading.as_str(),
        entry.date.as_str(),
        entry.description.as_str(),
    ]);
    lines.extend(
        entry
            .awards
            .iter()
            .map(|award| award.trim())
            .filter(|award| !award.is_empty())
            .map(|award| format!("• {award}")),
    );
    lines
}

/// A project: `title: technologies`, the description, the demo's address, the code's.
fn project(item: &ProjectItem) -> Vec<String> {
    let title = item.title.trim();
    let technologies = joined(&item.technologies);
    let heading = match (title.is_empty(), technologies.is_empty()) {
        (false, false) => format!("{title}: {technologies}"),
        (false, true) => title.to_owned(),
        (true, _) => technologies,
    };
    let code = if item.code_url.trim() == item.demo_url.trim() {
        ""
    } else {
        item.code_url.as_str()
    };
    present(&[
        heading.as_str(),
        item.description.as_str(),
        item.demo_url.as_str(),
        code,
    ])
}

/// The texts that are not empty, trimmed, joined with `, `.
fn joined(texts: &[String]) -> String {
    texts
        .iter()
        .map(|text| text.trim())
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The texts that are not empty, trimmed, one a line.
fn present(texts: &[&str]) -> Vec<String> {
    texts
        .iter()
        .map(|text| text.trim())
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::json::tests::{entry, labels, link, project_item, section, texts};
    use super::super::sheet::SectionKind;
    use super::*;

    /// A sheet like the one the default content gives, in English.
    fn english() -> Sheet {
        Sheet {
            language: "en".to_owned(),
            rtl: false,
            name: "Alex Morgan".to_owned(),
            role: "Full Stack Developer".to_owned(),
            email: "alex.morgan@example.com".to_owned(),
            phone: "+91 90000 00000".to_owned(),
            phone_dial: "+919000000000".to_owned(),
            location: "AP, India".to_owned(),
            site: "https://example.dev/".to_owned(),
            links: vec![
                link("GitHub", "https://github.com/your-handle"),
                link("LinkedIn", "https://www.linkedin.com/in/your-handle"),
            ],
            labels: labels("Email", "Phone", "Location"),
            sections: english_sections(),
        }
    }

    /// The English sheet's sections, in the default order.
    fn english_sections() -> Vec<Section> {
        let jobs = vec![
            entry(
                "Analyst",
                "Global IT Services Company, Hyderabad",
                "2023 - Present",
                "Build and maintain internal tools.",
                &["Spot Award", "Applause Award"],
            ),
            entry("Intern", "Start-up, Pune", "2022", "Wrote tests.", &[]),
        ];
        let school = entry(
            "B.Tech, Computer Science",
            "State University, AP",
            "2019 - 2023",
            "",
            &["Best Project Award"],
        );
        let portfolio = project_item(
            "Portfolio",
            &["React", "Tailwind CSS", "Node.js"],
            "https://github.com/your-handle/portfolio",
            "https://portfolio.example.dev",
        );
        let summary = texts(&["I build fast, accessible web apps."]);
        let skills = texts(&["React", "Node.js", "TypeScript"]);
        vec![
            section(SectionKind::Summary, "About", Body::Text(summary)),
            section(
                SectionKind::Experience,
                "Work Experience",
                Body::Entries(jobs),
            ),
            section(
                SectionKind::Projects,
                "Projects",
                Body::Projects(vec![portfolio]),
            ),
            section(SectionKind::Skills, "Skills", Body::Names(skills)),
            section(
                SectionKind::Education,
                "Education",
                Body::Entries(vec![school]),
            ),
        ]
    }

    /// What the English sheet gives.
    const ENGLISH: &str = "\
Alex Morgan
Full Stack Developer

Email: alex.morgan@example.com
Phone: +91 90000 00000
Location: AP, India
https://example.dev/
GitHub: https://github.com/your-handle
LinkedIn: https://www.linkedin.com/in/your-handle

About
=====
I build fast, accessible web apps.

Work Experience
===============
Analyst, Global IT Services Company, Hyderabad
2023 - Present
Build and maintain internal tools.
• Spot Award
• Applause Award

Intern, Start-up, Pune
2022
Wrote tests.

Projects
========
Portfolio: React, Tailwind CSS, Node.js
This site.
https://portfolio.example.dev
https://github.com/your-handle/portfolio

Skills
======
React, Node.js, TypeScript

Education
=========
B.Tech, Computer Science, State University, AP
2019 - 2023
• Best Project Award
";

    #[test]
    fn writes_the_english_sheet() {
        assert_eq!(plain_text(&english()), ENGLISH);
    }

    #[test]
    fn writes_only_the_chosen_sections_in_their_order() {
        let mut sheet = english();
        let sections = std::mem::take(&mut sheet.sections);
        sheet.sections = vec![sections[3].clone(), sections[0].clone()];
        let text = plain_text(&sheet);
        assert!(text.ends_with(
            "LinkedIn: https://www.linkedin.com/in/your-handle\n\n\
             Skills\n======\nReact, Node.js, TypeScript\n\n\
             About\n=====\nI build fast, accessible web apps.\n"
        ));
        for left_out in [
            "Work Experience",
            "Projects",
            "Education",
            "Analyst",
            "Portfolio",
        ] {
            assert!(!text.contains(left_out), "{left_out}");
        }
    }

    #[test]
    fn keeps_arabic_texts_and_uses_the_labels() {
        let mut sheet = english();
        sheet.language = "ar".to_owned();
        sheet.rtl = true;
        sheet.name = "أليكس مورغان".to_owned();
        sheet.location = "أندرا براديش، الهند".to_owned();
        sheet.labels = labels("البريد الإلكتروني", "الهاتف", "الموقع");
        sheet.sections = vec![
            section(
                SectionKind::Summary,
                "نبذة عني",
                Body::Text(texts(&["أبني تطبيقات ويب سريعة."])),
            ),
            section(
                SectionKind::Experience,
                "الخبرة العملية",
                Body::Entries(vec![entry(
                    "محلل",
                    "شركة تقنية",
                    "٢٠٢٣ - الآن",
                    "",
                    &["جائزة"],
                )]),
            ),
        ];
        let text = plain_text(&sheet);
        assert!(text.starts_with("أليكس مورغان\nFull Stack Developer\n\n"));
        assert!(text.contains("\nالبريد الإلكتروني: alex.morgan@example.com\n"));
        assert!(text.contains("\nالهاتف: +91 90000 00000\n"));
        assert!(text.contains("\nالموقع: أندرا براديش، الهند\n"));
        assert!(text.contains("\nنبذة عني\n========\nأبني تطبيقات ويب سريعة.\n"));
        assert!(text.ends_with("\nمحلل, شركة تقنية\n٢٠٢٣ - الآن\n• جائزة\n"));
        for english_word in ["Email", "Phone", "Location", "About", "Awards"] {
            assert!(!text.contains(english_word), "{english_word}");
        }
    }

    #[test]
    fn underlines_a_heading_as_long_as_its_characters() {
        let mut sheet = english();
        sheet.sections.truncate(1);
        sheet.sections[0].title = "Über mich".to_owned();
        let text = plain_text(&sheet);
        assert!(text.contains("\nÜber mich\n=========\n"));
    }

    /// What the English sheet with many of its fields empty gives.
    const SPARSE: &str = "\
Alex Morgan

Email: alex.morgan@example.com
Location: AP, India
GitHub: https://github.com/your-handle

About
=====
One.

Two.

Work Experience
===============
Company

Projects
========
Tool
https://github.com/me/tool
";

    #[test]
    fn leaves_out_empty_fields() {
        let mut sheet = english();
        sheet.role = " ".to_owned();
        sheet.phone = String::new();
        sheet.site = String::new();
        sheet.links[1].url = String::new();
        sheet.sections = vec![
            section(
                SectionKind::Summary,
                "About",
                Body::Text(texts(&["", "One.", "Two."])),
            ),
            section(
                SectionKind::Experience,
                "Work Experience",
                Body::Entries(vec![entry("", "Company", "", "", &[" "])]),
            ),
            section(
                SectionKind::Projects,
                "Projects",
                Body::Projects(vec![ProjectItem {
                    description: String::new(),
                    ..project_item("Tool", &[], "https://github.com/me/tool", "")
                }]),
            ),
            section(
                SectionKind::Skills,
                "Skills",
                Body::Names(texts(&["", " "])),
            ),
            section(
                SectionKind::Education,
                "Education",
                Body::Entries(Vec::new()),
            ),
        ];
        assert_eq!(plain_text(&sheet), SPARSE);
    }

    #[test]
    fn a_project_with_one_address_shows_it_once() {
        let item = ProjectItem {
            id: "p".to_owned(),
            title: String::new(),
            description: String::new(),
            technologies: texts(&["Rust"]),
            code_url: "https://example.dev/p".to_owned(),
            demo_url: "https://example.dev/p".to_owned(),
        };
        assert_eq!(project(&item), ["Rust", "https://example.dev/p"]);
    }

    #[test]
    fn ends_with_exactly_one_line_break() {
        let mut sheet = english();
        sheet.sections = vec![section(
            SectionKind::Summary,
            "About",
            Body::Text(texts(&["Line one\r\nline two\n\n"])),
        )];
        let text = plain_text(&sheet);
        assert!(text.ends_with("=====\nLine one\nline two\n"));
        assert!(!text.contains('\r'));
        let empty = Sheet {
            name: String::new(),
            role: String::new(),
            email: String::new(),
            location: String::new(),
            phone: String::new(),
            site: String::new(),
            links: Vec::new(),
            sections: Vec::new(),
            ..english()
        };
        assert_eq!(plain_text(&empty), "\n");
    }

    #[test]
    fn does_not_double_a_labels_colon() {
        assert_eq!(labelled("Email:", "a@b.c").as_deref(), Some("Email: a@b.c"));
        assert_eq!(labelled("", "a@b.c").as_deref(), Some("a@b.c"));
        assert_eq!(labelled("Email", " "), None);
    }
}
