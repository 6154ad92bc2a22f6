//! Which groups of a file apply to a robot: the groups that name it, else
//! the `*` groups; in the legacy dialects only the first record of either
//! kind (1996 draft 3.2.1; the 1994 text allows one per robot).
//!
//! [`Selector`] is the one rule, told the groups in file order. The
//! matcher's build asks it about a parsed file ([`select_groups`]); the
//! one-shot check asks it group by group as it reads the body, and keeps
//! only the rules of the groups it says count.

use crate::agent;
use crate::dialect::Dialect;
use crate::robots::{Group, Robots};
use crate::work;

/// The choice of groups for one robot, made in file order: told where each
/// group starts and what its agents are, it says whether the open group's
/// rules count, as a group that names the robot or as a `*` group.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Selector<'n> {
    dialect: Dialect,
    /// The robot's name as the dialect compares it ([`agent::caller_name`]);
    /// `None` for no robot, which only `*` groups concern.
    name: Option<&'n str>,
    /// The open group's number (from 1; 0 before the first).
    group: u32,
    /// Whether one of the open group's agents names the robot, and
    /// whether one is `*`.
    named: bool,
    star: bool,
    /// The first group that names the robot, and the first `*` group: in
    /// the legacy dialects only those count (the first matching record
    /// wins), in the others every group that names the robot counts, or,
    /// when none does, every `*` group.
    first_named: Option<u32>,
    first_star: Option<u32>,
}

