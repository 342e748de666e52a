//! `dcsim serve`, the room server of a live class, over real WebSockets on
//! loopback: the rules of a room (only the instructor controls it, late
//! joiners get the log, a restarted server gets the room back from the
//! instructor's page), a load test (200 students, 50 actions: every
//! student gets every action, in order; the relay's p99 latency and the
//! server's memory are printed) and a fuzz of 100,000 hostile messages
//! after which the server still relays.

use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The load test and the fuzz run one at a time: the latency printed is the relay's, not the fuzz's.
static HEAVY: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A server on a free loopback port; killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dcsim"))
            .args(["serve", "--port", "0", "--bind", "127.0.0.1", "--dist", "/nonexistent"])
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .expect("dcsim serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port =
            line.split("127.0.0.1:").nth(1).and_then(|s| s.split(' ').next()).and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("no port in {line:?}"));
        Server { child, port }
    }
    async fn client(&self) -> Ws {
        connect_async(format!("ws://127.0.0.1:{}/live", self.port)).await.expect("connects").0
    }
    /// The server's resident memory now and at its peak, kB (Linux /proc).
    fn memory_kb(&self) -> (u64, u64) {
        let s = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let kb = |k: &str| s.lines().find(|l| l.starts_with(k)).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0);
        (kb("VmRSS:"), kb("VmHWM:"))
    }
    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

