//! Values that change over simulated time: a bid or a status keeps its history so past
//! days' metrics stay as they were when a write changes the value from the next day on.

use time::Date;

/// A value with the day each setting took effect, oldest first. Never empty.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timeline<T: Copy> {
    changes: Vec<(Date, T)>,
}

impl<T: Copy> Timeline<T> {
    /// A value in effect since `since` (and, for lookups before that, too).
    pub fn new(since: Date, value: T) -> Self {
        Self {
            changes: vec![(since, value)],
        }
    }

    /// The value in effect on `day`.
    pub fn at(&self, day: Date) -> T {
        self.changes
            .iter()
            .rev()
            .find(|(from, _)| *from <= day)
            .unwrap_or(&self.changes[0])
            .1
    }

    /// The latest value (what the API shows).
    pub fn current(&self) -> T {
        self.changes[self.changes.len() - 1].1
    }

    /// Sets `value` from `from` on, replacing any change scheduled on or after that day.
    pub fn set(&mut self, from: Date, value: T) {
        self.changes.retain(|(d, _)| *d < from);
        self.changes.push((from, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn lookups_follow_changes() {
        let mut t = Timeline::new(date!(2025 - 01 - 01), 1);
        t.set(date!(2025 - 02 - 01), 2);
        t.set(date!(2025 - 03 - 01), 3);
        t.set(date!(2025 - 03 - 01), 4);
        assert_eq!(t.at(date!(2024 - 12 - 01)), 1);
        assert_eq!(t.at(date!(2025 - 01 - 31)), 1);
        assert_eq!(t.at(date!(2025 - 02 - 01)), 2);
        assert_eq!(t.at(date!(2025 - 03 - 05)), 4);
        assert_eq!(t.current(), 4);
    }
}
