//! Follow-ups: a link opened and then quiet for its days comes up once, with a follow-up drafted
//! in the link's language for the owner to edit and send to its recipient; what a sent one
//! carries (its bounds); and how long a follow-up may be snoozed.

use crate::store::links::LinkRow;

/// The longest subject, in characters.
pub const MAX_SUBJECT_CHARS: usize = 200;
/// The longest text, in characters.
pub const MAX_BODY_CHARS: usize = 10_000;
/// The longest snooze, in days.
pub const MAX_SNOOZE_DAYS: i64 = 30;

/// A follow-up as drafted or as the owner sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub subject: String,
    pub body: String,
}

/// The words of a draft in one language: `{role}`, `{company}`, `{url}` and `{name}` are filled in.
struct Words {
    subject: &'static str,
    body: &'static str,
}

/// The drafts' words by primary language tag; English for any other.
fn words(language: &str) -> Words {
    let primary = language
        .split('-')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match primary.as_str() {
        "de" => Words {
            subject: "Nachfrage: {role} bei {company}",
            body: "Guten Tag,\n\nich möchte an meine Bewerbung als {role} bei {company} anknüpfen. \
                   Die Stelle interessiert mich weiterhin sehr, und ich beantworte gern Ihre \
                   Fragen oder spreche mit Ihnen, wann immer es Ihnen passt.\n\nMein Portfolio \
                   zur Erinnerung: {url}\n\nMit freundlichen Grüßen\n{name}",
        },
        "fr" => Words {
            subject: "Suivi : {role} chez {company}",
            body: "Bonjour,\n\nJe me permets de revenir vers vous au sujet de ma candidature au \
                   poste de {role} chez {company}. Ce poste m'intéresse toujours beaucoup, et je \
                   répondrai volontiers à vos questions ou en discuterai quand cela vous \
                   conviendra.\n\nMon portfolio, pour mémoire : {url}\n\nBien cordialement,\n{name}",
        },
        "es" => Words {
            subject: "Seguimiento: {role} en {company}",
            body: "Hola:\n\nLe escribo para dar seguimiento a mi candidatura al puesto de {role} \
                   en {company}. El puesto me sigue interesando mucho y con gusto responderé a \
                   sus preguntas o conversaremos cuando le venga bien.\n\nMi portafolio, como \
                   referencia: {url}\n\nUn cordial saludo,\n{name}",
        },
        "pt" => Words {
            subject: "Acompanhamento: {role} na empresa {company}",
            body: "Olá,\n\nEscrevo para dar seguimento à minha candidatura à vaga de {role} na \
                   empresa {company}. A vaga continua a interessar-me muito e terei todo o gosto \
                   em responder a quaisquer perguntas ou conversar quando lhe for conveniente.\n\n\
                   O meu portfólio, para referência: {url}\n\nCom os melhores cumprimentos,\n{name}",
        },
        "ar" => Words {
            subject: "متابعة: {role} لدى {company}",
            body: "مرحبًا،\n\nأكتب لمتابعة طلبي لوظيفة {role} لدى {company}. ما زالت هذه الوظيفة \
                   تهمّني كثيرًا، ويسعدني الإجابة عن أي أسئلة أو التحدث في الوقت الذي يناسبكم.\n\n\
                   ملف أعمالي للاطلاع: {url}\n\nمع أطيب التحيات،\n{name}",
        },
        "he" => Words {
            subject: "מעקב: {role} ב-{company}",
            body: "שלום,\n\nרציתי לעקוב אחר מועמדותי לתפקיד {role} ב-{company}. התפקיד עדיין \
                   מעניין אותי מאוד, ואשמח לענות על כל שאלה או לשוחח בכל עת שנוח לכם.\n\nתיק \
                   העבודות שלי לעיון: {url}\n\nבברכה,\n{name}",
        },
        _ => Words {
            subject: "Following up: {role} at {company}",
            body: "Hello,\n\nI'm following up on my application for the {role} role at {company}. \
                   I'm still very interested, and I'd be glad to answer any questions or to talk \
                   whenever suits you.\n\nMy portfolio, for reference: {url}\n\nBest regards,\n{name}",
        },
    }
}

