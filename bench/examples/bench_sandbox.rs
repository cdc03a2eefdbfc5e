//! `cargo run --release -p searchdeck-bench --example bench_sandbox`: the same benchmark as
//! `searchdeck bench sandbox`, built without the API and the binary.

use clap::Parser;

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    bench: searchdeck_bench::sandbox::SandboxBenchArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    searchdeck_bench::sandbox::run(Args::parse().bench).await
}
