//! The activity log's stores, one family (contract `docs/api/activity.md`): the log's items
//! ([`notifications`]), the field changes each holds ([`changes`], also what the undo and
//! the rules' "ours" test read) and the cursor of Apple's change history that the sync
//! reads changes made outside Searchdeck with ([`change_history`]).

pub mod change_history;
pub mod changes;
pub mod notifications;
