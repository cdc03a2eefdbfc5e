//! A worker process for the queue's crash and shutdown tests (feature `test-jobs`).
//!
//! Reads `QUEUE_URL`, `DATABASE_URL` and the `SEARCHDECK_QUEUE_*` settings from the
//! environment, runs until SIGTERM or SIGINT, and prints `ready` once the queue is up.

use searchdeck_common::{Config, ConfigArgs, Db, queue::Queue};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(
            std::env::var("RUST_LOG").unwrap_or_else(|_| "info".into()),
        ))
        .with_writer(std::io::stderr)
        .init();
    let config: Config = config_from_env()?;
    let db = Db::connect(&config).await?;
    let queue = Queue::connect(&config).await?;
    println!("ready");
    let shutdown = async {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("SIGTERM handler");
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        tracing::info!("shutdown signal received");
    };
    searchdeck_workers::run_with(&config, db, queue, shutdown).await?;
    tracing::info!("worker process exiting");
    Ok(())
}

fn config_from_env() -> anyhow::Result<Config> {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: ConfigArgs,
    }
    Ok(Cli::parse_from(["searchdeck-test-worker"])
        .config
        .resolve()?)
}