/// The follow-up drafted for `link` in its language, signed `name` (the page's), pointing at
/// the link's address under `origin` (`https://example.com`).
pub fn draft(link: &LinkRow, name: &str, origin: &str) -> Draft {
    let words = words(&link.language);
    let url = format!("{}/a/{}", origin.trim_end_matches('/'), link.slug);
    let fill = |text: &str| {
        text.replace("{role}", link.role.trim())
            .replace("{company}", link.company.trim())
            .replace("{url}", &url)
            .replace("{name}", name.trim())
            .trim_end()
            .to_owned()
    };
    Draft {
        subject: fill(words.subject),
        body: fill(words.body),
    }
}

/// A follow-up as the owner sends it: the subject on one line, 1 to [`MAX_SUBJECT_CHARS`]; the
/// text 1 to [`MAX_BODY_CHARS`], trailing space trimmed. Each problem names its field.
pub fn checked(subject: &str, body: &str) -> Result<Draft, Vec<(&'static str, String)>> {
    let mut problems = Vec::new();
    let subject = subject.trim();
    if subject.is_empty() {
        problems.push(("subject", "is required".to_owned()));
    } else if subject.chars().count() > MAX_SUBJECT_CHARS {
        problems.push((
            "subject",
            format!("must be at most {MAX_SUBJECT_CHARS} characters long"),
        ));
    } else if subject.chars().any(char::is_control) {
        problems.push(("subject", "must be one line".to_owned()));
    }
    let body = body.trim_end();
    if body.trim().is_empty() {
        problems.push(("body", "is required".to_owned()));
    } else if body.chars().count() > MAX_BODY_CHARS {
        problems.push((
            "body",
            format!("must be at most {MAX_BODY_CHARS} characters long"),
        ));
    }
    if problems.is_empty() {
        Ok(Draft {
            subject: subject.to_owned(),
            body: body.to_owned(),
        })
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(language: &str) -> LinkRow {
        LinkRow {
            id: 7,
            slug: "acme-abc".to_owned(),
            company: "Acme & Co".to_owned(),
            role: "Frontend Engineer".to_owned(),
            note: String::new(),
            language: language.to_owned(),
            expires_at: None,
            revoked_at: None,
            alert_open: true,
            alert_resume: true,
            alert_message: true,
            created_at: 0,
            first_opened_at: Some(1),
            last_activity_at: None,
            resume: None,
            recipient_email: Some("jane@acme.example".to_owned()),
            follow_up_days: 5,
        }
    }

    #[test]
    fn a_draft_is_in_the_links_language_with_its_role_company_address_and_name() {
        let english = draft(&link("en"), "Alex Morgan", "https://alex.example/");
        assert_eq!(
            english.subject,
            "Following up: Frontend Engineer at Acme & Co"
        );
        assert!(english.body.contains("https://alex.example/a/acme-abc"));
        assert!(english.body.ends_with("Best regards,\nAlex Morgan"));
        let german = draft(&link("de-AT"), "Alex Morgan", "https://alex.example");
        assert_eq!(german.subject, "Nachfrage: Frontend Engineer bei Acme & Co");
        assert!(german.body.starts_with("Guten Tag,"));
        assert!(german.body.contains("https://alex.example/a/acme-abc"));
        for language in ["fr", "es", "pt", "ar", "he"] {
            let other = draft(&link(language), "Alex", "https://alex.example");
            assert_ne!(other.body, english.body, "{language}");
            assert!(other.subject.contains("Acme & Co"), "{language}");
            assert!(!other.body.contains('{'), "{language}");
        }
        assert_eq!(draft(&link("it"), "Alex", "x").subject, english.subject);
        // No name on the page: the draft ends with the greeting.
        assert!(draft(&link("en"), "", "x").body.ends_with("Best regards,"));
    }

    #[test]
    fn a_follow_up_is_bounded_and_each_problem_names_its_field() {
        assert_eq!(
            checked("  Hi  ", "Text\n\n").unwrap(),
            Draft {
                subject: "Hi".to_owned(),
                body: "Text".to_owned()
            }
        );
        let fields = |result: Result<Draft, Vec<(&'static str, String)>>| {
            result
                .unwrap_err()
                .into_iter()
                .map(|(field, _)| field)
                .collect::<Vec<_>>()
        };
        assert_eq!(fields(checked("", " ")), ["subject", "body"]);
        assert_eq!(fields(checked("a\r\nBcc: x@y.z", "b")), ["subject"]);
        assert_eq!(fields(checked(&"s".repeat(201), "b")), ["subject"]);
        assert_eq!(fields(checked("s", &"é".repeat(10_001))), ["body"]);
        assert!(checked(&"s".repeat(200), &"é".repeat(10_000)).is_ok());
    }
}
