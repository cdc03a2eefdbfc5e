//! `undo-notification`: the undo of one notification of the activity log
//! (docs/api/activity.md, POST /api/accountsActions/{id}/undo).

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of `undo-notification`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UndoNotification {
    pub workspace_id: String,
    /// The notification to undo.
    pub notification_id: String,
    /// Who asked: the undo's notification names them.
    #[serde(default)]
    pub user_id: Option<String>,
    #[serde(default)]
    pub user_email: Option<String>,
}

impl Job for UndoNotification {
    const KIND: &'static str = "undo-notification";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = UndoProgress;

    fn unique_key(&self) -> Option<String> {
        Some(format!("undo-notification:{}", self.notification_id))
    }
}

/// An entity the undo left as it is, and why ("Changed since", a refusal).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UndoSkipped {
    pub level: String,
    #[serde(with = "crate::ids::string_id")]
    #[schema(value_type = String)]
    pub entity_id: i64,
    pub entity_name: String,
    pub field: String,
    pub message: String,
}

/// Progress and result: the undo's notification and what it restored.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UndoProgress {
    /// The undo's own notification, once written.
    pub undo_id: Option<String>,
    pub restored: u64,
    pub skipped: u64,
    pub refused: u64,
    /// The entities left as they are (skipped or refused).
    pub left: Vec<UndoSkipped>,
}
