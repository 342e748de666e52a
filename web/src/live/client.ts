// The page's connection to the room server (`dcsim serve`): one WebSocket,
// reopened after a drop (a server restart, a laptop that slept) with a
// growing pause, and the page's seat taken again on every open (`hello`).

import type { ClientMsg, ServerMsg } from './protocol';

/** The room server's address: the page's own host, path /live (`dcsim serve` serves both; `vite` proxies it in development). */
export function liveUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/live`;
}

/** Pauses before reconnecting, ms: doubling from 250 ms up to 4 s. */
export function backoffMs(attempt: number): number {
  return Math.min(4000, 250 * 2 ** Math.min(attempt, 4));
}

/** A connection that reopens itself until closed. */
export class LiveConnection {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pinger: ReturnType<typeof setInterval> | undefined;

  /**
   * `hello` is sent on every open (create, join or claim); `onMessage`
   * hears every message; `onOpen(false)` is called when the connection
   * drops (it is being reopened), `onOpen(true)` when it is open.
   */
  constructor(
    private url: string,
    private hello: () => ClientMsg,
    private onMessage: (m: ServerMsg) => void,
    private onOpen: (open: boolean) => void,
  ) {
    this.open();
  }

  private open() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.onOpen(true);
      this.send(this.hello());
    };
    ws.onmessage = (e) => {
      if (typeof e.data !== 'string') return;
      try {
        this.onMessage(JSON.parse(e.data) as ServerMsg);
      } catch {
        /* the server sends JSON; anything else is ignored */
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.onOpen(false);
      this.timer = setTimeout(() => this.open(), backoffMs(this.attempt++));
    };
    // A quiet connection is kept open through proxies and wakes up a dead one.
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ type: 'ping' }), 20_000);
  }

  /** True while the socket is open. */
  get isOpen(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Sends `m` if the socket is open (false otherwise: the room catches this page up on its return). */
  send(m: ClientMsg): boolean {
    if (!this.isOpen) return false;
    this.ws!.send(JSON.stringify(m));
    return true;
  }

  /** Sends a message as it is, valid or not (the e2e test checks the server refuses what a page should not send). */
  sendRaw(text: string) {
    if (this.isOpen) this.ws!.send(text);
  }

  /** Reopens the connection now, as after a drop (`hello` is sent again). */
  reopen() {
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.open();
  }

  /** Closes for good. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    this.ws?.close();
    this.ws = null;
  }
}