impl<'n> Selector<'n> {
    pub(crate) fn new(dialect: Dialect, name: Option<&'n str>) -> Selector<'n> {
        Selector {
            dialect,
            name,
            group: 0,
            named: false,
            star: false,
            first_named: None,
            first_star: None,
        }
    }

    /// A group starts.
    #[inline]
    pub(crate) fn group(&mut self) {
        self.group += 1;
        self.named = false;
        self.star = false;
    }

    /// One agent value of the open group (one word of it in the legacy
    /// dialects), as written.
    #[inline]
    pub(crate) fn agent(&mut self, value: &[u8]) {
        if agent::is_global(self.dialect, value) {
            self.every_robot();
        } else if !self.named
            && self
                .name
                .is_some_and(|name| agent::names(self.dialect, value, name))
        {
            self.named = true;
            self.first_named.get_or_insert(self.group);
        }
    }

    /// The open group names `*`: [`Selector::agent`] for a value already
    /// known to be `*`.
    #[inline]
    pub(crate) fn every_robot(&mut self) {
        self.star = true;
        self.first_star.get_or_insert(self.group);
    }

    /// Whether the open group's rules count for the robot, as its agents
    /// so far say: as a group that names it, as a `*` group. Once a group
    /// names the robot, no `*` group counts.
    #[inline]
    pub(crate) fn counts(&self) -> (bool, bool) {
        let legacy = self.dialect.is_legacy();
        let named = self.named && (!legacy || self.first_named == Some(self.group));
        let star = self.star
            && self.first_named.is_none()
            && (!legacy || self.first_star == Some(self.group));
        (named, star)
    }

    /// Whether a group so far names the robot: then the groups that count
    /// are those that name it, and no `*` group.
    #[inline]
    pub(crate) fn names_robot(&self) -> bool {
        self.first_named.is_some()
    }
}

/// The groups chosen for a robot, by index into [`Robots::groups`], and
/// whether they name it (rather than being the `*` groups).
pub(crate) struct Selected {
    pub(crate) indices: Vec<usize>,
    pub(crate) specific: bool,
}

/// The groups of the first of `agents` that the file names, else the `*`
/// groups; an empty list names no group.
pub(crate) fn select_first_of(robots: &Robots, agents: &[&str]) -> Selected {
    let mut star = None;
    for &agent in agents {
        let selected = select_groups(robots, Some(agent::caller_name(robots.dialect, agent)));
        if selected.specific {
            return selected;
        }
        // Every agent the file does not name gets the same `*` groups.
        star.get_or_insert(selected);
    }
    star.unwrap_or_else(|| select_groups(robots, None))
}

/// The groups whose rules apply to the robot `name`, per dialect; with no
/// name, the `*` groups.
///
/// One pass over the agents: files that shut out hundreds of robots by
/// name, a group each, are common, and for every robot they do not name
/// the `*` group is the answer.
pub(crate) fn select_groups(robots: &Robots, name: Option<&str>) -> Selected {
    let mut selector = Selector::new(robots.dialect, name);
    let mut named = Vec::new();
    let mut star = Vec::new();
    for (i, g) in robots.groups.iter().enumerate() {
        work::add(1);
        selector.group();
        for &span in &robots.agents[g.agents.0 as usize..g.agents.1 as usize] {
            work::add(1);
            selector.agent(robots.bytes(span));
        }
        match selector.counts() {
            (true, _) => {
                named.push(i);
                if robots.dialect.is_legacy() {
                    // No later group counts: the first matching record wins.
                    break;
                }
            }
            (false, true) => star.push(i),
            (false, false) => {}
        }
    }
    if selector.names_robot() {
        Selected {
            indices: named,
            specific: true,
        }
    } else {
        Selected {
            indices: star,
            specific: false,
        }
    }
}

impl Robots {
    /// The groups whose rules apply to `agent`, read as [`Robots::matcher`]
    /// reads it: the groups that name the robot, else the `*` groups (in
    /// the legacy dialects, only the first record of either kind). Empty
    /// when none applies, and the robot may then fetch anything.
    ///
    /// ```
    /// let body = b"User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nDisallow: /foo\n";
    /// let robots = norobots::Robots::parse(body);
    /// let lines: Vec<usize> = robots.groups_for("FooBot/1.0").iter().map(|g| g.line()).collect();
    /// assert_eq!(lines, [4]);
    /// assert_eq!(robots.groups_for("BarBot")[0].line(), 1);
    /// ```
    pub fn groups_for(&self, agent: &str) -> Vec<Group<'_>> {
        let name = agent::caller_name(self.dialect, agent);
        select_groups(self, Some(name))
            .indices
            .into_iter()
            .map(|i| self.group(i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::select_groups;
    use crate::dialect::Dialect;
    use crate::parse::ParseOptions;
    use crate::robots::Robots;

    fn lines(d: Dialect, body: &str, name: Option<&str>) -> (Vec<usize>, bool) {
        let robots = Robots::parse_with(body.as_bytes(), &ParseOptions::new(d));
        let selected = select_groups(&robots, name);
        let lines = selected
            .indices
            .iter()
            .map(|&i| robots.groups[i].line as usize)
            .collect();
        (lines, selected.specific)
    }

    // RFC 9309 2.2.1 merges every group that names the robot, and every `*`
    // group when none does; the 1996 draft (3.2.1) takes the first record
    // of either kind. A group naming the robot and `*` counts as naming it.
    #[test]
    fn named_groups_else_star_groups_merged_or_first() {
        let body = "User-agent: *\nDisallow: /1\n\n\
                    User-agent: other\nUser-agent: *\nDisallow: /4\n\n\
                    User-agent: bot\nDisallow: /8\n\n\
                    User-agent: *\nUser-agent: bot\nDisallow: /12\n";
        for d in Dialect::ALL {
            let (named, star) = if d.is_legacy() {
                (vec![8], vec![1])
            } else {
                (vec![8, 11], vec![1, 4, 11])
            };
            assert_eq!(lines(d, body, Some("bot")), (named, true), "{d}");
            assert_eq!(lines(d, body, Some("nobody")), (star.clone(), false), "{d}");
            assert_eq!(lines(d, body, None), (star, false), "{d}");
        }
    }

    // A file that names no robot and has no `*` group concerns nobody.
    #[test]
    fn no_group_applies_to_a_robot_the_file_does_not_know() {
        for d in Dialect::ALL {
            let body = "User-agent: other\nDisallow: /\n";
            assert_eq!(lines(d, body, Some("bot")), (vec![], false), "{d}");
            assert_eq!(lines(d, "", Some("bot")), (vec![], false), "{d}");
        }
    }
}
