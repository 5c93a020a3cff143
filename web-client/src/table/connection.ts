// The table's one WebSocket (protocol v1): says hello with the link's secret, hands every server message
// to ``onMessage``, and reconnects after a drop (500 ms, doubling to 8 s); a refusal (close code 4400 to
// 4499: a bad link) is final.
import { PROTOCOL, socketUrl, type ServerMessage } from "../api";
import type { ClientMessageJson, Hello } from "../generated/client";

export type Status = "connecting" | "open" | "closed" | "refused";

export interface Secrets {
  token: string | null;
  watchKey: string | null;
  hostKey: string | null;
}

export interface Connection {
  /** Send a message now; false (and nothing sent) while the socket is not open. */
  send(message: ClientMessageJson): boolean;
  close(): void;
}

/** The hello message for a link's secrets: a seat token to play, else the watch key; the host key too. */
export function helloFor(secrets: Secrets): Hello {
  // pace: this client shows each finished hand's score and says "ready" when its person closed it, so
  // the table's bots wait for that before playing on.
  const hello: Hello = { type: "hello", protocol: PROTOCOL, pace: true };
  if (secrets.token) hello.token = secrets.token;
  else if (secrets.watchKey) hello.key = secrets.watchKey;
  if (secrets.hostKey) hello.host = secrets.hostKey;
  return hello;
}

export function connect(tableId: string, secrets: Secrets, onMessage: (m: ServerMessage) => void, onStatus: (s: Status) => void): Connection {
  let stopped = false;
  let retry = 500;
  let timer: number | undefined;
  let ws: WebSocket | null = null;
  const open = () => {
    onStatus("connecting");
    const socket = new WebSocket(socketUrl(tableId));
    ws = socket;
    socket.onopen = () => {
      retry = 500;
      socket.send(JSON.stringify(helloFor(secrets)));
    };
    socket.onmessage = (ev: MessageEvent<string>) => onMessage(JSON.parse(ev.data) as ServerMessage);
    socket.onclose = (ev) => {
      if (stopped) return;
      if (ev.code >= 4400 && ev.code < 4500) {
        onStatus("refused");
        return;
      }
      onStatus("closed");
      timer = window.setTimeout(open, retry);
      retry = Math.min(retry * 2, 8000);
    };
  };
  open();
  return {
    send(message) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(message));
      return true;
    },
    close() {
      stopped = true;
      if (timer !== undefined) window.clearTimeout(timer);
      ws?.close();
    },
  };
}
