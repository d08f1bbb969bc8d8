//! Requests per second through a stdio MCP server, the path a server runs: newline-delimited
//! JSON-RPC over an in-process pipe (`tokio::io::duplex`), a handler that answers
//! `tools/call` with the text it was given, and one driver that writes the requests
//! (32 in flight at a time, in the member orders real SDK clients write) and reads the
//! answers, the same bytes for both servers:
//!
//! - **ours**: `mcp-spec-session`'s stdio transport and session engine serving
//!   `v2025_11_25::handlers::Server` (each request in a task of its own);
//! - **rmcp**: the official Rust SDK (3.11) serving its `ServerHandler` over the same
//!   pipe (`serve((reader, writer))`).
//!
//! Both shake hands first (`initialize`, `notifications/initialized`, protocol
//! 2025-11-25); each measured round is 1,000 `tools/call` requests on the open connection,
//! on a tokio runtime of two worker threads and on one of a single thread.
//! `cargo bench -p mcp-compare --bench throughput`.

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

const REQUESTS: usize = 1000;
const WINDOW: usize = 32;

/// Our server: the session engine over one end of the pipe.
fn start_ours(io: DuplexStream) {
    use mcp_spec_types::rt::jsonrpc::ErrorObject;
    use mcp_spec_types::rt::service::RequestContext;
    use mcp_spec_types::v2025_11_25 as v;

    struct Echo;
    impl v::handlers::ServerHandler for Echo {
        async fn initialize(
            &self,
            _: v::InitializeRequestParams,
            _: RequestContext<v::handlers::ClientPeer>,
        ) -> Result<v::InitializeResult, ErrorObject> {
            let caps = v::ServerCapabilities {
                tools: Some(Default::default()),
                ..Default::default()
            };
            let info = v::Implementation::new("echo", "1");
            Ok(v::InitializeResult::new("2025-11-25", caps, info))
        }

        async fn call_tool(
            &self,
            p: v::CallToolRequestParams,
            _: RequestContext<v::handlers::ClientPeer>,
        ) -> Result<v::CallToolOutcome, ErrorObject> {
            let text = p.arguments.as_ref().and_then(|a| a.get("text"));
            let text = text.and_then(|t| t.as_str()).unwrap_or_default();
            Ok(v::CallToolResult::text(text).into())
        }
    }

    let (reader, writer) = tokio::io::split(io);
    let server = v::handlers::Server::new(Echo);
    let (_, run) = mcp_spec_session::stdio::connect(reader, writer, server);
    tokio::spawn(run);
}

/// rmcp's server over one end of the pipe.
fn start_rmcp(io: DuplexStream) {
    use rmcp::model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ServerCapabilities,
        ServerConfig,
    };
    use rmcp::service::RequestContext;
    use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

    #[derive(Clone)]
    struct Echo;
    impl ServerHandler for Echo {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }

        async fn call_tool(
            &self,
            p: CallToolRequestParams,
            _: RequestContext<RoleServer>,
        ) -> Result<CallToolResponse, ErrorData> {
            let text = p.arguments.as_ref().and_then(|a| a.get("text"));
            let text = text.and_then(|t| t.as_str()).unwrap_or_default();
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
        }
    }

    let (reader, writer) = tokio::io::split(io);
    tokio::spawn(async move {
        if let Ok(running) = Echo.serve((reader, writer)).await {
            let _ = running.waiting().await;
        }
    });
}

/// The client end of the pipe: writes requests, reads answers.
struct Driver {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    writer: WriteHalf<DuplexStream>,
    next_id: u64,
}

impl Driver {
    async fn connect(start: fn(DuplexStream)) -> Driver {
        let (client, server) = tokio::io::duplex(1 << 16);
        start(server);
        let (reader, writer) = tokio::io::split(client);
        let mut driver = Driver {
            lines: BufReader::new(reader).lines(),
            writer,
            next_id: 1,
        };
        driver
            .send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"driver","version":"1"}}}"#)
            .await;
        let answer = driver.read().await;
        assert!(answer.contains("\"result\""), "initialize: {answer}");
        driver
            .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        driver
    }

    async fn send(&mut self, line: &str) {
        self.writer.write_all(line.as_bytes()).await.unwrap();
        self.writer.write_all(b"\n").await.unwrap();
    }

    async fn read(&mut self) -> String {
        self.lines
            .next_line()
            .await
            .unwrap()
            .expect("the server closed the pipe")
    }

    /// `n` calls, `WINDOW` in flight; every answer is checked to be a result.
    async fn round(&mut self, n: usize) {
        let (mut sent, mut got) = (0, 0);
        while got < n {
            while sent < n && sent - got < WINDOW {
                let id = self.next_id;
                self.next_id += 1;
                // Alternately in the member order of the two SDK clients recorded in
                // tests/data/traffic/: Python's (`jsonrpc`, `id`, `method`, `params`) and
                // TypeScript's (`method`, `params`, `jsonrpc`, `id`).
                let params = r#"{"name":"echo","arguments":{"text":"hello"}}"#;
                let request = if id.is_multiple_of(2) {
                    format!(
                        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#
                    )
                } else {
                    format!(
                        r#"{{"method":"tools/call","params":{params},"jsonrpc":"2.0","id":{id}}}"#
                    )
                };
                self.send(&request).await;
                sent += 1;
            }
            self.writer.flush().await.unwrap();
            let answer = self.read().await;
            assert!(answer.contains(r#""text":"hello""#), "{answer}");
            got += 1;
        }
    }
}

fn throughput(c: &mut Criterion) {
    // Two worker threads (this machine's cores, a server's usual runtime), and one thread
    // (the cost of a request alone, without the scheduler moving tasks between threads).
    let runtimes = [
        (
            "2 threads",
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap(),
        ),
        (
            "1 thread",
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
        ),
    ];
    for (threads, rt) in &runtimes {
        let mut group = c.benchmark_group(format!("stdio tools/call, {threads} (in-process pipe)"));
        group.throughput(Throughput::Elements(REQUESTS as u64));
        group.measurement_time(Duration::from_secs(10));
        for (name, start) in [
            ("ours", start_ours as fn(DuplexStream)),
            ("rmcp", start_rmcp),
        ] {
            let mut driver = rt.block_on(Driver::connect(start));
            group.bench_function(name, |b| {
                b.iter_custom(|iters| {
                    rt.block_on(async {
                        let t = Instant::now();
                        for _ in 0..iters {
                            driver.round(REQUESTS).await;
                        }
                        t.elapsed()
                    })
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, throughput);
criterion_main!(benches);
