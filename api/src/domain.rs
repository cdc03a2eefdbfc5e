//! Request values parsed into domain types (parse, don't validate).
//!
//! Each parser returns the field error the form shows, so handlers collect them and answer
//! every invalid field at once.

use crate::error::FieldError;

/// Shortest and longest accepted password, in characters.
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
/// Message when a required field is empty.
pub const REQUIRED: &str = "Please complete this field to continue";
/// Message when the repeated password differs.
pub const PASSWORDS_DIFFER: &str = "Passwords do not match";

/// Longest keyword or negative keyword text Apple Ads accepts, in characters (its
/// `Keyword.text`; longer ones it refuses item by item, after the campaign exists).
pub const KEYWORD_TEXT_MAX: usize = 80;

/// The field message of a keyword text longer than [`KEYWORD_TEXT_MAX`], else None.
pub fn keyword_too_long(text: &str) -> Option<String> {
    (text.chars().count() > KEYWORD_TEXT_MAX)
        .then(|| format!("\"{text}\" is longer than {KEYWORD_TEXT_MAX} characters"))
}

/// Message of an email holding invisible formatting characters.
pub const EMAIL_INVISIBLE: &str = "The email address contains invisible characters";

/// The statuses a request may set: ENABLED, PAUSED, and ACTIVE, which the keyword and ad
/// tables show for an enabled one (spec "Statuses shown").
pub const STATUSES: &[&str] = &["ENABLED", "PAUSED", "ACTIVE"];

/// Entity types the provider's change history knows (`campaigns/changes`' `entityTypes`).
pub const ENTITY_TYPES: &[&str] = &[
    "Campaign",
    "AdGroup",
    "Keyword",
    "NegativeKeyword",
    "Ad",
    "Creative",
];

/// Zero-width and bidirectional-control characters: invisible, so two addresses that look
/// the same could differ by them.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
        | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}')
}

/// A normalised email address: trimmed, Unicode NFKC, then lower-cased, so the composed and
/// decomposed spellings of one address (`josé`) are one account. Addresses holding
/// zero-width or bidirectional-control characters are refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Email, &'static str> {
        use unicode_normalization::UnicodeNormalization;
        let trimmed = raw.trim();
        if trimmed.chars().any(invisible) {
            return Err(EMAIL_INVISIBLE);
        }
        // Lower-casing can decompose (`İ` → `i̇`), so normalise once more after it.
        let value: String = trimmed
            .nfkc()
            .collect::<String>()
            .to_lowercase()
            .nfkc()
            .collect();
        if value.is_empty() {
            return Err(REQUIRED);
        }
        if value.chars().any(invisible) {
            return Err(EMAIL_INVISIBLE);
        }
        let valid = value.len() <= 254
            && !value.chars().any(|c| c.is_whitespace() || c.is_control())
            && match value.split_once('@') {
                Some((local, domain)) => {
                    !local.is_empty()
                        && local.len() <= 64
                        && !domain.contains('@')
                        && domain.contains('.')
                        && !domain.starts_with('.')
                        && !domain.ends_with('.')
                        && !domain.contains("..")
                }
                None => false,
            };
        if valid {
            Ok(Email(value))
        } else {
            Err("Please enter a valid email address")
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A password within the accepted length.
#[derive(Clone)]
pub struct Password(String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(..)")
    }
}

