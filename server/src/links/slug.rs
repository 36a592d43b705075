//! A link's slug: the company slugified (at most 24 of `a-z`, `0-9` and `-`; `link` when nothing
//! is left), a dash, and 16 base64url characters from a CSPRNG (96 bits), so that no address can
//! be guessed from another or from the company's name.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The longest company part of a slug.
pub const MAX_PREFIX_CHARS: usize = 24;
/// The longest slug the API takes (the beacon's, the contact form's, `?via=`).
pub const MAX_SLUG_CHARS: usize = 64;

/// `Acme Corp.` → `acme-corp`; letters with accents lose them where they decompose simply
/// (`Zürich` → `zurich`), anything else becomes a dash, runs of dashes one.
pub fn slugify(company: &str) -> String {
    let mut slug = String::new();
    for c in company.chars().flat_map(char::to_lowercase) {
        let c = fold(c);
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= MAX_PREFIX_CHARS {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        "link".to_owned()
    } else {
        slug.to_owned()
    }
}

/// The plain letter of a common accented Latin letter; any other character as it is.
fn fold(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'ď' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' => 'i',
        'ł' => 'l',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => 'o',
        'ř' => 'r',
        'ś' | 'š' | 'ş' => 's',
        'ť' | 'ţ' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        'ß' => 's',
        other => other,
    }
}

/// A new slug for a link to `company`: its slug, a dash and 96 random bits.
pub fn new_slug(company: &str) -> String {
    let bytes: [u8; 12] = rand::random();
    format!("{}-{}", slugify(company), URL_SAFE_NO_PAD.encode(bytes))
}

/// Whether `text` could be a slug this server made: 1 to 64 of `A-Z`, `a-z`, `0-9`, `-`, `_`.
pub fn is_well_formed(text: &str) -> bool {
    (1..=MAX_SLUG_CHARS).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn companies_become_short_plain_prefixes() {
        assert_eq!(slugify("Acme"), "acme");
        assert_eq!(slugify("  Acme Corp. & Sons  "), "acme-corp-sons");
        assert_eq!(slugify("Zürich Versicherung"), "zurich-versicherung");
        assert_eq!(slugify("株式会社"), "link");
        assert_eq!(slugify("---"), "link");
        let long = slugify("The Extremely Long Company Name Incorporated");
        assert!(long.len() <= MAX_PREFIX_CHARS, "{long}");
        assert!(!long.ends_with('-'));
        assert!(long
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
    }

    #[test]
    fn a_new_slug_carries_96_random_bits() {
        let a = new_slug("Acme");
        let b = new_slug("Acme");
        assert_ne!(a, b);
        let token = a.strip_prefix("acme-").unwrap();
        assert_eq!(token.len(), 16);
        assert!(is_well_formed(&a));
        assert!(new_slug(&"x".repeat(100)).len() <= MAX_PREFIX_CHARS + 17);
    }

    #[test]
    fn only_slug_characters_are_well_formed() {
        assert!(is_well_formed("acme-AbC_123-xyz"));
        for bad in ["", "a b", "a/b", "a.b", "é", &"a".repeat(65)] {
            assert!(!is_well_formed(bad), "{bad}");
        }
    }
}
