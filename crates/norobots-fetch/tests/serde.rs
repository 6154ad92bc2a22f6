//! The `serde` feature: the result types as JSON, in the shapes the crate
//! docs describe. Run with `cargo test -p norobots-fetch --features serde`.
#![cfg(feature = "serde")]

use std::time::{Duration, SystemTime};

use norobots::RuleKind;
use norobots_fetch::{
    Decision, Failure, Origin, Outcome, Policy, Reason, RedirectProblem, RobotsCache,
};
use serde_json::{json, to_value};

#[test]
fn decisions_name_the_rule_or_the_outcome() {
    let rule = Decision::Disallow(Reason::Rule {
        line: 2,
        kind: RuleKind::Disallow,
        pattern: "/x".into(),
        group_line: 1,
    });
    assert_eq!(
        to_value(&rule).unwrap(),
        json!({"disallow": {"rule": {"line": 2, "kind": "Disallow", "pattern": "/x", "group_line": 1}}})
    );
    assert_eq!(
        to_value(Decision::Allow(Reason::NoRule)).unwrap(),
        json!({"allow": "no-rule"})
    );
    let whole = Decision::Allow(Reason::Fetch(Outcome::Redirect(RedirectProblem::TooMany(
        6,
    ))));
    assert_eq!(
        to_value(&whole).unwrap(),
        json!({"allow": {"fetch": {"redirect": {"too-many": 6}}}})
    );
    let until = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777);
    let later = Decision::Defer {
        until,
        outcome: Outcome::Failure(Failure::Status(503)),
    };
    assert_eq!(
        to_value(&later).unwrap(),
        json!({"defer": {
            "until": {"secs_since_epoch": 784_111_777, "nanos_since_epoch": 0},
            "outcome": {"failure": {"status": 503}}
        }})
    );
}

#[test]
fn a_transport_failure_is_its_cause() {
    let error = reqwest::Client::new().get("no url").build().unwrap_err();
    let cause = norobots_fetch::cause(&error);
    let failure = Failure::Connect(std::sync::Arc::new(error));
    assert_eq!(to_value(&failure).unwrap(), json!({"connect": cause}));
    assert_eq!(to_value(Failure::Timeout).unwrap(), json!("timeout"));
}

#[test]
fn policies_and_metrics_serialize() {
    assert_eq!(
        to_value(Policy::DisallowAll).unwrap(),
        json!("disallow-all")
    );
    let cache = RobotsCache::new(Default::default()).unwrap();
    cache.insert(
        &Origin::of("http://a.test").unwrap(),
        404,
        Default::default(),
        b"",
    );
    let m = to_value(cache.metrics()).unwrap();
    assert_eq!(m["entries"], json!(1));
    assert_eq!(m["failures"][0], json!(["5xx", 0]));
}
