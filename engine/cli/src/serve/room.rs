//! The rooms of `dcsim serve`: who is in each, its action log, its votes,
//! and the rules of who may say what. The sockets are in `mod.rs`; every
//! message a connection sends arrives here as [`Hub::handle`] under one
//! lock, and what it causes is queued on the members' outboxes (never
//! awaited: a member whose outbox is full is dropped, and its page catches
//! up from the log when it reconnects).

use super::protocol::{check_code, clean_name, Action, ClientMsg, Refusal, Restore, Role, ServerMsg, StateReport, CODE_ALPHABET, CODE_LEN};
use axum::extract::ws::Utf8Bytes;
use rand::Rng;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};

/// The limits of a server (`dcsim serve` options).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most rooms at once.
    pub max_rooms: usize,
    /// Most students in one room.
    pub capacity: usize,
    /// Most actions in one room's log.
    pub max_log: usize,
    /// A room nobody is connected to is removed after this long.
    pub idle_expiry: Duration,
    /// A room is removed this long after it was created, whoever is in it.
    pub max_age: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_rooms: 100, capacity: 300, max_log: 10_000, idle_expiry: Duration::from_secs(30 * 60), max_age: Duration::from_secs(12 * 3600) }
    }
}

/// One connection as the hub sees it: its outbox and how to close it.
pub struct Conn {
    /// Unique for the server's lifetime.
    pub id: u64,
    /// Messages to this connection's page.
    pub tx: mpsc::Sender<Utf8Bytes>,
    /// Notified to close the connection (a full outbox, a newer claim of the instructor's seat).
    pub close: Arc<Notify>,
    /// The room and role, once created, joined or claimed.
    pub seat: Option<(String, Role)>,
}

struct Member {
    tx: mpsc::Sender<Utf8Bytes>,
    close: Arc<Notify>,
    name: String,
    role: Role,
}

struct Room {
    secret: String,
    log: Vec<Action>,
    members: HashMap<u64, Member>,
    instructor: Option<u64>,
    /// Votes by predict step, then by member (the latest vote of a member counts).
    votes: BTreeMap<u32, HashMap<u64, String>>,
    show_names: bool,
    state: Option<StateReport>,
    created: Instant,
    empty_since: Option<Instant>,
}

impl Room {
    fn new(secret: String, log: Vec<Action>) -> Self {
        Room {
            secret,
            log,
            members: HashMap::new(),
            instructor: None,
            votes: BTreeMap::new(),
            show_names: false,
            state: None,
            created: Instant::now(),
            empty_since: None,
        }
    }
    fn students(&self) -> usize {
        self.members.values().filter(|m| m.role == Role::Student).count()
    }
}

/// All rooms of a server.
pub struct Hub {
    rooms: HashMap<String, Room>,
    limits: Limits,
}

/// Serializes a message once (every member gets the same bytes).
fn encode(m: &ServerMsg) -> Utf8Bytes {
    Utf8Bytes::from(serde_json::to_string(m).expect("server messages serialize"))
}