impl Password {
    pub fn parse(raw: &str) -> Result<Password, String> {
        let len = raw.chars().count();
        if len == 0 {
            Err(REQUIRED.into())
        } else if len < PASSWORD_MIN {
            Err(format!(
                "Password must be at least {PASSWORD_MIN} characters"
            ))
        } else if len > PASSWORD_MAX {
            Err(format!(
                "Password must be at most {PASSWORD_MAX} characters"
            ))
        } else {
            Ok(Password(raw.to_string()))
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// An enumerated value exactly as the document spells it — no trimming, no other case — or
/// the field error listing the allowed values. The one rule of every enum a route accepts
/// (`docs/api/input.md`); serde enums answer the same message through the extractor.
pub fn one_of(
    field: &str,
    raw: &str,
    allowed: &[&'static str],
) -> Result<&'static str, FieldError> {
    allowed
        .iter()
        .find(|a| **a == raw)
        .copied()
        .ok_or_else(|| FieldError::new(field, format!("Must be one of: {}", allowed.join(", "))))
}

/// Collects field errors while parsing a request.
#[derive(Debug, Default)]
pub struct Fields {
    pub errors: Vec<FieldError>,
}

impl Fields {
    /// Keeps a parsed value, or records the field's error.
    pub fn check<T, E: ToString>(&mut self, field: &str, parsed: Result<T, E>) -> Option<T> {
        match parsed {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(FieldError::new(field, e.to_string()));
                None
            }
        }
    }

    /// Keeps a value whose parser names its own field, or records its error.
    pub fn keep<T>(&mut self, parsed: Result<T, FieldError>) -> Option<T> {
        parsed.map_err(|e| self.errors.push(e)).ok()
    }

    /// Records an error unless `ok` holds.
    pub fn ensure(&mut self, ok: bool, field: &str, message: &str) {
        if !ok {
            self.errors.push(FieldError::new(field, message));
        }
    }

    /// Checks a new password and its repetition.
    pub fn new_password(&mut self, field: &str, password: &str, repeat: &str) -> Option<Password> {
        let parsed = self.check(field, Password::parse(password));
        if parsed.is_some() {
            self.ensure(password == repeat, "repeatPassword", PASSWORDS_DIFFER);
        }
        parsed
    }

    /// Fails with every collected error, if any.
    pub fn finish(self) -> Result<(), crate::error::ApiError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(crate::error::ApiError::validation(self.errors))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalised_and_checked() {
        assert_eq!(
            Email::parse("  Ann@Example.COM ").unwrap().as_str(),
            "ann@example.com"
        );
        for bad in [
            "", "ann", "ann@", "@x.io", "a@b", "a b@x.io", "a@x..io", "a@@x.io", "a@.x.io",
            "a@x.io.",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?} accepted");
        }
        assert!(Email::parse(&format!("{}@x.io", "a".repeat(65))).is_err());
    }

    #[test]
    fn composed_and_decomposed_spellings_are_one_address() {
        let composed = Email::parse("jos\u{e9}@example.com").unwrap();
        let decomposed = Email::parse("jose\u{301}@example.com").unwrap();
        assert_eq!(composed, decomposed);
        assert_eq!(Email::parse("JOS\u{c9}@EXAMPLE.COM").unwrap(), composed);
        // NFKC folds compatibility forms (full-width letters) too.
        assert_eq!(
            Email::parse("\u{ff41}nn@example.com").unwrap().as_str(),
            "ann@example.com"
        );
    }

    #[test]
    fn zero_width_and_bidi_characters_are_refused() {
        for bad in [
            "ann\u{200b}@example.com",
            "\u{feff}ann@example.com",
            "ann@exa\u{202e}mple.com",
            "ann\u{2066}@example.com",
            "an\u{200d}n@example.com",
        ] {
            assert_eq!(Email::parse(bad), Err(EMAIL_INVISIBLE), "{bad:?}");
        }
    }

    #[test]
    fn normalisation_is_idempotent() {
        for raw in [
            "\u{130}stanbul@x.io",
            "Stra\u{df}e@x.io",
            "\u{212a}elvin@x.io",
            "jose\u{301}@x.io",
        ] {
            let once = Email::parse(raw).unwrap();
            assert_eq!(Email::parse(once.as_str()).unwrap(), once, "{raw:?}");
        }
    }

    #[test]
    fn password_length_is_counted_in_characters() {
        assert!(Password::parse("ééééééé").is_err());
        assert!(Password::parse("éééééééé").is_ok());
        assert!(Password::parse(&"x".repeat(PASSWORD_MAX)).is_ok());
        assert!(Password::parse(&"x".repeat(PASSWORD_MAX + 1)).is_err());
        assert_eq!(
            format!("{:?}", Password::parse("secret-password").unwrap()),
            "Password(..)"
        );
    }

    #[test]
    fn enums_are_taken_exactly_as_documented() {
        assert_eq!(
            one_of("status", "PAUSED", &["ENABLED", "PAUSED"]),
            Ok("PAUSED")
        );
        for lenient in ["paused", " PAUSED", "PAUSED\t", "Paused", ""] {
            assert_eq!(
                one_of("status", lenient, &["ENABLED", "PAUSED"]),
                Err(FieldError::new("status", "Must be one of: ENABLED, PAUSED")),
                "{lenient:?}"
            );
        }
    }

    #[test]
    fn repeated_password_must_match() {
        let mut f = Fields::default();
        assert!(
            f.new_password("password", "long enough", "different")
                .is_some()
        );
        assert_eq!(
            f.errors,
            vec![FieldError::new("repeatPassword", PASSWORDS_DIFFER)]
        );
    }
}
