//! `cargo run --release -p searchdeck-sandbox --features bench --example bench_sandbox`: the
//! same benchmark as `searchdeck bench sandbox`, built without the rest of the workspace.

use clap::Parser;

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    bench: searchdeck_sandbox::bench::SandboxBenchArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    searchdeck_sandbox::bench::run(Args::parse().bench).await
}
