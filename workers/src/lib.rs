//! The worker role: runs the jobs registered in the job catalogue.
