//! The activity log (docs/api/activity.md; docs/product.md#2-activity-log,
//! docs/product.md#3-notification, docs/product.md#7-the-calls-it-makes `accountsActions`): the
//! notifications of every change made in Searchdeck or outside it, newest first with the screen's
//! filters, counts per tag and the caller's unread count; one notification's changes entity by
//! entity; read state per member (by ids, or all); and the undo of a notification (job
//! `undo-notification`). Members read and mark; editors undo. Notification ids are resolved within
//! the caller's workspace.

mod changes;
mod list;
mod marks;
mod query;
mod undo;

use utoipa_axum::router::OpenApiRouter;

use crate::{route, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(list::list))
        .routes(route!(changes::changes))
        .routes(route!(marks::mark))
        .routes(route!(marks::mark_all))
        .routes(route!(undo::undo))
}

/// Fields a notification's undo can set back (an added keyword or negative keyword is
/// deleted).
pub const UNDOABLE_FIELDS: &[&str] = &[
    "status",
    "cptBid",
    "defaultBidAmount",
    "dailyBudget",
    "cpaGoal",
    "name",
    "created",
];
