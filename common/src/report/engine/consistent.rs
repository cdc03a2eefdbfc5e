//! A consistent read of the day blobs: a report reads again when a refresh swept blobs it
//! read, at most [`READ_ATTEMPTS`] times, then answers 503 `Changing`.

use crate::{
    Db,
    report::{Cancel, ReportError},
    store::report_facts::Snapshot,
};

/// How many times a report is read when refreshes keep sweeping the day blobs it reads.
const READ_ATTEMPTS: usize = 4;

/// Runs `read` with a new [`Snapshot`] of the day blobs until everything it read held
/// (store::report_facts, "Generations"): in practice once, twice when a report ran across
/// a whole refresh of the blobs it read.
pub(super) async fn consistent<T, F, Fut>(
    db: &Db,
    cancel: &Cancel,
    mut read: F,
) -> Result<T, ReportError>
where
    F: FnMut(std::sync::Arc<Snapshot>) -> Fut,
    Fut: std::future::Future<Output = Result<T, ReportError>>,
{
    for _ in 0..READ_ATTEMPTS {
        let facts = std::sync::Arc::new(Snapshot::new());
        let out = read(facts.clone()).await?;
        if facts.holds(db).await? {
            return Ok(out);
        }
        cancel.check()?;
        tracing::debug!(target: "searchdeck_common::report::engine", "day blobs swept during a report: reading it again");
    }
    Err(ReportError::Changing)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use time::macros::date;

    use super::*;
    use crate::store::report_facts::{self, FactLevel};
    use crate::test_support::{MigratedDb, connected_org};

    /// A read of the keyword blobs during which `refreshes` refreshes of them run.
    async fn read_across(
        db: &Db,
        org_key: i64,
        facts: Arc<Snapshot>,
        refreshes: usize,
    ) -> Result<(), ReportError> {
        facts.generation(db, org_key, FactLevel::Keyword).await?;
        for _ in 0..refreshes {
            report_facts::refresh(db, org_key, FactLevel::Keyword, date!(2026 - 01 - 01)).await?;
        }
        Ok(())
    }

    /// Runs [`consistent`] over reads the n-th of which (from 1) spans `refreshes(n)`
    /// refreshes of the keyword blobs; its answer and how many reads it made.
    async fn reads_across(
        db: &Db,
        org_key: i64,
        cancel: &Cancel,
        refreshes: impl Fn(usize) -> usize,
    ) -> (Result<(), ReportError>, usize) {
        let mut reads = 0;
        let out = consistent(db, cancel, |facts| {
            reads += 1;
            read_across(db, org_key, facts, refreshes(reads))
        })
        .await;
        (out, reads)
    }

    /// A read that one refresh overlaps still holds (the refresh deleted only blobs older
    /// than the read's generation); one across two refreshes (the second deletes what the
    /// first replaced) is read again; when every read spans two, the report gives up with
    /// `Changing` (503) after [`READ_ATTEMPTS`] reads.
    #[tokio::test]
    async fn reads_spanning_a_sweep_are_repeated_then_answer_changing() {
        let m = MigratedDb::sqlite().await;
        let db = &m.db;
        let (_, _, org_key) = connected_org(db, "ann@example.com").await;
        let cancel = Cancel::new();

        let (out, reads) = reads_across(db, org_key, &cancel, |_| 1).await;
        out.unwrap();
        assert_eq!(
            reads, 1,
            "one refresh during a read sweeps nothing it reads"
        );

        let (out, reads) = reads_across(db, org_key, &cancel, |n| if n == 1 { 2 } else { 0 }).await;
        out.unwrap();
        assert_eq!(reads, 2, "a read across a sweep is read again, once");

        let (out, reads) = reads_across(db, org_key, &cancel, |_| 2).await;
        assert!(matches!(out, Err(ReportError::Changing)), "{out:?}");
        assert_eq!(reads, READ_ATTEMPTS);

        // A report asked to stop between reads stops rather than read again.
        cancel.cancel();
        let (out, reads) = reads_across(db, org_key, &cancel, |_| 2).await;
        assert!(matches!(out, Err(ReportError::Cancelled)), "{out:?}");
        assert_eq!(reads, 1);
    }
}
