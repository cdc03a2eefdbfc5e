//! The stages of one report and how long each took ([`Stages`]), which `run_staged`
//! returns and the benchmarks print.

use std::time::{Duration, Instant};

/// How long each stage of one report took, in order (a stage named twice adds up).
#[derive(Debug, Clone)]
pub struct Stages {
    last: Instant,
    pub marks: Vec<(&'static str, Duration)>,
}

impl Default for Stages {
    fn default() -> Self {
        Stages {
            last: Instant::now(),
            marks: Vec::new(),
        }
    }
}

impl Stages {
    /// Ends stage `name` now (it began where the previous one ended).
    pub fn mark(&mut self, name: &'static str) {
        let now = Instant::now();
        let took = now - self.last;
        self.last = now;
        match self.marks.iter_mut().find(|(n, _)| *n == name) {
            Some((_, d)) => *d += took,
            None => self.marks.push((name, took)),
        }
    }
}