/// The next JSON message (pings skipped), within 10 s.
async fn recv(ws: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.expect("a message within 10 s").expect("open").expect("no error");
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// The next message of type `ty`, skipping others (presence, ack...).
async fn recv_type(ws: &mut Ws, ty: &str) -> Value {
    loop {
        let v = recv(ws).await;
        if v["type"] == ty {
            return v;
        }
    }
}

/// Creates a room; returns the instructor's socket, the code and the secret.
async fn create(s: &Server) -> (Ws, String, String) {
    let mut ins = s.client().await;
    send(&mut ins, json!({"type": "create"})).await;
    let c = recv_type(&mut ins, "created").await;
    recv_type(&mut ins, "joined").await;
    (ins, c["code"].as_str().unwrap().to_string(), c["secret"].as_str().unwrap().to_string())
}

async fn join(s: &Server, code: &str, name: &str) -> (Ws, Value) {
    let mut st = s.client().await;
    send(&mut st, json!({"type": "join", "code": code, "name": name})).await;
    let j = recv_type(&mut st, "joined").await;
    (st, j)
}

fn action(at_ps: u64, op: Value) -> Value {
    json!({"type": "action", "action": {"at_ps": at_ps, "op": op}})
}

#[tokio::test]
async fn only_the_instructor_controls_the_room_and_votes_reach_the_tally() {
    let s = Server::start(&[]);
    let (mut ins, code, secret) = create(&s).await;
    assert_eq!(code.len(), 6);
    let (mut a, ja) = join(&s, &code, "Ada <b>").await;
    assert_eq!(ja["role"], "student");
    assert!(ja.get("secret").is_none() && !ja.to_string().contains(&secret), "a student saw the secret");
    // A student's control message is refused by the server, and the room goes on.
    send(&mut a, action(0, json!({"kind": "play"}))).await;
    let e = recv_type(&mut a, "error").await;
    assert_eq!(e["code"], "not_instructor", "{e}");
    send(&mut a, json!({"type": "claim", "code": code, "secret": "0".repeat(32)})).await;
    assert_eq!(recv_type(&mut a, "error").await["code"], "wrong_secret");
    send(&mut ins, action(5, json!({"kind": "lesson", "name": "pfabric-vs-dctcp"}))).await;
    assert_eq!(recv_type(&mut ins, "ack").await["seq"], 1);
    let got = recv_type(&mut a, "action").await;
    assert_eq!(got["seq"], 1);
    assert_eq!(got["action"]["op"]["name"], "pfabric-vs-dctcp");
    // Votes: counts on the instructor's page, names only when turned on.
    let (mut b, _) = join(&s, &code, "").await;
    send(&mut a, json!({"type": "vote", "step": 3, "choice": "pfabric"})).await;
    send(&mut b, json!({"type": "vote", "step": 3, "choice": "dctcp"})).await;
    let mut t = recv_type(&mut ins, "tally").await;
    while t["counts"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum::<u64>() < 2 {
        t = recv_type(&mut ins, "tally").await;
    }
    assert_eq!(t["counts"], json!({"dctcp": 1, "pfabric": 1}));
    assert!(t["names"].is_null());
    send(&mut ins, json!({"type": "show_names", "on": true})).await;
    let t = recv_type(&mut ins, "tally").await;
    assert_eq!(t["names"], json!([["", "dctcp"], ["Ada <b>", "pfabric"]]));
    // The instructor cannot vote; a student's what-if reaches the instructor.
    send(&mut ins, json!({"type": "vote", "step": 3, "choice": "x"})).await;
    assert_eq!(recv_type(&mut ins, "error").await["code"], "not_student");
    send(&mut b, json!({"type": "whatif", "branch": {"of": "pfabric", "at_us": 100}, "note": "smaller buffers?"})).await;
    let w = recv_type(&mut ins, "whatif").await;
    assert_eq!(w["branch"]["at_us"], 100);
    // Malformed input: a clear error naming the field, then the room goes on.
    a.send(Message::text("{not json")).await.unwrap();
    assert!(recv_type(&mut a, "error").await["message"].as_str().unwrap().starts_with("message:"));
    send(&mut a, json!({"type": "join", "code": code, "name": "x".repeat(41)})).await;
    assert!(recv_type(&mut a, "error").await["message"].as_str().unwrap().starts_with("name:"));
    send(&mut ins, action(6, json!({"kind": "pause"}))).await;
    assert_eq!(recv_type(&mut a, "action").await["seq"], 2);
}

#[tokio::test]
async fn late_joiners_get_the_log_and_a_restarted_server_gets_the_room_back() {
    let s = Server::start(&[]);
    let (mut ins, code, secret) = create(&s).await;
    let ops =
        [json!({"kind": "lesson", "name": "pfabric-vs-dctcp"}), json!({"kind": "play"}), json!({"kind": "pause"}), json!({"kind": "seek", "t_ps": 1_000_000})];
    for (i, op) in ops.iter().enumerate() {
        send(&mut ins, action(i as u64 * 10, op.clone())).await;
        recv_type(&mut ins, "ack").await;
    }
    send(&mut ins, json!({"type": "state", "t_ps": 1_000_000, "fingerprint": "abc123"})).await;
    send(&mut ins, json!({"type": "ping"})).await;
    recv_type(&mut ins, "pong").await;
    let (mut late, j) = join(&s, &code, "late").await;
    assert_eq!(j["log"].as_array().unwrap().len(), 4);
    assert_eq!(j["log"][3]["op"], ops[3]);
    assert_eq!(j["state"]["fingerprint"], "abc123");
    // The instructor's connection drops: students hear it, and keep the room.
    drop(ins);
    while recv_type(&mut late, "presence").await["instructor"] != false {}
    // The instructor comes back with the secret (a reload).
    let mut ins = s.client().await;
    send(&mut ins, json!({"type": "claim", "code": code, "secret": secret})).await;
    let j = recv_type(&mut ins, "joined").await;
    assert_eq!((j["role"].as_str(), j["log"].as_array().unwrap().len()), (Some("instructor"), 4));
    // A new server (a restart) does not know the room until the instructor's page restores it from its log.
    let s2 = Server::start(&[]);
    let mut st = s2.client().await;
    send(&mut st, json!({"type": "join", "code": code})).await;
    assert_eq!(recv_type(&mut st, "error").await["code"], "no_room");
    let log: Vec<Value> = j["log"].as_array().unwrap().clone();
    let mut ins2 = s2.client().await;
    send(&mut ins2, json!({"type": "create", "restore": {"code": code, "secret": secret, "log": log}})).await;
    assert_eq!(recv_type(&mut ins2, "created").await["code"], code.as_str());
    send(&mut st, json!({"type": "join", "code": code})).await;
    assert_eq!(recv_type(&mut st, "joined").await["log"].as_array().unwrap().len(), 4);
    // Someone else cannot restore over an open room.
    let mut intruder = s2.client().await;
    send(&mut intruder, json!({"type": "create", "restore": {"code": code, "secret": "f".repeat(32), "log": []}})).await;
    assert_eq!(recv_type(&mut intruder, "error").await["code"], "code_taken");
}

#[tokio::test]
async fn limits_capacity_size_and_rate() {
    let s = Server::start(&["--capacity", "2", "--rate", "5"]);
    let (_ins, code, _) = create(&s).await;
    let (_a, _) = join(&s, &code, "a").await;
    let (_b, _) = join(&s, &code, "b").await;
    let mut c = s.client().await;
    send(&mut c, json!({"type": "join", "code": code})).await;
    assert_eq!(recv_type(&mut c, "error").await["code"], "room_full");
    let mut d = s.client().await;
    send(&mut d, json!({"type": "ping", "pad": "x".repeat(70_000)})).await;
    assert_eq!(recv_type(&mut d, "error").await["code"], "too_big");
    // 5 a second, bursts of 10: of 40 pings sent at once, some are refused.
    for _ in 0..40 {
        send(&mut d, json!({"type": "ping"})).await;
    }
    assert_eq!(recv_type(&mut d, "error").await["code"], "rate_limited");
}

/// The load test of issue 38: 200 students in one room, 50 actions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by scripts/test's live step, which prints its numbers (cargo test --release -p dcsim-cli --test serve -- --ignored --nocapture)"]
async fn load_200_students_50_actions_every_one_in_order() {
    const STUDENTS: usize = 200;
    const ACTIONS: u64 = 50;
    let _one_at_a_time = HEAVY.lock().await;
    let t0 = Instant::now();
    let s = Server::start(&[]);
    let (mut ins, code, _) = create(&s).await;
    let mut students = Vec::new();
    for i in 0..STUDENTS {
        students.push(join(&s, &code, &format!("s{i}")).await.0);
    }
    let (rss0, _) = s.memory_kb();
    let start = Instant::now();
    let handles: Vec<_> = students
        .into_iter()
        .map(|mut ws| {
            tokio::spawn(async move {
                let mut got = Vec::new();
                while got.len() < ACTIONS as usize {
                    let v = recv(&mut ws).await;
                    if v["type"] == "action" {
                        got.push((v["seq"].as_u64().unwrap(), v["action"]["op"]["t_ps"].as_u64().unwrap(), start.elapsed()));
                    }
                }
                got
            })
        })
        .collect();
    // The instructor's pace stays within the default rate limit (20 a second, bursts of 40).
    let mut sent_at = Vec::new();
    for k in 1..=ACTIONS {
        sent_at.push(start.elapsed());
        send(&mut ins, action(k, json!({"kind": "seek", "t_ps": k * 1000}))).await;
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let mut lat = Vec::new();
    for h in handles {
        let got = tokio::time::timeout(Duration::from_secs(60), h).await.expect("every student gets every action within 60 s").unwrap();
        for (i, (seq, t, at)) in got.into_iter().enumerate() {
            assert_eq!((seq, t), (i as u64 + 1, (i as u64 + 1) * 1000), "out of order or lost");
            lat.push(at.saturating_sub(sent_at[i]).as_secs_f64() * 1e3);
        }
    }
    lat.sort_by(f64::total_cmp);
    let p = |q: f64| lat[((lat.len() as f64 * q).ceil() as usize).clamp(1, lat.len()) - 1];
    let (rss, hwm) = s.memory_kb();
    println!(
        "serve load: {STUDENTS} students x {ACTIONS} actions = {} deliveries, every one in order; relay latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; server memory {} kB resident ({} kB before the actions), peak {} kB; {:.1} s in all",
        lat.len(),
        p(0.5),
        p(0.99),
        lat[lat.len() - 1],
        rss,
        rss0,
        hwm,
        t0.elapsed().as_secs_f64()
    );
    assert_eq!(lat.len(), STUDENTS * ACTIONS as usize);
}

/// Hostile and malformed messages, made by mutating valid ones: at least 10^5, and the server still relays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by scripts/test's live step, which prints its numbers (cargo test --release -p dcsim-cli --test serve -- --ignored --nocapture)"]
async fn fuzz_100k_messages_never_crash_the_server() {
    const MESSAGES: usize = 100_000;
    let _one_at_a_time = HEAVY.lock().await;
    let mut s = Server::start(&["--rate", "1000000"]);
    let (ins, code, _) = create(&s).await;
    // Claims carry a wrong secret and restores a malformed one (12 upper-case letters, more than
    // the mutations change): a claim that took a seat would (rightly) close the connection it took it from.
    let secret = "0123456789abcdef0123456789abcdef";
    let bad_secret = "0123456789ABCDEF0123456789ABCDEF";
    let seeds: Vec<String> = [
        json!({"type": "create"}),
        json!({"type": "create", "restore": {"code": code, "secret": bad_secret, "log": [{"at_ps": 1, "op": {"kind": "play"}}]}}),
        json!({"type": "join", "code": code, "name": "n"}),
        json!({"type": "claim", "code": code, "secret": secret}),
        action(3, json!({"kind": "load", "settings": {"scenario": {"name": "x"}, "protocols": ["pfabric"]}})),
        action(3, json!({"kind": "speed", "speed": 2e6})),
        action(3, json!({"kind": "step", "what": "rtt"})),
        action(3, json!({"kind": "branch", "branch": {"of": "pfabric"}})),
        json!({"type": "vote", "step": 1, "choice": "pfabric"}),
        json!({"type": "whatif", "branch": {"of": "x"}, "note": "hi"}),
        json!({"type": "tick", "t_ps": 5}),
        json!({"type": "state", "t_ps": 5, "fingerprint": "ab"}),
        json!({"type": "show_names", "on": true}),
        json!({"type": "ping"}),
    ]
    .iter()
    .map(Value::to_string)
    .collect();
    let specials = [
        "",
        "null",
        "[]",
        "{}",
        "\"\"",
        "1e999",
        "{\"type\":null}",
        "{\"type\":\"action\",\"action\":{\"at_ps\":-1,\"op\":{\"kind\":\"play\"}}}",
        "{\"type\":\"action\",\"action\":{\"at_ps\":18446744073709551616,\"op\":{\"kind\":\"play\"}}}",
        "{\"type\":\"vote\",\"step\":4294967296,\"choice\":\"a\"}",
    ];
    let mut rng = StdRng::seed_from_u64(38);
    let make = |rng: &mut StdRng| -> Message {
        let mut b = seeds[rng.random_range(0..seeds.len())].clone().into_bytes();
        match rng.random_range(0..9) {
            0 => return Message::text(specials[rng.random_range(0..specials.len())]),
            1 => return Message::text(format!("{}{}", "[".repeat(rng.random_range(1..5000)), "]".repeat(rng.random_range(0..5000)))),
            2 => return Message::binary((0..rng.random_range(0..200)).map(|_| rng.random::<u8>()).collect::<Vec<_>>()),
            3 => b.truncate(rng.random_range(0..b.len())),
            4 => return Message::text(format!("{{\"type\":\"whatif\",\"branch\":{{\"x\":\"{}\"}}}}", "y".repeat(rng.random_range(60_000..70_000)))),
            _ => {
                for _ in 0..rng.random_range(1..6) {
                    let i = rng.random_range(0..b.len());
                    b[i] = match rng.random_range(0..3) {
                        0 => rng.random::<u8>() & 0x7f,
                        1 => {
                            let punct = b"{}[]\":,0-9eE.\\u";
                            punct[rng.random_range(0..punct.len())]
                        }
                        _ => b'x',
                    };
                }
            }
        }
        Message::text(String::from_utf8_lossy(&b).into_owned())
    };
    // Eight connections, each sending its share without waiting and draining what comes back.
    // The server drops a connection whose replies pile up unread (its outbox full) or whose
    // seat another took: the sender then reconnects and goes on, so every message is sent.
    let t0 = Instant::now();
    let port = s.port;
    let mut tasks = Vec::new();
    for w in 0..8 {
        let msgs: Vec<Message> = (0..MESSAGES / 8).map(|_| make(&mut rng)).collect();
        let code = code.clone();
        tasks.push(tokio::spawn(async move {
            let (mut sent, mut replies, mut reconnects) = (0, 0u64, 0);
            while sent < msgs.len() {
                let mut ws = connect_async(format!("ws://127.0.0.1:{port}/live")).await.expect("the server accepts connections").0;
                if w % 2 == 0 {
                    send(&mut ws, json!({"type": "join", "code": code, "name": format!("fuzz{w}")})).await;
                }
                let (mut tx, mut rx) = ws.split();
                let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                let finished = done.clone();
                // Reads every reply until the sending is over and the server has been quiet for 2 s.
                let reader = tokio::spawn(async move {
                    let mut n = 0u64;
                    loop {
                        match tokio::time::timeout(Duration::from_secs(2), rx.next()).await {
                            Ok(Some(Ok(_))) => n += 1,
                            Ok(_) => break,
                            Err(_) if finished.load(std::sync::atomic::Ordering::SeqCst) => break,
                            Err(_) => {}
                        }
                    }
                    n
                });
                while sent < msgs.len() {
                    if tx.send(msgs[sent].clone()).await.is_err() {
                        break;
                    }
                    sent += 1;
                }
                done.store(true, std::sync::atomic::Ordering::SeqCst);
                replies += reader.await.unwrap();
                reconnects += usize::from(sent < msgs.len());
            }
            (sent, replies, reconnects)
        }));
    }
    let (mut sent, mut replies, mut reconnects) = (0, 0, 0);
    for t in tasks {
        let (a, b, c) = t.await.unwrap();
        sent += a;
        replies += b;
        reconnects += c;
    }
    drop(ins);
    assert!(s.alive(), "the server died under the fuzz");
    let (rss, hwm) = s.memory_kb();
    println!(
        "serve fuzz: {sent} messages sent on 8 connections ({reconnects} reconnections after the server dropped one), {replies} replies, in {:.1} s; the server is up ({rss} kB resident, peak {hwm} kB)",
        t0.elapsed().as_secs_f64()
    );
    assert_eq!(sent, MESSAGES);
    // The server still relays: a new room, a student, an action.
    let (mut ins, code, _) = create(&s).await;
    let (mut st, _) = join(&s, &code, "after").await;
    send(&mut ins, action(1, json!({"kind": "play"}))).await;
    assert_eq!(recv_type(&mut st, "action").await["seq"], 1);
}
