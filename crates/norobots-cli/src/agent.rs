//! What `check` tells the user about how their `--agent` is read: the
//! dialect compares only part of it with `User-agent` lines, and a
//! surprise there (a full header read as `Mozilla`, `Googlebot/2.1` that
//! the google dialect cannot match) silently selects the `*` groups.

use norobots::{is_product_token, robot_token, Dialect};

/// One line for stderr about how `agent` is read in `dialect`, when there
/// is something to say: a `warning:` when the agent can match only `*`
/// groups, a `note:` when the dialect compares less than what was typed.
pub fn note(dialect: Dialect, agent: &str) -> Option<String> {
    if agent.trim().is_empty() {
        return Some(
            "warning: the agent is empty: it matches no named group, only `*` groups".into(),
        );
    }
    let name = dialect.robot_name(agent);
    match dialect {
        Dialect::Google if !is_product_token(agent) => {
            let token = robot_token(agent);
            let instead = if token.is_empty() {
                String::new()
            } else {
                format!("; pass `{token}` to match its groups")
            };
            Some(format!(
                "warning: `{agent}` is not a product token the google dialect can match \
                 (as the reference library, it matches only letters, `-` and `_`), \
                 so it gets only `*` groups{instead}"
            ))
        }
        Dialect::Google => None,
        _ if name.is_empty() => Some(format!(
            "warning: `{agent}` does not start with a product token (letters, `-`, `_`): \
             it matches only `*` groups"
        )),
        _ if name == agent => None,
        Dialect::Rfc9309 => Some(format!(
            "note: matching User-agent lines against the product token `{name}`"
        )),
        _ => Some(format!(
            "note: {dialect} matches `{name}` (the name before the first `/` or space) \
             as a substring of User-agent lines"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_header_names_the_token_that_is_matched() {
        let ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        assert_eq!(
            note(Dialect::Rfc9309, ua).unwrap(),
            "note: matching User-agent lines against the product token `Googlebot`"
        );
        assert_eq!(note(Dialect::Rfc9309, "Googlebot"), None);
        assert!(note(Dialect::Draft1996, "FigTree/0.1 Robot")
            .unwrap()
            .contains("`FigTree`"));
    }

    #[test]
    fn google_warns_of_an_agent_it_cannot_match_and_names_the_token() {
        let n = note(Dialect::Google, "Googlebot/2.1").unwrap();
        assert!(
            n.starts_with("warning: `Googlebot/2.1` is not a product token"),
            "{n}"
        );
        assert!(n.ends_with("pass `Googlebot` to match its groups"), "{n}");
        assert_eq!(note(Dialect::Google, "Googlebot-Image"), None);
    }

    #[test]
    fn an_empty_or_tokenless_agent_matches_only_star_groups() {
        for d in Dialect::ALL {
            assert!(note(d, "").unwrap().contains("only `*` groups"), "{d}");
        }
        assert!(note(Dialect::Rfc9309, "42bot")
            .unwrap()
            .contains("only `*` groups"));
    }
}