/// Queues `m` on an outbox; false when it is full or closed.
fn put(tx: &mpsc::Sender<Utf8Bytes>, m: Utf8Bytes) -> bool {
    tx.try_send(m).is_ok()
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Hub {
    /// An empty hub with these limits.
    pub fn new(limits: Limits) -> Self {
        Hub { rooms: HashMap::new(), limits }
    }

    /// Handles one text frame from `conn`; a refusal is sent back as an `error` message.
    pub fn handle(&mut self, conn: &mut Conn, text: &str) {
        let r = ClientMsg::parse(text).and_then(|m| self.apply(conn, m));
        if let Err(e) = r {
            self.reply_error(conn, e);
        }
    }

    /// Sends a refusal to `conn`.
    pub fn reply_error(&mut self, conn: &Conn, e: Refusal) {
        put(&conn.tx, encode(&ServerMsg::Error { code: e.code, message: e.message }));
    }

    fn apply(&mut self, conn: &mut Conn, m: ClientMsg) -> Result<(), Refusal> {
        match m {
            ClientMsg::Ping => {
                put(&conn.tx, encode(&ServerMsg::Pong));
                Ok(())
            }
            ClientMsg::Create { restore } => self.create(conn, restore),
            ClientMsg::Join { code, name } => self.join(conn, code, name),
            ClientMsg::Claim { code, secret } => {
                let room = self.rooms.get(&code).ok_or_else(|| no_room(&code))?;
                if !same_secret(&room.secret, &secret) {
                    return Err(Refusal::new("wrong_secret", "secret: not this room's control secret"));
                }
                self.seat(conn, code, Role::Instructor, String::new())
            }
            ClientMsg::Action { action } => {
                let max_log = self.limits.max_log;
                let (code, room) = self.instructor_room(conn, "action")?;
                if room.log.len() >= max_log {
                    return Err(Refusal::new("log_full", format!("action: the room's log holds its limit of {max_log} actions; start a new room")));
                }
                room.log.push(action);
                let seq = room.log.len() as u64;
                let msg = encode(&ServerMsg::Action { seq, action: room.log.last().unwrap() });
                put(&conn.tx, encode(&ServerMsg::Ack { seq }));
                self.broadcast(&code, Some(conn.id), msg);
                Ok(())
            }
            ClientMsg::Tick { t_ps } => {
                let (code, _) = self.instructor_room(conn, "tick")?;
                self.broadcast(&code, Some(conn.id), encode(&ServerMsg::Tick { t_ps }));
                Ok(())
            }
            ClientMsg::State { t_ps, fingerprint } => {
                let (code, room) = self.instructor_room(conn, "state")?;
                let s = StateReport { t_ps, fingerprint };
                let msg = encode(&ServerMsg::State(&s));
                room.state = Some(s);
                self.broadcast(&code, Some(conn.id), msg);
                Ok(())
            }
            ClientMsg::ShowNames { on } => {
                let (_, room) = self.instructor_room(conn, "show_names")?;
                room.show_names = on;
                let steps: Vec<u32> = room.votes.keys().copied().collect();
                for s in steps {
                    self.send_tally(&conn.seat.as_ref().unwrap().0.clone(), s);
                }
                Ok(())
            }
            ClientMsg::Vote { step, choice } => {
                let code = self.student_room(conn, "vote")?;
                let room = self.rooms.get_mut(&code).unwrap();
                room.votes.entry(step).or_default().insert(conn.id, choice);
                self.send_tally(&code, step);
                Ok(())
            }
            ClientMsg::Whatif { branch, note } => {
                let code = self.student_room(conn, "whatif")?;
                let room = &self.rooms[&code];
                let from = room.members.get(&conn.id).map(|m| m.name.as_str()).unwrap_or("");
                let Some(ins) = room.instructor.and_then(|i| room.members.get(&i)) else {
                    return Err(Refusal::new("no_instructor", "whatif: the instructor is not connected; send it again when they are back"));
                };
                put(&ins.tx, encode(&ServerMsg::Whatif { from, branch: &branch, note: note.as_deref() }));
                Ok(())
            }
        }
    }

    fn create(&mut self, conn: &mut Conn, restore: Option<Restore>) -> Result<(), Refusal> {
        if conn.seat.is_some() {
            return Err(Refusal::new("already_seated", "create: this connection is already in a room"));
        }
        let (code, secret, log) = match restore {
            Some(r) => {
                if let Some(room) = self.rooms.get(&r.code) {
                    // The room is still here (only this page's connection dropped): a claim.
                    if !same_secret(&room.secret, &r.secret) {
                        return Err(Refusal::new("code_taken", format!("restore.code: room {} is open with another secret", r.code)));
                    }
                    return self.seat(conn, r.code, Role::Instructor, String::new());
                }
                if r.log.len() > self.limits.max_log {
                    return Err(Refusal::new("log_full", format!("restore.log: {} actions, more than the {} a room holds", r.log.len(), self.limits.max_log)));
                }
                (r.code, r.secret, r.log)
            }
            None => {
                let mut rng = rand::rng();
                let code = loop {
                    let c: String = (0..CODE_LEN).map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char).collect();
                    if !self.rooms.contains_key(&c) {
                        break c;
                    }
                };
                let secret: String = (0..16).map(|_| format!("{:02x}", rng.random::<u8>())).collect();
                (code, secret, Vec::new())
            }
        };
        if self.rooms.len() >= self.limits.max_rooms {
            return Err(Refusal::new("server_full", format!("create: the server holds its limit of {} rooms", self.limits.max_rooms)));
        }
        put(&conn.tx, encode(&ServerMsg::Created { code: &code, secret: &secret }));
        self.rooms.insert(code.clone(), Room::new(secret, log));
        self.seat(conn, code, Role::Instructor, String::new())
    }

    fn join(&mut self, conn: &mut Conn, code: String, name: Option<String>) -> Result<(), Refusal> {
        let name = name.as_deref().map(clean_name).transpose()?.unwrap_or_default();
        let room = self.rooms.get(&code).ok_or_else(|| no_room(&code))?;
        let rejoin = conn.seat.as_ref().is_some_and(|(c, r)| *c == code && *r == Role::Student);
        if !rejoin && room.students() >= self.limits.capacity {
            return Err(Refusal::new("room_full", format!("join: room {code} holds its limit of {} students", self.limits.capacity)));
        }
        self.seat(conn, code, Role::Student, name)
    }

    /// Puts `conn` in room `code` (leaving any room it was in) and sends it the room so far.
    fn seat(&mut self, conn: &mut Conn, code: String, role: Role, name: String) -> Result<(), Refusal> {
        self.leave(conn);
        let room = self.rooms.get_mut(&code).ok_or_else(|| no_room(&code))?;
        if role == Role::Instructor {
            // A newer claim (a reload) takes the seat; the older connection is closed.
            if let Some(old) = room.instructor.and_then(|i| room.members.remove(&i)) {
                old.close.notify_one();
            }
            room.instructor = Some(conn.id);
        }
        room.members.insert(conn.id, Member { tx: conn.tx.clone(), close: conn.close.clone(), name, role });
        room.empty_since = None;
        conn.seat = Some((code.clone(), role));
        let joined = encode(&ServerMsg::Joined {
            role,
            code: &code,
            log: &room.log,
            instructor: room.instructor.is_some(),
            students: room.students(),
            state: room.state.as_ref(),
        });
        put(&conn.tx, joined);
        if role == Role::Instructor {
            let steps: Vec<u32> = room.votes.keys().copied().collect();
            for s in steps {
                self.send_tally(&code, s);
            }
        }
        self.presence(&code);
        Ok(())
    }

    /// Takes `conn` out of its room (a closed connection, or a move to another room).
    pub fn leave(&mut self, conn: &mut Conn) {
        let Some((code, _)) = conn.seat.take() else { return };
        let Some(room) = self.rooms.get_mut(&code) else { return };
        if room.members.remove(&conn.id).is_none() {
            return;
        }
        if room.instructor == Some(conn.id) {
            room.instructor = None;
        }
        if room.members.is_empty() {
            room.empty_since = Some(Instant::now());
        }
        self.presence(&code);
    }

    /// The room of `conn` when it is the instructor's connection; else the refusal the server gives.
    fn instructor_room(&mut self, conn: &Conn, what: &str) -> Result<(String, &mut Room), Refusal> {
        match &conn.seat {
            Some((code, Role::Instructor)) => match self.rooms.get_mut(code) {
                Some(room) if room.instructor == Some(conn.id) => Ok((code.clone(), room)),
                _ => Err(Refusal::new("not_instructor", format!("{what}: this connection no longer holds the room's control"))),
            },
            Some((_, Role::Student)) => Err(Refusal::new("not_instructor", format!("{what}: only the instructor controls the room"))),
            None => Err(Refusal::new("not_in_room", format!("{what}: join or create a room first"))),
        }
    }

    fn student_room(&self, conn: &Conn, what: &str) -> Result<String, Refusal> {
        match &conn.seat {
            Some((code, Role::Student)) if self.rooms.contains_key(code) => Ok(code.clone()),
            Some((_, Role::Instructor)) => Err(Refusal::new("not_student", format!("{what}: only students do this"))),
            _ => Err(Refusal::new("not_in_room", format!("{what}: join a room first"))),
        }
    }

    /// Sends `msg` to every member of room `code` but `except`; drops members whose outbox is full.
    fn broadcast(&mut self, code: &str, except: Option<u64>, msg: Utf8Bytes) {
        let Some(room) = self.rooms.get_mut(code) else { return };
        let mut full = Vec::new();
        for (id, m) in &room.members {
            if Some(*id) != except && !put(&m.tx, msg.clone()) {
                full.push(*id);
            }
        }
        for id in full {
            if let Some(m) = room.members.remove(&id) {
                m.close.notify_one();
            }
            if room.instructor == Some(id) {
                room.instructor = None;
            }
        }
    }

    fn presence(&mut self, code: &str) {
        let Some(room) = self.rooms.get(code) else { return };
        let msg = encode(&ServerMsg::Presence { instructor: room.instructor.is_some(), students: room.students() });
        self.broadcast(code, None, msg);
    }

    fn send_tally(&mut self, code: &str, step: u32) {
        let Some(room) = self.rooms.get(code) else { return };
        let Some(ins) = room.instructor.and_then(|i| room.members.get(&i)) else { return };
        let votes = room.votes.get(&step);
        let mut counts = BTreeMap::new();
        for c in votes.into_iter().flat_map(|v| v.values()) {
            *counts.entry(c.as_str()).or_insert(0) += 1;
        }
        let names = room.show_names.then(|| {
            let mut n: Vec<(&str, &str)> =
                votes.into_iter().flat_map(|v| v.iter()).map(|(id, c)| (room.members.get(id).map(|m| m.name.as_str()).unwrap_or(""), c.as_str())).collect();
            n.sort();
            n
        });
        put(&ins.tx, encode(&ServerMsg::Tally { step, counts, names }));
    }

    /// Removes rooms empty for longer than the idle expiry or older than the
    /// maximum age (their members are disconnected); returns how many.
    pub fn expire(&mut self, now: Instant) -> usize {
        let before = self.rooms.len();
        let l = &self.limits;
        self.rooms.retain(|_, r| {
            let keep = now.duration_since(r.created) < l.max_age && r.empty_since.is_none_or(|t| now.duration_since(t) < l.idle_expiry);
            if !keep {
                for m in r.members.values() {
                    m.close.notify_one();
                }
            }
            keep
        });
        before - self.rooms.len()
    }
}

fn no_room(code: &str) -> Refusal {
    debug_assert!(check_code(code).is_ok());
    Refusal::new("no_room", format!("code: no room {code} is open (it may have expired, or the server restarted: the instructor's page brings it back)"))
}
