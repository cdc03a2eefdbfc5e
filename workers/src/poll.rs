//! How an idle worker keeps asking the queue for jobs.
//!
//! apalis' own `IntervalStrategy` wakes the worker once after its interval and then never
//! again by itself: when its delay fires it puts a fresh one in place without polling it, so
//! no timer is armed until something else (the worker's heartbeat) polls the backend. An
//! idle worker therefore looked for new jobs on its heartbeat only — enqueue-to-start was
//! 2–5 s on every backend with the production heartbeat of 5 s. [`EveryInterval`] re-arms
//! its timer each time it fires.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};

use apalis_core::backend::ext::poll_strategy::{PollSnapshot, PollStrategy};
use tokio::time::{Instant, Sleep};

/// Wakes the worker every `every`, whether or not a job came in between.
#[derive(Debug)]
pub(crate) struct EveryInterval {
    every: Duration,
    sleep: Pin<Box<Sleep>>,
}

impl EveryInterval {
    pub(crate) fn new(every: Duration) -> EveryInterval {
        EveryInterval {
            every,
            sleep: Box::pin(tokio::time::sleep(every)),
        }
    }
}

impl PollStrategy for EveryInterval {
    fn poll_drive(&mut self, cx: &mut Context<'_>, _: &PollSnapshot) -> Poll<Option<()>> {
        let mut fired = false;
        // Re-armed and polled again until it is pending, so that its waker is registered
        // for the next interval.
        while self.sleep.as_mut().poll(cx).is_ready() {
            let next = Instant::now() + self.every;
            self.sleep.as_mut().reset(next);
            fired = true;
        }
        if fired {
            Poll::Ready(Some(()))
        } else {
            Poll::Pending
        }
    }
}
