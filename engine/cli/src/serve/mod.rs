//! `dcsim serve`: the room server of a live class (issue 38), and the
//! built app beside it, from one binary.
//!
//! The instructor's page creates a room; students' pages join it by its
//! code; the instructor's actions travel to every student's page, which
//! replays them on its own engine (the engine is deterministic, so a few
//! bytes per click keep a class of 300 on the same run). The messages are
//! in `protocol.rs`, the rooms and their rules in `room.rs`.
//!
//! Built on axum (its WebSocket support is tokio-tungstenite) and tokio:
//! the command line is already Rust, so the server is one more subcommand
//! of the same binary, which also serves the built app (`dist/`) with
//! tower-http, with no Node.js on a department server and no internet.
//! Nothing is written to disk: rooms live in memory and expire.

mod protocol;
mod room;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use protocol::{Refusal, MAX_MESSAGE_BYTES};
use room::{Conn, Hub, Limits};
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};
use tower_http::services::{ServeDir, ServeFile};

/// Options of `dcsim serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on: 0.0.0.0 for students on the same network, 127.0.0.1 for this machine only.
    #[arg(long, default_value = "0.0.0.0")]
    bind: IpAddr,
    /// The built app to serve beside the rooms (`npm run build` writes dist/); rooms only when it is missing.
    #[arg(long, default_value = "dist")]
    dist: PathBuf,
    /// Most rooms open at once.
    #[arg(long, default_value_t = 100)]
    max_rooms: usize,
    /// Most students in one room.
    #[arg(long, default_value_t = 300)]
    capacity: usize,
    /// Most connections at once (rooms' members and pages not yet in a room).
    #[arg(long, default_value_t = 4000)]
    max_connections: usize,
    /// A room nobody is connected to is removed after this many minutes.
    #[arg(long, default_value_t = 30)]
    idle_minutes: u64,
    /// A room is removed this many hours after it was created.
    #[arg(long, default_value_t = 12)]
    max_hours: u64,
    /// Messages a connection may send per second on average (bursts of twice as many pass).
    #[arg(long, default_value_t = 20.0)]
    rate: f64,
}

/// Messages queued for one page before it is dropped as too slow (it
/// catches up from the log on its return). What others make the server
/// send a page is small (an action is at most MAX_MESSAGE_BYTES and only
/// the instructor sends those; a what-if at most MAX_WHATIF_BYTES), so a
/// page that stops reading holds at most a few megabytes.
const OUTBOX: usize = 1024;
/// Messages over the rate limit a connection may send before it is closed.
const MAX_OVER_RATE: u32 = 1000;

struct Server {
    hub: Mutex<Hub>,
    next_id: AtomicU64,
    connections: AtomicUsize,
    max_connections: usize,
    rate: f64,
}

/// Runs the server until Ctrl-C.
pub fn main(a: ServeArgs) -> Result<(), String> {
    if a.capacity == 0 || a.max_rooms == 0 || a.max_connections == 0 {
        return Err("--capacity, --max-rooms and --max-connections: must be at least 1".into());
    }
    if !(a.rate.is_finite() && a.rate > 0.0) {
        return Err(format!("--rate: {} is not a positive number of messages per second", a.rate));
    }
    let limits = Limits {
        max_rooms: a.max_rooms,
        capacity: a.capacity,
        idle_expiry: Duration::from_secs(a.idle_minutes * 60),
        max_age: Duration::from_secs(a.max_hours * 3600),
        ..Limits::default()
    };
    let server = Arc::new(Server {
        hub: Mutex::new(Hub::new(limits)),
        next_id: AtomicU64::new(1),
        connections: AtomicUsize::new(0),
        max_connections: a.max_connections,
        rate: a.rate,
    });
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async move {
        let mut app = Router::new().route("/live", get(upgrade)).with_state(server.clone());
        let has_app = a.dist.join("index.html").is_file();
        if has_app {
            app = app.fallback_service(ServeDir::new(&a.dist).fallback(ServeFile::new(a.dist.join("index.html"))));
        }
        let listener = tokio::net::TcpListener::bind((a.bind, a.port)).await.map_err(|e| format!("--bind {} --port {}: cannot listen: {e}", a.bind, a.port))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        println!("serve: listening on {addr} (rooms at /live{})", if has_app { format!(", the app from {}", a.dist.display()) } else { String::new() });
        tokio::spawn(reap(server.clone()));
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| e.to_string())
    })
}

/// Removes expired rooms once a minute.
async fn reap(server: Arc<Server>) {
    let mut every = tokio::time::interval(Duration::from_secs(60));
    loop {
        every.tick().await;
        server.hub.lock().unwrap().expire(Instant::now());
    }
}

async fn upgrade(ws: WebSocketUpgrade, State(server): State<Arc<Server>>) -> Response {
    // The library's own limit is above ours, so an oversized message
    // reaches the hub and gets a clear `too_big` error instead of a closed socket.
    ws.max_message_size(4 * MAX_MESSAGE_BYTES).on_upgrade(move |socket| connection(socket, server))
}

/// A token bucket: `rate` messages per second, bursts of twice as many.
struct Bucket {
    tokens: f64,
    at: Instant,
    over: u32,
}

impl Bucket {
    fn take(&mut self, rate: f64) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * rate).min(2.0 * rate);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            self.over += 1;
            false
        }
    }
}

/// One page's connection: reads its messages into the hub, writes its outbox.
async fn connection(socket: WebSocket, server: Arc<Server>) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel(OUTBOX);
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m)).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut conn = Conn { id: server.next_id.fetch_add(1, Ordering::Relaxed), tx, close: Arc::new(Notify::new()), seat: None };
    if server.connections.fetch_add(1, Ordering::SeqCst) >= server.max_connections {
        server
            .hub
            .lock()
            .unwrap()
            .reply_error(&conn, Refusal::new("server_full", format!("the server holds its limit of {} connections", server.max_connections)));
    } else {
        let mut bucket = Bucket { tokens: 2.0 * server.rate, at: Instant::now(), over: 0 };
        let close = conn.close.clone();
        loop {
            let m = tokio::select! {
                m = stream.next() => m,
                _ = close.notified() => break,
            };
            let text = match m {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(Message::Binary(_))) => {
                    server.hub.lock().unwrap().reply_error(&conn, Refusal::new("bad_message", "message: binary frames are not accepted; send JSON text"));
                    continue;
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            };
            if !bucket.take(server.rate) {
                if bucket.over >= MAX_OVER_RATE {
                    break;
                }
                // One refusal per second of flooding, not one per message.
                if bucket.over % (server.rate.ceil() as u32).max(1) == 1 {
                    server.hub.lock().unwrap().reply_error(
                        &conn,
                        Refusal::new("rate_limited", format!("message: more than {} messages a second; this one was dropped", server.rate)),
                    );
                }
                continue;
            }
            server.hub.lock().unwrap().handle(&mut conn, text.as_str());
        }
        server.hub.lock().unwrap().leave(&mut conn);
    }
    server.connections.fetch_sub(1, Ordering::SeqCst);
    drop(conn);
    let _ = writer.await;
}
