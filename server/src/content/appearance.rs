//! How the page looks: its colour scheme, its accent colour, which sections show and whether the
//! hero says the owner is available.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// An accent colour: `#` and six hexadecimal digits.
pub const ACCENT_PATTERN: &str = "^#[0-9a-fA-F]{6}$";

/// The page's accent today: Tailwind v4's blue-600, `oklch(0.546 0.245 262.881)`.
pub const DEFAULT_ACCENT: &str = "#155dfc";

/// How the page looks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Appearance {
    /// The colour scheme a visitor sees until they choose one: `dark` (today's page), `light`, or `system` (the visitor's system setting).
    pub scheme: Scheme,
    /// The accent colour, `#rrggbb`: primary buttons, links, the active item, focus rings.
    #[schemars(regex(pattern = ACCENT_PATTERN))]
    pub accent: String,
    /// Which sections of the page show.
    pub sections: Sections,
    /// Whether the hero shows the "Available for new projects" badge.
    pub available: bool,
}

impl Default for Appearance {
    /// Today's page: dark, blue, every section, available.
    fn default() -> Self {
        Self {
            scheme: Scheme::Dark,
            accent: DEFAULT_ACCENT.to_owned(),
            sections: Sections::default(),
            available: true,
        }
    }
}

/// A colour scheme: `dark`, `light`, or `system` (the visitor's system setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    #[default]
    Dark,
    Light,
    System,
}

/// Which sections of the page show (the hero always does); the navigation follows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sections {
    /// Whether the About section shows.
    pub about: bool,
    /// Whether the Skills section shows.
    pub skills: bool,
    /// Whether the Projects section shows.
    pub projects: bool,
    /// Whether the Experience section (work and education) shows.
    pub experience: bool,
    /// Whether the Contact section shows.
    pub contact: bool,
}

impl Default for Sections {
    fn default() -> Self {
        Self {
            about: true,
            skills: true,
            projects: true,
            experience: true,
            contact: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appearance_defaults_to_todays_page() {
        let appearance = Appearance::default();
        assert_eq!(appearance.scheme, Scheme::Dark);
        assert_eq!(appearance.accent, "#155dfc");
        assert!(appearance.available);
        assert_eq!(appearance.sections, Sections::default());
        assert!(appearance.sections.about && appearance.sections.contact);
        let json = serde_json::to_value(&appearance).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "scheme": "dark",
                "accent": "#155dfc",
                "sections": {"about": true, "skills": true, "projects": true, "experience": true, "contact": true},
                "available": true,
            })
        );
    }
}
