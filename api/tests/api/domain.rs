//! Property tests of the request parsers: every input is accepted or refused with a form
//! message (never a panic), and what is accepted holds the type's promises.

use proptest::prelude::*;
use searchdeck_api::domain::{Email, PASSWORD_MAX, PASSWORD_MIN, Password};

proptest! {
    #[test]
    fn any_string_parses_or_gets_a_message(raw in "\\PC{0,80}") {
        match Email::parse(&raw) {
            Ok(email) => {
                let s = email.as_str();
                prop_assert_eq!(s, s.trim());
                prop_assert_eq!(s.to_lowercase(), s);
                prop_assert_eq!(s.matches('@').count(), 1);
                prop_assert!(!s.chars().any(char::is_whitespace));
            }
            Err(message) => prop_assert!(!message.is_empty()),
        }
    }

    #[test]
    fn addresses_of_the_usual_shape_are_accepted_and_normalised(
        local in "[a-zA-Z0-9._%+-]{1,30}",
        host in "[a-zA-Z0-9-]{1,20}",
        tld in "[a-zA-Z]{2,6}",
        pad in " {0,3}",
    ) {
        let raw = format!("{pad}{local}@{host}.{tld}{pad}");
        let email = Email::parse(&raw).unwrap();
        prop_assert_eq!(email.as_str(), format!("{local}@{host}.{tld}").to_lowercase());
        // Parsing is idempotent.
        prop_assert_eq!(Email::parse(email.as_str()).unwrap(), email);
    }

    #[test]
    fn passwords_are_judged_by_their_length_in_characters(raw in "\\PC{0,140}") {
        let len = raw.chars().count();
        let ok = Password::parse(&raw).is_ok();
        prop_assert_eq!(ok, (PASSWORD_MIN..=PASSWORD_MAX).contains(&len));
        if ok {
            let password = Password::parse(&raw).unwrap();
            prop_assert_eq!(password.expose(), raw.as_str());
        }
    }
}
