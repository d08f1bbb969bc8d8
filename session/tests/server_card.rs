//! The experimental Server Card (SEP-2127) published by the HTTP server where its
//! discovery document reserves for it: `GET <endpoint>/server-card`, as
//! `application/mcp-server-card+json`. The card is an official valid instance.

use mcp_spec_session::Versions;
use mcp_spec_session::http::HttpServer;
use mcp_spec_types::ext::server_card::ServerCard;
use serde_json::Value;

const CARD: &str =
    include_str!("../../schema/ext/server-card/examples/ServerCard/valid/minimal.json");

async fn start(card: Option<&ServerCard>) -> String {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut server = HttpServer::new(Versions::new);
    if let Some(card) = card {
        server = server.server_card(card).unwrap();
    }
    tokio::spawn(server.serve(listener));
    format!("http://127.0.0.1:{port}/mcp")
}

async fn get(url: &str, headers: &[(&str, &str)]) -> (u16, Option<String>, String) {
    let mut request = reqwest::Client::new().get(url);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    (status, kind, response.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_is_served_where_discovery_says() {
    let card: ServerCard = mcp_spec_types::rt::strict::from_str(CARD).unwrap();
    let url = start(Some(&card)).await;
    let at = format!("{url}/server-card");
    let (status, kind, body) = get(&at, &[("accept", "application/mcp-server-card+json")]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(kind.as_deref(), Some("application/mcp-server-card+json"));
    let served: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(served, serde_json::from_str::<Value>(CARD).unwrap());
    // Plain JSON, or no Accept at all, is served too; HTML is not.
    assert_eq!(get(&at, &[("accept", "application/json")]).await.0, 200);
    assert_eq!(get(&at, &[]).await.0, 200);
    assert_eq!(get(&at, &[("accept", "text/html")]).await.0, 406);
    // The Host check of every request holds here too.
    let (status, ..) = get(&at, &[("host", "evil.example")]).await;
    assert_eq!(status, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_card_there_is_none() {
    let url = start(None).await;
    assert_eq!(get(&format!("{url}/server-card"), &[]).await.0, 404);
}
